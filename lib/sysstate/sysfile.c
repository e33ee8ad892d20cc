/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysstate/sysfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *wfw_sysfs(const char *root)
{
	return root ? root : "/sys";
}

static int first_line(const char *path, bool skip_empty, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = -ENODATA;

	buf[0] = '\0';
	if (!f)
		return -errno;
	while (ret == -ENODATA && fgets(buf, (int)len, f)) {
		if (skip_empty && buf[0] == '\n')
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	if (ret && ferror(f))
		ret = -EIO;
	fclose(f);
	if (ret)
		buf[0] = '\0';
	return ret;
}

int wfw_read_line(const char *path, char *buf, size_t len)
{
	return first_line(path, false, buf, len);
}

int wfw_read_text_line(const char *path, char *buf, size_t len)
{
	return first_line(path, true, buf, len);
}

/* A decimal, then only the newline sysfs ends values with. */
static int parse_u64(const char *text, uint64_t *val)
{
	char *end;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	*val = strtoull(text, &end, 10);
	return errno || (*end && *end != '\n') ? -EINVAL : 0;
}

int wfw_read_u64(const char *path, uint64_t *val)
{
	char buf[32];
	int ret = wfw_read_line(path, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, val);
}

int wfw_pread_u64(int fd, uint64_t *val)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	return parse_u64(buf, val) ? -EIO : 0;
}
