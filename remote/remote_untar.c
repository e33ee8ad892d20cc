/* SPDX-License-Identifier: MIT */
/*
 * Unpacking a SUT's tar archive as root, trusting nothing in it. The
 * archive is saved in the controller's private temporary directory first
 * and listed by tar itself (the program and file that then unpack it, so
 * the list is what gets unpacked, pax and GNU long names included); it is
 * refused whole, naming the member, unless every member is a plain file
 * or a directory inside one of the expected result directories, with no
 * absolute path, no '..' and no set-id bit. Only then is it unpacked,
 * without the SUT's owners and modes, and every file made 0644, every
 * directory 0755, as local results are.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sysstate/sysfile.h>

#include "remote.h"

/* Results are NAME/FILE and NAME/logs/FILE: deeper is not wultfw's. */
#define MAX_DEPTH 8

/*
 * The C-quoted string at q (tar --quoting-style=c) decoded into out;
 * a pointer past its closing quote, or NULL when it is not one.
 */
static const char *unquote(const char *q, char *out, size_t len)
{
	static const char esc[] = "a\ab\bf\fn\nr\rt\tv\v\\\\\"\"??";
	size_t n = 0;
	const char *e;

	if (*q++ != '"')
		return NULL;
	for (; *q && *q != '"'; q++) {
		char c = *q;

		if (c == '\\' && q[1] >= '0' && q[1] <= '7') {
			unsigned v = 0;

			for (int i = 0; i < 3 && q[1] >= '0' && q[1] <= '7'; i++)
				v = v * 8 + (unsigned)(*++q - '0');
			c = (char)(unsigned char)v;
		} else if (c == '\\') {
			e = q[1] ? strchr(esc, q[1]) : NULL;
			if (!e || (e - esc) % 2)
				return NULL;
			c = e[1];
			q++;
		}
		if (n + 1 >= len || !c)
			return NULL;
		out[n++] = c;
	}
	out[n] = '\0';
	return *q == '"' ? q + 1 : NULL;
}

/* A path component "..". */
static bool goes_up(const char *name)
{
	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
	return false;
}

/* How many directories down a member is. */
static int depth(const char *name)
{
	int d = 0;

	for (; *name; name++)
		d += *name == '/' && name[1] && name[1] != '/';
	return d;
}

/* NAME or NAME/... for one of names[]. */
static bool inside(const char *member, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (!strncmp(member, names[i], l) &&
		    (!member[l] || member[l] == '/'))
			return true;
	}
	return false;
}

/* What is wrong with a member of type `type` (ls's letter), or NULL. */
static const char *problem(char type, const char *mode, const char *name,
			   char **names, size_t n)
{
	switch (type) {
	case '-': case 'd':
		break;
	case 'l':
		return "a symbolic link";
	case 'h':
		return "a hard link";
	case 'c': case 'b':
		return "a device file";
	case 'p':
		return "a FIFO";
	default:
		return "neither a plain file nor a directory";
	}
	if (name[0] == '/')
		return "an absolute path";
	if (goes_up(name))
		return "a path through '..'";
	if (!inside(name, names, n))
		return "outside the result directories";
	if (depth(name) > MAX_DEPTH)
		return "nested deeper than wultfw's results";
	if (strchr("sS", mode[3]) || strchr("sS", mode[6]))
		return "set-user-ID or set-group-ID";
	return NULL;
}

int wfw_untar_check_line(const char *line, char **names, size_t n,
			 char *why, size_t len)
{
	const char *q = strchr(line, '"'), *bad;
	char name[4096];

	if (strlen(line) < 10 || !q || !unquote(q, name, sizeof(name))) {
		snprintf(why, len, "tar lists a member wultfw cannot read: %.200s",
			 line);
		return -1;
	}
	bad = problem(line[0], line, name, names, n);
	if (!bad)
		return 0;
	/* q is tar's quoted form: no control character reaches the terminal. */
	snprintf(why, len,
		 "refusing the SUT's archive: member %.1000s is %s; results hold only plain files and directories inside %s%s (nothing was unpacked)",
		 q, bad, names[0], n > 1 ? " and the other result directories" : "/");
	return -1;
}

