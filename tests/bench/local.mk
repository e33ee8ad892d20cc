# Benchmarks: `make bench` (they take minutes). `make check` builds the
# programs and runs each on a few datapoints (test_bench_build.sh), so a
# change of the API they drive cannot leave them broken unnoticed.
EXTRA_PROGRAMS = tests/bench/bench_stats_sink \
	tests/bench/gen_datapoints tests/bench/bench_sinks tests/bench/gen_attrib \
	tests/bench/bench_floor
if HAVE_CUNIT
check_PROGRAMS += tests/bench/bench_stats_sink \
	tests/bench/gen_datapoints tests/bench/bench_sinks tests/bench/gen_attrib \
	tests/bench/bench_floor
TESTS += tests/bench/test_bench_build.sh
# bench_read.sh --quick: minutes, and its figures mean nothing under ASan or
# twice: only from check-all, once (not in distcheck or check-sanitized).
SLOW_TESTS += tests/bench/test_bench_read.sh
endif
EXTRA_DIST += tests/bench/test_bench_build.sh tests/bench/test_bench_read.sh
# bench_cyclictest.sh's options and tables, on a few wake-ups (root, cyclictest)
TESTS += tests/bench/test_bench_cyclictest.sh
EXTRA_DIST += tests/bench/test_bench_cyclictest.sh
tests_bench_bench_stats_sink_SOURCES = tests/bench/bench_stats_sink.c \
	sinks/stats/stats.c sinks/stats/cychist.c sinks/stats/binhist.c
tests_bench_bench_stats_sink_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS) \
	-I$(top_srcdir)/sinks/stats -iquote $(top_srcdir)/core -iquote $(top_srcdir)/tests/unit
# Options come from the core's parser (ctx->cfg), as in a run.
tests_bench_bench_stats_sink_LDADD = lib/stats/libwfw_stats.la lib/atomic/libwfw_atomic.la \
	$(CORE_TEST_LIBS) -lm
tests_bench_gen_datapoints_SOURCES = tests/bench/gen_datapoints.c tests/bench/gen_write.c \
	tests/bench/gen_write.h
tests_bench_gen_datapoints_LDADD = lib/datafmt/libwfw_datafmt.la
# calc --explain's input: a result with the attribution's columns
tests_bench_gen_attrib_SOURCES = tests/bench/gen_attrib.c tests/bench/gen_write.c \
	tests/bench/gen_write.h
tests_bench_gen_attrib_LDADD = lib/datafmt/libwfw_datafmt.la
# calc's stages apart: read(2), the reader, the statistics (bench_calc.sh)
tests_bench_bench_floor_SOURCES = tests/bench/bench_floor.c
tests_bench_bench_floor_LDADD = lib/stats/libwfw_stats.la lib/datafmt/libwfw_datafmt.la -lm
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += tests/bench/bench_calc.sh tests/bench/bench_calc.py \
	tests/bench/bench_binary.sh tests/bench/bench_stream.sh tests/bench/bench_par.sh \
	tests/bench/bench_explain.sh tests/bench/bench_percpu.sh \
	tests/bench/bench_kill9.py tests/bench/bench_attrib.sh \
	tests/bench/bench_groupby.sh tests/bench/bench_remote.sh \
	tests/bench/bench_compare.sh tests/bench/bench_compare.py \
	tests/bench/bench_compare_node.js \
	tests/bench/bench_cyclictest.sh tests/bench/bench_cyclictest.py \
	tests/bench/bench_paths.sh tests/bench/bench_read.sh \
	tests/bench/bench_read_goals.awk

# Every benchmark's files go to the page cache of ${TMPDIR:-/tmp}, a disk
# here: the sinks' durable flushing (fdatasync) then costs what it costs in
# a run, and no tmpfs (whose read() is slow on some VMs) sets the limit.

.PHONY: bench
bench: bench-sinks tests/bench/bench_stats_sink$(EXEEXT) tests/bench/bench_floor$(EXEEXT) \
	tests/bench/gen_datapoints$(EXEEXT) \
	wultfw$(EXEEXT)
	@echo "== stats sink, 100 million datapoints =="
	@# stats.json rewritten every second (durable flushing) into a fresh dir.
	@d=$$(mktemp -d $${TMPDIR:-/tmp}/wfw-bench-stats-XXXXXX) && \
	tests/bench/bench_stats_sink 100000000 $$d; rc=$$?; rm -rf $$d; exit $$rc
	@echo "== wultfw calc vs pandas, 10 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_calc.sh $(abs_builddir)
	@echo "== wultfw calc -g vs pandas, 100 000 groups of 1 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_groupby.sh $(abs_builddir)
	@$(MAKE) $(AM_MAKEFLAGS) bench-binary
	@$(MAKE) $(AM_MAKEFLAGS) bench-stream
	@$(MAKE) $(AM_MAKEFLAGS) bench-explain
	@$(MAKE) $(AM_MAKEFLAGS) bench-kill9
	@$(MAKE) $(AM_MAKEFLAGS) bench-cyclictest

