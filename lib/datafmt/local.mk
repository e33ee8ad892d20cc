# Result file formats (CSV rows as wult writes them, the binary format) and
# their readers; shared by the csv/binary sinks and wultfw convert/calc.
noinst_LTLIBRARIES += lib/datafmt/libwfw_datafmt.la
lib_datafmt_libwfw_datafmt_la_SOURCES = \
	lib/datafmt/out.c lib/datafmt/out.h \
	lib/datafmt/csvfmt.c lib/datafmt/csvfmt.h \
	lib/datafmt/csvfmt_blk.c lib/datafmt/csvfmt_blk.h \
	lib/datafmt/csvfmt_cols.c lib/datafmt/csvfmt_src.c lib/datafmt/csvfmt_src.h \
	lib/datafmt/csvfmt_fixed.c lib/datafmt/csvfmt_fixed.h \
	lib/datafmt/binfmt.c lib/datafmt/binfmt.h \
	lib/datafmt/binblock.c lib/datafmt/binblock.h \
	lib/datafmt/binwrite.c lib/datafmt/binwrite.h lib/datafmt/crc32c.c lib/datafmt/crc32c.h \
	lib/datafmt/csvwrite.c lib/datafmt/csvwrite.h \
	lib/datafmt/mapguard.c lib/datafmt/mapguard.h \
	lib/datafmt/le.h lib/datafmt/decimal.h \
	lib/datafmt/writer.c lib/datafmt/writer.h \
	lib/datafmt/filesink.c lib/datafmt/filesink.h \
	lib/datafmt/reader.c lib/datafmt/reader.h lib/datafmt/reader_impl.h \
	lib/datafmt/readopen.c lib/datafmt/readcpu.c \
	lib/datafmt/percpu.c lib/datafmt/percpu.h \
	lib/datafmt/csvread.c lib/datafmt/binread.c \
	lib/datafmt/csvtok.c lib/datafmt/csvtok.h \
	lib/datafmt/csvnum.c lib/datafmt/csvnum.h \
	lib/datafmt/csvwin.c lib/datafmt/csvwin.h lib/datafmt/csvwin_row.h \
	lib/datafmt/csvwin_scalar.c lib/datafmt/csvwin_sse2.c lib/datafmt/csvwin_avx2.c \
	lib/datafmt/enumtab.c lib/datafmt/enumtab.h \
	lib/datafmt/locate.c lib/datafmt/locate.h \
	lib/datafmt/metricdoc.c lib/datafmt/metricdoc.h \
	lib/datafmt/infoyml.c lib/datafmt/infoyml.h \
	lib/datafmt/runstate.c lib/datafmt/runstate.h \
	lib/datafmt/likeness.c lib/datafmt/likeness.h
