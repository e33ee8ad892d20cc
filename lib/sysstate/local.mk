# The running system's state in sysfs and procfs, always below the sysfs
# root it is given (tests fake one): first lines and numbers of files,
# cpuidle (driver, governor, states, counters, disable flags), online
# CPUs, processes, and the machine's facts for info.yml; files opened only
# below the root (beneath.c). Linked into the core and into sources.
noinst_LTLIBRARIES += lib/sysstate/libwfw_sysstate.la
lib_sysstate_libwfw_sysstate_la_SOURCES = \
	lib/sysstate/sysfile.c lib/sysstate/sysfile.h \
	lib/sysstate/cpuidle.c lib/sysstate/cpuidle.h \
	lib/sysstate/cpus.c lib/sysstate/cpus.h \
	lib/sysstate/proc.c lib/sysstate/proc.h \
	lib/sysstate/facts.c lib/sysstate/facts.h \
	lib/sysstate/beneath.c lib/sysstate/beneath.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_sysstate
TESTS += tests/unit/test_sysstate
tests_unit_test_sysstate_SOURCES = tests/unit/test_sysstate.c
tests_unit_test_sysstate_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_sysstate_LDADD = lib/sysstate/libwfw_sysstate.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif

# Files opened only below a root: .., symbolic links, FIFOs (beneath.c).
if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_beneath
TESTS += tests/unit/test_beneath
tests_unit_test_beneath_SOURCES = tests/unit/test_beneath.c
tests_unit_test_beneath_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_beneath_LDADD = lib/sysstate/libwfw_sysstate.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
