/* SPDX-License-Identifier: MIT */
/* MSR_SMI_COUNT of one CPU as a perf event, or why not (attrib_smi.h). */
#include "config.h"

#include <dirent.h>
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

#define MSR_PMU "/sys/bus/event_source/devices/msr"

/* The msr PMU's events below root, ", "-separated, into buf. */
static void attrib_msr_events(const char *root, char *buf, size_t len)
{
	char path[512];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s" MSR_PMU "/events", root);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) && n + 1 < len) {
		/* tsc, smi, ...; not tsc.unit, tsc.scale or . and .. */
		if (strchr(d->d_name, '.'))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      d->d_name);
	}
	closedir(dir);
	if (n >= len)
		buf[len - 1] = '\0';
}

/* The msr PMU's event on cpu: an fd, or -errno and why not. */
static int attrib_smi_perf(const char *root, int cpu, const char *event,
			   char *why, size_t len)
{
	struct perf_event_attr a;
	char buf[64], rel[256], evs[128], *end;
	unsigned long type;
	unsigned long long cfg = 0;
	int fd;

	if (attrib_first_line(root, MSR_PMU "/type", buf, sizeof(buf))) {
		snprintf(why, len, "the kernel has no msr PMU (%s)", MSR_PMU);
		return -ENOENT;
	}
	type = strtoul(buf, &end, 10);
	snprintf(rel, sizeof(rel), MSR_PMU "/events/%s", event);
	if (end == buf || *end || type > UINT32_MAX ||
	    (!attrib_first_line(root, rel, buf, sizeof(buf)) &&
	     sscanf(buf, "event=%llx", &cfg) != 1)) {
		snprintf(why, len, "%s%s: not a PMU type or event this reads",
			 root, rel);
		return -EINVAL;
	}
	if (attrib_first_line(root, rel, buf, sizeof(buf))) {
		attrib_msr_events(root, evs, sizeof(evs));
		snprintf(why, len, "the msr PMU has no %s event (it has: %s)",
			 event, evs[0] ? evs : "none");
		return -ENOENT;
	}
	if (*root) {
		snprintf(why, len, "a fake tree has no PMU to open");
		return -ENODEV;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = cfg;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		snprintf(why, len, "perf_event_open of msr/%s on CPU %d: %s",
			 event, cpu, strerror(-fd));
	}
	return fd;
}

/* Whether /dev/cpu/N/msr gives MSR_SMI_COUNT (the eBPF programs cannot). */
static int attrib_msr_dev(const char *root, int cpu)
{
	char path[512];
	uint64_t v;
	int fd, ok;

	snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", root, cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = pread(fd, &v, sizeof(v), ATTRIB_MSR_SMI_COUNT) == (ssize_t)sizeof(v);
	close(fd);
	return ok;
}

/* A name under the PMU's events/, never a path out of it. */
bool attrib_smi_name_ok(const char *event)
{
	return *event && !strchr(event, '/') && event[0] != '.' && strlen(event) <= 64;
}

int attrib_smi_open(struct attrib_smi *s, int cpu, const char *root,
		    const char *event, char *why, size_t len)
{
	char vendor[64], perr[256], dev[128] = "";
	int fd;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->cpu = cpu;
	if (!event)
		event = "smi";
	s->stand_in = strcmp(event, "smi") != 0;
	if (!attrib_smi_name_ok(event)) {
		snprintf(why, len, "smi_event '%.64s': give an msr PMU event's name (smi; tsc for tests)",
			 event);
		return -EINVAL;
	}
	attrib_vendor(root, vendor, sizeof(vendor));
	if (!s->stand_in && strcmp(vendor, "GenuineIntel")) {
		snprintf(why, len, "MSR_SMI_COUNT is Intel's and this CPU is "
			 "%s: SMIs are not counted here",
			 vendor[0] ? vendor : "not x86 (no vendor_id in /proc/cpuinfo)");
		return -EOPNOTSUPP;
	}
	fd = attrib_smi_perf(root, cpu, event, perr, sizeof(perr));
	if (fd >= 0) {
		s->fd = fd;
		if (s->stand_in)
			snprintf(s->how, sizeof(s->how), "msr/%s, a stand-in for tests: not SMIs",
				 event);
		else
			snprintf(s->how, sizeof(s->how), "MSR_SMI_COUNT (perf msr/smi)");
		return 0;
	}
	if (!s->stand_in && attrib_msr_dev(root, cpu))
		snprintf(dev, sizeof(dev), "; /dev/cpu/%d/msr has it, but the "
			 "eBPF programs read it only through the msr PMU", cpu);
	snprintf(why, len, "cannot count %s on CPU %d: %s%s", s->stand_in ?
		 event : "MSR_SMI_COUNT", cpu, perr, dev);
	return fd;
}

int attrib_smi_read(struct attrib_smi *s, uint64_t *count)
{
	uint64_t v;
	ssize_t n;

	if (s->fd < 0)
		return -EBADF;
	n = read(s->fd, &v, sizeof(v));
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(v))
		return -EIO;
	*count = v;
	return 0;
}

void attrib_smi_close(struct attrib_smi *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
