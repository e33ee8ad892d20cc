# attrib: latency attribution (doc/attribution.md).
# The two convenience libraries are built in plugins/attrib/internal/, so
# the build tree's plugin directory holds only the plugin (list-plugins
# would take their .la files for plugins).

# --- The accounting: events -> columns, no BPF (attrib_account.h) ---
# A convenience library the plugin and the tests link alike.
noinst_LTLIBRARIES += plugins/attrib/internal/libattrib_account.la
plugins_attrib_internal_libattrib_account_la_SOURCES = plugins/attrib/attrib_account.c \
	plugins/attrib/attrib_account.h plugins/attrib/attrib_ctx.c \
	plugins/attrib/attrib_ctx.h plugins/attrib/attrib_sums.c \
	plugins/attrib/attrib_sums.h plugins/attrib/attrib_map.c \
	plugins/attrib/attrib_map.h plugins/attrib/attrib_event.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_attrib_account
TESTS += tests/unit/test_attrib_account
tests_unit_test_attrib_account_SOURCES = tests/unit/test_attrib_account.c tests/unit/attrib_feed.h
tests_unit_test_attrib_account_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib
tests_unit_test_attrib_account_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_attrib_account_LDADD = plugins/attrib/internal/libattrib_account.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
# SMICnt from records carrying SMI counts (doc/attribution.md).
check_PROGRAMS += tests/unit/test_attrib_smicnt
TESTS += tests/unit/test_attrib_smicnt
tests_unit_test_attrib_smicnt_SOURCES = tests/unit/test_attrib_smicnt.c tests/unit/attrib_feed.h
tests_unit_test_attrib_smicnt_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib
tests_unit_test_attrib_smicnt_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_attrib_smicnt_LDADD = plugins/attrib/internal/libattrib_account.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
# --- end of the accounting ---

# ==== Latency attribution, the measuring side (issue 30, doc/attribution.md):
# ==== the eBPF program, its loader, IRQ names, SMI counts, their tests.
# libattrib_trace.la: attrib_trace.h (attrib_trace.c where configure found
# clang, bpftool, libbpf and BTF, as for hrt; else attrib_trace_none.c,
# which says so), attrib_irqs.h (/proc/interrupts), attrib_smi.h.
noinst_LTLIBRARIES += plugins/attrib/internal/libattrib_trace.la
plugins_attrib_internal_libattrib_trace_la_SOURCES = plugins/attrib/attrib_trace.h \
	plugins/attrib/attrib_event.h plugins/attrib/attrib_bpf.h \
	plugins/attrib/attrib_irqs.c plugins/attrib/attrib_irqs.h \
	plugins/attrib/attrib_smi.c plugins/attrib/attrib_smi.h \
	plugins/attrib/attrib_order.c plugins/attrib/attrib_order.h
plugins_attrib_internal_libattrib_trace_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_builddir)/plugins/attrib -I$(top_srcdir)/plugins/attrib
plugins_attrib_internal_libattrib_trace_la_LIBADD = lib/sysstate/libwfw_sysstate.la
EXTRA_DIST += plugins/attrib/attrib.bpf.c tests/attrib/attrib-trace-test.c \
	tests/integration/test_attrib_trace.sh
if HAVE_HRT
plugins_attrib_internal_libattrib_trace_la_SOURCES += plugins/attrib/attrib_trace.c
nodist_plugins_attrib_internal_libattrib_trace_la_SOURCES = plugins/attrib/attrib.skel.h
plugins_attrib_internal_libattrib_trace_la_CPPFLAGS += $(LIBBPF_CFLAGS)
plugins_attrib_internal_libattrib_trace_la_LIBADD += $(LIBBPF_LIBS)

