# timer source: user-space clock_nanosleep() wake latency (cyclictest style).
TIMER_SOURCES = plugins/timer/timer.c plugins/timer/timer_loop.c \
	plugins/timer/timer_ring.c plugins/timer/timer_state.h \
	plugins/timer/timer_ring.h plugins/timer/timer_run.c \
	plugins/timer/timer_health.c plugins/timer/timer_health.h \
	plugins/timer/timer_deadline.c

pkglib_LTLIBRARIES += plugins/timer/timer.la
plugins_timer_timer_la_SOURCES = $(TIMER_SOURCES)
plugins_timer_timer_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_timer_timer_la_LIBADD = lib/sysstate/libwfw_sysstate.la
PRELOAD_PLUGINS += -dlpreopen plugins/timer/timer.la

if HAVE_CUNIT
# The unit test links the plugin's sources and drives it through its ops.
check_PROGRAMS += tests/unit/test_timer
TESTS += tests/unit/test_timer
tests_unit_test_timer_SOURCES = tests/unit/test_timer.c $(TIMER_SOURCES)
tests_unit_test_timer_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS)
# -iquote: a core header must not hide a system one.
tests_unit_test_timer_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/timer \
	-iquote $(top_srcdir)/core
# The core's option parser checks the table's bounds.
tests_unit_test_timer_LDADD = lib/sysstate/libwfw_sysstate.la $(CORE_TEST_LIBS)
endif

EXTRA_DIST += doc/timer.md doc/timer-vs-cyclictest.md \
	doc/timer-vs-cyclictest.sh doc/latency_stats.py
