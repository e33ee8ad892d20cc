# Kernel-side datapoint -> wult columns, shared by hrt (eBPF) and the kmod
# sources, and part of the plugin API: <wultfw/kside.h> is installed with
# plugin.h, and libwultfw_kside.a (position-independent, linked into the
# plugin itself, so no run-time library path is involved) for out-of-tree
# sources: pkg-config --libs wultfw.
noinst_LTLIBRARIES += lib/kside/libwfw_kside.la
lib_kside_libwfw_kside_la_SOURCES = lib/kside/kside.c include/wultfw/kside.h
lib_kside_libwfw_kside_la_LIBADD = -lm
lib_LIBRARIES += lib/kside/libwultfw_kside.a
lib_kside_libwultfw_kside_a_SOURCES = lib/kside/kside.c include/wultfw/kside.h
lib_kside_libwultfw_kside_a_CFLAGS = $(AM_CFLAGS) -fPIC

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_kside
TESTS += tests/unit/test_kside
tests_unit_test_kside_SOURCES = tests/unit/test_kside.c
tests_unit_test_kside_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_kside_LDADD = lib/kside/libwfw_kside.la $(CUNIT_LIBS)
endif