# vmlinux.h is hrt's (plugins/hrt/local.mk). -mcpu=v3: the programs use
# atomic exchange (Linux >= 5.12), for the lost-event bookkeeping.
plugins/attrib/attrib.bpf.o: plugins/attrib/attrib.bpf.c plugins/attrib/attrib_bpf.h \
	plugins/attrib/attrib_event.h plugins/hrt/vmlinux.h
	$(AM_V_GEN)$(MKDIR_P) plugins/attrib && \
	$(CLANG) -g -O2 -Wall -Werror -target bpf -mcpu=v3 $(BPF_PREFIX_MAP) \
	-D__TARGET_ARCH_$(BPF_ARCH) -I$(top_builddir)/plugins/hrt \
	-I$(top_srcdir)/plugins/attrib $(LIBBPF_CFLAGS) \
	-c $(top_srcdir)/plugins/attrib/attrib.bpf.c -o $@
plugins/attrib/attrib.skel.h: plugins/attrib/attrib.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name attrib_bpf > $@.tmp && mv $@.tmp $@
$(plugins_attrib_internal_libattrib_trace_la_OBJECTS): plugins/attrib/attrib.skel.h
CLEANFILES += plugins/attrib/attrib.bpf.o plugins/attrib/attrib.skel.h

# Loads it on a CPU while making noise there (test_attrib_trace.sh).
check_PROGRAMS += tests/attrib/attrib-trace-test
tests_attrib_attrib_trace_test_SOURCES = tests/attrib/attrib-trace-test.c
tests_attrib_attrib_trace_test_CPPFLAGS = $(plugins_attrib_internal_libattrib_trace_la_CPPFLAGS)
tests_attrib_attrib_trace_test_LDADD = plugins/attrib/internal/libattrib_trace.la
else
plugins_attrib_internal_libattrib_trace_la_SOURCES += plugins/attrib/attrib_trace_none.c
endif
# Root and BTF, else SKIP naming what is missing (the eBPF part unbuilt too).
TESTS += tests/integration/test_attrib_trace.sh

# /proc/interrupts copies, fake SMI trees, made-up records out of order;
# needs no BPF.
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_attrib_meas
TESTS += tests/unit/test_attrib_meas
tests_unit_test_attrib_meas_SOURCES = tests/unit/test_attrib_meas.c
tests_unit_test_attrib_meas_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib \
	-I$(top_srcdir)/tests/unit -DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
tests_unit_test_attrib_meas_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_attrib_meas_LDADD = plugins/attrib/internal/libattrib_trace.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
EXTRA_DIST += tests/data/interrupts
# ==== end of the measuring side

# ==== The annotator itself: attrib.la (wultfw-plugin(7), core/annotate.c).
# Built everywhere: without the eBPF part its open() says what is missing.
pkglib_LTLIBRARIES += plugins/attrib/attrib.la
PRELOAD_PLUGINS += -dlpreopen plugins/attrib/attrib.la
plugins_attrib_attrib_la_SOURCES = plugins/attrib/attrib.c \
	plugins/attrib/attrib_cause.c plugins/attrib/attrib_cause.h
plugins_attrib_attrib_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib
plugins_attrib_attrib_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_attrib_attrib_la_LIBADD = plugins/attrib/internal/libattrib_trace.la \
	plugins/attrib/internal/libattrib_account.la -lpthread
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_attrib_cause
TESTS += tests/unit/test_attrib_cause
tests_unit_test_attrib_cause_SOURCES = tests/unit/test_attrib_cause.c \
	plugins/attrib/attrib_cause.c
tests_unit_test_attrib_cause_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib \
	-I$(top_srcdir)/tests/unit
tests_unit_test_attrib_cause_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_attrib_cause_LDADD = plugins/attrib/internal/libattrib_trace.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
# Noise made on purpose on the measured CPU (test_attrib.sh).
check_PROGRAMS += tests/attrib/wfw-noise
tests_attrib_wfw_noise_SOURCES = tests/attrib/wfw-noise.c
TESTS += tests/integration/test_attrib.sh
EXTRA_DIST += tests/integration/test_attrib.sh tests/integration/test_attrib_check.py
# SMICnt: as the CPU gives it, and msr/tsc standing in for it (root, BTF).
TESTS += tests/integration/test_attrib_smi.sh
EXTRA_DIST += tests/integration/test_attrib_smi.sh
