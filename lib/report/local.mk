# wultfw report: downsampling for plots, the HTML report writer.
noinst_LTLIBRARIES += lib/report/libwfw_report.la
lib_report_libwfw_report_la_SOURCES = \
	lib/report/reduce.c lib/report/reduce.h \
	lib/report/sample.c lib/report/sample.h \
	lib/report/jsnum.c lib/report/jsnum.h lib/report/seqsample.c
lib_report_libwfw_report_la_LIBADD = lib/par/libwfw_par.la lib/trust/libwfw_trust.la \
	lib/explain/libwfw_explain.la -lm

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_reduce
TESTS += tests/unit/test_reduce
tests_unit_test_reduce_SOURCES = tests/unit/test_reduce.c
tests_unit_test_reduce_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_reduce_LDADD = lib/report/libwfw_report.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
check_PROGRAMS += tests/unit/test_sample
TESTS += tests/unit/test_sample
tests_unit_test_sample_SOURCES = tests/unit/test_sample.c
tests_unit_test_sample_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_sample_LDADD = lib/report/libwfw_report.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
check_PROGRAMS += tests/unit/test_jsnum
TESTS += tests/unit/test_jsnum
tests_unit_test_jsnum_SOURCES = tests/unit/test_jsnum.c
tests_unit_test_jsnum_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_jsnum_LDADD = lib/report/libwfw_report.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
check_PROGRAMS += tests/unit/test_attrib
TESTS += tests/unit/test_attrib
tests_unit_test_attrib_SOURCES = tests/unit/test_attrib.c
tests_unit_test_attrib_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_attrib_LDADD = lib/report/libwfw_report.la lib/datafmt/libwfw_datafmt.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
check_PROGRAMS += tests/unit/test_report_samplers
TESTS += tests/unit/test_report_samplers
tests_unit_test_report_samplers_SOURCES = tests/unit/test_report_samplers.c
tests_unit_test_report_samplers_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_report_samplers_LDADD = lib/report/libwfw_report.la lib/stats/libwfw_stats.la lib/datafmt/libwfw_datafmt.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
endif
lib_report_libwfw_report_la_SOURCES += \
	lib/report/report.h lib/report/emit.c lib/report/pieces.c lib/report/timeline.c \
	lib/report/sampled.c lib/report/attrib.c lib/report/attrib.h lib/report/attrib_emit.c \
	lib/report/attrib_bands.c lib/report/skid.c lib/report/telemetry.c \
	lib/report/order.c \
	lib/report/assets.c lib/report/assets.h lib/report/buildpaths.c
lib_report_libwfw_report_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DWFW_REPORT_ASSETS_DIR='"$(pkgdatadir)/report"'
# Where a build tree's wultfw finds the sources' page and plotly.js
# (buildpaths.c): a file beside it, never compiled in, so an installed
# binary holds no build path.
noinst_DATA = lib/report/build-paths
CLEANFILES += lib/report/build-paths
lib/report/build-paths: Makefile
	$(AM_V_GEN)$(MKDIR_P) lib/report && \
	printf 'assets=%s\nplotly=%s\n' '$(abs_top_srcdir)/lib/report/assets' '$(PLOTLY_JS)' >$@.tmp && \
	mv $@.tmp $@
tests_unit_test_reduce_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_sample_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_jsnum_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_attrib_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_report_samplers_CPPFLAGS = $(AM_CPPFLAGS)

# The report's page: installed, copied into every report.
reportassetsdir = $(pkgdatadir)/report
dist_reportassets_DATA = lib/report/assets/index.html \
	lib/report/assets/report.js lib/report/assets/colors.js \
	lib/report/assets/dist.js lib/report/assets/metric.js \
	lib/report/assets/timeline.js lib/report/assets/explain.js \
	lib/report/assets/skid.js lib/report/assets/telemetry.js \
	lib/report/assets/descr.js \
	lib/report/assets/fleet.html lib/report/assets/fleet.js \
	lib/report/assets/report.css
# plotly.js as configure found it, installed beside the page so that an
# installed wultfw (and the Debian package) needs no npm; never in git or
# the tarball (npm's copy, or the one debian/rules fetches from npm).
if HAVE_PLOTLY
nodist_reportassets_DATA = lib/report/plotly.min.js
CLEANFILES += lib/report/plotly.min.js
lib/report/plotly.min.js: $(PLOTLY_JS)
	$(AM_V_GEN)$(MKDIR_P) lib/report && cp "$(PLOTLY_JS)" $@.tmp && mv $@.tmp $@
endif
# wult's own result layouts (synthetic data), opened by the report test.
EXTRA_DIST += tests/data/README-wult.md \
	tests/data/wult-1.2/info.yml tests/data/wult-1.2/datapoints.csv \
	tests/data/wult-1.3/info.yml tests/data/wult-1.3/datapoints.csv
# What wult's tools check when they open our results.
EXTRA_DIST += doc/wult-compat.md doc/report-bench.sh
# What the report test adds to each page it opens: counts what is drawn.
EXTRA_DIST += tests/integration/test_report_drawn.js
