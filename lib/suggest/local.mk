# "did you mean": shared by the core (keys, plugin names) and plugins
# (telemetry counter names).
noinst_LTLIBRARIES += lib/suggest/libwfw_suggest.la
lib_suggest_libwfw_suggest_la_SOURCES = lib/suggest/suggest.c lib/suggest/suggest.h lib/suggest/badopt.c \
	lib/suggest/names.c
