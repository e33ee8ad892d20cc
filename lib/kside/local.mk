# Kernel-side datapoint -> wult columns, shared by hrt (eBPF) and the kmod sources.
noinst_LTLIBRARIES += lib/kside/libwfw_kside.la
lib_kside_libwfw_kside_la_SOURCES = lib/kside/kside.c lib/kside/kside.h
lib_kside_libwfw_kside_la_LIBADD = -lm

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_kside
TESTS += tests/unit/test_kside
tests_unit_test_kside_SOURCES = tests/unit/test_kside.c
tests_unit_test_kside_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_kside_LDADD = lib/kside/libwfw_kside.la $(CUNIT_LIBS)
endif
