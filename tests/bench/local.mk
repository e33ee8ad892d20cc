# Benchmarks: built and run by `make bench`, never by `make check`.
EXTRA_PROGRAMS += tests/bench/bench_sinks
tests_bench_bench_sinks_SOURCES = tests/bench/bench_sinks.c sinks/csv/csv.c \
	sinks/binary/binary.c
tests_bench_bench_sinks_CFLAGS = $(AM_CFLAGS)
tests_bench_bench_sinks_LDADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS)
CLEANFILES += tests/bench/bench_sinks$(EXEEXT)

.PHONY: bench bench-sinks
bench: bench-sinks
bench-sinks: tests/bench/bench_sinks$(EXEEXT)
	@# Page-cache files on tmpfs when there is one: the disk is not the sink.
	@dir=$$(mktemp -d $$(test -d /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})/wfw-bench-XXXXXX) && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir && \
	./tests/bench/bench_sinks$(EXEEXT) -c 0 -d $$dir -x; rc=$$?; rmdir $$dir; exit $$rc
