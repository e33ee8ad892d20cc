/*
 * vmtest_ndl: exercises /dev/wultfw_ndl inside the test VM (no I210 there).
 * Prints "VMTEST PASS name" / "VMTEST FAIL name: why" like vmtest.c.
 *
 *   vmtest_ndl badargs             invalid ioctl arguments are rejected
 *   vmtest_ndl refuse IF|PCI WHY   attach must fail with ENODEV, WHY in
 *                                  the reason (an argument with ':' is a
 *                                  PCI address)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <uapi/wultfw/wultfw_ndl.h>

#define DEVPATH "/dev/" WULTFW_NDL_DEVNAME

static int failures;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("VMTEST PASS %s\n", name);
	} else {
		failures++;
		printf("VMTEST FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

static void attach_init(struct wultfw_ndl_attach *a, const char *ifname,
			const char *pci, unsigned int queue)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->queue = queue;
	if (ifname)
		snprintf(a->ifname, sizeof(a->ifname), "%s", ifname);
	if (pci)
		snprintf(a->pci, sizeof(a->pci), "%s", pci);
}

/* ioctl must fail with errno @want. */
static void expect(int fd, unsigned long cmd, void *arg, int want,
		   const char *name)
{
	int rc = ioctl(fd, cmd, arg);

	result(rc == -1 && errno == want, name, "ioctl returned %d errno %d "
	       "(%s), want errno %d (%s)", rc, rc ? errno : 0,
	       strerror(rc ? errno : 0), want, strerror(want));
}

static int badargs(void)
{
	struct wultfw_ndl_attach a;
	struct wultfw_ndl_rtd r = { .size = sizeof(r) };
	int fd = open(DEVPATH, O_RDWR), fd2;

	if (fd < 0) {
		result(0, "ndl-open", "%s: %s", DEVPATH, strerror(errno));
		return 1;
	}
	fd2 = open(DEVPATH, O_RDWR);
	result(fd2 < 0 && errno == EBUSY, "ndl-second-open-busy",
	       "second open gave %d (%s)", fd2, strerror(errno));
	if (fd2 >= 0)
		close(fd2);
	expect(fd, _IO(WULTFW_NDL_IOC_MAGIC, 99), NULL, ENOTTY, "ndl-unknown-cmd");
	expect(fd, WULTFW_NDL_IOC_RTD, &r, ENOTCONN, "ndl-rtd-unattached");
	expect(fd, WULTFW_NDL_IOC_DETACH, NULL, ENOTCONN, "ndl-detach-unattached");
	expect(fd, WULTFW_NDL_IOC_DETACH, (void *)1, EINVAL, "ndl-detach-arg");
	r.size = 8;
	expect(fd, WULTFW_NDL_IOC_RTD, &r, EINVAL, "ndl-rtd-size");
	expect(fd, WULTFW_NDL_IOC_RTD, (void *)16, EFAULT, "ndl-rtd-fault");
	expect(fd, WULTFW_NDL_IOC_ATTACH, (void *)16, EFAULT, "ndl-attach-fault");

	attach_init(&a, "lo", NULL, 0);
	a.size = 4;
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-size");
	attach_init(&a, "lo", NULL, 0);
	a.reserved[2] = 1;
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-reserved");
	attach_init(&a, "lo", "0000:00:03.0", 0);
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-both");
	result(strstr(a.why, "exactly one") != NULL, "ndl-attach-both-why",
	       "why: '%s'", a.why);
	attach_init(&a, NULL, NULL, 0);
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-none");
	attach_init(&a, NULL, NULL, 0);
	memset(a.ifname, 'x', sizeof(a.ifname));
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-unterminated");
	attach_init(&a, "lo", NULL, 4);
	expect(fd, WULTFW_NDL_IOC_ATTACH, &a, EINVAL, "ndl-attach-queue");
	result(strstr(a.why, "queue 4 out of range") != NULL,
	       "ndl-attach-queue-why", "why: '%s'", a.why);
	close(fd);
	/* The file is free again once closed. */
	fd = open(DEVPATH, O_RDWR);
	result(fd >= 0, "ndl-reopen", "%s", strerror(errno));
	if (fd >= 0)
		close(fd);
	return failures != 0;
}

static int refuse(const char *what, const char *why)
{
	struct wultfw_ndl_attach a;
	char name[64];
	int fd = open(DEVPATH, O_RDWR);

	snprintf(name, sizeof(name), "ndl-refuse-%s", what);
	if (fd < 0) {
		result(0, name, "%s: %s", DEVPATH, strerror(errno));
		return 1;
	}
	if (strchr(what, ':'))
		attach_init(&a, NULL, what, 0);
	else
		attach_init(&a, what, NULL, 0);
	if (ioctl(fd, WULTFW_NDL_IOC_ATTACH, &a) == 0)
		result(0, name, "attached to %s (%s)", a.ifname_out, a.pci_out);
	else
		result(errno == ENODEV && strstr(a.why, why), name,
		       "errno %d (%s), why '%s', want ENODEV and '%s'", errno,
		       strerror(errno), a.why, why);
	printf("ndl attach %s: %s\n", what, a.why);
	close(fd);
	return failures != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "badargs"))
		return badargs();
	if (argc == 4 && !strcmp(argv[1], "refuse"))
		return refuse(argv[2], argv[3]);
	fprintf(stderr, "usage: vmtest_ndl badargs | refuse IF|PCI WHY\n");
	return 2;
}
