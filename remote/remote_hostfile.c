/* SPDX-License-Identifier: MIT */
/* -H @FILE: hosts one a line, '#' comments and blank lines skipped. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "remote.h"

/* Host files: a lab's list, not a data set. */
#define HOSTS_FILE_MAX (1u << 20)

/* One line of a host file, comments and blanks gone: 0 or -1 with why. */
static int host_line(struct wfw_hosts *h, char *s, const char *path,
		     int line, char *why, size_t len)
{
	char bad[512];
	size_t n;

	s[strcspn(s, "#\r\n")] = '\0';
	s += strspn(s, " \t");
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	if (!*s)
		return 0;
	if (wfw_host_check(s, bad, sizeof(bad))) {
		snprintf(why, len, "%s:%d: %s%s", path, line, bad,
			 strpbrk(s, " \t,") ? " (one host a line)" : "");
		return -1;
	}
	wfw_hosts_add(h, s);
	return 0;
}

int wfw_hosts_read(struct wfw_hosts *h, const char *path, char *why,
		   size_t len)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	size_t total = 0;
	int line = 0, ret = 0;

	if (!f) {
		snprintf(why, len, "-H @%s: %s: give a file of host names, one a line",
			 path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(buf, sizeof(buf), f)) {
		size_t n = strlen(buf);

		line++;
		total += n;
		if (total > HOSTS_FILE_MAX || (n == sizeof(buf) - 1 && buf[n - 1] != '\n')) {
			snprintf(why, len, "%s:%d: %s", path, line, total > HOSTS_FILE_MAX ?
				 "the file is larger than 1 MiB: is it a host list?" :
				 "a line too long for a host name");
			ret = -1;
		} else {
			ret = host_line(h, buf, path, line, why, len);
		}
	}
	if (!ret && ferror(f)) {
		snprintf(why, len, "-H @%s: cannot read it (a directory?): give a file of host names",
			 path);
		ret = -1;
	}
	fclose(f);
	return ret;
}

