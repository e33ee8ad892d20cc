# Linux cpuidle sysfs access, linked into the core and into sources.
noinst_LTLIBRARIES += lib/cpuidle/libwfw_cpuidle.la
lib_cpuidle_libwfw_cpuidle_la_SOURCES = lib/cpuidle/cpuidle.c lib/cpuidle/cpuidle.h
