/* SPDX-License-Identifier: MIT */
/* driver_override dance; see bind.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sysstate/sysfile.h>

#include "bind.h"

void i210_bind_init(struct i210_bind *b, const char *sysfs, const char *addr)
{
	memset(b, 0, sizeof(*b));
	b->sysfs = wfw_sysfs(sysfs);
	snprintf(b->addr, sizeof(b->addr), "%s", addr);
}

int i210_bind_current(const struct i210_bind *b, char *drv, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/driver", b->sysfs,
		 b->addr);
	drv[0] = '\0';
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(drv, len, "%s", base ? base + 1 : link);
	return 0;
}

/* Write @val to sysfs file @rel (relative to the root). */
static int i210_bind_write(struct i210_bind *b, const char *rel,
			   const char *val, char *why, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", b->sysfs, rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		snprintf(why, len, "cannot open %s: %s", path, strerror(err));
		return -err;
	}
	n = write(fd, val, strlen(val));
	err = n < 0 ? errno : 0;
	if (close(fd) && !err)
		err = errno;
	if (err) {
		snprintf(why, len, "writing '%s' to %s: %s", val, path,
			 strerror(err));
		return -err;
	}
	if (b->hook)
		b->hook(b->hook_arg, path, val);
	return 0;
}

static int i210_bind_expect(struct i210_bind *b, const char *want,
			    char *why, size_t len)
{
	char cur[64];
	int err = i210_bind_current(b, cur, sizeof(cur));

	if (err) {
		snprintf(why, len, "cannot read the driver of %s: %s", b->addr,
			 strerror(-err));
		return err;
	}
	if (strcmp(cur, want)) {
		snprintf(why, len, "%s is bound to '%s', expected '%s' (see "
			 "dmesg)", b->addr, cur[0] ? cur : "no driver",
			 want[0] ? want : "no driver");
		return -EIO;
	}
	return 0;
}

int i210_bind_take(struct i210_bind *b, const char *ours, char *why, size_t len)
{
	char rel[PATH_MAX], dir[PATH_MAX], why2[256];
	struct stat st;
	int err;

	snprintf(dir, sizeof(dir), "%s/bus/pci/drivers/%s", b->sysfs, ours);
	if (stat(dir, &st)) {
		snprintf(why, len, "driver %s is not loaded (%s missing): "
			 "modprobe %s", ours, dir, ours);
		return -ENOENT;
	}
	err = i210_bind_current(b, b->orig, sizeof(b->orig));
	if (err) {
		snprintf(why, len, "cannot read the driver of %s: %s", b->addr,
			 strerror(-err));
		return err;
	}
	if (!strcmp(b->orig, ours)) {
		/* Left behind by a killed run: take it, give it to nobody. */
		b->orig[0] = '\0';
		b->moved = true;
		return 0;
	}

	b->moved = true;	/* from here on, restore undoes what we did */
	snprintf(rel, sizeof(rel), "bus/pci/devices/%s/driver_override", b->addr);
	err = i210_bind_write(b, rel, ours, why, len);
	if (!err && b->orig[0]) {
		snprintf(rel, sizeof(rel), "bus/pci/drivers/%s/unbind", b->orig);
		err = i210_bind_write(b, rel, b->addr, why, len);
	}
	if (!err) {
		snprintf(rel, sizeof(rel), "bus/pci/drivers/%s/bind", ours);
		err = i210_bind_write(b, rel, b->addr, why, len);
	}
	if (!err)
		err = i210_bind_expect(b, ours, why, len);
	if (err)
		i210_bind_restore(b, ours, why2, sizeof(why2));
	return err;
}

/* The device's driver_override, newline dropped ("" none or unreadable). */
static void i210_bind_override(const struct i210_bind *b, char *val, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/driver_override",
		 b->sysfs, b->addr);
	wfw_read_line(path, val, len);
}

/* Is the device (still) there? */
static bool i210_bind_present(const struct i210_bind *b)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", b->sysfs, b->addr);
	return !stat(path, &st);
}

int i210_bind_giveback(struct i210_bind *b, const char *ours, char *why,
		       size_t len)
{
	char rel[PATH_MAX], cur[64], ov[64];
	int err;

	if (!i210_bind_present(b))
		return 0;	/* unplugged: nothing of ours left */
	err = i210_bind_current(b, cur, sizeof(cur));
	if (!err && !strcmp(cur, ours)) {
		snprintf(rel, sizeof(rel), "bus/pci/drivers/%s/unbind", ours);
		err = i210_bind_write(b, rel, b->addr, why, len);
	}
	/* A newline clears the override -- ours only, not the user's. */
	i210_bind_override(b, ov, sizeof(ov));
	if (!err && !strcmp(ov, ours)) {
		snprintf(rel, sizeof(rel), "bus/pci/devices/%s/driver_override", b->addr);
		err = i210_bind_write(b, rel, "\n", why, len);
	}
	if (!err)
		err = i210_bind_current(b, cur, sizeof(cur));
	/* Someone bound it to a driver of their choice since: theirs now. */
	if (!err && cur[0] && strcmp(cur, b->orig) && strcmp(cur, ours))
		return 0;
	/* Unbound (by us, or a kill between unbind and bind): back to orig. */
	if (!err && !cur[0] && b->orig[0]) {
		snprintf(rel, sizeof(rel), "bus/pci/drivers/%s/bind", b->orig);
		err = i210_bind_write(b, rel, b->addr, why, len);
	}
	return err ? err : i210_bind_expect(b, b->orig, why, len);
}

int i210_bind_restore(struct i210_bind *b, const char *ours, char *why, size_t len)
{
	if (!b->moved)
		return 0;
	b->moved = false;
	return i210_bind_giveback(b, ours, why, len);
}
