# Small plugins that exercise the core: a deterministic source, a checking
# sink, and broken ones (wrong ABI version, no descriptor).
# They are loaded with dlopen, so a static build (--disable-shared) skips them.
if HAVE_CUNIT
if !STATIC_PLUGINS
TEST_PLUGIN_FLAGS = -module -avoid-version -rpath /nowhere
check_LTLIBRARIES += tests/plugins/testsrc.la tests/plugins/testsink.la \
	tests/plugins/badabi.la tests/plugins/nodesc.la \
	tests/plugins/v1plugin.la tests/plugins/testsampler.la \
	tests/plugins/oldv2.la
tests_plugins_testsrc_la_SOURCES = tests/plugins/testsrc.c
tests_plugins_testsrc_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_testsink_la_SOURCES = tests/plugins/testsink.c
tests_plugins_testsink_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_badabi_la_SOURCES = tests/plugins/badabi.c
tests_plugins_badabi_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_v1plugin_la_SOURCES = tests/plugins/v1plugin.c
tests_plugins_v1plugin_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_testsampler_la_SOURCES = tests/plugins/testsampler.c
tests_plugins_testsampler_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_oldv2_la_SOURCES = tests/plugins/oldv2.c
tests_plugins_oldv2_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
tests_plugins_nodesc_la_SOURCES = tests/plugins/nodesc.c
tests_plugins_nodesc_la_LDFLAGS = $(TEST_PLUGIN_FLAGS)
endif
endif
