# Kernel-side datapoint -> wult columns, shared by hrt (eBPF) and the kmod sources.
noinst_LTLIBRARIES += lib/kside/libwfw_kside.la
lib_kside_libwfw_kside_la_SOURCES = lib/kside/kside.c lib/kside/kside.h
lib_kside_libwfw_kside_la_LIBADD = -lm
