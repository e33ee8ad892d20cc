# Result file formats (CSV rows as wult writes them, the binary format) and
# their readers; shared by the csv/binary sinks and wultfw convert/calc.
noinst_LTLIBRARIES += lib/datafmt/libwfw_datafmt.la
lib_datafmt_libwfw_datafmt_la_SOURCES = \
	lib/datafmt/out.c lib/datafmt/out.h \
	lib/datafmt/csvfmt.c lib/datafmt/csvfmt.h \
	lib/datafmt/binfmt.c lib/datafmt/binfmt.h \
	lib/datafmt/writer.c lib/datafmt/writer.h \
	lib/datafmt/reader.c lib/datafmt/reader.h
lib_datafmt_libwfw_datafmt_la_LIBADD = $(CSV_LIBS)
