# Benchmarks: `make bench` (not part of `make check`; they take minutes).
EXTRA_PROGRAMS = tests/bench/bench_stats_sink \
	tests/bench/gen_datapoints tests/bench/bench_sinks
tests_bench_bench_stats_sink_SOURCES = tests/bench/bench_stats_sink.c \
	sinks/stats/stats.c sinks/stats/cychist.c sinks/stats/binhist.c
tests_bench_bench_stats_sink_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS) \
	-I$(top_srcdir)/sinks/stats -iquote $(top_srcdir)/core -iquote $(top_srcdir)/tests/unit
# Options come from the core's parser (ctx->cfg), as in a run.
tests_bench_bench_stats_sink_LDADD = lib/stats/libwfw_stats.la lib/atomic/libwfw_atomic.la \
	$(CORE_TEST_LIBS) -lm
tests_bench_gen_datapoints_SOURCES = tests/bench/gen_datapoints.c
tests_bench_gen_datapoints_LDADD = lib/datafmt/libwfw_datafmt.la
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += tests/bench/bench_calc.sh tests/bench/bench_calc.py \
	tests/bench/bench_binary.sh

.PHONY: bench
bench: bench-sinks tests/bench/bench_stats_sink$(EXEEXT) \
	tests/bench/gen_datapoints$(EXEEXT) \
	wultfw$(EXEEXT)
	@echo "== stats sink, 100 million datapoints =="
	tests/bench/bench_stats_sink 100000000 $${TMPDIR:-/tmp}
	@echo "== wultfw calc vs pandas, 10 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_calc.sh $(abs_builddir)
	@$(MAKE) $(AM_MAKEFLAGS) bench-binary

# The binary format end to end: sizes, cat, calc, convert both ways, pandas.
.PHONY: bench-binary
bench-binary: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@echo "== binary format: size, calc, convert, 10 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_binary.sh $(abs_builddir)

# csv and binary sinks, and the readers (bench-sinks runs only these).
tests_bench_bench_sinks_SOURCES = tests/bench/bench_sinks.c sinks/csv/csv.c \
	sinks/binary/binary.c
tests_bench_bench_sinks_CFLAGS = $(AM_CFLAGS)
tests_bench_bench_sinks_LDADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS)

.PHONY: bench-sinks
bench-sinks: tests/bench/bench_sinks$(EXEEXT)
	@echo "== csv and binary sinks and readers =="
	@# Page-cache files on tmpfs when there is one: the disk is not the sink.
	@dir=$$(mktemp -d $$(test -d /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})/wfw-bench-XXXXXX) && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir -x; rc=$$?; rmdir $$dir; exit $$rc
