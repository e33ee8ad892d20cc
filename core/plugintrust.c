/* SPDX-License-Identifier: MIT */
/*
 * Vetting a plugin file before it is opened. The checks are made on
 * descriptors: each component of the canonical path is opened with
 * O_NOFOLLOW from the one above and fstat'ed, so what is checked is what
 * the path names. The file is then loaded by that path, not through
 * /proc/self/fd/N: once no directory on the way lets another user rename
 * or replace an entry (none writable by others, or sticky and owned by a
 * trusted user above the plugin directory, its entries then fixed by their
 * trusted owners), only a trusted user could change what the path names
 * before lt_dlopen() opens it; and a library loaded as /proc/self/fd/N is
 * known by that name to libltdl (its symbol prefix), debuggers and
 * sanitizer reports.
 */
#include "config.h"

#include "plugintrust.h"
#include "trust/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What is vetted; the rules differ a little. */
enum kind { ABOVE, PLUGIN_DIR, PLUGIN_FILE };

static void user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (!getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) && res)
		snprintf(buf, len, "%s (uid %u)", res->pw_name, (unsigned)uid);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
}

/* Who else can write it: "every user" or "group NAME". */
static void writers(const struct stat *st, char *buf, size_t len)
{
	struct group gr, *res = NULL;
	char tmp[1024];

	if (st->st_mode & S_IWOTH)
		snprintf(buf, len, "every user");
	else if (!getgrgid_r(st->st_gid, &gr, tmp, sizeof(tmp), &res) && res)
		snprintf(buf, len, "group %s", res->gr_name);
	else
		snprintf(buf, len, "group %u", (unsigned)st->st_gid);
}

static int refuse_type(const char *plugin, const char *path,
		       const struct stat *st, enum kind k, char *err,
		       size_t errlen)
{
	if (k == PLUGIN_FILE)
		snprintf(err, errlen,
			 "plugin '%s': refusing %s: %s, not a plain file; put the plugin's .so itself there (wultfw follows no link to a plugin)",
			 plugin, path, S_ISLNK(st->st_mode) ? "a symbolic link" :
			 S_ISDIR(st->st_mode) ? "a directory" : "a special file");
	else
		snprintf(err, errlen, "plugin '%s': refusing %s: %s, not a directory",
			 plugin, path, S_ISLNK(st->st_mode) ? "a symbolic link" : "a file");
	return -EPERM;
}

static int refuse_owner(const char *plugin, const char *path,
			const struct stat *st, enum kind k, char *err,
			size_t errlen)
{
	char owner[160], me[64] = "";

	user_name(st->st_uid, owner, sizeof(owner));
	if (geteuid())
		snprintf(me, sizeof(me), " or uid %u (the user running wultfw)",
			 (unsigned)geteuid());
	snprintf(err, errlen,
		 "plugin '%s': refusing %s (%s owned by %s, mode %04o): not owned by root%s, so its owner could make wultfw run their code; fix with: chown root %s",
		 plugin, path, k == PLUGIN_FILE ? "file" : "directory", owner,
		 (unsigned)(st->st_mode & 07777), me, path);
	return -EPERM;
}

static int refuse_mode(const char *plugin, const char *path,
		       const struct stat *st, enum kind k, char *err,
		       size_t errlen)
{
	char owner[160], who[160];

	user_name(st->st_uid, owner, sizeof(owner));
	writers(st, who, sizeof(who));
	if (k == PLUGIN_DIR && (st->st_mode & S_ISVTX))
		snprintf(err, errlen,
			 "plugin '%s': refusing %s (directory owned by %s, mode %04o): %s can add files to it; a sticky directory like /tmp may lie above a plugin directory but not be one: move the plugins into a directory of their own",
			 plugin, path, owner, (unsigned)(st->st_mode & 07777), who);
	else
		snprintf(err, errlen,
			 "plugin '%s': refusing %s (%s owned by %s, mode %04o): %s can write it, and could make wultfw run their code; fix with: chmod go-w %s",
			 plugin, path, k == PLUGIN_FILE ? "file" : "directory",
			 owner, (unsigned)(st->st_mode & 07777), who, path);
	return -EPERM;
}

/*
 * Root runs a plugin's code: the file and every directory above it must
 * belong to a trusted user and be writable by nobody else; a directory
 * above the plugin directory may be sticky (like /tmp), as then only an
 * entry's owner can rename or remove it, and the entry is vetted next.
 */
static int vet(const char *plugin, const char *path, const struct stat *st,
	       enum kind k, char *err, size_t errlen)
{
	unsigned int flags = WFW_TRUST_ROOT_GROUP | WFW_TRUST_BINARY_OWNER |
			     (k == ABOVE ? WFW_TRUST_STICKY : 0);

