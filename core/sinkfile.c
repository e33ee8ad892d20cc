/* SPDX-License-Identifier: MIT */
/*
 * A sink's file: a buffered output (lib/datafmt/out.c) on a file the core
 * created inside the result directory. Each commit or write is a group of
 * whole rows; when the kernel takes only part of the buffer, the file is
 * cut back to the last whole row (the groups, then the sink's own `whole`
 * inside the group that broke), and those rows are what it keeps.
 *
 * The file is created as .NAME.tmp and takes its name once its first bytes
 * (the header the sink wrote at open) are on the disk, so a file that
 * exists under its name always starts with them, even after a kill -9 or
 * a power cut; a header the disk has no room for fails the sink's open
 * and leaves no file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic/atomic.h>
#include <atomic/durable.h>
#include <datafmt/out.h>
#include <datafmt/resultfile.h>

#include "log.h"
#include "sinkfile.h"

#define DEFAULT_SYNC_NS 1000000000ULL
#define DEFAULT_HANDOFF_ROWS 100000

/* Bytes in the buffer up to `end` hold `rows` whole rows (after the last). */
struct group {
	size_t end;
	uint64_t rows;
};

struct wultfw_file {
	struct wultfw_file *next;
	struct wfw_sinkfiles *fs;
	struct wultfw_file_spec spec;	/* the sink's, zero past its size */
	char *name;
	char *tmp;			/* REPLACE: written here, then renamed */
	struct wfw_out o;
	struct wfw_durable d;
	struct group *grp;		/* in o.buf, in order */
	size_t ngrp, capgrp;
	uint64_t direct_rows;		/* of a write too big for the buffer */
	uint64_t on_disk;		/* rows the kernel took */
	uint64_t kept;			/* after a failed write: rows in the file */
	bool cut;			/* a write failed: kept is what it holds */
	bool published;			/* under its name (not REPLACE) */
};

void wfw_sinkfiles_init(struct wfw_sinkfiles *fs, int dirfd, const char *dir)
{
	memset(fs, 0, sizeof(*fs));
	fs->dirfd = dirfd;
	fs->dir = dir;
}

void wfw_sinkfiles_free(struct wfw_sinkfiles *fs)
{
	for (size_t i = 0; i < fs->ncounts; i++) {
		free(fs->counts[i].name);
		free(fs->counts[i].key);
	}
	free(fs->counts);
	fs->counts = NULL;
	fs->ncounts = 0;
}

/* ---- what each file holds, for info.yml ---- */

/* f's entry among the counts, made with 0 rows when new; NULL: none. */
static struct wfw_filecount *count_of(struct wultfw_file *f)
{
	struct wfw_sinkfiles *fs = f->fs;
	struct wfw_filecount *c;

	if (!f->spec.kept_key)
		return NULL;
	for (size_t i = 0; i < fs->ncounts; i++)
		if (!strcmp(fs->counts[i].name, f->name))
			return &fs->counts[i];
	c = realloc(fs->counts, (fs->ncounts + 1) * sizeof(*c));
	if (!c)
		return NULL;
	fs->counts = c;
	c += fs->ncounts;
	c->name = strdup(f->name);
	c->key = strdup(f->spec.kept_key);
	c->rows = 0;
	if (!c->name || !c->key) {
		free(c->name);
		free(c->key);
		return NULL;
	}
	fs->ncounts++;
	return c;
}

/* The rows the file under f's name holds now: f's, or none (no file). */
static void count_rows(struct wultfw_file *f, bool in_place)
{
	struct wfw_filecount *c = count_of(f);

	if (c && in_place)
		c->rows = f->cut ? f->kept : f->on_disk;
}

/* ---- whole rows ---- */

/* The sink's own count of whole rows in part of a group, at most its rows. */
static size_t group_part(const struct wultfw_file *f, const char *p, size_t n,
			 uint64_t most, uint64_t *rows)
{
	size_t keep;

	*rows = 0;
	if (!f->spec.whole)
		return 0;
	keep = f->spec.whole(p, n, rows);
	if (*rows > most)
		*rows = most;
	return keep;
}

