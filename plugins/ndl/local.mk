# ndl source: I210 DMA read round-trip delay after launch-time packets
# (ETF + SO_TXTIME in user space, RR2DCDELAY/WTHRESH in kmod/wultfw_ndl_main.c).
NDL_SOURCES = plugins/ndl/ndl.c plugins/ndl/ndl_nic.c plugins/ndl/ndl_nic.h \
	plugins/ndl/ndl_phc.c plugins/ndl/ndl_phc.h plugins/ndl/ndl_qdisc.c \
	plugins/ndl/ndl_qdisc.h plugins/ndl/ndl_tx.c plugins/ndl/ndl_tx.h \
	plugins/ndl/ndl_keep.c plugins/ndl/ndl_keep.h plugins/ndl/ndl_cfg.h
pkglib_LTLIBRARIES += plugins/ndl/ndl.la
PRELOAD_PLUGINS += -dlpreopen plugins/ndl/ndl.la
plugins_ndl_ndl_la_SOURCES = $(NDL_SOURCES)
plugins_ndl_ndl_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_ndl_ndl_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_ndl_ndl_la_LIBADD = lib/pcidisc/libwfw_pcidisc.la lib/sysstate/libwfw_sysstate.la

# Needs root and a kernel with etf/mqprio for the full run (tests/vm runs
# it statically under Debian's kernel); skips (77) the rest otherwise.
check_PROGRAMS += tests/ndl/test_ndl_net
TESTS += tests/ndl/test_ndl_net
tests_ndl_test_ndl_net_SOURCES = tests/ndl/test_ndl_net.c tests/ndl/veth.c \
	tests/ndl/veth.h plugins/ndl/ndl_qdisc.c plugins/ndl/ndl_tx.c
tests_ndl_test_ndl_net_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/ndl

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_ndl
TESTS += tests/unit/test_ndl
tests_unit_test_ndl_SOURCES = tests/unit/test_ndl.c $(NDL_SOURCES) \
	tests/model/i210_model.c tests/model/i210_model.h
tests_unit_test_ndl_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/plugins/ndl -I$(top_srcdir)/tests/model \
	-iquote $(top_srcdir)/core \
	-DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
tests_unit_test_ndl_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS)
# The core's option parser enforces the table's bounds and choices.
tests_unit_test_ndl_LDADD = lib/pcidisc/libwfw_pcidisc.la lib/i210/libwfw_i210.la \
	$(CORE_TEST_LIBS)
endif

