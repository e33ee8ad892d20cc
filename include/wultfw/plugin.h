/* SPDX-License-Identifier: MIT */
/*
 * wultfw plugin ABI: the one header a source or sink plugin includes.
 *
 * A plugin is a libtool module exporting exactly one symbol, a
 * `struct wultfw_plugin` descriptor, declared with WULTFW_PLUGIN(name) so
 * that static builds can preload it. The core checks abi_version before it
 * touches anything else in the descriptor.
 *
 * Data model: a source declares a schema (columns) and fills batches of rows;
 * each cell is 64 bits, an integer or a double as the column says. Integers
 * are raw (nanoseconds, cycles, counts); a column's divisor says how to show
 * them (divisor 1000 turns raw ns into microseconds with three decimals), so
 * no precision is lost before a sink decides what to do with it.
 */
#ifndef WULTFW_PLUGIN_H
#define WULTFW_PLUGIN_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <wultfw/ldist.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The major version: bumped on any change a plugin built before it would
 * misread. The core refuses a plugin of another major version in one line
 * naming its file and both versions.
 *
 * Within a major version structures only grow at their end, and each one
 * that can grow says how big it is: the descriptor (struct wultfw_plugin)
 * its `size` as the plugin was built, the structures the core hands a
 * plugin (struct wultfw_host, wultfw_ctx, wultfw_source_info,
 * wultfw_source_params, wultfw_run_info, wultfw_run_summary) their `size`
 * as the core was built (the openat2/clone3 way). The core reads a field a
 * descriptor ends before as zero; a plugin asks WULTFW_HAS(ptr, field)
 * before it uses a field added after its major version began. Arrays
 * (options, columns, batches) change only with the major version.
 *
 * Version 3 (from 2):
 * - explicit sizes as above (v2 read the descriptor symbol's ELF size);
 * - an option may declare where the core says whether it was given
 *   (.set_off), so a plugin needs ctx->opts for nothing;
 * - sinks write their files through the core (wultfw_file_open(): the name
 *   confined to the result directory, exclusive create, buffering,
 *   full-disk handling, whole-row counting, durability, atomic replace);
 * - a sampler declares its period (wultfw_source_info.period_ns) and the
 *   core calls read() on that schedule;
 * - <wultfw/kside.h> names begin with wultfw_ like the rest.
 * Version 2 (from 1): option bounds, choices, units and config structs
 * (ctx->cfg); the run parameters a source takes (.ldist).
 * Moving a plugin: wultfw-plugin(7), "Moving a plugin to ABI 3".
 */
#define WULTFW_PLUGIN_ABI_VERSION 3U

/*
 * Does the structure at p -- one with a `size` field, made by the other
 * side -- hold field f? Only fields added after ABI 3 began need asking.
 */
#define WULTFW_HAS(p, f) \
	((p)->size >= offsetof(__typeof__(*(p)), f) + sizeof((p)->f))

enum wultfw_kind {
	WULTFW_KIND_SOURCE = 1,
	WULTFW_KIND_SINK = 2,
	WULTFW_KIND_ANNOTATOR = 3,	/* adds columns to each datapoint */
};

/* ---- options: declared by the plugin, parsed and validated by the core ---- */

enum wultfw_opt_type {
	WULTFW_OPT_BOOL,	/* true / false */
	WULTFW_OPT_INT,		/* 64-bit signed integer */
	WULTFW_OPT_FLOAT,	/* double; integers accepted */
	WULTFW_OPT_STRING,
	WULTFW_OPT_DURATION,	/* "10us", "4ms", "1.5s"; value in ns */
	WULTFW_OPT_STRING_LIST,	/* [ "a", "b" ] */
	WULTFW_OPT_FLOAT_LIST,	/* ( 50, 99.9 ) or [ 50.0, 99.9 ] */
};

/* How each type lands in a plugin's config struct (see .off below). */
struct wultfw_strs {			/* WULTFW_OPT_STRING_LIST */
	const char *const *v;
	size_t n;
};

struct wultfw_floats {			/* WULTFW_OPT_FLOAT_LIST */
	const double *v;
	size_t n;
};

struct wultfw_option {
	const char *name;
	enum wultfw_opt_type type;
	/*
	 * Default, written as text: "true", "90", "0.5", "auto", "10us",
	 * lists comma-separated ("50,90,99.9"). NULL: unset unless given.
	 */
	const char *def;
	const char *help;
	/*
	 * Bounds, written as text like def ("1", "0.5", "1us"), inclusive;
	 * NULL: none. INT, FLOAT, DURATION, and each element of a FLOAT_LIST.
	 */
	const char *min;
	const char *max;
	/* STRING, STRING_LIST elements: the allowed values, NULL-terminated. */
	const char *const *choices;
	/*
	 * Shown by `wultfw help`: "datapoints". Sinks: the core also reads
	 * three units. "file": a STRING option naming a file the sink
	 * writes in the result directory (as an option called "file"), so
	 * two writers of one file are refused at load time. "column" and
	 * "ENUM column": a STRING or STRING_LIST option naming the source's
	 * numeric columns (list elements may be fnmatch(3) patterns) or an
	 * ENUM column, checked against the source's columns where the file
	 * sets it to other than the default.
	 */
	const char *unit;
	/*
	 * offsetof(struct your_cfg, field), used when the descriptor's
	 * cfg_size is not 0; the field's type follows the option's: bool,
	 * int64_t, double, const char * (NULL while unset), uint64_t (ns),
	 * struct wultfw_strs, struct wultfw_floats.
	 */
	size_t off;
	/*
	 * For an option whose absence means something (no default: "not
	 * given" is a case of its own): WULTFW_SET_FLAG(struct your_cfg,
	 * field) names a bool in the config struct the core sets when the
	 * option has a value (given in the file, or by a default). 0: none.
	 */
	size_t set_off;
};

/* .set_off of an option: the bool `field` of config struct `type`. */
#define WULTFW_SET_FLAG(type, field) (offsetof(type, field) + 1)

struct wultfw_value {
	bool set;		/* given in the file or by a default */
	union {
		bool b;
		int64_t i;
		double f;
		const char *s;
		uint64_t ns;
		struct wultfw_strs strs;
		struct wultfw_floats floats;
	};
};

/* ---- schema and batches ---- */

enum wultfw_col_type {
	WULTFW_COL_INT,		/* cell.i, shown as i / divisor */
	WULTFW_COL_FLOAT,	/* cell.f */
	WULTFW_COL_ENUM,	/* cell.i indexes enum_names; -1 is empty */
};

struct wultfw_column {
	const char *name;	/* wult's name: "WakeLatency", "LDist", ... */
	const char *unit;	/* unit of the shown value: "us", "ns", "%", "" */
	enum wultfw_col_type type;
	uint32_t divisor;	/* INT: 1 or a power of ten; 0 means 1 */
	const char *const *enum_names;	/* ENUM only */
	size_t n_enum;
};

struct wultfw_schema {
	size_t ncols;
	const struct wultfw_column *cols;
};

union wultfw_cell {
	int64_t i;
	double f;
};

/* An INT cell with no value (a counter that went away): written empty. */
#define WULTFW_CELL_EMPTY INT64_MIN
/*
 * A FLOAT cell with no value: a quiet NaN with this bit pattern in cell.i
 * (an empty CSV field in a FLOAT column); written back empty.
 */
#define WULTFW_FLOAT_EMPTY_BITS ((int64_t)0x7ff80000000e4b7eLL)

/* Row-major: cell (r, c) is cells[r * ncols + c]. */
struct wultfw_batch {
	union wultfw_cell *cells;
	size_t ncols;
	size_t rows;		/* rows filled */
	size_t capacity;	/* rows available */
	uint64_t discarded;	/* source: datapoints dropped as inconsistent */
};

static inline union wultfw_cell *wultfw_row(struct wultfw_batch *b, size_t r)
{
	return &b->cells[r * b->ncols];
}

static inline const union wultfw_cell *
wultfw_crow(const struct wultfw_batch *b, size_t r)
{
	return &b->cells[r * b->ncols];
}

/* ---- the context every op receives ---- */

enum wultfw_log_level {
	WULTFW_LOG_ERROR,
	WULTFW_LOG_WARN,
	WULTFW_LOG_INFO,
	WULTFW_LOG_DEBUG,
};

struct wultfw_ctx;

/*
 * Undoing a change to a system setting: write `value` to the file `path`
 * (sysfs, procfs). A change is undone by a few of these, in order.
 */
struct wultfw_restore_step {
	const char *path;
	const char *value;
};

struct wultfw_file;
struct wultfw_file_spec;

/* Services the core offers to plugins, so plugins never link against it. */
struct wultfw_host {
	uint32_t size;		/* sizeof(struct wultfw_host) of the core */
	void (*log)(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		    const char *msg);
	/* Adds "key: value" to the experiment's info.yml. */
	void (*info)(struct wultfw_ctx *ctx, const char *key,
		     const char *value);
	/* True once the user asked to stop (SIGINT/SIGTERM). */
	bool (*stopping)(struct wultfw_ctx *ctx);
	/* See wultfw_remember(). */
	int (*remember)(struct wultfw_ctx *ctx, const char *what,
			const struct wultfw_restore_step *steps, size_t n);
	int (*undo)(struct wultfw_ctx *ctx, int id);
	void (*forget)(struct wultfw_ctx *ctx, int id);
	/* See wultfw_remember_plugin(). */
	int (*remember_plugin)(struct wultfw_ctx *ctx, const char *what,
			       const char *data);
	/* Sinks' files: see wultfw_file_open() and the calls after it. */
	int (*file_open)(struct wultfw_ctx *ctx,
			 const struct wultfw_file_spec *spec,
			 struct wultfw_file **f);
	int (*file_reserve)(struct wultfw_ctx *ctx, struct wultfw_file *f,
			    size_t n, void **p);
	int (*file_commit)(struct wultfw_ctx *ctx, struct wultfw_file *f,
			   size_t n, uint64_t rows);
	int (*file_write)(struct wultfw_ctx *ctx, struct wultfw_file *f,
			  const void *p, size_t n, uint64_t rows);
	int (*file_flush)(struct wultfw_ctx *ctx, struct wultfw_file *f,
			  bool sync);
	int (*file_close)(struct wultfw_ctx *ctx, struct wultfw_file *f,
			  bool commit);
};

struct wultfw_ctx {
	uint32_t size;		/* sizeof(struct wultfw_ctx) of the core */
	const struct wultfw_plugin *plugin;	/* the descriptor, as the core
						   read it (zero past its size) */
	/* One per option, table order (plugins read ctx->cfg instead). */
	const struct wultfw_value *opts;
	const void *cfg;	/* the plugin's config struct (cfg_size bytes),
				   every option at its .off; NULL without one */
	void *priv;				/* the plugin's own state */
	const struct wultfw_host *host;
	void *host_data;
	int verbosity;				/* 0 quiet, 1 normal, 2+ verbose */
	int cpu;		/* sources: the measured CPU, known before open();
				   -1 where there is none (sinks, wultfw scan) */
	const char *sysfs_root;	/* where sysfs is: "/sys", or a test's fake
				   tree; never NULL in an op */
	/*
	 * Sources, from open() on: the measured CPU's cpuidle state names in
	 * state order (n_cstates of them), or none and no_cstates saying why.
	 */
	const char *const *cstate_names;
	int n_cstates;
	const char *no_cstates;
	int bad_opt;		/* option at fault in the last failure, or -1 */
	char err[512];				/* why the last op failed */
};

/*
 * Record why an op failed and return `ret` (a negative errno), so a plugin
 * writes: return wultfw_fail(ctx, -ENODEV, "no I210 at %s", addr);
 * The core prints the message prefixed with the plugin's name.
 */
static inline int wultfw_fail(struct wultfw_ctx *ctx, int ret,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int wultfw_fail(struct wultfw_ctx *ctx, int ret,
			      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * The same, blaming option `opt` (its index in the option table), so the
 * core can point at the line of the experiment file that set it.
 */
static inline int wultfw_fail_opt(struct wultfw_ctx *ctx, int opt, int ret,
				  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int wultfw_fail_opt(struct wultfw_ctx *ctx, int opt, int ret,
				  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
	ctx->bad_opt = opt;
	return ret;
}

static inline void wultfw_log(struct wultfw_ctx *ctx,
			      enum wultfw_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void wultfw_log(struct wultfw_ctx *ctx,
			      enum wultfw_log_level level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->host && ctx->host->log)
		ctx->host->log(ctx, level, msg);
}

/*
 * A warning about option `opt` (its index in the option table): the
 * experiment runs, but not quite as that setting asks (a counter this
 * machine lacks, a period it cannot keep). The core prints it at the
 * setting's file:line; `wultfw --check`, which opens sources and
 * collectors quietly, shows such warnings of open() there. ctx->bad_opt
 * says the option only while the host logs it.
 */
static inline void wultfw_warn_opt(struct wultfw_ctx *ctx, int opt,
				   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void wultfw_warn_opt(struct wultfw_ctx *ctx, int opt,
				   const char *fmt, ...)
{
	int was = ctx->bad_opt;
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->bad_opt = opt;
	if (ctx->host && ctx->host->log)
		ctx->host->log(ctx, WULTFW_LOG_WARN, msg);
	ctx->bad_opt = was;
}

static inline void wultfw_info(struct wultfw_ctx *ctx, const char *key,
			       const char *value)
{
	if (ctx->host && ctx->host->info)
		ctx->host->info(ctx, key, value);
}

static inline bool wultfw_stopping(struct wultfw_ctx *ctx)
{
	return ctx->host && ctx->host->stopping && ctx->host->stopping(ctx);
}

/*
 * Changing a system setting (a driver binding, a sysfs knob): BEFORE the
 * change, tell the core how to undo it -- `n` file writes, done in order
 * -- and `what` it is, for the user ("0000:01:00.0 bound to wultfw_i210
 * instead of igb"). The core keeps it in a state file on disk (fsynced),
 * puts it back if wultfw dies (a fatal signal, exit), and a later wultfw
 * restores it after kill -9 or a power cut; the same mechanism the core
 * uses for C-states and the cpuidle governor. The files must be regular
 * files below ctx->sysfs_root: a later wultfw writes back nowhere else,
 * and the core refuses any other. Returns an id >= 0, or a negative errno
 * (then do not make the change; ctx->err says why).
 * Undo with wultfw_undo(ctx, id) (the core writes the steps) or, after
 * putting it back yourself, wultfw_forget(ctx, id).
 */
static inline int wultfw_remember(struct wultfw_ctx *ctx, const char *what,
				  const struct wultfw_restore_step *steps,
				  size_t n)
{
	if (!ctx->host || !ctx->host->remember)
		return wultfw_fail(ctx, -ENOSYS, "this wultfw cannot remember settings to restore");
	return ctx->host->remember(ctx, what, steps, n);
}

static inline int wultfw_undo(struct wultfw_ctx *ctx, int id)
{
	return ctx->host && ctx->host->undo ? ctx->host->undo(ctx, id) : -ENOSYS;
}

static inline void wultfw_forget(struct wultfw_ctx *ctx, int id)
{
	if (ctx->host && ctx->host->forget)
		ctx->host->forget(ctx, id);
}

/* ---- sources ---- */

/* Filled by a source's open(): what it is and what it can do here. */
struct wultfw_source_info {
	uint32_t size;			/* sizeof of the core's; it zeroes it */
	const char *devid;		/* info.yml devid: "timer", "tdt" */
	const char *devdescr;		/* info.yml devdescr */
	uint64_t resolution_ns;		/* timestamp resolution */
	uint64_t ldist_min_ns;		/* shortest launch distance */
	uint64_t ldist_max_ns;		/* longest launch distance */
	uint64_t ldist_gran_ns;		/* granularity; 0 means 1 ns */
	const struct wultfw_schema *schema;
	/*
	 * info.yml "toolname": the wult-family tool whose report tooling
	 * reads these results -- "wult" (NULL means "wult") or "ndl". wult's
	 * `report` refuses results whose toolname is not its own.
	 */
	const char *report_tool;
	/*
	 * A sampler that takes one sample per read(), at the moment it is
	 * called, sets this in open(). As a collector the core then asks it
	 * once per batch of the main source instead of reading in a loop.
	 */
	bool on_demand;
	/*
	 * A sampler that takes one sample per read() every period sets the
	 * period here in open(): the core calls read() once per period_ns
	 * (the first one period after start(), then on a fixed grid; a
	 * deadline it missed is skipped, not made up), never in between,
	 * and not after stop(). read() then takes its sample at once and
	 * never sleeps. 0: the source paces itself (read() waits up to its
	 * timeout for what is due). Ignored with on_demand.
	 */
	uint64_t period_ns;
	/*
	 * With period_ns: the grid's deadlines are multiples of the period
	 * on CLOCK_MONOTONIC, so samplers of one period sample together.
	 */
	bool period_aligned;
	/*
	 * A source that measures a CPU names the columns of each
	 * datapoint's interval, so annotators (doc/attribution.md) can say
	 * what happened in it: an INT column of CLOCK_MONOTONIC ns when the
	 * timed event was due ("LTime"), and the INT ns column of the latency
	 * that ends the interval ("WakeLatency", "IntrLatency"). Both in
	 * every row, or NULL: no annotator can join this source.
	 */
	const char *interval_start;
	const char *interval_latency;
};

/* Handed to start(): checked by the core against wultfw_source_info. */
struct wultfw_source_params {
	uint32_t size;			/* sizeof of the core's */
	int cpu;			/* measured CPU */
	uint64_t ldist_from_ns;		/* launch distance range, inclusive */
	uint64_t ldist_to_ns;
	uint64_t seed;			/* for the launch distance generator */
};

/* Return values of read() besides negative errnos. */
#define WULTFW_READ_OK	0
#define WULTFW_READ_END	1	/* the source has no more datapoints */

struct wultfw_source_ops {
	/*
	 * Check this source can run here and fill *info. On failure, say
	 * exactly why (not root, no BTF, no such device, ...) with
	 * wultfw_fail() and return a negative errno.
	 */
	int (*open)(struct wultfw_ctx *ctx, struct wultfw_source_info *info);
	int (*start)(struct wultfw_ctx *ctx,
		     const struct wultfw_source_params *params);
	/*
	 * Append up to b->capacity - b->rows rows, waiting at most timeout_ns
	 * for the first. Zero rows on timeout is fine. Add dropped
	 * inconsistent datapoints to b->discarded. Rows appended before an
	 * error return are still used. After stop(), the core calls read()
	 * with timeout 0 to drain what the source still holds, and does so
	 * past the datapoint limit too, for b->discarded alone.
	 */
	int (*read)(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		    uint64_t timeout_ns);
	int (*stop)(struct wultfw_ctx *ctx);
	void (*close)(struct wultfw_ctx *ctx);
};

/* ---- sinks ---- */

struct wultfw_run_info {
	uint32_t size;			/* sizeof of the core's */
	const char *experiment;		/* experiment name */
	const char *outdir;		/* this experiment's result directory */
	int cpu;
	const struct wultfw_source_info *source;
	const struct wultfw_schema *schema;
};

struct wultfw_run_summary {
	uint32_t size;			/* sizeof of the core's */
	uint64_t datapoints;
	uint64_t discarded;
	double duration_s;
	bool interrupted;		/* stopped by a signal */
	bool failed;			/* stopped by an error */
};

struct wultfw_sink_ops {
	int (*open)(struct wultfw_ctx *ctx, const struct wultfw_run_info *run);
	int (*write)(struct wultfw_ctx *ctx, const struct wultfw_batch *b);
	/*
	 * The source went quiet, or the run ends: what the sink holds goes
	 * out now. The core then puts its files' data on the disk.
	 */
	int (*flush)(struct wultfw_ctx *ctx);
	/* Always called once after a successful open, even after errors. */
	int (*close)(struct wultfw_ctx *ctx,
		     const struct wultfw_run_summary *summary);
};

/* ---- annotators ---- */

/*
 * An annotator adds columns to every datapoint of a source that names its
 * interval (wultfw_source_info.interval_*), from what it observed
 * meanwhile: the latency attribution (plugins/attrib) is one. It is
 * declared in an experiment as `annotate = ( { plugin = "NAME"; } );` and
 * runs in the core's reading thread, after each read() of the source.
 */
struct wultfw_annotator_info {
	uint32_t size;			/* sizeof of the core's; it zeroes it */
	/* The columns it adds after the source's, in this order. */
	const struct wultfw_schema *schema;
};

/* The datapoints of one batch as intervals, ns; WULTFW_CELL_EMPTY: none. */
struct wultfw_intervals {
	size_t n;
	const int64_t *start;		/* CLOCK_MONOTONIC */
	const int64_t *latency;
};

struct wultfw_annotator_ops {
	/*
	 * Check it can run here for run->cpu and run->source (whose
	 * interval_* the core has checked), and fill *info; fail as a
	 * source does. run->outdir is not made yet: files come later.
	 */
	int (*open)(struct wultfw_ctx *ctx, const struct wultfw_run_info *run,
		    struct wultfw_annotator_info *info);
	/* Before the source starts; the result directory exists. */
	int (*start)(struct wultfw_ctx *ctx);
	/*
	 * Row i of out (out->ncols its columns, out->rows == iv->n) for
	 * interval i. Intervals come in the source's order, each after it
	 * ended. A cell it cannot know is empty (WULTFW_CELL_EMPTY, the
	 * float's empty bits, -1 for an enum), never a guess. An error
	 * stops the run as a sink's does.
	 */
	int (*annotate)(struct wultfw_ctx *ctx, const struct wultfw_intervals *iv,
			struct wultfw_batch *out);
	/* After the source stopped and what it held was annotated. */
	int (*stop)(struct wultfw_ctx *ctx);
	void (*close)(struct wultfw_ctx *ctx);
};

/* ---- sinks: the files they write, opened by the core ---- */

/*
 * A sink does not open its output files itself: it asks the core, which
 * gives every sink -- in the tree or not -- the same guarantees. The name
 * stays inside the run's result directory (the core refuses a "file" option
 * with a leading '/' or a '..' at the file's line when it loads the
 * experiment, `wultfw --check` included); the file is created, never
 * opened over an existing one, with mode 0644 (less the umask), and takes
 * its name only once what the sink wrote in open() (a header) is on the
 * disk: a header the disk has no room for fails the sink's open and leaves
 * no file. Writes are buffered; a failed write (a full disk) cuts the file
 * back to its last whole row and the error says how many rows the sink
 * received and the file keeps; the rows reach the kernel every
 * handoff_rows rows (what kill -9 can lose) and the disk every sync_ns
 * (what a power cut can lose).
 * WULTFW_FILE_REPLACE is for a file written whole, perhaps again and again
 * (stats.json): it goes to a temporary file that replaces the name only at
 * wultfw_file_close(ctx, f, true), so readers see an old or a new file,
 * never a part.
 */
#define WULTFW_FILE_REPLACE	1u

struct wultfw_file_spec {
	uint32_t size;		/* sizeof(struct wultfw_file_spec) */
	uint32_t flags;		/* WULTFW_FILE_* */
	const char *name;	/* relative to the result directory */
	int opt;		/* the option that named it (blamed), or -1 */
	/* In messages: "rows" (NULL) or what a row is called ("records"). */
	const char *rows_word;
	/* info.yml key for the rows the file holds, written when a file of
	 * the run holds other than the sinks received (a failed write):
	 * "csv_rows_in_file"; NULL: none. A REPLACE file counts the rows of
	 * its last version in place (the rows of its write). */
	const char *kept_key;
	uint64_t sync_ns;	/* longest wait for the disk; 0: 1 s */
	uint64_t handoff_rows;	/* most rows held back; 0: 100000 */
	/*
	 * Optional: the length of the longest prefix of p[0..n) made of
	 * whole rows, and in *rows how many, so a write that fails half-way
	 * keeps the rows that reached the disk. NULL: what one commit or
	 * write handed over is kept or cut as a whole.
	 */
	size_t (*whole)(const char *p, size_t n, uint64_t *rows);
	/*
	 * Optional, for a sink that holds rows back (the binary sink packs
	 * them in blocks): write them to f now. The core calls it before it
	 * hands f's rows to the kernel or the disk.
	 */
	int (*seal)(struct wultfw_ctx *ctx, struct wultfw_file *f);
};

/*
 * Open spec->name for writing; *f is the handle for the calls below. On
 * failure, and on any failure of those calls, a negative errno with
 * ctx->err saying why (and ctx->bad_opt spec->opt when the name is at
 * fault); a write that failed fails every later one the same way.
 */
static inline int wultfw_file_open(struct wultfw_ctx *ctx,
				   const struct wultfw_file_spec *spec,
				   struct wultfw_file **f)
{
	if (!ctx->host || !ctx->host->file_open)
		return wultfw_fail(ctx, -ENOSYS, "this wultfw does not open files for sinks");
	return ctx->host->file_open(ctx, spec, f);
}

/*
 * Room for n bytes in f's buffer at *p (it grows for a big n): write into
 * it, then wultfw_file_commit(). A negative errno after a failure.
 */
static inline int wultfw_file_reserve(struct wultfw_ctx *ctx,
				      struct wultfw_file *f, size_t n, void **p)
{
	return ctx->host->file_reserve(ctx, f, n, p);
}

/* The first n reserved bytes are written: `rows` whole rows (0: a header). */
static inline int wultfw_file_commit(struct wultfw_ctx *ctx,
				     struct wultfw_file *f, size_t n,
				     uint64_t rows)
{
	return ctx->host->file_commit(ctx, f, n, rows);
}

/* n bytes holding `rows` whole rows (0: a header), copied. */
static inline int wultfw_file_write(struct wultfw_ctx *ctx,
				    struct wultfw_file *f, const void *p,
				    size_t n, uint64_t rows)
{
	return ctx->host->file_write(ctx, f, p, n, rows);
}

/*
 * What is buffered to the kernel now; with `sync`, to the disk too. The
 * core does this on the spec's schedule and after the sink's flush().
 */
static inline int wultfw_file_flush(struct wultfw_ctx *ctx,
				    struct wultfw_file *f, bool sync)
{
	return ctx->host->file_flush(ctx, f, sync);
}

/*
 * Everything to the disk, then closed; f is gone. A REPLACE file takes its
 * name with `commit`, and is dropped without (the old one stays); a
 * streaming file not yet under its name is dropped without `commit`. The
 * rows the file holds then count for spec->kept_key. Files a sink leaves
 * open the core closes after the sink's close().
 */
static inline int wultfw_file_close(struct wultfw_ctx *ctx,
				    struct wultfw_file *f, bool commit)
{
	return ctx->host->file_close(ctx, f, commit);
}

/*
 * The options of a sink writing one file, as csv and binary have them:
 * a struct wultfw_file_cfg member `m` in config struct `type`, and
 * WULTFW_FILE_OPTIONS(type, m, "datapoints.csv") in the option table.
 */
struct wultfw_file_cfg {
	const char *file;
	uint64_t flush_interval;	/* ns: spec.sync_ns */
	int64_t flush_rows;		/* spec.handoff_rows */
};

#define WULTFW_FILE_OPTIONS(type, m, def) \
	{ "file", WULTFW_OPT_STRING, def, \
	  "output file name, relative to the experiment's result directory", \
	  .off = offsetof(type, m.file) }, \
	{ "flush_interval", WULTFW_OPT_DURATION, "1s", \
	  "longest time written datapoints wait before they are on the disk " \
	  "(fdatasync: what a power cut can lose)", \
	  .min = "1ms", .max = "1h", .off = offsetof(type, m.flush_interval) }, \
	{ "flush_rows", WULTFW_OPT_INT, "100000", \
	  "most datapoints wultfw holds before handing them to the kernel " \
	  "(what kill -9 can lose)", \
	  .min = "1", .unit = "datapoints", .off = offsetof(type, m.flush_rows) }

/* ---- run parameters a source takes ---- */

enum wultfw_ldist_use {
	WULTFW_LDIST_NONE = 0,	/* a sampler: `ldist` is refused */
	WULTFW_LDIST_LAUNCH,	/* the delay of the event it times */
	WULTFW_LDIST_DELAY,	/* how far ahead a packet's launch time is */
};

/*
 * What a source does with `ldist`, and the widest range it could ever
 * take; the core refuses anything outside at load time (`--check`), and
 * open() narrows it to what this machine's device can do
 * (wultfw_source_info.ldist_*).
 */
struct wultfw_ldist_decl {
	enum wultfw_ldist_use use;
	uint64_t min_ns;
	uint64_t max_ns;
};

/* ---- the descriptor ---- */

struct wultfw_plugin {
	uint32_t abi_version;		/* WULTFW_PLUGIN_ABI_VERSION */
	uint32_t size;			/* sizeof(struct wultfw_plugin) */
	uint32_t kind;			/* enum wultfw_kind */
	const char *name;
	const char *summary;		/* one line for list-plugins */
	const struct wultfw_option *options;	/* ends with { NULL } */
	const struct wultfw_source_ops *source;	/* kind == SOURCE */
	const struct wultfw_sink_ops *sink;	/* kind == SINK */
	/*
	 * Optional: check option values without touching the system (no
	 * files, devices or privileges). Called when the experiment file is
	 * loaded, so `wultfw --check` and every run catch bad values before
	 * anything is measured; blame the option with wultfw_fail_opt().
	 * ctx->priv is NULL; ctx->cpu is set for sources.
	 */
	int (*validate)(struct wultfw_ctx *ctx);
	/* sizeof the plugin's config struct (ctx->cfg); 0: none */
	size_t cfg_size;
	/* Sources: the launch distance it takes; zeroed: none (a sampler). */
	struct wultfw_ldist_decl ldist;
	/*
	 * Optional: put back a change this plugin
	 * remembered with wultfw_remember_plugin(), from its `data` alone --
	 * in this process (wultfw_undo) or in a later wultfw after this one
	 * was killed, where nothing but the data survived. ctx has no cfg,
	 * opts or priv; ctx->cpu is -1, ctx->sysfs_root "/sys" (put any other
	 * root in the data); log and fail as in any op. Must be idempotent:
	 * return 0 when the change is put back or nothing of it is left (the
	 * device went away, it was put back already), a negative errno with
	 * wultfw_fail() when it could not be put back (then it is kept for
	 * another try).
	 */
	int (*restore)(struct wultfw_ctx *ctx, const char *data);
	/*
	 * Optional, sources: every column
	 * open() may give, under any option, ending with { NULL }: the name
	 * (or an fnmatch(3) pattern for a family the machine decides, such as
	 * "CC*%"), type, unit and divisor as open() gives them; enum names
	 * may be left out. The core compiles an experiment's include/exclude
	 * against it when the file is loaded, so `wultfw --check` catches an
	 * unknown column (with a did-you-mean), a string compared with a
	 * number column or a unit the column cannot take at the file's line.
	 * NULL: the columns are known only at open(), where the same checks
	 * run before anything is measured.
	 */
	const struct wultfw_column *columns;
	/* kind == ANNOTATOR; later than ABI 3's first descriptors. */
	const struct wultfw_annotator_ops *annotator;
	/*
	 * Sources: WULTFW_CAP_*; 0 (and descriptors built before it): one
	 * CPU per experiment.
	 */
	uint32_t caps;
	/* Later fields of ABI 3 go here; the core reads them as 0 from
	 * descriptors built before them. */
};

/*
 * A source whose instances each measure their own CPU, several at once in
 * separate processes: an experiment's `cpu` may list CPUs (one result
 * directory per CPU). Without it such a list is refused at load time.
 */
#define WULTFW_CAP_CPU_LIST	0x1u

/*
 * The smallest descriptor of ABI 3: everything from restore on may be
 * missing (read as 0). A descriptor says its size in .size.
 */
#define WULTFW_PLUGIN_SIZE_VER0 offsetof(struct wultfw_plugin, restore)

/*
 * A change that file writes cannot undo (qdiscs set over rtnetlink, a
 * driver binding that must be checked as it is put back): BEFORE the
 * change, give the core `what` it is and `data`, one line of at most
 * WULTFW_RESTORE_DATA_MAX - 1 bytes (any bytes but NUL) holding
 * everything your descriptor's restore op needs to put it back. The core
 * writes both to the state file (fsynced) and returns an id as
 * wultfw_remember() does. wultfw_undo(ctx, id) calls your restore op with
 * the data now; a later wultfw (`wultfw restore`, `wultfw scan`, the next
 * run) loads your plugin by name and calls it with the same data when this
 * process died first. If you put it back yourself, wultfw_forget(ctx, id);
 * if that failed, leave it remembered: the state file keeps it, and the
 * core says so at exit, for `wultfw restore` or the next run to retry.
 * Needs a core with the remember_plugin host op and a descriptor with a
 * restore op (-ENOSYS otherwise).
 */
#define WULTFW_RESTORE_DATA_MAX 2048

static inline int wultfw_remember_plugin(struct wultfw_ctx *ctx,
					 const char *what, const char *data)
{
	if (!ctx->plugin || !ctx->plugin->restore)
		return wultfw_fail(ctx, -ENOSYS, "a plugin that remembers its own changes needs a restore op in its descriptor");
	if (!ctx->host || !ctx->host->remember_plugin)
		return wultfw_fail(ctx, -ENOSYS, "this wultfw cannot remember settings to restore");
	return ctx->host->remember_plugin(ctx, what, data);
}

/*
 * Declare a plugin's descriptor. `name` must be the module's file name
 * (timer.la -> timer): libltdl looks the symbol up as name_LTX_wultfw_plugin,
 * which keeps symbols apart when plugins are preloaded into a static binary.
 * Everything else in a plugin must be static or carry the plugin's prefix.
 */
#define WULTFW_PLUGIN(name) \
	extern const struct wultfw_plugin name##_LTX_wultfw_plugin; \
	const struct wultfw_plugin name##_LTX_wultfw_plugin

#define WULTFW_PLUGIN_SYMBOL "wultfw_plugin"

/* ---- launch distance helper shared by sources (wultfw/ldist.h) ---- */

static inline uint64_t wultfw_rand64(uint64_t *state)
{
	unsigned long long s = *state, r = wultfw_ldist_rand(&s);

	*state = s;
	return r;
}

/* Uniform in [from, to], rounded down to gran (gran 0 or 1: exact). */
static inline uint64_t wultfw_pick_ldist(uint64_t *state, uint64_t from,
					 uint64_t to, uint64_t gran)
{
	unsigned long long s = *state, v = wultfw_ldist_pick(&s, from, to, gran);

	*state = s;
	return v;
}

#ifdef __cplusplus
}
#endif

#endif /* WULTFW_PLUGIN_H */
