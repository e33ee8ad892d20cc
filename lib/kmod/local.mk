# Client of the wultfw kernel modules (/dev/wultfw), shared by the sources
# that measure through them (tdt, the kernel hrt device, later i210).
# Users also link lib/kside/libwfw_kside.la (not added here: convenience
# libraries inside convenience libraries give duplicate symbols).
noinst_LTLIBRARIES += lib/kmod/libwfw_kmod.la
lib_kmod_libwfw_kmod_la_SOURCES = lib/kmod/kmod.c lib/kmod/kmod.h \
	lib/kmod/kmod_source.c lib/kmod/kmod_source.h
lib_kmod_libwfw_kmod_la_CPPFLAGS = $(AM_CPPFLAGS)

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_kmod
tests_unit_test_kmod_SOURCES = tests/unit/test_kmod.c
tests_unit_test_kmod_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_kmod_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_kmod_LDADD = lib/kmod/libwfw_kmod.la lib/kside/libwfw_kside.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
TESTS += tests/unit/test_kmod
endif
