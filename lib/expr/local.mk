# Selection expressions (--include/--exclude) over result rows; used by
# wultfw calc, convert and filter, and by the core's include/exclude.
# Needs lib/datafmt (cell values) at link time.
noinst_LTLIBRARIES += lib/expr/libwfw_expr.la
lib_expr_libwfw_expr_la_SOURCES = \
	lib/expr/expr.h lib/expr/ast.h \
	lib/expr/lexer.c lib/expr/lexer.h \
	lib/expr/compile.c lib/expr/compile.h \
	lib/expr/parser.c \
	lib/expr/resolve.c lib/expr/resolve.h \
	lib/expr/eval.c \
	lib/expr/seen.c lib/expr/seen.h
lib_expr_libwfw_expr_la_LIBADD = lib/units/libwfw_units.la lib/suggest/libwfw_suggest.la

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_expr
TESTS += tests/unit/test_expr
tests_unit_test_expr_SOURCES = tests/unit/test_expr.c
tests_unit_test_expr_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_expr_LDADD = lib/expr/libwfw_expr.la \
	lib/datafmt/libwfw_datafmt.la \
	tests/unit/libtestutil.la $(CSV_LIBS) $(CUNIT_LIBS)
endif
