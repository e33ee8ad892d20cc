# hrt source: eBPF (tp_btf/cpu_idle + bpf_timer). Built only when configure
# found clang, bpftool, libbpf and the kernel's BTF (HAVE_HRT).
EXTRA_DIST += plugins/hrt/hrt.bpf.c plugins/hrt/hrt_event.h tests/hrt/hrt-test.sh \
	plugins/hrt/hrt_pmu.c plugins/hrt/hrt_pmu.h plugins/hrt/hrt_health.c plugins/hrt/hrt_health.h
if HAVE_HRT
pkglib_LTLIBRARIES += plugins/hrt/hrt.la
PRELOAD_PLUGINS += -dlpreopen plugins/hrt/hrt.la
plugins_hrt_hrt_la_SOURCES = plugins/hrt/hrt.c plugins/hrt/hrt_opts.c \
	plugins/hrt/hrt_opts.h plugins/hrt/hrt_event.h plugins/hrt/hrt_pmu.c \
	plugins/hrt/hrt_pmu.h plugins/hrt/hrt_health.c plugins/hrt/hrt_health.h
nodist_plugins_hrt_hrt_la_SOURCES = plugins/hrt/hrt.skel.h
plugins_hrt_hrt_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/plugins/hrt \
	-I$(top_srcdir)/plugins/hrt $(LIBBPF_CFLAGS)
plugins_hrt_hrt_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_hrt_hrt_la_LIBADD = lib/kside/libwfw_kside.la \
	lib/sysstate/libwfw_sysstate.la $(LIBBPF_LIBS)

# vmlinux.h from the build machine's BTF, then the BPF object, then the
# skeleton that embeds it (CO-RE: relocated to the running kernel at load).
plugins/hrt/vmlinux.h:
	$(AM_V_GEN)$(MKDIR_P) plugins/hrt && \
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@
# The eBPF objects' BTF names their source files: relative to the tree, so
# the installed plugins (the Debian package) hold no build path (attrib's too).
BPF_PREFIX_MAP = -ffile-prefix-map=$(abs_top_builddir)=. \
	-ffile-prefix-map=$(abs_top_srcdir)=.
plugins/hrt/hrt.bpf.o: plugins/hrt/hrt.bpf.c plugins/hrt/hrt_event.h plugins/hrt/vmlinux.h \
	include/wultfw/ldist.h
	$(AM_V_GEN)$(CLANG) -g -O2 -Wall -Werror -target bpf $(BPF_PREFIX_MAP) \
	-D__TARGET_ARCH_$(BPF_ARCH) -I$(top_builddir)/plugins/hrt \
	-I$(top_srcdir)/plugins/hrt -I$(top_srcdir)/include $(LIBBPF_CFLAGS) \
	-c $(top_srcdir)/plugins/hrt/hrt.bpf.c -o $@
plugins/hrt/hrt.skel.h: plugins/hrt/hrt.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name hrt_bpf > $@.tmp && mv $@.tmp $@
$(plugins_hrt_hrt_la_OBJECTS): plugins/hrt/hrt.skel.h

# Ring-buffer records -> rows, without loading anything (includes hrt.c).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_hrt_records
TESTS += tests/unit/test_hrt_records
tests_unit_test_hrt_records_SOURCES = tests/unit/test_hrt_records.c plugins/hrt/hrt_opts.c \
	plugins/hrt/hrt_pmu.c plugins/hrt/hrt_health.c
tests_unit_test_hrt_records_CPPFLAGS = $(plugins_hrt_hrt_la_CPPFLAGS)
tests_unit_test_hrt_records_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_hrt_records_LDADD = $(plugins_hrt_hrt_la_LIBADD) $(CUNIT_LIBS)
$(tests_unit_test_hrt_records_OBJECTS): plugins/hrt/hrt.skel.h
endif

# Runs the real binary on the running kernel (root + BTF, else SKIP).
# tscfreq measures the TSC rate on its own, to check hrt's TotCyc.
check_PROGRAMS += tests/hrt/tscfreq
tests_hrt_tscfreq_SOURCES = tests/hrt/tscfreq.c
TESTS += tests/hrt/hrt-test.sh
CLEANFILES += plugins/hrt/vmlinux.h plugins/hrt/hrt.bpf.o plugins/hrt/hrt.skel.h
endif

# Option validation needs neither BPF nor root: tested wherever CUnit is.
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_hrt_opts
TESTS += tests/unit/test_hrt_opts
tests_unit_test_hrt_opts_SOURCES = tests/unit/test_hrt_opts.c plugins/hrt/hrt_opts.c \
	plugins/hrt/hrt_health.c
tests_unit_test_hrt_opts_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/hrt \
	-iquote $(top_srcdir)/core
tests_unit_test_hrt_opts_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS)
# The core's option parser enforces the table's bounds.
tests_unit_test_hrt_opts_LDADD = $(CORE_TEST_LIBS)
endif

# Counter discovery on fake sysfs trees and deltas -> kside columns; needs
# no BPF (the real msr/tsc part runs only as root where it exists).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_hrt_pmu
TESTS += tests/unit/test_hrt_pmu
tests_unit_test_hrt_pmu_SOURCES = tests/unit/test_hrt_pmu.c plugins/hrt/hrt_pmu.c
tests_unit_test_hrt_pmu_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/hrt
tests_unit_test_hrt_pmu_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_hrt_pmu_LDADD = lib/kside/libwfw_kside.la lib/sysstate/libwfw_sysstate.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
