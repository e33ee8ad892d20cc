# Small plugins that exercise the core: a deterministic source, a checking
# sink, and broken ones (wrong ABI version or size, no descriptor).
# They are loaded with dlopen, so a static build (--disable-shared) skips them.
if HAVE_CUNIT
if !STATIC_PLUGINS
TEST_PLUGIN_FLAGS = -module -avoid-version -rpath /nowhere
check_LTLIBRARIES += tests/plugins/testsrc.la tests/plugins/testsink.la \
	tests/plugins/badabi.la tests/plugins/nodesc.la \
	tests/plugins/v1plugin.la tests/plugins/testsampler.la \
	tests/plugins/shortdesc.la tests/plugins/newzero.la \
	tests/plugins/newtail.la tests/plugins/testannot.la \
	tests/plugins/testspike.la
tests_plugins_testsrc_la_SOURCES = tests/plugins/testsrc.c
tests_plugins_testsrc_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
# WakeLatency with an injected spike, on a chosen CPU: stop_above's tests.
tests_plugins_testspike_la_SOURCES = tests/plugins/testspike.c
tests_plugins_testspike_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_testannot_la_SOURCES = tests/plugins/testannot.c
tests_plugins_testannot_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_testsink_la_SOURCES = tests/plugins/testsink.c
tests_plugins_testsink_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_badabi_la_SOURCES = tests/plugins/badabi.c
tests_plugins_badabi_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_v1plugin_la_SOURCES = tests/plugins/v1plugin.c
tests_plugins_v1plugin_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_testsampler_la_SOURCES = tests/plugins/testsampler.c
tests_plugins_testsampler_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_shortdesc_la_SOURCES = tests/plugins/shortdesc.c
tests_plugins_shortdesc_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
# One source, two descriptors newer than the core's: a zero and a set tail.
tests_plugins_newzero_la_SOURCES = tests/plugins/newdesc.c
tests_plugins_newzero_la_CPPFLAGS = $(AM_CPPFLAGS) -DNEWDESC_NAME=newzero -DNEWDESC_TAIL=0
tests_plugins_newzero_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_newtail_la_SOURCES = tests/plugins/newdesc.c
tests_plugins_newtail_la_CPPFLAGS = $(AM_CPPFLAGS) -DNEWDESC_NAME=newtail -DNEWDESC_TAIL=1
tests_plugins_newtail_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_nodesc_la_SOURCES = tests/plugins/nodesc.c
tests_plugins_nodesc_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
endif
endif
