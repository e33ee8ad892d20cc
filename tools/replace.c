/* SPDX-License-Identifier: MIT */
/* Replacing an output only once the new one is whole (see replace.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replace.h"
#include "resultdir.h"

int wfw_replace_begin(struct wfw_replace *r, const char *tool, const char *in,
		      const char *final, bool force)
{
	struct stat si, so;

	r->final = final;
	r->tmp = NULL;
	if (stat(final, &so))
		return 0;
	if (!stat(in, &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
		fprintf(stderr, "wultfw %s: %s is the input %s itself: write to another name (and move it over afterwards)\n",
			tool, final, in);
		return -EINVAL;
	}
	if (!force || !S_ISREG(so.st_mode))
		return 0;	/* the open says "exists" or "cannot create" */
	if (asprintf(&r->tmp, "%s.partial-%ld", final, (long)getpid()) < 0) {
		r->tmp = NULL;
		fprintf(stderr, "wultfw %s: out of memory\n", tool);
		return -ENOMEM;
	}
	return 0;
}

int wfw_replace_commit(struct wfw_replace *r, const char *tool)
{
	int err;

	if (!r->tmp || !rename(r->tmp, r->final))
		return 0;
	err = errno;
	fprintf(stderr, "wultfw %s: cannot replace %s: %s; the new output is %s\n",
		tool, r->final, strerror(err), r->tmp);
	return -err;
}

/* Is `file` (resolved) inside directory `dir` (resolved)? */
static bool inside(const char *dir, const char *file)
{
	char d[PATH_MAX], f[PATH_MAX];
	size_t n;

	if (!realpath(dir, d) || !realpath(file, f))
		return false;
	n = strlen(d);
	return !strncmp(d, f, n) && (f[n] == '/' || !f[n] || (n == 1 && *d == '/'));
}

int wfw_replace_begin_dir(struct wfw_replace *r, const char *in,
			  const char *final, bool force, char *err, size_t errlen)
{
	struct stat st;
	int ret;

	r->final = final;
	r->tmp = NULL;
	if (stat(final, &st))
		return 0;
	if (inside(final, in)) {
		snprintf(err, errlen, "%s holds the input %s: write the new result to another directory",
			 final, in);
		return -EINVAL;
	}
	if (!force)
		return 0;	/* wfw_resultdir_create() says it exists */
	ret = wfw_resultdir_replaceable(final, err, errlen);
	if (ret)
		return ret;
	if (asprintf(&r->tmp, "%s.partial-%ld", final, (long)getpid()) < 0) {
		r->tmp = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int wfw_replace_commit_dir(struct wfw_replace *r, char *err, size_t errlen)
{
	int ret;

	if (!r->tmp)
		return 0;
	ret = wfw_remove_tree(r->final);
	if (!ret && rename(r->tmp, r->final))
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot replace %s: %s; the new result is %s",
			 r->final, strerror(-ret), r->tmp);
	return ret;
}

void wfw_replace_free(struct wfw_replace *r)
{
	free(r->tmp);
	r->tmp = NULL;
}
