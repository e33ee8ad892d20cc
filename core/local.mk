bin_PROGRAMS += wultfw
wultfw_SOURCES = core/main.c
wultfw_SOURCES += core/cmd_convert.c
wultfw_LDADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS)
