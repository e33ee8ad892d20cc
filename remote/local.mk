# Running on SUTs over OpenSSH: wultfw -H (the controller and one SUT's
# run), fetch, scan -H and deploy -H passed through, hosts.
noinst_LTLIBRARIES += remote/libwfw_remote.la
remote_libwfw_remote_la_SOURCES = remote/remote.h remote/remote_ctl.c \
	remote/remote_fetch.c remote/remote_hosts.c remote/remote_passthru.c \
	remote/remote_run.c remote/remote_ssh.c
remote_libwfw_remote_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
remote_libwfw_remote_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
remote_libwfw_remote_la_LIBADD = core/libwfw_core.la lib/sysstate/libwfw_sysstate.la -lpthread