# The binary format end to end: sizes, cat, calc, convert both ways, pandas.
.PHONY: bench-binary
bench-binary: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@echo "== binary format: size, calc, convert, 10 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_binary.sh $(abs_builddir)

# calc -c, --include and convert binary -> CSV against plain calc (issue 32).
.PHONY: bench-paths
bench-paths: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@echo "== calc -c, --include, convert against plain calc, 3 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_paths.sh $(abs_builddir) $(BENCH_ROWS)

# calc --explain on 10 million rows with the attribution's columns.
.PHONY: bench-explain
bench-explain: tests/bench/gen_attrib$(EXEEXT) wultfw$(EXEEXT)
	@echo "== calc --explain, 10 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_explain.sh $(abs_builddir)

# Streaming: peak RSS at 10 M and 100 M rows (11 GB of files in
# ${TMPDIR:-/tmp}, deleted after), a file read from the disk, a cgroup.
.PHONY: bench-stream
bench-stream: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@echo "== streaming: peak RSS at 10 and 100 million rows =="
	$(SHELL) $(srcdir)/tests/bench/bench_stream.sh $(abs_builddir)

# csv and binary sinks, and the readers (bench-sinks runs only these).
tests_bench_bench_sinks_SOURCES = tests/bench/bench_sinks.c sinks/csv/csv.c \
	sinks/binary/binary.c
# Options through the core's parser (defaults included), as in a run.
tests_bench_bench_sinks_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS) \
	-iquote $(top_srcdir)/core -iquote $(top_srcdir)/tests/unit
tests_bench_bench_sinks_LDADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS) \
	$(CORE_TEST_LIBS)

# The sinks with their default durable flushing: fdatasync to the disk
# of ${TMPDIR:-/tmp}, as in a run.
.PHONY: bench-sinks
bench-sinks: tests/bench/bench_sinks$(EXEEXT)
	@echo "== csv and binary sinks and readers =="
	@dir=$$(mktemp -d $${TMPDIR:-/tmp}/wfw-bench-XXXXXX) && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir -x; rc=$$?; rmdir $$dir; exit $$rc

# Two builds side by side on the tools that read files in parallel parts:
# WULTFW_A (an older wultfw binary) against this tree's, runs taken in turn.
.PHONY: bench-par
bench-par: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@test -n "$(WULTFW_A)" || { echo "usage: make bench-par WULTFW_A=/path/to/another/wultfw [BENCH_ROWS=N]"; exit 2; }
	$(SHELL) $(srcdir)/tests/bench/bench_par.sh $(WULTFW_A) $(abs_builddir)/wultfw \
		$(abs_builddir) $(BENCH_ROWS)

# Issue 32's comparison whole (bench_calc, bench_groupby twice, bench_paths,
# bench_compare) and one table of its goals: make bench-read
# [BENCH_READ_ARGS='--quick | --group-limit SIZE']
.PHONY: bench-read
bench-read: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	$(SHELL) $(srcdir)/tests/bench/bench_read.sh --build $(abs_builddir) $(BENCH_READ_ARGS)

# wultfw calc against cat, pandas, DuckDB and Polars (those installed):
# make bench-compare [BENCH_ROWS=N] [NODE_PATH=.../node_modules]
.PHONY: bench-compare
bench-compare: tests/bench/gen_datapoints$(EXEEXT) wultfw$(EXEEXT)
	@echo "== wultfw calc against cat, pandas, DuckDB, Polars =="
	$(SHELL) $(srcdir)/tests/bench/bench_compare.sh --build $(abs_builddir) \
		--rows $${BENCH_ROWS:-1000000}

# kill -9 of a real timer run at random times: the datapoints it loses.
.PHONY: bench-kill9
bench-kill9: wultfw$(EXEEXT)
	@echo "== kill -9 of the default timer run, 12 times =="
	python3 $(srcdir)/tests/bench/bench_kill9.py $(abs_builddir)/wultfw 12

# cyclictest -a -t against the timer's mode grid on every CPU at once, in
# alternating rounds (root; 77 from the script, a SKIP, is not a failure):
# make bench-cyclictest [BENCH_CYCLICTEST_ARGS='-r 5 --poll']
.PHONY: bench-cyclictest
bench-cyclictest: wultfw$(EXEEXT)
	@echo "== cyclictest -a -t against the timer source, every CPU =="
	@$(SHELL) $(srcdir)/tests/bench/bench_cyclictest.sh --build $(abs_builddir) \
		$(BENCH_CYCLICTEST_ARGS); rc=$$?; test $$rc = 77 || exit $$rc
