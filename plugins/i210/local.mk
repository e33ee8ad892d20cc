# i210 source: Intel I210/I211 target-time interrupt through the kernel
# module device "i210" (kmod/wultfw_i210_main.c).
pkglib_LTLIBRARIES += plugins/i210/i210.la
PRELOAD_PLUGINS += -dlpreopen plugins/i210/i210.la
plugins_i210_i210_la_SOURCES = plugins/i210/i210.c plugins/i210/bind.c \
	plugins/i210/bind.h
plugins_i210_i210_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_i210_i210_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_i210_i210_la_LIBADD = lib/kmod/libwfw_kmod.la lib/kside/libwfw_kside.la \
	lib/sysstate/libwfw_sysstate.la lib/pcidisc/libwfw_pcidisc.la

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_i210_plugin
tests_unit_test_i210_plugin_SOURCES = tests/unit/test_i210_plugin.c \
	plugins/i210/i210.c plugins/i210/bind.c
tests_unit_test_i210_plugin_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/plugins/i210 -DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
tests_unit_test_i210_plugin_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_i210_plugin_LDADD = lib/kmod/libwfw_kmod.la lib/kside/libwfw_kside.la \
	lib/sysstate/libwfw_sysstate.la lib/pcidisc/libwfw_pcidisc.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
TESTS += tests/unit/test_i210_plugin
endif
