# The wultfw binary. The core is also built as a convenience library so the
# unit tests link the same code the binary runs.
noinst_LTLIBRARIES += core/libwfw_core.la
core_libwfw_core_la_SOURCES = \
	core/cfgerr.c core/cfgerr.h core/filehint.c core/filehint.h \
	core/buildtree.c core/buildtree.h core/overrides.c core/overrides.h \
	core/cpulock.c core/cpulock.h core/exitstatus.h \
	core/collect.c core/collect.h \
	core/cmd_plugins.c \
	core/cmd_restore.c \
	core/cmd_scan.c \
	core/commands.h \
	core/cpus.c core/cpus.h \
	core/cstates.c core/cstates.h \
	core/datasel.c core/datasel.h \
	core/default_experiment.c \
	core/experiment.c core/experiment.h \
	core/log.c core/log.h \
	core/machine.c core/machine.h \
	core/options.c core/options.h \
	core/plugins.c core/plugins.h \
	core/progress.c core/progress.h \
	core/resolved.c core/resolved.h \
	core/restore.c core/restore.h \
	core/restore_file.c core/restore_file.h \
	core/restore_leftover.c core/restore_plugin.c \
	core/resultdir.c core/resultdir.h \
	core/run.c \
	core/sched.c core/sched.h \
	core/signals.c core/signals.h \
	core/sysinfo.c core/sysinfo.h \
	core/units.c core/units.h
# Running experiments on SUTs over ssh (wultfw -H, scan -H, deploy -H, fetch).
core_libwfw_core_la_SOURCES += \
	core/remote/cmd_remote.c core/remote/remote.h \
	core/remote/remote_fetch.c core/remote/remote_hosts.c \
	core/remote/remote_passthru.c core/remote/remote_run.c core/remote/remote_ssh.c
# Offline tools over result files and the SUT set-up: not on the measurement
# path, so core/ itself holds only the engine.
core_libwfw_core_la_SOURCES += core/tools/cmd_deploy.c core/tools/cmd_fetch.c
# An experiment's include/exclude against the columns its source declares.
core_libwfw_core_la_SOURCES += core/datasel_check.c
core_libwfw_core_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
core_libwfw_core_la_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core -DKMODSRCDIR='"$(pkgdatadir)/kmod"'
core_libwfw_core_la_LIBADD = lib/expr/libwfw_expr.la lib/cpuidle/libwfw_cpuidle.la lib/suggest/libwfw_suggest.la lib/atomic/libwfw_atomic.la \
	lib/pcidisc/libwfw_pcidisc.la lib/datafmt/libwfw_datafmt.la -lpthread \
	$(LIBCONFIG_LIBS) $(LTDL_LIBS)

bin_PROGRAMS += wultfw
wultfw_SOURCES = core/main.c
wultfw_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
wultfw_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
wultfw_LDADD = core/libwfw_core.la
# Defines lt_preloaded_symbols even when nothing is preloaded.
wultfw_LDFLAGS = -dlpreopen force
if STATIC_PLUGINS
# A static build carries every plugin inside the binary.
wultfw_LDADD += $(PRELOAD_PLUGINS)
EXTRA_wultfw_DEPENDENCIES = $(pkglib_LTLIBRARIES)
endif

# wultfw calc (statistics of result files)
wultfw_SOURCES += core/tools/cmd_calc.c core/tools/calc.h core/tools/calc_load.c \
	core/tools/calc_print.c
wultfw_LDADD += lib/report/libwfw_report.la lib/expr/libwfw_expr.la lib/stats/libwfw_stats.la \
	lib/datafmt/libwfw_datafmt.la -lm
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_calc
TESTS += tests/unit/test_calc
tests_unit_test_calc_SOURCES = tests/unit/test_calc.c core/tools/cmd_calc.c core/tools/calc.h core/tools/calc_load.c \
	core/tools/calc_print.c core/tools/toolopts.c core/tools/toolopts.h
tests_unit_test_calc_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core
tests_unit_test_calc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_calc_LDADD = -lpthread lib/expr/libwfw_expr.la lib/stats/libwfw_stats.la \
	lib/datafmt/libwfw_datafmt.la core/libwfw_core.la $(CUNIT_LIBS) -lm
endif

# wultfw convert (CSV <-> binary; lib/datafmt is already linked for calc)
wultfw_SOURCES += core/tools/cmd_convert.c core/tools/replace.c core/tools/convert_par.c core/tools/csv_par.c core/tools/toolopts.c core/tools/toolopts.h core/tools/convert.h core/tools/replace.h
wultfw_SOURCES += core/tools/convert_raw.c
wultfw_SOURCES += core/tools/filter_blk.c
wultfw_SOURCES += core/tools/csv2bin_par.c
wultfw_LDADD += $(CSV_LIBS)

# wultfw filter (a result directory of the selected rows)
wultfw_SOURCES += core/tools/cmd_filter.c

# wultfw report (HTML reports; lib/report)
wultfw_SOURCES += core/tools/cmd_report.c core/tools/report_load.h \
	core/tools/report_keep.c core/tools/report_par.c core/tools/report_cols.c

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

# The build wultfw --version names: configure's --with-build-id (debian/rules:
# "Debian VERSION"), else "git COMMIT" of a git checkout. Remade at every make
# so it follows new commits; rewritten only when it changes.
build_id.h: FORCE
	$(AM_V_GEN)id='$(WULTFW_BUILD_ID)'; \
	if [ -z "$$id" ] && [ -e '$(srcdir)/.git' ] && c=$$(GIT_OPTIONAL_LOCKS=0 \
		git -C '$(srcdir)' describe --always --dirty 2>/dev/null); then id="git $$c"; fi; \
	echo "#define WFW_BUILD_ID \"$$id\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
BUILT_SOURCES += build_id.h
core/core_libwfw_core_la-run.lo: build_id.h
CLEANFILES += build_id.h
FORCE:
.PHONY: FORCE
