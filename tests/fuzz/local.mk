# libFuzzer targets (doc/testing.md, "Sanitizers and fuzzing"): built only in the separate
# --enable-fuzzing tree that 'make fuzz' configures, never in the normal build.
EXTRA_DIST += tests/fuzz/fuzz_read.c tests/fuzz/fuzz_read.h tests/fuzz/fuzz_csv.c \
	tests/fuzz/fuzz_binary.c tests/fuzz/fuzz_expr.c tests/fuzz/fuzz_experiment.c \
	tests/fuzz/fuzz_values.c tests/fuzz/fuzz_infoyml.c \
	tests/fuzz/run.sh tests/fuzz/gen_binary_seeds.py tests/fuzz/seed-expr tests/fuzz/seed-csv \
	tests/fuzz/seed-binary tests/fuzz/seed-experiment tests/fuzz/seed-values \
	tests/fuzz/seed-infoyml tests/fuzz/README.md \
	tests/fuzz/fuzz_state.c tests/fuzz/seed-state \
	tests/fuzz/fuzz_inventory.c tests/fuzz/seed-inventory

FUZZ_TARGETS = tests/fuzz/fuzz_csv tests/fuzz/fuzz_binary tests/fuzz/fuzz_expr \
	tests/fuzz/fuzz_experiment tests/fuzz/fuzz_state tests/fuzz/fuzz_values \
	tests/fuzz/fuzz_infoyml tests/fuzz/fuzz_inventory
EXTRA_PROGRAMS += $(FUZZ_TARGETS)
CLEANFILES += $(FUZZ_TARGETS)
# libtool passes -fsanitize=fuzzer to the compiler driver only with -Xcompiler.
FUZZ_LINK = -Xcompiler -fsanitize=fuzzer
FUZZ_READER_LIBS = lib/datafmt/libwfw_datafmt.la core/libwfw_core.la $(CSV_LIBS)

tests_fuzz_fuzz_csv_SOURCES = tests/fuzz/fuzz_csv.c tests/fuzz/fuzz_read.c tests/fuzz/fuzz_read.h
tests_fuzz_fuzz_csv_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/datafmt
tests_fuzz_fuzz_csv_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_csv_LDADD = $(FUZZ_READER_LIBS)

tests_fuzz_fuzz_binary_SOURCES = tests/fuzz/fuzz_binary.c tests/fuzz/fuzz_read.c tests/fuzz/fuzz_read.h
tests_fuzz_fuzz_binary_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/datafmt
tests_fuzz_fuzz_binary_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_binary_LDADD = $(FUZZ_READER_LIBS) lib/stats/libwfw_stats.la

tests_fuzz_fuzz_expr_SOURCES = tests/fuzz/fuzz_expr.c
tests_fuzz_fuzz_expr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/expr
tests_fuzz_fuzz_expr_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_expr_LDADD = lib/expr/libwfw_expr.la $(FUZZ_READER_LIBS)

tests_fuzz_fuzz_experiment_SOURCES = tests/fuzz/fuzz_experiment.c
tests_fuzz_fuzz_experiment_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/core \
	-DFUZZ_PLUGIN_PATH='"$(WULTFW_BUILD_PLUGIN_PATH)"'
tests_fuzz_fuzz_experiment_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
tests_fuzz_fuzz_experiment_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_experiment_LDADD = core/libwfw_core.la

tests_fuzz_fuzz_state_SOURCES = tests/fuzz/fuzz_state.c
tests_fuzz_fuzz_state_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/core
tests_fuzz_fuzz_state_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_state_LDADD = core/libwfw_core.la

# Read values through the statistics, report's reductions and page, and
# the stats sink's histograms (issue 29).
tests_fuzz_fuzz_values_SOURCES = tests/fuzz/fuzz_values.c tests/fuzz/fuzz_read.c \
	tests/fuzz/fuzz_read.h sinks/stats/binhist.c sinks/stats/cychist.c
tests_fuzz_fuzz_values_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/datafmt \
	-I$(top_srcdir)/tools -I$(top_srcdir)/sinks/stats
tests_fuzz_fuzz_values_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_values_LDADD = tools/libwfw_tools.la lib/report/libwfw_report.la \
	lib/stats/libwfw_stats.la $(FUZZ_READER_LIBS) -lm

# info.yml as calc, report and filter read it.
tests_fuzz_fuzz_infoyml_SOURCES = tests/fuzz/fuzz_infoyml.c
tests_fuzz_fuzz_infoyml_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_infoyml_LDADD = lib/stats/libwfw_stats.la $(FUZZ_READER_LIBS)

# -i's Ansible inventories and host patterns.
tests_fuzz_fuzz_inventory_SOURCES = tests/fuzz/fuzz_inventory.c
tests_fuzz_fuzz_inventory_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_inventory_LDADD = remote/libwfw_remote.la core/libwfw_core.la

if FUZZING
# The targets and the plugins the experiment target loads. One after the
# other: `all` runs a sub-make (BUILT_SOURCES), and with -j the parent
# building the targets' libraries beside it made core/libwfw_core.la twice
# at once (libtool: "Failed to create ... .lax").
fuzz-targets:
	$(MAKE) $(AM_MAKEFLAGS) all
	$(MAKE) $(AM_MAKEFLAGS) $(FUZZ_TARGETS)
endif
.PHONY: fuzz-targets
