/* SPDX-License-Identifier: MIT */
/* MSR_SMI_COUNT of one CPU, or why it cannot be read (attrib_smi.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attrib_smi.h"

/* The first line of root/rel into buf, newline cut; -errno. */
static int attrib_first_line(const char *root, const char *rel, char *buf,
			     size_t len)
{
	char path[512];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}

/* vendor_id of root/proc/cpuinfo into buf ("" if it has none). */
static void attrib_vendor(const char *root, char *buf, size_t len)
{
	char path[512], line[256];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "vendor_id", 9) || !(v = strchr(line, ':')))
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

/* The msr PMU's smi event on cpu: an fd, or -errno. */
static int attrib_smi_perf(const char *root, int cpu)
{
	struct perf_event_attr a;
	char buf[64], *end;
	unsigned long type;
	unsigned long long cfg;
	int fd;

	if (attrib_first_line(root, "/sys/bus/event_source/devices/msr/type",
			      buf, sizeof(buf)))
		return -ENOENT;
	type = strtoul(buf, &end, 10);
	if (end == buf || *end || type > UINT32_MAX)
		return -EINVAL;
	if (attrib_first_line(root, "/sys/bus/event_source/devices/msr/events/smi",
			      buf, sizeof(buf)))
		return -ENOENT;
	if (sscanf(buf, "event=%llx", &cfg) != 1)
		return -EINVAL;
	if (*root)
		return -ENODEV;	/* a fake tree has no PMU to open */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = cfg;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int attrib_smi_open(struct attrib_smi *s, int cpu, const char *root,
		    char *why, size_t len)
{
	char vendor[64], path[512];
	uint64_t v;
	int err, perr;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->cpu = cpu;
	attrib_vendor(root, vendor, sizeof(vendor));
	if (strcmp(vendor, "GenuineIntel")) {
		snprintf(why, len, "MSR_SMI_COUNT is Intel's and this CPU is "
			 "%s: SMIs are not counted here",
			 vendor[0] ? vendor : "not x86 (no vendor_id in /proc/cpuinfo)");
		return -EOPNOTSUPP;
	}
	snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", root, cpu);
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd >= 0) {
		snprintf(s->how, sizeof(s->how), "MSR_SMI_COUNT (/dev/cpu/%d/msr)",
			 cpu);
		err = attrib_smi_read(s, &v);
		if (!err)
			return 0;
		snprintf(why, len, "reading MSR_SMI_COUNT (0x%x) from %s "
			 "failed: %s (the CPU or its hypervisor does not "
			 "offer it)", ATTRIB_MSR_SMI_COUNT, path, strerror(-err));
		attrib_smi_close(s);
		return err;
	}
	err = -errno;
	perr = attrib_smi_perf(root, cpu);
	if (perr >= 0) {
		s->fd = perr;
		s->perf = 1;
		snprintf(s->how, sizeof(s->how), "MSR_SMI_COUNT (perf msr/smi)");
		return 0;
	}
	snprintf(why, len, "cannot read MSR_SMI_COUNT of CPU %d: %s: %s "
		 "(the msr driver, CONFIG_X86_MSR; modprobe msr), and the msr "
		 "PMU's smi event %s", cpu, path, strerror(-err),
		 perr == -ENOENT ? "does not exist" : strerror(-perr));
	return err;
}

int attrib_smi_read(struct attrib_smi *s, uint64_t *count)
{
	uint64_t v;
	ssize_t n;

	if (s->fd < 0)
		return -EBADF;
	if (s->perf)
		n = read(s->fd, &v, sizeof(v));
	else
		n = pread(s->fd, &v, sizeof(v), ATTRIB_MSR_SMI_COUNT);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(v))
		return -EIO;
	*count = s->perf ? v : (v & 0xffffffffULL);
	return 0;
}

void attrib_smi_close(struct attrib_smi *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