lib_datafmt_libwfw_datafmt_la_LIBADD = lib/atomic/libwfw_atomic.la lib/units/libwfw_units.la lib/sysstate/libwfw_sysstate.la $(CSV_LIBS)
# The sinks' check of their file options (header only).
lib_datafmt_libwfw_datafmt_la_SOURCES += lib/datafmt/resultfile.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_likeness
TESTS += tests/unit/test_likeness
tests_unit_test_likeness_SOURCES = tests/unit/test_likeness.c
tests_unit_test_likeness_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_likeness_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
check_PROGRAMS += tests/unit/test_metricdoc
TESTS += tests/unit/test_metricdoc
tests_unit_test_metricdoc_SOURCES = tests/unit/test_metricdoc.c
tests_unit_test_metricdoc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_metricdoc_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
check_PROGRAMS += tests/unit/test_infoyml
TESTS += tests/unit/test_infoyml
tests_unit_test_infoyml_SOURCES = tests/unit/test_infoyml.c
tests_unit_test_infoyml_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_infoyml_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
check_PROGRAMS += tests/unit/test_datafmt
TESTS += tests/unit/test_datafmt
tests_unit_test_datafmt_SOURCES = tests/unit/test_datafmt.c
tests_unit_test_datafmt_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_datafmt_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CSV_LIBS) $(CUNIT_LIBS)
# The number conversion at its edges (window, scalar and general paths).
check_PROGRAMS += tests/unit/test_csvnum
TESTS += tests/unit/test_csvnum
tests_unit_test_csvnum_SOURCES = tests/unit/test_csvnum.c
tests_unit_test_csvnum_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_csvnum_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
# The same cases through csvnum.h's portable code (other architectures').
check_PROGRAMS += tests/unit/test_csvnum_nosse
TESTS += tests/unit/test_csvnum_nosse
tests_unit_test_csvnum_nosse_SOURCES = tests/unit/test_csvnum.c
tests_unit_test_csvnum_nosse_CFLAGS = $(tests_unit_test_csvnum_CFLAGS) -U__SSE2__
tests_unit_test_csvnum_nosse_LDADD = $(tests_unit_test_csvnum_LDADD)
# The CSV reader's read_cols against read() (calc's way of reading).
check_PROGRAMS += tests/unit/test_csvcols
TESTS += tests/unit/test_csvcols
tests_unit_test_csvcols_SOURCES = tests/unit/test_csvcols.c
tests_unit_test_csvcols_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_csvcols_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
# The SIMD levels of the CSV reader's window path against each other.
check_PROGRAMS += tests/unit/test_csvlevels
TESTS += tests/unit/test_csvlevels
tests_unit_test_csvlevels_SOURCES = tests/unit/test_csvlevels.c
tests_unit_test_csvlevels_CFLAGS = $(tests_unit_test_csvcols_CFLAGS)
tests_unit_test_csvlevels_LDADD = $(tests_unit_test_csvcols_LDADD)
# A CSV file cut shorter or grown while the reader has it mapped.
check_PROGRAMS += tests/unit/test_csvshrink
TESTS += tests/unit/test_csvshrink
tests_unit_test_csvshrink_SOURCES = tests/unit/test_csvshrink.c
tests_unit_test_csvshrink_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_csvshrink_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
# The real binary on a file cut at a known moment (a preloaded shim, check
# only, never installed): convert and filter copying row texts, calc -j 2.
check_LTLIBRARIES += tests/shims/cutfile.la
tests_shims_cutfile_la_SOURCES = tests/shims/cutfile.c
tests_shims_cutfile_la_LDFLAGS = -module -avoid-version -rpath /nowhere
tests_shims_cutfile_la_LIBADD = -ldl
TESTS += tests/integration/test_cutfile.sh
EXTRA_DIST += tests/integration/test_cutfile.sh
EXTRA_DIST += tests/data/binary-v1/datapoints.wfb tests/data/binary-v1/datapoints.csv \
	tests/integration/test_binary.sh
TESTS += tests/integration/test_binary.sh
# convert's copy of whole blocks (tools/convert_raw.c).
EXTRA_DIST += tests/integration/test_convert_raw.sh
TESTS += tests/integration/test_convert_raw.sh
EXTRA_DIST += tests/integration/test_convert_replace.sh
TESTS += tests/integration/test_convert_replace.sh
EXTRA_DIST += tests/integration/test_convert_signal.sh
TESTS += tests/integration/test_convert_signal.sh
dist_doc_DATA += doc/binary-format.md
# Rows formatted from a binary block's chunks against the reference formatters.
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_csvfmt_blk
TESTS += tests/unit/test_csvfmt_blk
tests_unit_test_csvfmt_blk_SOURCES = tests/unit/test_csvfmt_blk.c
tests_unit_test_csvfmt_blk_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_csvfmt_blk_LDADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS) $(CUNIT_LIBS)
endif
# A binary block's chunks read in pieces: copied, or the buffer handed over.
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_read_chunks
TESTS += tests/unit/test_read_chunks
tests_unit_test_read_chunks_SOURCES = tests/unit/test_read_chunks.c
tests_unit_test_read_chunks_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_read_chunks_LDADD = lib/datafmt/libwfw_datafmt.la tests/unit/libtestutil.la $(CSV_LIBS) $(CUNIT_LIBS)
endif
