# Client of the wultfw kernel modules (/dev/wultfw), shared by the sources
# that measure through them (tdt, the kernel hrt device, later i210).
# Users also link lib/kside/libwfw_kside.la (not added here: convenience
# libraries inside convenience libraries give duplicate symbols).
noinst_LTLIBRARIES += lib/kmod/libwfw_kmod.la
lib_kmod_libwfw_kmod_la_SOURCES = lib/kmod/kmod.c lib/kmod/kmod.h
lib_kmod_libwfw_kmod_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/kmod/uapi
