# The run engine: experiment files, plugins, the scheduler, result
# directories, C-states, collectors, settings restored. Built as a
# convenience library that the binary (cli/) and the unit tests link alike.
noinst_LTLIBRARIES += core/libwfw_core.la
core_libwfw_core_la_SOURCES = \
	core/bind.c core/bind.h core/bigint.c core/bigint.h \
	core/cfgerr.c core/cfgerr.h core/cfgsyntax.c core/cfgsyntax.h \
	core/filehint.c core/filehint.h core/openreg.c core/openreg.h \
	core/buildtree.c core/buildtree.h core/overrides.c core/overrides.h \
	core/cpulock.c core/cpulock.h core/exitstatus.h \
	core/collect.c core/collect.h \
	core/cstates.c core/cstates.h \
	core/datasel.c core/datasel.h \
	core/default_experiment.c core/default_experiment.h \
	core/experiment.c core/experiment.h \
	core/log.c core/log.h \
	core/machine.c core/machine.h \
	core/options.c core/options.h \
	core/pace.c core/pace.h \
	core/percpu.c core/percpu.h core/cpuset.c core/cpuset.h \
	core/percpu_once.c core/percpu_once.h core/housekeep.c core/housekeep.h \
	core/check_cpus.c core/check_cpus.h \
	core/pin.c core/pin.h \
	core/plan.c core/plan.h \
	core/pluginst.c core/pluginst.h \
	core/annotate.c core/annotate.h core/plugins.c core/plugins.h core/plugintrust.c core/plugintrust.h \
	core/progress.c core/progress.h \
	core/resolved.c core/resolved.h \
	core/restore.c core/restore.h \
	core/restore_file.c core/restore_file.h \
	core/restore_leftover.c core/restore_plugin.c core/restore_plugin.h \
	core/resultdir.c core/resultdir.h \
	core/run.c core/run.h \
	core/signals.c core/signals.h \
	core/sinkfile.c core/sinkfile.h \
	core/statedir.c core/statedir.h
# Every CPU's figures live (livestats, livetab) and stop_above (stopabove, runwatch).
core_libwfw_core_la_SOURCES += core/livestats.c core/livestats.h core/livetab.c core/livetab.h \
	core/stopabove.c core/stopabove.h core/runwatch.c core/runwatch.h
# An experiment's include/exclude against the columns its source declares.
core_libwfw_core_la_SOURCES += core/datasel_check.c
core_libwfw_core_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
core_libwfw_core_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
core_libwfw_core_la_LIBADD = lib/expr/libwfw_expr.la lib/units/libwfw_units.la lib/sysstate/libwfw_sysstate.la lib/suggest/libwfw_suggest.la lib/atomic/libwfw_atomic.la \
	lib/trust/libwfw_trust.la lib/pcidisc/libwfw_pcidisc.la lib/datafmt/libwfw_datafmt.la -lpthread \
	$(LIBCONFIG_LIBS) $(LTDL_LIBS)

# Settings restored after a crash (core/restore*.c).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_restore
TESTS += tests/unit/test_restore
tests_unit_test_restore_SOURCES = tests/unit/test_restore.c
tests_unit_test_restore_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_restore_LDADD = $(CORE_TEST_LIBS)
endif
# The files sinks and collectors write, checked for clashes at load time.
core_libwfw_core_la_SOURCES += core/outfiles.c core/outfiles.h
# Sink options naming columns, checked against the source's at load time.
core_libwfw_core_la_SOURCES += core/sinkcols.c core/sinkcols.h
# A plugin another user could have written is never opened (core/plugintrust.c).
EXTRA_DIST += tests/integration/test_plugin_trust.sh
if !STATIC_PLUGINS
TESTS += tests/integration/test_plugin_trust.sh
endif
# `cpu` listing CPUs: each measured at once into EXP/cpuN/ (core/percpu.c).
if !STATIC_PLUGINS
TESTS += tests/integration/test_cpu_list.sh
endif
EXTRA_DIST += tests/integration/test_cpu_list.sh
# The live table's figures (core/livestats.c, core/livetab.c).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_livestats
TESTS += tests/unit/test_livestats
tests_unit_test_livestats_SOURCES = tests/unit/test_livestats.c
tests_unit_test_livestats_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_livestats_LDADD = $(CORE_TEST_LIBS)
endif
# stop_above with an injected spike (tests/plugins/testspike.c), and the
# live table drawn in a terminal (tmux) but not into a log.
if HAVE_CUNIT
if !STATIC_PLUGINS
TESTS += tests/integration/test_stop_above.sh tests/integration/test_livetab.sh
endif
endif
EXTRA_DIST += tests/integration/test_stop_above.sh tests/integration/test_livetab.sh
# What several CPUs' runs share, done once in the parent: C-states,
# housekeeping CPUs, collectors; --check of every listed CPU (issue 34).
if !STATIC_PLUGINS
TESTS += tests/integration/test_percpu_once.sh
endif
EXTRA_DIST += tests/integration/test_percpu_once.sh doc/percpu.md
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_percpu_once
TESTS += tests/unit/test_percpu_once
tests_unit_test_percpu_once_SOURCES = tests/unit/test_percpu_once.c
tests_unit_test_percpu_once_CFLAGS = $(CORE_TEST_CFLAGS)
tests_unit_test_percpu_once_LDADD = $(CORE_TEST_LIBS)
endif
# An experiment file that does not parse: FILE:LINE and what is expected.
TESTS += tests/integration/test_cfg_syntax.sh
EXTRA_DIST += tests/integration/test_cfg_syntax.sh
