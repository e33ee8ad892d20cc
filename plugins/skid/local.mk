# skid source: PMC sampling skid with perf_event_open (a sampler).
SKID_SOURCES = plugins/skid/skid.c plugins/skid/skid_state.h \
	plugins/skid/skid_parts.c plugins/skid/skid_code.c \
	plugins/skid/skid_code.h plugins/skid/skid_layout.c \
	plugins/skid/skid_layout.h plugins/skid/skid_events.c \
	plugins/skid/skid_events.h plugins/skid/skid_perf.c \
	plugins/skid/skid_perf.h plugins/skid/skid_ring.c \
	plugins/skid/skid_ring.h plugins/skid/skid_workload.c \
	plugins/skid/skid_workload.h plugins/skid/skid_cache.c \
	plugins/skid/skid_cache.h

pkglib_LTLIBRARIES += plugins/skid/skid.la
plugins_skid_skid_la_SOURCES = $(SKID_SOURCES)
plugins_skid_skid_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_skid_skid_la_LIBADD = lib/suggest/libwfw_suggest.la lib/sysstate/libwfw_sysstate.la -lm
PRELOAD_PLUGINS += -dlpreopen plugins/skid/skid.la

if HAVE_CUNIT
# Units: IP classification and the ring parser on synthetic streams.
check_PROGRAMS += tests/unit/test_skid
TESTS += tests/unit/test_skid
tests_unit_test_skid_SOURCES = tests/unit/test_skid.c \
	plugins/skid/skid_layout.c plugins/skid/skid_ring.c
tests_unit_test_skid_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_skid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/skid
tests_unit_test_skid_LDADD = tests/unit/libtestutil.la $(CUNIT_LIBS)
# The default buffer size: sysfs, else CPUID, else sysconf (fakes).
check_PROGRAMS += tests/unit/test_skid_cache
TESTS += tests/unit/test_skid_cache
tests_unit_test_skid_cache_SOURCES = tests/unit/test_skid_cache.c \
	plugins/skid/skid_cache.c
tests_unit_test_skid_cache_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_skid_cache_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/skid
tests_unit_test_skid_cache_LDADD = lib/sysstate/libwfw_sysstate.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif


if HAVE_CUNIT
if !STATIC_PLUGINS
# A test shim (LD_PRELOAD; check only, never installed): breakpoint events
# that open and never count, for tests/integration/test_skid.sh.
check_LTLIBRARIES += tests/shims/deadbp.la
tests_shims_deadbp_la_SOURCES = tests/shims/deadbp.c
tests_shims_deadbp_la_LDFLAGS = -module -avoid-version -rpath /nowhere
tests_shims_deadbp_la_LIBADD = -ldl
endif
endif
