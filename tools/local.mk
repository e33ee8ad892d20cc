# The offline tools over result files: what calc, convert, filter and
# report do (cli/cmd_*.c parse their command lines and call in here).
noinst_LTLIBRARIES += tools/libwfw_tools.la
# calc: statistics of result files
tools_libwfw_tools_la_SOURCES = tools/calc.h tools/calc_funcs.c tools/calc_load.c tools/calc_print.c
# calc --mem-limit: a bound on calc's memory (many groups)
tools_libwfw_tools_la_SOURCES += tools/calc_group_mem.c
# calc: an experiment's CPUs side by side
tools_libwfw_tools_la_SOURCES += tools/calc_cpus.c tools/calc_cpus_fmt.c
# calc/report --fleet: SUTs side by side, the outliers flagged
tools_libwfw_tools_la_SOURCES += tools/fleet.h tools/fleet_members.c tools/fleet_table.c tools/fleet_pool.c \
	tools/report_fleet.c
# calc --explain: where the time of a latency's tail went (doc/attribution.md)
tools_libwfw_tools_la_SOURCES += tools/explain.c tools/explain_impl.h tools/explain_pass.c \
	tools/explain_collect.c tools/explain_parts.c tools/explain_read.c tools/explain_read.h \
	tools/explain_tail.c tools/explain_print.c tools/explain_json.c \
	tools/explain_rank.c tools/explain_rank.h tools/explain_cpus.c
# convert: CSV <-> binary, in parallel parts; filter's kept rows of a block
tools_libwfw_tools_la_SOURCES += tools/convert.h tools/convert_par.c tools/convert_raw.c \
	tools/csv_par.c tools/csv2bin_par.c tools/filter_blk.c tools/replace.c tools/replace.h \
	tools/retype.c tools/retype.h tools/filter.h tools/filter_res.c
# report: results read into columns for lib/report
tools_libwfw_tools_la_SOURCES += tools/report_load.h tools/report_keep.c \
	tools/report_par.c tools/report_cols.c tools/report_names.c tools/report_open.c tools/report_attrib.c tools/report_cpus.c \
	tools/report_prep.h
tools_libwfw_tools_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
tools_libwfw_tools_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
tools_libwfw_tools_la_LIBADD = lib/par/libwfw_par.la lib/report/libwfw_report.la lib/expr/libwfw_expr.la \
	lib/stats/libwfw_stats.la lib/datafmt/libwfw_datafmt.la core/libwfw_core.la \
	$(CSV_LIBS) -lm

if HAVE_CUNIT
# calc --explain's pure parts: the exact percentile, attrib-threads.csv,
# causes, identity, tails.
check_PROGRAMS += tests/unit/test_explain
TESTS += tests/unit/test_explain
tests_unit_test_explain_SOURCES = tests/unit/test_explain.c
tests_unit_test_explain_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/tools
tests_unit_test_explain_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_explain_LDADD = tools/libwfw_tools.la core/libwfw_core.la tests/unit/libtestutil.la \
	$(CUNIT_LIBS) -lm
endif

# calc --fleet and report --fleet: five made-up SUTs, one made worse (issue 33).
TESTS += tests/integration/test_fleet.sh
EXTRA_DIST += tests/integration/test_fleet.sh
CLEANFILES += tests/integration/test_fleet.png

# calc -g with a misspelt column: did you mean.
TESTS += tests/integration/test_calc_group_typo.sh
EXTRA_DIST += tests/integration/test_calc_group_typo.sh
