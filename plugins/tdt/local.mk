# tdt source: measures through the wultfw kernel modules (kmod/).
pkglib_LTLIBRARIES += plugins/tdt/tdt.la
PRELOAD_PLUGINS += -dlpreopen plugins/tdt/tdt.la
plugins_tdt_tdt_la_SOURCES = plugins/tdt/tdt.c
plugins_tdt_tdt_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_tdt_tdt_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_tdt_tdt_la_LIBADD = lib/kmod/libwfw_kmod.la lib/kside/libwfw_kside.la \
	lib/sysstate/libwfw_sysstate.la