/* tar's listing of archive, checked line by line; 0 or -1 with why. */
static int check_members(const char *archive, const char *err_path,
			 char **names, size_t n, char *why, size_t len)
{
	const char *argv[] = { "env", "LC_ALL=C", "tar", "-tvPf", archive,
			       "--numeric-owner", "--quoting-style=c", NULL };
	char *line = NULL, terr[512];
	int fds[2], err_fd, pid, st, ret = 0;
	size_t cap = 0;
	ssize_t got;
	FILE *f;

	err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (err_fd < 0 || pipe2(fds, O_CLOEXEC)) {
		snprintf(why, len, "cannot list the SUT's archive: %s", strerror(errno));
		if (err_fd >= 0)
			close(err_fd);
		return -1;
	}
	pid = wfw_spawn(argv, -1, fds[1], err_fd);
	close(fds[1]);
	close(err_fd);
	f = fdopen(fds[0], "r");
	while (f && !ret && (got = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		ret = wfw_untar_check_line(line, names, n, why, len);
	}
	/* Stop reading at the first bad member: tar ends on a closed pipe. */
	if (f)
		fclose(f);
	else
		close(fds[0]);
	free(line);
	st = wfw_spawn_wait(pid);
	if (!ret && st) {
		wfw_read_text_line(err_path, terr, sizeof(terr));
		snprintf(why, len, "cannot list the SUT's archive (%s)",
			 terr[0] ? terr : "tar failed");
		ret = -1;
	}
	return ret;
}

static int fail_errno(char *why, size_t len, const char *what,
		      const char *path)
{
	snprintf(why, len, "%s %s: %s", what, path, strerror(errno));
	return -1;
}

static int settle(int fd, const char *path, int depth, char *why, size_t len);

/*
 * One entry of the unpacked tree: a plain file made 0644, a directory
 * 0755 and settled in turn; anything else refused (tar's listing said
 * there was none: this is the check of what actually landed).
 */
static int settle_entry(int dfd, const char *name, const char *path,
			int depth, char *why, size_t len)
{
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return fail_errno(why, len, "cannot check", path);
	if (S_ISREG(st.st_mode) && st.st_nlink == 1)
		return fchmodat(dfd, name, 0644, 0) ?
		       fail_errno(why, len, "cannot set the mode of", path) : 0;
	if (!S_ISDIR(st.st_mode) || depth > MAX_DEPTH) {
		snprintf(why, len, "refusing %s from the SUT: %s", path,
			 S_ISDIR(st.st_mode) ? "nested deeper than wultfw's results" :
			 "not a plain file or directory");
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchmod(fd, 0755)) {
		if (fd >= 0)
			close(fd);
		return fail_errno(why, len, "cannot set the mode of", path);
	}
	return settle(fd, path, depth + 1, why, len);
}

/* Every entry of the directory fd (named path); closes fd. */
static int settle(int fd, const char *path, int depth, char *why, size_t len)
{
	char sub[4096];
	struct dirent *e;
	DIR *d = fdopendir(fd);
	int ret = 0;

	if (!d) {
		close(fd);
		return fail_errno(why, len, "cannot read", path);
	}
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		ret = settle_entry(dirfd(d), e->d_name, sub, depth, why, len);
	}
	closedir(d);
	return ret;
}

int wfw_untar(const char *archive, const char *dir, char **names, size_t n,
	      const char *err_path, char *why, size_t len)
{
	const char *argv[] = { "tar", "-xf", archive, "-C", dir,
			       "--no-same-owner", "--no-same-permissions", NULL };
	char terr[512];
	int err_fd, fd, ret = 0;
	struct stat st;
	size_t i;

	if (check_members(archive, err_path, names, n, why, len))
		return -1;
	err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ret = wfw_spawn_wait(wfw_spawn(argv, -1, -1, err_fd));
	if (err_fd >= 0)
		close(err_fd);
	if (ret) {
		wfw_read_text_line(err_path, terr, sizeof(terr));
		snprintf(why, len, "unpacking the results failed (%s)",
			 terr[0] ? terr : "tar failed");
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail_errno(why, len, "cannot read", dir);
	for (i = 0; i < n && !ret; i++) {
		/* One the archive lacks: moving it into place says so. */
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT)
			continue;
		ret = settle_entry(fd, names[i], names[i], 0, why, len);
	}
	close(fd);
	return ret;
}