/* out.c's callback when the kernel took `done` bytes of p: what to keep. */
static size_t file_whole(void *arg, const char *p, size_t done)
{
	struct wultfw_file *f = arg;
	size_t start = 0, i, keep;
	uint64_t rows = 0, part;

	if (p != f->o.buf) {	/* a write that bypassed the buffer */
		keep = group_part(f, p, done, f->direct_rows, &part);
		f->kept = f->on_disk + part;
		f->cut = true;
		return keep;
	}
	for (i = 0; i < f->ngrp && f->grp[i].end <= done; i++) {
		rows += f->grp[i].rows;
		start = f->grp[i].end;
	}
	keep = start;
	if (i < f->ngrp)
		keep += group_part(f, p + start, done - start, f->grp[i].rows, &part);
	else
		part = 0;
	f->kept = f->on_disk + rows + part;
	f->cut = true;
	return keep;
}

static int add_group(struct wultfw_file *f, uint64_t rows)
{
	if (f->ngrp == f->capgrp) {
		size_t cap = f->capgrp ? 2 * f->capgrp : 16;
		struct group *g = realloc(f->grp, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		f->grp = g;
		f->capgrp = cap;
	}
	f->grp[f->ngrp++] = (struct group){ f->o.len, rows };
	return 0;
}

/* ---- failures ---- */

static const char *rows_word(const struct wultfw_file *f)
{
	return f->spec.rows_word ? f->spec.rows_word : "rows";
}

/* A failed write: what the file keeps and what to do. */
static int write_failed(struct wultfw_ctx *ctx, struct wultfw_file *f, int ret)
{
	const char *what = rows_word(f);

	if (!f->cut)	/* not a write of rows (publishing it, say) */
		return wultfw_fail(ctx, ret, "%s", f->o.msg);
	if (!f->published && !f->o.good_off)	/* its first bytes: the sink's open */
		return wultfw_fail(ctx, ret, "%s: cannot write its header: %s (no file left; free space and run again)",
				   f->o.path, strerror(-ret));
	if (f->fs->inflight)
		return wultfw_fail(ctx, ret, "%s (%" PRIu64 " %s received before the failed batch of %" PRIu64
				   ", the file keeps %" PRIu64 "; free space and run again)",
				   f->o.msg, f->fs->rows, what, f->fs->inflight, f->kept);
	return wultfw_fail(ctx, ret, "%s (%" PRIu64 " %s received, the file keeps %" PRIu64 "; free space and run again)",
			   f->o.msg, f->fs->rows, what, f->kept);
}

/* ---- opening ---- */

/* The temporary name beside the file (lib/atomic's). */
static char *temp_name(const char *name)
{
	size_t len = strlen(name) + 6;
	char *tmp = malloc(len);

	if (tmp)
		wfw_atomic_temp_name(name, tmp, len);
	return tmp;
}

/* The name the spec gives, inside the result directory. */
static int check_name(struct wultfw_ctx *ctx, const struct wultfw_file_spec *s)
{
	const struct wultfw_option *o = s->opt >= 0 ? &ctx->plugin->options[s->opt] : NULL;

	if (!s->name || !*s->name)
		return wultfw_fail_opt(ctx, s->opt, -EINVAL,
				       "empty: give a file name such as \"%s\"",
				       o && o->def ? o->def : "results.txt");
	if (!wfw_resultfile_inside(s->name))
		return wultfw_fail_opt(ctx, s->opt, -EINVAL,
				       "\"%s\" is outside the result directory", s->name);
	return 0;
}

/* The spec as far as the sink knows it; 0 past its size. */
static int copy_spec(struct wultfw_ctx *ctx, const struct wultfw_file_spec *in,
		     struct wultfw_file_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (in->size < offsetof(struct wultfw_file_spec, rows_word))
		return wultfw_fail(ctx, -EINVAL, "wultfw_file_open(): set spec.size = sizeof(struct wultfw_file_spec)");
	memcpy(out, in, in->size < sizeof(*out) ? in->size : sizeof(*out));
	out->size = sizeof(*out);
	return 0;
}

/* Is there anything (a link too) at `name` in dirfd? */
static bool taken(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

/*
 * The temporary file, its fd into f->o: REPLACE's anew each time, a
 * streaming file's only while its name is free (it never replaces one).
 */
static int create(struct wultfw_ctx *ctx, struct wfw_sinkfiles *fs,
		  struct wultfw_file *f)
{
	bool replace = f->spec.flags & WULTFW_FILE_REPLACE;
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
	char path[PATH_MAX + 256];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", fs->dir, f->name);
	if (!replace && taken(fs->dirfd, f->name))
		return wultfw_fail(ctx, -EEXIST, "%s: already exists, not overwriting it", path);
	fd = openat(fs->dirfd, f->tmp, flags | (replace ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		ret = -errno;
		return wultfw_fail(ctx, ret, "%s: cannot create %s/%s: %s", path, fs->dir,
				   f->tmp, strerror(-ret));
	}
	ret = wfw_out_attach(&f->o, fd, path, 0);
	if (ret)
		return wultfw_fail(ctx, ret, "%s", f->o.msg);
	f->o.whole = file_whole;
	f->o.whole_arg = f;
	return 0;
}

/* from renamed to `to` in dirfd, never over something there. */
static int rename_new(int dirfd, const char *from, const char *to)
{
	if (!renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* A file system without RENAME_NOREPLACE: the directory is the run's. */
	if (taken(dirfd, to))
		return -EEXIST;
	return renameat(dirfd, from, dirfd, to) ? -errno : 0;
}

/*
 * A streaming file under its name: what it holds on the disk first, so
 * the name never shows less. On failure its bytes stay in the temporary
 * file, and every later write fails the same way.
 */
static int publish(struct wultfw_ctx *ctx, struct wultfw_file *f)
{
	int dirfd = f->fs->dirfd, ret = 0;

	if (fdatasync(f->o.fd) && errno != EINVAL && errno != EROFS)
		ret = -errno;
	if (!ret)
		ret = rename_new(dirfd, f->tmp, f->name);
	if (ret) {
		f->o.err = ret;
		snprintf(f->o.msg, sizeof(f->o.msg), "%s: cannot put it in place: %s (what it holds is in %s/%s)",
			 f->o.path, strerror(-ret), f->fs->dir, f->tmp);
		return wultfw_fail(ctx, ret, "%s", f->o.msg);
	}
	f->published = true;
	wfw_durable_synced(&f->d);
	wfw_sync_dir_at(dirfd, f->name);
	return 0;
}

static void file_free(struct wultfw_file *f)
{
	wfw_out_close(&f->o);
	free(f->name);
	free(f->tmp);
	free(f->grp);
	free(f);
}

int wfw_sinkfile_open(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
		      const struct wultfw_file_spec *spec,
		      struct wultfw_file **fp)
{
	struct wultfw_file *f = calloc(1, sizeof(*f));
	int ret;

	*fp = NULL;
	if (!f)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	f->o.fd = -1;
	f->fs = fs;
	ret = copy_spec(ctx, spec, &f->spec);
	if (!ret)
		ret = check_name(ctx, &f->spec);
	if (!ret) {
		f->name = strdup(f->spec.name);
		f->tmp = f->name ? temp_name(f->name) : NULL;
		if (!f->tmp)
			ret = wultfw_fail(ctx, -ENOMEM, "out of memory");
	}
	/* The schedule first: publishing it is a sync. */
	wfw_durable_init(&f->d, f->spec.sync_ns ? f->spec.sync_ns : DEFAULT_SYNC_NS,
			 f->spec.handoff_rows ? f->spec.handoff_rows : DEFAULT_HANDOFF_ROWS);
	if (!ret)
		ret = create(ctx, fs, f);
	if (ret) {
		file_free(f);
		return ret;
	}
	f->next = fs->head;
	fs->head = f;
	*fp = f;
	return 0;
}

/* ---- writing ---- */

static bool streaming(const struct wultfw_file *f);

/*
 * The buffer to the kernel; its rows are in the file from then on, and a
 * streaming file is under its name.
 */
static int put(struct wultfw_ctx *ctx, struct wultfw_file *f)
{
	int ret = wfw_out_flush(&f->o);

	if (ret)
		return write_failed(ctx, f, ret);
	for (size_t i = 0; i < f->ngrp; i++)
		f->on_disk += f->grp[i].rows;
	f->ngrp = 0;
	return streaming(f) && !f->published ? publish(ctx, f) : 0;
}

/* Room for n more bytes in the buffer, grown for a big n. */
static int room(struct wultfw_ctx *ctx, struct wultfw_file *f, size_t n)
{
	char *grown;
	int ret;

	if (f->o.err)
		return write_failed(ctx, f, f->o.err);
	if (f->o.cap - f->o.len >= n)
		return 0;
	ret = put(ctx, f);
	if (ret || n <= f->o.cap)
		return ret;
	grown = realloc(f->o.buf, n);
	if (!grown)
		return wultfw_fail(ctx, -ENOMEM, "out of memory for a %zu-byte write", n);
	f->o.buf = grown;
	f->o.cap = n;
	return 0;
}

int wfw_sinkfile_reserve(struct wultfw_ctx *ctx, struct wultfw_file *f,
			 size_t n, void **p)
{
	int ret = room(ctx, f, n);

	*p = ret ? NULL : f->o.buf + f->o.len;
	return ret;
}

int wfw_sinkfile_commit(struct wultfw_ctx *ctx, struct wultfw_file *f,
			size_t n, uint64_t rows)
{
	if (f->o.err)
		return write_failed(ctx, f, f->o.err);
	if (n > f->o.cap - f->o.len)
		return wultfw_fail(ctx, -EINVAL, "%s: %zu bytes committed, fewer reserved: a plugin bug",
				   f->name, n);
	f->o.len += n;
	return add_group(f, rows) ? wultfw_fail(ctx, -ENOMEM, "out of memory") : 0;
}

int wfw_sinkfile_write(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       const void *p, size_t n, uint64_t rows)
{
	int ret;

	if (n > f->o.cap) {	/* past the buffer, straight to the kernel */
		ret = room(ctx, f, f->o.cap);
		if (ret)
			return ret;
		f->direct_rows = rows;
		ret = wfw_out_write(&f->o, p, n);
		if (ret)
			return write_failed(ctx, f, ret);
		f->on_disk += rows;
		return 0;
	}
	ret = room(ctx, f, n);
	if (ret)
		return ret;
	memcpy(f->o.buf + f->o.len, p, n);
	return wfw_sinkfile_commit(ctx, f, n, rows);
}

int wfw_sinkfile_flush(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       bool sync)
{
	int ret = put(ctx, f);

	if (ret)
		return ret;
	if (!sync) {
		/* Best effort: the fdatasync at the interval still follows. */
		(void)sync_file_range(f->o.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		wfw_durable_handed_off(&f->d);
		return 0;
	}
	if (fdatasync(f->o.fd) && errno != EINVAL && errno != EROFS) {
		ret = -errno;
		return wultfw_fail(ctx, ret, "%s: fdatasync: %s (the data may not be on the disk)",
				   f->o.path, strerror(-ret));
	}
	wfw_durable_synced(&f->d);
	return 0;
}

/* ---- the schedule ---- */

int wfw_sinkfiles_opened(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx)
{
	int ret = 0;

	for (struct wultfw_file *f = fs->head; f && !ret; f = f->next)
		if (streaming(f) && !f->published)
			ret = put(ctx, f);
	return ret;
}

/* A file written as it goes (not REPLACE), not failed. */
static bool streaming(const struct wultfw_file *f)
{
	return !(f->spec.flags & WULTFW_FILE_REPLACE) && !f->o.err;
}

/* What the sink holds back first, then to the kernel or the disk. */
static int seal_and_flush(struct wultfw_ctx *ctx, struct wultfw_file *f,
			  bool sync)
{
	int ret = f->spec.seal ? f->spec.seal(ctx, f) : 0;

	return ret ? ret : wfw_sinkfile_flush(ctx, f, sync);
}

int wfw_sinkfiles_wrote(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
			uint64_t rows)
{
	int ret = 0;

	/*
	 * A batch counts once its files took it: one whose flush fails does
	 * not, as the core does not count it (info.yml's datapoints_received).
	 */
	fs->inflight = rows;
	for (struct wultfw_file *f = fs->head; f && !ret; f = f->next) {
		if (!streaming(f))
			continue;
		switch (wfw_durable_due(&f->d, rows)) {
		case WFW_DURABLE_SYNC:
			ret = seal_and_flush(ctx, f, true);
			break;
		case WFW_DURABLE_HANDOFF:
			ret = seal_and_flush(ctx, f, false);
			break;
		default:
			break;
		}
	}
	if (!ret) {
		fs->rows += rows;
		fs->inflight = 0;
	}
	return ret;
}

void wfw_sinkfiles_unwrote(struct wfw_sinkfiles *fs, uint64_t rows)
{
	fs->rows -= rows;
	fs->inflight = rows;
}

int wfw_sinkfiles_sync(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx)
{
	int ret = 0;

	for (struct wultfw_file *f = fs->head; f && !ret; f = f->next)
		if (streaming(f) && (f->d.unsynced || f->o.len))
			ret = seal_and_flush(ctx, f, true);
	return ret;
}

/* ---- closing ---- */

static void unlink_file(struct wultfw_file *f)
{
	struct wultfw_file **pp = &f->fs->head;

	while (*pp && *pp != f)
		pp = &(*pp)->next;
	if (*pp)
		*pp = f->next;
}

/* REPLACE: on the disk, then in place of the old file (or dropped). */
static int replace(struct wultfw_ctx *ctx, struct wultfw_file *f, bool commit)
{
	int dirfd = f->fs->dirfd, ret = put(ctx, f);

	if (commit && !ret && fsync(f->o.fd))
		ret = wultfw_fail(ctx, -errno, "%s: fsync: %s", f->o.path, strerror(errno));
	if (commit && !ret && renameat(dirfd, f->tmp, dirfd, f->name))
		ret = wultfw_fail(ctx, -errno, "%s: cannot put it in place: %s",
				  f->o.path, strerror(errno));
	if (commit && !ret)
		wfw_sync_dir_at(dirfd, f->name);
	else
		unlinkat(dirfd, f->tmp, 0);
	/* The old file, if any, stays with its count. */
	count_rows(f, commit && !ret);
	return ret;
}

/*
 * A streaming file: the rest to the kernel, under its name if it is not
 * yet and holds whole rows; without `commit`, one not yet under its name
 * is dropped. A file that could not take its name keeps its rows in the
 * temporary one, as the error said.
 */
static int close_streaming(struct wultfw_ctx *ctx, struct wultfw_file *f,
			   bool commit)
{
	int ret = 0;

	if (commit || f->published)
		ret = put(ctx, f);
	if (commit && !f->published && f->cut && f->o.good_off)
		publish(ctx, f);
	if (!f->published && (!commit || (f->cut && !f->o.good_off)))
		unlinkat(f->fs->dirfd, f->tmp, 0);
	count_rows(f, f->published);
	return ret;
}

int wfw_sinkfile_close(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       bool commit)
{
	int ret, cret, failed = f->o.err;

	unlink_file(f);
	if (f->spec.flags & WULTFW_FILE_REPLACE)
		ret = replace(ctx, f, commit);
	else
		ret = close_streaming(ctx, f, commit);
	cret = wfw_out_close(&f->o);
	if (cret && !ret && !failed)	/* not the failure said already */
		ret = wultfw_fail(ctx, cret, "%s", f->o.msg);
	file_free(f);
	return ret;
}

void wfw_sinkfiles_close_all(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
			     bool keep)
{
	while (fs->head) {
		struct wultfw_file *f = fs->head;

		wfw_debug("%s: %s was left open: %s", ctx->plugin->name, f->name,
			  keep ? "closed" : "dropped");
		wfw_sinkfile_close(ctx, f, keep && !(f->spec.flags & WULTFW_FILE_REPLACE));
	}
}
