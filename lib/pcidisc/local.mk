# I210/I211 discovery through libpci (live or from an lspci -xxx dump),
# used by `wultfw scan` (wfw_scan_nics) and the i210/ndl sources. Its users
# link lib/sysstate too: a plugin takes each convenience library whole,
# so one listed inside another would be there twice.
noinst_LTLIBRARIES += lib/pcidisc/libwfw_pcidisc.la
lib_pcidisc_libwfw_pcidisc_la_SOURCES = lib/pcidisc/pcidisc.c lib/pcidisc/pcidisc.h
lib_pcidisc_libwfw_pcidisc_la_CFLAGS = $(AM_CFLAGS) $(LIBPCI_CFLAGS)
lib_pcidisc_libwfw_pcidisc_la_LIBADD = $(LIBPCI_LIBS)
EXTRA_DIST += tests/data/gen_pci_dumps.py tests/data/pci-no-i210.txt \
	tests/data/pci-i210-aspm-off.txt tests/data/pci-i210-aspm-l1.txt \
	tests/data/pci-two-nics.txt tests/data/pci-broken.txt

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_pcidisc
tests_unit_test_pcidisc_SOURCES = tests/unit/test_pcidisc.c
tests_unit_test_pcidisc_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
tests_unit_test_pcidisc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_pcidisc_LDADD = lib/pcidisc/libwfw_pcidisc.la lib/sysstate/libwfw_sysstate.la tests/unit/libtestutil.la $(CUNIT_LIBS)
TESTS += tests/unit/test_pcidisc
endif
