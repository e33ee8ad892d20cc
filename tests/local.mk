# Tests: CUnit unit tests of the core (tests/unit/) against small test
# plugins (tests/plugins/), and integration tests that run the real binary.
include tests/plugins/local.mk

AM_TESTS_ENVIRONMENT = \
	WULTFW_PLUGIN_PATH='$(abs_top_builddir)/tests/plugins'; export WULTFW_PLUGIN_PATH; \
	WULTFW_BUILD_PLUGIN_PATH='$(WULTFW_BUILD_PLUGIN_PATH)'; export WULTFW_BUILD_PLUGIN_PATH; \
	abs_top_builddir='$(abs_top_builddir)'; export abs_top_builddir; \
	abs_top_srcdir='$(abs_top_srcdir)'; export abs_top_srcdir; \
	WULTFW_BUILDDIR='$(abs_top_builddir)'; export WULTFW_BUILDDIR; \
	WULTFW_STATE_DIR='$(abs_top_builddir)/tests/state'; export WULTFW_STATE_DIR; \
	$(SANITIZER_TESTS_ENVIRONMENT)

# Under --enable-sanitizers: any UB report fails the test; plugins are
# dlclose'd, so unwind fully for readable leak stacks; a plain program may
# load a sanitized library (test_example_plugin.sh); LSan names the
# libconfig leaks it may ignore in tests/fuzz/lsan.supp).
SANITIZER_TESTS_ENVIRONMENT = \
	ASAN_OPTIONS='detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0:verify_asan_link_order=0'; export ASAN_OPTIONS; \
	UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1'; export UBSAN_OPTIONS; \
	LSAN_OPTIONS='suppressions=$(abs_top_srcdir)/tests/fuzz/lsan.supp:print_suppressions=0'; export LSAN_OPTIONS;

# Shell tests run through the harness by name, also from check-all.
TEST_EXTENSIONS = .sh

# A bound per test, in seconds: every test runs through run-bounded.sh, which
# stops a test still running after TEST_BOUND with its processes and fails
# it naming the bound, so no hang stops check-all, distcheck or
# check-sanitized. Far above any test's time on a loaded 2-vCPU guest; the
# slow tests (check-all) get SLOW_TEST_BOUND.
TEST_BOUND = 1200
SLOW_TEST_BOUND = 3600
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/run-bounded.sh $(TEST_BOUND)
SH_LOG_COMPILER = $(LOG_COMPILER)
# Test programs (CUnit): each case they skip is a SKIP result of its own.
LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/case-driver.sh $(top_srcdir)/build-aux/test-driver
EXTRA_DIST += tests/run-bounded.sh tests/case-driver.sh
# Its test lock: a test marked alone runs while no other does.
TESTS += tests/integration/test_run_bounded.sh
EXTRA_DIST += tests/integration/test_run_bounded.sh
# check-all's closing lines name each failed test and why.
TESTS += tests/integration/test_summary.sh
EXTRA_DIST += tests/integration/test_summary.sh

# Plugin directories of this build tree, for tests that run the binary.
wfw_empty :=
wfw_space := $(wfw_empty) $(wfw_empty)
WULTFW_BUILD_PLUGIN_PATH = $(subst $(wfw_space),:,$(addprefix $(abs_top_builddir)/,$(sort $(dir $(pkglib_LTLIBRARIES)))))

if HAVE_CUNIT
noinst_LTLIBRARIES += tests/unit/libtestutil.la
tests_unit_libtestutil_la_SOURCES = tests/unit/testutil.c tests/unit/testutil.h
tests_unit_libtestutil_la_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)

CORE_TEST_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS) -I$(top_srcdir)/core -iquote $(top_srcdir)
# Option-table tests run the core's parser (tests/unit/testopts.c).
noinst_LTLIBRARIES += tests/unit/libtestopts.la
tests_unit_libtestopts_la_SOURCES = tests/unit/testopts.c tests/unit/testopts.h \
	tests/unit/sinkhost.c tests/unit/sinkhost.h
tests_unit_libtestopts_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
tests_unit_libtestopts_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
CORE_TEST_LIBS = tests/unit/libtestopts.la remote/libwfw_remote.la core/libwfw_core.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)

check_PROGRAMS += tests/unit/test_datasel
TESTS += tests/unit/test_datasel
tests_unit_test_datasel_SOURCES = tests/unit/test_datasel.c
tests_unit_test_datasel_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_datasel_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_cpulock
TESTS += tests/unit/test_cpulock
tests_unit_test_cpulock_SOURCES = tests/unit/test_cpulock.c
tests_unit_test_cpulock_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_cpulock_LDADD = $(CORE_TEST_LIBS)

check_PROGRAMS += tests/unit/test_remote
TESTS += tests/unit/test_remote
tests_unit_test_remote_SOURCES = tests/unit/test_remote.c
tests_unit_test_remote_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_remote_LDADD = $(CORE_TEST_LIBS)

