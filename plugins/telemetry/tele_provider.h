/* SPDX-License-Identifier: MIT */
/*
 * telemetry: what a counter provider is. Each provider is one file with one
 * `struct tele_provider` (a small ops table); telemetry.c knows them only
 * through tele_providers[] (tele_providers.c). A device provider (DOCA,
 * a vendor's sysfs, ...) is one more file and one more line there:
 * doc/telemetry.md says how.
 */
#ifndef TELE_PROVIDER_H
#define TELE_PROVIDER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TELE_NAME_LEN 160

/* Where the providers read: "/sys" and "/proc", or a test's fake trees. */
struct tele_env {
	const char *sys;
	const char *proc;
};

/*
 * A table file (/proc/interrupts, /proc/stat) read once per sample and
 * shared by every counter of that file: with sync_start the sample's
 * counters come from one read of it.
 */
struct tele_snap {
	char path[PATH_MAX];
	char *buf;
	size_t cap;
	uint64_t gen;		/* sample generation buf was read for */
	int err;		/* its read's result: 0 or -errno */
};

/* One opened counter. The provider fills the part above `snap`. */
struct tele_counter {
	char name[TELE_NAME_LEN];	/* "net:lo:rx_packets" */
	const char *unit;		/* "packets", "ns", "kHz" */
	bool gauge;		/* a level (kHz, m°C): not unwrapped, no deltas */
	unsigned bits;		/* the width the source wraps at (32, 64) */
	char path[PATH_MAX];	/* file providers: the file read */
	char key[64];		/* table providers: the row; perf: its unit text */
	int col;		/* table providers: the column (a CPU) */
	int fd;			/* perf: the event; rtnl, ethtool: a socket; -1 otherwise */
	uint32_t aux;		/* the provider's own: rtnl's field offset, ethtool's stat count */
	struct tele_snap *snap;	/* table providers: set before open() */
};

/* list() calls this for each counter this machine offers. */
typedef void (*tele_add_fn)(void *arg, const char *name);

struct tele_provider {
	const char *name;	/* the PROVIDER in PROVIDER:ID */
	const char *ids;	/* what ID looks like, for `wultfw help` */
	/*
	 * Every counter this machine offers; 0, or -errno with `why` saying
	 * what is missing ("no cpufreq driver", "no PCIe device reports AER").
	 */
	int (*list)(const struct tele_env *env, tele_add_fn add, void *arg,
		    char *why, size_t len);
	/* Open counter `id` (the name after "PROVIDER:"); -errno and `why`. */
	int (*open)(const struct tele_env *env, const char *id,
		    struct tele_counter *c, char *why, size_t len);
	/*
	 * The raw value now. `gen` numbers the read: a table provider reads
	 * its file again only for a new gen. -ENOENT/-ENODEV: the counter is
	 * gone (interface removed, CPU offline).
	 */
	int (*read)(struct tele_counter *c, uint64_t gen, uint64_t *raw);
	void (*close)(struct tele_counter *c);
};

extern const struct tele_provider *const tele_providers[];
extern const size_t tele_n_providers;

/* ---- helpers for file-based providers (tele_file.c) ---- */

/* snprintf into c->path; -ENAMETOOLONG when it does not fit. */
int tele_set_path(struct tele_counter *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A small file, opened for this read, into buf (NUL-terminated); its
 * length or -errno. */
int tele_read_small(const char *path, char *buf, size_t len);
/* One unsigned number from a file, opened for this read (so a file that
 * goes away is seen going away). */
int tele_read_u64_path(const char *path, uint64_t *v);
/* read() of a provider whose counter is one number in c->path. */
int tele_read_path_counter(struct tele_counter *c, uint64_t gen,
			   uint64_t *raw);
void tele_close_nothing(struct tele_counter *c);
/* The snapshot's file read again unless it was read for `gen`. */
int tele_snap_read(struct tele_snap *s, uint64_t gen);
/* Each directory entry of `dir` not starting with '.', sorted. Returns the
 * count (free with tele_free_names; nothing to free, NULL, when 0) or
 * -errno. */
int tele_list_dir(const char *dir, char ***names);
void tele_free_names(char **names, int n);
/* "a:b:c" split at ':' into at most max parts (the last keeps the rest). */
int tele_split(char *s, char **parts, int max);

#endif
