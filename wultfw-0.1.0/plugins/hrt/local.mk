# hrt source: eBPF (tp_btf/cpu_idle + bpf_timer). Built only when configure
# found clang, bpftool, libbpf and the kernel's BTF (HAVE_HRT).
EXTRA_DIST += plugins/hrt/hrt.bpf.c plugins/hrt/hrt_event.h
if HAVE_HRT
pkglib_LTLIBRARIES += plugins/hrt/hrt.la
PRELOAD_PLUGINS += -dlpreopen plugins/hrt/hrt.la
plugins_hrt_hrt_la_SOURCES = plugins/hrt/hrt.c plugins/hrt/hrt_opts.c \
	plugins/hrt/hrt_opts.h plugins/hrt/hrt_event.h
nodist_plugins_hrt_hrt_la_SOURCES = plugins/hrt/hrt.skel.h
plugins_hrt_hrt_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/plugins/hrt \
	-I$(top_srcdir)/plugins/hrt $(LIBBPF_CFLAGS)
plugins_hrt_hrt_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
plugins_hrt_hrt_la_LIBADD = lib/kside/libwfw_kside.la \
	lib/cpuidle/libwfw_cpuidle.la $(LIBBPF_LIBS)

# vmlinux.h from the build machine's BTF, then the BPF object, then the
# skeleton that embeds it (CO-RE: relocated to the running kernel at load).
plugins/hrt/vmlinux.h:
	$(AM_V_GEN)$(MKDIR_P) plugins/hrt && \
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@
plugins/hrt/hrt.bpf.o: plugins/hrt/hrt.bpf.c plugins/hrt/hrt_event.h plugins/hrt/vmlinux.h
	$(AM_V_GEN)$(CLANG) -g -O2 -Wall -Werror -target bpf \
	-D__TARGET_ARCH_$(BPF_ARCH) -I$(top_builddir)/plugins/hrt \
	-I$(top_srcdir)/plugins/hrt $(LIBBPF_CFLAGS) \
	-c $(top_srcdir)/plugins/hrt/hrt.bpf.c -o $@
plugins/hrt/hrt.skel.h: plugins/hrt/hrt.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name hrt_bpf > $@.tmp && mv $@.tmp $@
$(plugins_hrt_hrt_la_OBJECTS): plugins/hrt/hrt.skel.h
CLEANFILES += plugins/hrt/vmlinux.h plugins/hrt/hrt.bpf.o plugins/hrt/hrt.skel.h
endif