# These load the test plugins with dlopen: shared builds only.
if !STATIC_PLUGINS
check_PROGRAMS += tests/unit/test_config tests/unit/test_sched
tests_unit_test_config_SOURCES = tests/unit/test_config.c
tests_unit_test_config_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_config_LDADD = $(CORE_TEST_LIBS)
tests_unit_test_sched_SOURCES = tests/unit/test_sched.c
tests_unit_test_sched_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_sched_LDADD = $(CORE_TEST_LIBS)
# The test programs find their plugins in tests/plugins.
tests_unit_test_config_DEPENDENCIES = $(CORE_TEST_LIBS) $(check_LTLIBRARIES)
tests_unit_test_sched_DEPENDENCIES = $(CORE_TEST_LIBS) $(check_LTLIBRARIES)
TESTS += tests/unit/test_config tests/unit/test_sched
endif
endif

# Integration tests: shell scripts that run the real binary.
EXTRA_DIST += tests/integration/lib.sh tests/integration/test_cli.sh \
	tests/integration/test_collect.sh \
	tests/integration/static_build.sh tests/integration/test_timer_csv.sh \
	tests/integration/test_timer_honest.sh tests/integration/test_timer_grid.sh \
	tests/integration/test_kside_columns.sh \
	tests/data/wult-raw-1.3/datapoints.csv tests/data/wult-raw-1.3/info.yml \
	tests/integration/test_examples.sh tests/integration/test_example_plugin.sh \
	tests/integration/test_skid.sh tests/integration/test_filter.sh \
	tests/integration/test_report.sh tests/integration/test_remote.sh \
	tests/integration/test_calc_input.sh tests/integration/test_calc_diff.sh \
	tests/integration/test_calc_diff.py tests/data/hostile \
	tests/integration/test_durable.sh tests/integration/test_annotate.sh \
	tests/integration/test_wult_compat.sh tests/integration/test_select.sh \
	tests/integration/test_select_onepass.sh \
	examples/plugins/loadavg/loadavg.c examples/plugins/loadavg/Makefile \
	examples/plugins/loadavg/loadavg.cfg examples/plugins/jsonl/jsonl.c \
	examples/plugins/jsonl/Makefile examples/plugins/jsonl/jsonl.cfg
# Builds the whole tree again: only from check-all.
SLOW_TESTS += tests/integration/static_build.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_timer_honest.sh tests/integration/test_timer_grid.sh
TESTS += tests/integration/test_kside_columns.sh
TESTS += tests/integration/test_cli.sh tests/integration/test_timer_csv.sh \
	tests/integration/test_examples.sh tests/integration/test_example_plugin.sh \
	tests/integration/test_collect.sh tests/integration/test_skid.sh \
	tests/integration/test_filter.sh tests/integration/test_report.sh tests/integration/test_remote.sh
# Telemetry on a machine lacking counters (cpuidle hidden), samples = rows, period said at start.
TESTS += tests/integration/test_telemetry_here.sh
EXTRA_DIST += tests/integration/test_telemetry_here.sh
# The whole report in Chromium: each source's page, a diff, 1 M datapoints.
TESTS += tests/integration/test_report_sources.sh
EXTRA_DIST += tests/integration/test_report_sources.sh tests/integration/report_open.sh \
	tests/integration/page_dump.py
