# The words of latency attribution (doc/attribution.md): the tail's category
# shares and dominant causes, thread names; shared by calc --explain and report.
noinst_LTLIBRARIES += lib/explain/libwfw_explain.la
lib_explain_libwfw_explain_la_SOURCES = lib/explain/explain.h lib/explain/explain.c \
	lib/explain/print.c lib/explain/words.h lib/explain/words.c \
	lib/explain/words_max.c lib/explain/names.c lib/explain/threads.h lib/explain/threads.c \
	lib/explain/threads_csv.h lib/explain/threads_csv.c lib/explain/threads_load.c
lib_explain_libwfw_explain_la_LIBADD = -lm

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_xp_words
TESTS += tests/unit/test_xp_words
tests_unit_test_xp_words_SOURCES = tests/unit/test_xp_words.c
tests_unit_test_xp_words_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_xp_words_LDADD = lib/explain/libwfw_explain.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
endif
