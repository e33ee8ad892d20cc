# kmod/: the kernel modules. Kbuild builds them, not automake, and neither
# target below is part of plain `make` or `make check`:
#   make modules [KDIR=/usr/src/linux-headers-VER]   build against a kernel
#   make check-vm                                     boot-test under QEMU
# Kbuild writes objects next to the sources, so we build in a copy under
# the build directory and the source tree stays clean.
KDIR ?= /lib/modules/$(shell uname -r)/build
# What is built (and installed, distributed, deployed, DKMS'd) comes from
# kmod/modules.list through kmod/modules.sh, the one reader of that list:
# the module sources below, the lib/ code some of them link
# (KMOD_SHARED, copied next to them), dkms.conf and deploy's table.
KMOD_LIST = sh $(srcdir)/kmod/modules.sh
KMOD_FILES = kmod/Kbuild kmod/Makefile kmod/modules.list kmod/modules.sh \
	kmod/wultfw_dev.h kmod/wultfw_ctrs.h kmod/README.md \
	$(shell $(KMOD_LIST) sources)
KMOD_SHARED = $(shell $(KMOD_LIST) shared)
# Headers shared with user space and BPF, from include/: the ioctl ABI
# (uapi/wultfw/) and the launch distance generator (wultfw/ldist.h). Copies
# of kmod/ (kmod-build, installed, DKMS, deploy) carry them in the same
# layout next to the sources.
KMOD_UAPI = include/uapi/wultfw/wultfw_ioctl.h include/uapi/wultfw/wultfw_ndl.h
KMOD_LDIST = include/wultfw/ldist.h
EXTRA_DIST += $(KMOD_FILES) tests/vm/run.sh tests/vm/init.sh tests/vm/vmtest.c \
	tests/vm/exp-kmod-hrt.cfg
EXTRA_DIST += tests/vm/vmtest_ndl.c tests/vm/ndl.sh tests/vm/ndl-build.sh \
	tests/vm/vmtest_ndl_kill.c

# Installed for 'wultfw deploy' (and DKMS users): $(pkgdatadir)/kmod/.
kmodsrcdir = $(pkgdatadir)
nobase_dist_kmodsrc_DATA = $(KMOD_FILES)
nobase_nodist_kmodsrc_DATA = kmod/dkms.conf
# Shared code some modules link: installed flat next to them.
kmodshareddir = $(pkgdatadir)/kmod
dist_kmodshared_DATA = $(KMOD_SHARED)
kmodldistdir = $(pkgdatadir)/kmod/wultfw
kmodldist_DATA = $(KMOD_LDIST)
kmoduapidir = $(pkgdatadir)/kmod/uapi/wultfw
dist_kmoduapi_DATA = $(KMOD_UAPI)

kmod/dkms.conf: $(srcdir)/kmod/modules.list $(srcdir)/kmod/modules.sh config.status
	$(AM_V_GEN)mkdir -p kmod && $(KMOD_LIST) dkms $(PACKAGE_VERSION) >$@.tmp && mv $@.tmp $@
# deploy's table of modules (rows included into an array in cmd_deploy.c).
kmod_table.h: $(srcdir)/kmod/modules.list $(srcdir)/kmod/modules.sh
	$(AM_V_GEN)$(KMOD_LIST) c >$@.tmp && mv $@.tmp $@
BUILT_SOURCES += kmod_table.h
CLEANFILES += kmod/dkms.conf kmod_table.h

modules:
	@test -d "$(KDIR)" || { echo "kernel build directory $(KDIR) not found:" \
	  "install the headers of the target kernel (Debian: linux-headers-amd64)" \
	  "or pass KDIR=..."; exit 1; }
	rm -rf kmod-build && mkdir -p kmod-build/uapi/wultfw kmod-build/wultfw
	for f in $(KMOD_FILES); do cp $(srcdir)/$$f kmod-build/$${f#kmod/}; done
	for f in $(KMOD_UAPI) $(KMOD_LDIST); do cp $(srcdir)/$$f kmod-build/$${f#include/}; done
	for f in $(KMOD_SHARED); do cp $(srcdir)/$$f kmod-build/; done
	$(MAKE) -C $(KDIR) M=$(abs_builddir)/kmod-build W=1 modules
	@echo "modules: kmod-build/*.ko"

# wultfw deploy against the installed kernel headers (a real build into a
# staging directory, ~5 s; skipped without headers).
TESTS += tests/integration/test_deploy.sh
EXTRA_DIST += tests/integration/test_deploy.sh

check-vm:
	WULTFW_BUILDDIR=$(abs_builddir) $(SHELL) $(srcdir)/tests/vm/run.sh

# check-all runs it through the test harness too.
SLOW_TESTS += tests/vm/run.sh

clean-local: clean-kmod
clean-kmod:
	rm -rf kmod-build

.PHONY: modules check-vm clean-kmod
