# The wultfw binary: main.c dispatches to one file per command (cmd_*.c),
# which declares its options in a table (clitable.h: parsed, checked and
# shown by --help from it) and calls into core/ (the run engine), tools/
# (result files), remote/ (SUTs) and lib/.
bin_PROGRAMS += wultfw
wultfw_SOURCES = cli/main.c cli/commands.c cli/commands.h cli/cliopts.c cli/cliopts.h cli/clihelp.c cli/clihelp.h \
	cli/clitable.h cli/remoteopts.c cli/remoteopts.h \
	cli/cmd_run.c cli/cmd_scan.c cli/scan_probe.c cli/cmd_restore.c cli/cmd_plugins.c \
	cli/cmd_calc.c cli/cmd_convert.c cli/cmd_filter.c cli/cmd_report.c \
	cli/cmd_deploy.c cli/cmd_fetch.c
wultfw_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
wultfw_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core -iquote $(top_srcdir) \
	-DKMODSRCDIR='"$(pkgdatadir)/kmod"'
wultfw_LDADD = tools/libwfw_tools.la remote/libwfw_remote.la core/libwfw_core.la
# Defines lt_preloaded_symbols even when nothing is preloaded.
wultfw_LDFLAGS = -dlpreopen force
if STATIC_PLUGINS
# A static build carries every plugin inside the binary.
wultfw_LDADD += $(PRELOAD_PLUGINS)
EXTRA_wultfw_DEPENDENCIES = $(pkglib_LTLIBRARIES)
endif

# The commands the unit tests drive through their entry points.
CLI_TEST_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/core -iquote $(top_srcdir) \
	-iquote $(top_srcdir)/cli
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_calc
TESTS += tests/unit/test_calc
tests_unit_test_calc_SOURCES = tests/unit/test_calc.c cli/cmd_calc.c cli/cliopts.c cli/clihelp.c
tests_unit_test_calc_CPPFLAGS = $(CLI_TEST_CPPFLAGS)
tests_unit_test_calc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_calc_LDADD = tools/libwfw_tools.la core/libwfw_core.la tests/unit/libtestutil.la \
	$(CUNIT_LIBS) -lm
# The option tables' parser and --help: bounds, choices, did-you-mean.
check_PROGRAMS += tests/unit/test_cliopts
TESTS += tests/unit/test_cliopts
tests_unit_test_cliopts_SOURCES = tests/unit/test_cliopts.c cli/cliopts.c cli/clihelp.c
tests_unit_test_cliopts_CPPFLAGS = $(CLI_TEST_CPPFLAGS)
tests_unit_test_cliopts_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_cliopts_LDADD = lib/suggest/libwfw_suggest.la lib/par/libwfw_par.la tests/unit/libtestutil.la $(CUNIT_LIBS)
# The csv and binary sinks and convert (cmd_convert.c), driven through their
# descriptors and entry point; the binary format's blocks, checksums, damage
# and version 1 files.
check_PROGRAMS += tests/unit/test_sinks tests/unit/test_binfmt
TESTS += tests/unit/test_sinks tests/unit/test_binfmt
tests_unit_test_sinks_SOURCES = tests/unit/test_sinks.c sinks/csv/csv.c \
	sinks/binary/binary.c cli/cmd_convert.c cli/cliopts.c cli/clihelp.c
tests_unit_test_sinks_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS) -I$(top_srcdir)/tests/unit -iquote $(top_srcdir)/core -iquote $(top_srcdir)
tests_unit_test_sinks_LDADD = tools/libwfw_tools.la lib/expr/libwfw_expr.la lib/datafmt/libwfw_datafmt.la \
	tests/unit/libtestopts.la core/libwfw_core.la tests/unit/libtestutil.la $(CSV_LIBS) $(CUNIT_LIBS)
tests_unit_test_binfmt_SOURCES = tests/unit/test_binfmt.c cli/cmd_convert.c cli/cliopts.c cli/clihelp.c
tests_unit_test_binfmt_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
tests_unit_test_binfmt_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit -iquote $(top_srcdir)/core -iquote $(top_srcdir)
# wfw_min_max_sum(), what the decoder's sums are checked against
tests_unit_test_binfmt_LDADD = tools/libwfw_tools.la lib/expr/libwfw_expr.la lib/datafmt/libwfw_datafmt.la \
	core/libwfw_core.la lib/stats/libwfw_stats.la tests/unit/libtestutil.la $(CSV_LIBS) $(CUNIT_LIBS)
endif

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
cli/wultfw-cmd_run.$(OBJEXT): build_id.h
CLEANFILES += build_id.h
FORCE:
.PHONY: FORCE