	switch (wfw_trust_check(st, k == PLUGIN_FILE ? S_IFREG : S_IFDIR, flags)) {
	case WFW_TRUST_OK:
		return 0;
	case WFW_TRUST_BAD_TYPE:
		return refuse_type(plugin, path, st, k, err, errlen);
	case WFW_TRUST_BAD_OWNER:
		return refuse_owner(plugin, path, st, k, err, errlen);
	case WFW_TRUST_BAD_WRITERS:
		break;
	}
	return refuse_mode(plugin, path, st, k, err, errlen);
}

/* dir/entry into path (dir "/" gives "/entry"). */
static void join(char *path, size_t len, const char *dir, const char *entry)
{
	snprintf(path, len, "%s/%s", strcmp(dir, "/") ? dir : "", entry);
}

/*
 * Entry of the directory dfd (named dir), opened without following a
 * link and vetted as k: an O_PATH descriptor, or a negative errno
 * (-ENOENT when absent, without a message).
 */
static int open_vetted(int dfd, const char *dir, const char *entry,
		       enum kind k, const char *plugin, char *path, size_t len,
		       char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	join(path, len, dir, entry);
	fd = openat(dfd, entry, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (ret != -ENOENT)
			snprintf(err, errlen, "plugin '%s': cannot open %s: %s",
				 plugin, path, strerror(errno));
		return ret;
	}
	ret = fstat(fd, &st) ? -errno : vet(plugin, path, &st, k, err, errlen);
	if (ret) {
		if (ret != -EPERM)
			snprintf(err, errlen, "plugin '%s': cannot check %s: %s",
				 plugin, path, strerror(-ret));
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * The canonical directory `dir`, opened from / one component at a time,
 * each vetted (the last one as the plugin directory): an O_PATH
 * descriptor, or a negative errno with err filled.
 */
static int open_dir(const char *plugin, const char *dir, char *err,
		    size_t errlen)
{
	char sofar[PATH_MAX] = "/", comp[NAME_MAX + 1], next[PATH_MAX];
	const char *p = dir + strspn(dir, "/");
	struct stat st;
	int fd, ret;
	size_t n;

	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		ret = -errno;
	else
		ret = vet(plugin, "/", &st, *p ? ABOVE : PLUGIN_DIR, err, errlen);
	while (!ret && *p) {
		n = strcspn(p, "/");
		if (n >= sizeof(comp)) {
			ret = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		p += strspn(p, "/");
		ret = open_vetted(fd, sofar, comp, *p ? ABOVE : PLUGIN_DIR,
				  plugin, next, sizeof(next), err, errlen);
		close(fd);
		fd = ret;
		ret = ret < 0 ? ret : 0;
		snprintf(sofar, sizeof(sofar), "%s", next);
	}
	if (!ret)
		return fd;
	if (fd >= 0)
		close(fd);
	if (ret != -EPERM)	/* vanished or unreadable meanwhile */
		snprintf(err, errlen, "plugin '%s': cannot open %s: %s", plugin,
			 sofar, strerror(-ret));
	return ret == -ENOENT ? -EACCES : ret;
}

/* dir/entry exists (not followed if a link). */
static bool has_entry(const char *dir, const char *entry)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct stat st;

	join(path, sizeof(path), dir, entry);
	return !fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);
}

/* DIR/.libs/NAME.so of a build tree, vetted; its fd or a negative errno. */
static int open_libs(int dfd, const char *dir, const char *so,
		     const char *plugin, char *file, size_t len, char *err,
		     size_t errlen)
{
	char libs[PATH_MAX];
	int lfd, fd;

	lfd = open_vetted(dfd, dir, ".libs", PLUGIN_DIR, plugin, libs,
			  sizeof(libs), err, errlen);
	if (lfd < 0)
		return lfd;
	fd = open_vetted(lfd, libs, so, PLUGIN_FILE, plugin, file, len, err,
			 errlen);
	close(lfd);
	return fd;
}

int wfw_plugin_locate(const char *dir, const char *name, char *file,
		      size_t len, char *err, size_t errlen)
{
	char canon[PATH_MAX], so[NAME_MAX + 1], la[NAME_MAX + 1];
	int dfd, fd;

	snprintf(so, sizeof(so), "%s.so", name);
	snprintf(la, sizeof(la), "%s.la", name);
	/* Absent, or nothing of that name: nothing to load from it. */
	if (!realpath(dir, canon) ||
	    (!has_entry(canon, so) && !has_entry(canon, la)))
		return -ENOENT;
	dfd = open_dir(name, canon, err, errlen);
	if (dfd < 0)
		return dfd;
	fd = open_vetted(dfd, canon, so, PLUGIN_FILE, name, file, len, err,
			 errlen);
	if (fd == -ENOENT)
		fd = open_libs(dfd, canon, so, name, file, len, err, errlen);
	close(dfd);
	if (fd == -ENOENT) {
		snprintf(err, errlen,
			 "plugin '%s': %s/%s has no %s beside it or in .libs/: build or install the plugin again",
			 name, canon, la, so);
		return -ENOEXEC;
	}
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