# CSV input to calc and convert: hostile files, and random files against a reference.
TESTS += tests/integration/test_calc_input.sh tests/integration/test_calc_diff.sh
# calc -c of a CSV file and its binary twins: the same table.
TESTS += tests/integration/test_calc_twins.sh
EXTRA_DIST += tests/integration/test_calc_twins.sh
# calc --include of a binary file (numbers and sums of the kept rows) and its CSV twin.
TESTS += tests/integration/test_calc_select_twins.sh
EXTRA_DIST += tests/integration/test_calc_select_twins.sh
TESTS += tests/integration/test_calc_format.sh
EXTRA_DIST += tests/integration/test_calc_format.sh
TESTS += tests/integration/test_calc_groups.sh
EXTRA_DIST += tests/integration/test_calc_groups.sh
# calc --mem-limit: the same bytes within it, a clear stop past it.
TESTS += tests/integration/test_calc_memlimit.sh
EXTRA_DIST += tests/integration/test_calc_memlimit.sh
# calc -g, 150 000 groups under --mem-limit 128M: finished, the same bytes.
TESTS += tests/integration/test_calc_many_groups.sh
EXTRA_DIST += tests/integration/test_calc_many_groups.sh
# calc -g past --mem-limit: sketches said so, within the bound of the exact.
TESTS += tests/integration/test_calc_sketch.sh
EXTRA_DIST += tests/integration/test_calc_sketch.sh
# An experiment of several CPUs (EXP/cpuN/) read as one result; CPUs side by side.
TESTS += tests/integration/test_calc_cpus.sh
EXTRA_DIST += tests/integration/test_calc_cpus.sh
# The reading tools on an experiment of several CPUs (issue 34)
TESTS += tests/integration/test_percpu_tools.sh
EXTRA_DIST += tests/integration/test_percpu_tools.sh
# calc --explain: a result with known causes, its binary twin, bad input.
TESTS += tests/integration/test_calc_explain.sh
EXTRA_DIST += tests/integration/test_calc_explain.sh
TESTS += tests/integration/test_durable.sh tests/integration/test_annotate.sh
# A full disk: what each file holds is what info.yml says; one mode for all.
TESTS += tests/integration/test_fulldisk.sh
EXTRA_DIST += tests/integration/test_fulldisk.sh
TESTS += tests/integration/test_wult_compat.sh tests/integration/test_select.sh
TESTS += tests/integration/test_select_onepass.sh
# pandas' index: the same rows on every reading path, CSV and binary, -j 1 and 2.
TESTS += tests/integration/test_select_index.sh
EXTRA_DIST += tests/integration/test_select_index.sh
TESTS += tests/integration/test_report_bins.sh
TESTS += tests/integration/test_report_metricdoc.sh
# The explanation section of a result with latency attribution (issue 30).
TESTS += tests/integration/test_report_attrib.sh
# The report's notes on large and sampled results, word for word (node).
TESTS += tests/integration/test_report_words.sh
TESTS += tests/integration/test_report_descr.sh
# NaN, infinities, 1e308, subnormals, INT64 extremes through every tool
# (issue 29); every reader's memory bounded by the line limit.
TESTS += tests/integration/test_values.sh tests/integration/test_line_memory.sh
endif
endif
EXTRA_DIST += tests/integration/test_values.sh tests/integration/test_line_memory.sh
EXTRA_DIST += tests/integration/test_report_bins.sh
EXTRA_DIST += tests/integration/test_report_metricdoc.sh
EXTRA_DIST += tests/integration/test_report_attrib.sh
EXTRA_DIST += tests/integration/test_report_words.sh
EXTRA_DIST += tests/integration/test_report_descr.sh

# Screenshots of the report tests (tests/integration/test_report*.sh).
clean-local: clean-report-shots
clean-report-shots:
	rm -rf tests/integration/test_report-shots tests/integration/test_report_attrib-shots \
		tests/integration/test_report_sources-shots
.PHONY: clean-report-shots

# Hostile inputs that once crashed a reader, through the real binary.
EXTRA_DIST += tests/integration/test_regress_inputs.sh tests/data/regress
TESTS += tests/integration/test_regress_inputs.sh

# ./wultfw from its build tree finds the plugins built with it.
EXTRA_DIST += tests/integration/test_buildtree.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_buildtree.sh
endif

# The reading thread on the CPUs wultfw was started with, off the measured one.
EXTRA_DIST += tests/integration/test_affinity.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_affinity.sh
endif

# ABI v2 option bounds and choices of the real plugins, at file:line.
EXTRA_DIST += tests/integration/test_plugin_options.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_plugin_options.sh
endif

# The tests' settings state files (WULTFW_STATE_DIR above, core/restore.h).
clean-local: clean-test-state
clean-test-state:
	rm -rf tests/state
.PHONY: clean-test-state

# filter's verbatim rows against formatting every row (random CSV files).
EXTRA_DIST += tests/integration/test_filter_verbatim.sh \
	tests/integration/test_filter_verbatim.py
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_filter_verbatim.sh
endif
endif

# convert of a CSV file to binary in chunks on several threads: -j 1's file.
EXTRA_DIST += tests/integration/test_convert_chunks.sh
TESTS += tests/integration/test_convert_chunks.sh

# filter of binary results: binary out, the CSV route's rows, block copy, -j.
EXTRA_DIST += tests/integration/test_filter_bin.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_filter_bin.sh
endif
endif

# filter stopped by SIGINT/SIGTERM on each path, and what kill -9 leaves.
EXTRA_DIST += tests/integration/test_filter_signal.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_filter_signal.sh
endif
endif
EXTRA_DIST += tests/integration/test_convert_ints.sh
TESTS += tests/integration/test_convert_ints.sh

# The progress line's time left (core/progress.c).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_progress
TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_progress_LDADD = $(CORE_TEST_LIBS)
endif

# Data safety of runs: --force of a running run, renamed result
# directories, numbered default names, empty runs, sinks' file options,
# the log after kill -9.
EXTRA_DIST += tests/integration/test_runsafe.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_runsafe.sh
endif
endif

# State directories, state files and CPU locks another user planted, writes
# outside the sysfs root: refused, nothing outside the state directory
# changes (issue 29).
EXTRA_DIST += tests/integration/test_hostile_state.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_hostile_state.sh
endif
endif
EXTRA_DIST += tests/integration/test_check_files.sh
TESTS += tests/integration/test_check_files.sh
EXTRA_DIST += tests/integration/test_check_machine.sh
TESTS += tests/integration/test_check_machine.sh
EXTRA_DIST += tests/integration/test_check_sinkcols.sh
TESTS += tests/integration/test_check_sinkcols.sh
