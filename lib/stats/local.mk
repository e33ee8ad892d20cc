# Streaming statistics (exact values, then a log-linear histogram), shared by
# the stats sink and `wultfw calc`.
noinst_LTLIBRARIES += lib/stats/libwfw_stats.la
lib_stats_libwfw_stats_la_SOURCES = \
	lib/stats/hist.c lib/stats/hist.h \
	lib/stats/stats.c lib/stats/stats.h \
	lib/stats/statset.c lib/stats/statset.h \
	lib/stats/table.c lib/stats/table.h \
	lib/stats/report.c lib/stats/report.h
lib_stats_libwfw_stats_la_LIBADD = -lm
