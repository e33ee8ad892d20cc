/* SPDX-License-Identifier: MIT */
/*
 * The files sinks write, opened and kept by the core (the host's file_*
 * ops, plugin.h: wultfw_file_open()): the name confined to the result
 * directory, mode 0644 (less the umask), buffered (lib/datafmt/out.c),
 * cut back to whole rows when a write fails, made durable on the sink's
 * schedule (lib/atomic/durable.c). Every file is written under a hidden
 * temporary name first: a streaming file takes its own name, never over
 * another, once what the sink's open() wrote (a header) is on the disk;
 * a REPLACE file at each close. What each file holds is counted for
 * info.yml.
 */
#ifndef WFW_SINKFILE_H
#define WFW_SINKFILE_H

#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

/* The rows one of a sink's files holds under its name (spec.kept_key). */
struct wfw_filecount {
	char *name;
	char *key;		/* info.yml key, the spec's kept_key */
	uint64_t rows;
};

/* One sink's open files, and the rows it took (for the schedule). */
struct wfw_sinkfiles {
	int dirfd;		/* the result directory, held open */
	const char *dir;	/* its path, for messages */
	uint64_t rows;		/* rows the sink's write() took, its files flushed */
	uint64_t inflight;	/* of a batch taken, its files not yet flushed */
	struct wultfw_file *head;
	struct wfw_filecount *counts;	/* its files with a kept_key, closed */
	size_t ncounts;
};

void wfw_sinkfiles_init(struct wfw_sinkfiles *fs, int dirfd, const char *dir);
/* The counts freed (the files are closed by then). */
void wfw_sinkfiles_free(struct wfw_sinkfiles *fs);

/* The host's ops; file_open's needs the sink's set, the rest find it. */
int wfw_sinkfile_open(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
		      const struct wultfw_file_spec *spec,
		      struct wultfw_file **f);
int wfw_sinkfile_reserve(struct wultfw_ctx *ctx, struct wultfw_file *f,
			 size_t n, void **p);
int wfw_sinkfile_commit(struct wultfw_ctx *ctx, struct wultfw_file *f,
			size_t n, uint64_t rows);
int wfw_sinkfile_write(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       const void *p, size_t n, uint64_t rows);
int wfw_sinkfile_flush(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       bool sync);
int wfw_sinkfile_close(struct wultfw_ctx *ctx, struct wultfw_file *f,
		       bool commit);

/*
 * After the sink's open() succeeded: what it wrote to its files (a
 * header) on the disk, and the files under their names. 0, or the first
 * failure (ctx->err says which file and why; the file is not left).
 */
int wfw_sinkfiles_opened(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx);
/*
 * The sink's write() took `rows`: each of its files to the kernel or the
 * disk when its schedule says so. 0, or the first failure (ctx->err).
 */
int wfw_sinkfiles_wrote(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
			uint64_t rows);
/*
 * A later sink failed the batch of `rows` this one took: the core counts
 * no row of it, so its messages say it apart ("received before the failed
 * batch of N").
 */
void wfw_sinkfiles_unwrote(struct wfw_sinkfiles *fs, uint64_t rows);
/* After the sink's flush(): whatever is new in its files to the disk. */
int wfw_sinkfiles_sync(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx);
/*
 * After the sink's close(): the files it left open, closed (and said);
 * `keep` false (its open() failed): dropped, none left under its name.
 */
void wfw_sinkfiles_close_all(struct wfw_sinkfiles *fs, struct wultfw_ctx *ctx,
			     bool keep);

#endif
