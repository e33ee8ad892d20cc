# The offline tools over result files: what calc, convert, filter and
# report do (cli/cmd_*.c parse their command lines and call in here).
noinst_LTLIBRARIES += tools/libwfw_tools.la
# calc: statistics of result files
tools_libwfw_tools_la_SOURCES = tools/calc.h tools/calc_funcs.c tools/calc_load.c tools/calc_print.c
# convert: CSV <-> binary, in parallel parts; filter's kept rows of a block
tools_libwfw_tools_la_SOURCES += tools/convert.h tools/convert_par.c tools/convert_raw.c \
	tools/csv_par.c tools/csv2bin_par.c tools/filter_blk.c tools/replace.c tools/replace.h \
	tools/retype.c tools/retype.h tools/filter.h tools/filter_res.c
# report: results read into columns for lib/report
tools_libwfw_tools_la_SOURCES += tools/report_load.h tools/report_keep.c \
	tools/report_par.c tools/report_cols.c tools/report_names.c tools/report_open.c tools/report_attrib.c \
	tools/report_prep.h
tools_libwfw_tools_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
tools_libwfw_tools_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
tools_libwfw_tools_la_LIBADD = lib/par/libwfw_par.la lib/report/libwfw_report.la lib/expr/libwfw_expr.la \
	lib/stats/libwfw_stats.la lib/datafmt/libwfw_datafmt.la core/libwfw_core.la \
	$(CSV_LIBS) -lm
