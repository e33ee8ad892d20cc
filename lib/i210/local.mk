# I210/I211 register programming, shared by the kernel device
# (kmod/modules.list: wultfw_i210.ko and wultfw_ndl.ko link i210.o) and the
# tests, which drive it against
# a model of the register file (tests/model/i210_model.c).
noinst_LTLIBRARIES += lib/i210/libwfw_i210.la
lib_i210_libwfw_i210_la_SOURCES = lib/i210/i210.c lib/i210/i210.h lib/i210/i210_regs.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_i210
tests_unit_test_i210_SOURCES = tests/unit/test_i210.c \
	tests/model/i210_model.c tests/model/i210_model.h
tests_unit_test_i210_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/model
tests_unit_test_i210_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_i210_LDADD = lib/i210/libwfw_i210.la tests/unit/libtestutil.la $(CUNIT_LIBS)
TESTS += tests/unit/test_i210
endif
