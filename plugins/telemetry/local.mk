# telemetry source: counter sampler (doc/telemetry.md).
TELEMETRY_SOURCES = plugins/telemetry/telemetry.c plugins/telemetry/tele_run.c \
	plugins/telemetry/tele_priv.h plugins/telemetry/tele_set.c \
	plugins/telemetry/tele_set.h plugins/telemetry/tele_provider.h \
	plugins/telemetry/tele_providers.c plugins/telemetry/tele_file.c \
	plugins/telemetry/tele_cputable.c plugins/telemetry/tele_cputable.h \
	plugins/telemetry/tele_cpus.c plugins/telemetry/tele_cpus.h \
	plugins/telemetry/tele_interrupts.c plugins/telemetry/tele_softirqs.c \
	plugins/telemetry/tele_cpuidle.c plugins/telemetry/tele_cpufreq.c \
	plugins/telemetry/tele_stat.c plugins/telemetry/tele_net.c \
	plugins/telemetry/tele_rtnl.c plugins/telemetry/tele_ethtool.c \
	plugins/telemetry/tele_aer.c plugins/telemetry/tele_perf.c \
	plugins/telemetry/tele_thermal.c plugins/telemetry/tele_defaults.c \
	plugins/telemetry/tele_defaults.h
TELEMETRY_LIBS = lib/sysstate/libwfw_sysstate.la lib/suggest/libwfw_suggest.la -lpthread

pkglib_LTLIBRARIES += plugins/telemetry/telemetry.la
plugins_telemetry_telemetry_la_SOURCES = $(TELEMETRY_SOURCES)
plugins_telemetry_telemetry_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_telemetry_telemetry_la_LIBADD = $(TELEMETRY_LIBS)
PRELOAD_PLUGINS += -dlpreopen plugins/telemetry/telemetry.la

if HAVE_CUNIT
# Providers against fake procfs/sysfs trees, and the source through its ops.
check_PROGRAMS += tests/unit/test_telemetry
TESTS += tests/unit/test_telemetry
tests_unit_test_telemetry_SOURCES = tests/unit/test_telemetry.c $(TELEMETRY_SOURCES)
tests_unit_test_telemetry_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS)
tests_unit_test_telemetry_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/telemetry \
	-iquote $(top_srcdir)/core
tests_unit_test_telemetry_LDADD = $(TELEMETRY_LIBS) $(CORE_TEST_LIBS)
endif

EXTRA_DIST += doc/telemetry.md

# Network counters for real: veth between two namespaces the test makes.
EXTRA_DIST += tests/integration/test_netcounters.sh
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_netcounters.sh
endif
endif
