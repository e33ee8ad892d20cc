# Files root acts on that another user could have put there (state files,
# CPU locks, files the environment names): owned by root or us, writable
# by no one else, checked on the opened file.
noinst_LTLIBRARIES += lib/trust/libwfw_trust.la
lib_trust_libwfw_trust_la_SOURCES = lib/trust/trust.c lib/trust/trust.h
