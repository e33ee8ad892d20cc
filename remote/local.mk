# Running on SUTs over OpenSSH: wultfw -H (the controller and one SUT's
# run), fetch, scan -H and deploy -H passed through, hosts; setting a SUT
# up (deploy: the kernel modules built and installed).
noinst_LTLIBRARIES += remote/libwfw_remote.la
remote_libwfw_remote_la_SOURCES = remote/remote.h remote/remote_ctl.c \
	remote/remote_fetch.c remote/remote_hosts.c remote/remote_hostfile.c remote/remote_hostname.c remote/remote_passthru.c \
	remote/remote_run.c remote/remote_script.c remote/remote_ssh.c remote/remote_untar.c remote/remote_deploy.c remote/deploy.h \
	remote/inventory.h remote/inventory.c remote/inventory_finish.c remote/inventory_vars.c \
	remote/inventory_ini.c remote/inventory_yaml.c remote/inventory_pattern.c \
	remote/inventory_index.c remote/inventory_index.h
remote_libwfw_remote_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS) $(YAML_CFLAGS)
remote_libwfw_remote_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
remote_libwfw_remote_la_LIBADD = core/libwfw_core.la lib/sysstate/libwfw_sysstate.la $(YAML_LIBS) -lpthread
# Through a variable, so automake still writes the object's own rule.
remote_deploy_lo = remote/libwfw_remote_la-remote_deploy.lo
$(remote_deploy_lo): kmod_table.h
# A hostile SUT's archive and bad host names, through a stand-in for ssh.
EXTRA_DIST += tests/integration/test_fetch_hostile.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_fetch_hostile.sh
endif
# Ansible inventories, host patterns and host files, hostile ones too.
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_inventory
TESTS += tests/unit/test_inventory
tests_unit_test_inventory_SOURCES = tests/unit/test_inventory.c
tests_unit_test_inventory_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_inventory_LDADD = $(CORE_TEST_LIBS)
endif
# -H @FILE and -i inventories through the binary (--check), and one run
# over a loopback sshd reached through an inventory's variables.
EXTRA_DIST += tests/integration/test_inventory.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_inventory.sh
endif
# The loopback sshd SUTs of the remote tests and bench_remote.sh.
EXTRA_DIST += tests/integration/sshd_lib.sh
# A lab: six SUTs of a YAML inventory in two groups, one down, one made
# worse by lab_hog; one group, then all, then the fleet table and page.
check_PROGRAMS += tests/integration/lab_hog
tests_integration_lab_hog_SOURCES = tests/integration/lab_hog.c
EXTRA_DIST += tests/integration/test_lab.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_lab.sh
endif
