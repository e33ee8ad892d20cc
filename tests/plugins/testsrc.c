/* SPDX-License-Identifier: MIT */
/*
 * A deterministic source for testing the core: row i has Seq = i, so a
 * sink can prove it saw every row exactly once and in order. Options make
 * it end, fail, discard or run slowly on demand.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wultfw/plugin.h>

enum { O_ROWS, O_TOTAL, O_DISCARD, O_FAIL_OPEN, O_FAIL_AFTER, O_MIN, O_MAX,
       O_GRAN, O_DELAY, O_WATCH };

/* Every option lands here (ABI v2); the last ones only test the core. */
struct testsrc_cfg {
	int64_t rows, total, discard;
	const char *fail_open;
	int64_t fail_after;
	uint64_t min, max, gran, delay;
	const char *watch;
	int64_t level;
	const char *mode;
	uint64_t pause;
	struct wultfw_floats pcts;
	struct wultfw_strs tags;
	double ratio;
	uint64_t budget;
	const char *progress;
	const char *setting;
	const char *own_setting;
	bool interval;
	int64_t discard_at_stop;
};

#define F(field) .off = offsetof(struct testsrc_cfg, field)

static const char *const modes[] = { "fast", "slow", NULL };

static const struct wultfw_option options[] = {
	[O_ROWS] = { "rows_per_read", WULTFW_OPT_INT, "100", "rows each read() returns", F(rows) },
	[O_TOTAL] = { "total", WULTFW_OPT_INT, "0", "end after this many rows (0: never)", F(total) },
	[O_DISCARD] = { "discard_every", WULTFW_OPT_INT, "0", "count every Nth datapoint as discarded", F(discard) },
	[O_FAIL_OPEN] = { "fail_open", WULTFW_OPT_STRING, NULL, "open() fails with this reason", F(fail_open) },
	[O_FAIL_AFTER] = { "fail_after", WULTFW_OPT_INT, "0", "read() fails with EIO after this many rows", F(fail_after) },
	[O_MIN] = { "ldist_min", WULTFW_OPT_DURATION, "1us", "shortest launch distance", F(min) },
	[O_MAX] = { "ldist_max", WULTFW_OPT_DURATION, "1s", "longest launch distance", F(max) },
	[O_GRAN] = { "ldist_gran", WULTFW_OPT_DURATION, "1ns", "launch distance granularity", F(gran) },
	[O_DELAY] = { "delay", WULTFW_OPT_DURATION, "0", "sleep this long in every read()", F(delay) },
	[O_WATCH] = { "watch", WULTFW_OPT_STRING, NULL, "at start, copy this file's first line to info.yml as 'watched'", F(watch) },
	{ "level", WULTFW_OPT_INT, "5", "bounds test", .min = "1", .max = "9", .unit = "steps", F(level) },
	{ "mode", WULTFW_OPT_STRING, "fast", "choices test", .choices = modes, F(mode) },
	{ "pause", WULTFW_OPT_DURATION, "10us", "duration bounds test", .min = "1us", .max = "1s", F(pause) },
	{ "pcts", WULTFW_OPT_FLOAT_LIST, "50,99", "list bounds test", .min = "0", .max = "100", .unit = "%", F(pcts) },
	{ "tags", WULTFW_OPT_STRING_LIST, "fast", "list choices test", .choices = modes, F(tags) },
	{ "ratio", WULTFW_OPT_FLOAT, "0.5", "lower bound only test", .min = "0.1", F(ratio) },
	{ "budget", WULTFW_OPT_DURATION, "1ms", "upper bound only test", .max = "1s", F(budget) },
	{ "progress", WULTFW_OPT_STRING, NULL, "after every read, write how many rows were made so far to this file (what a kill -9 test compares the sinks' files with)", F(progress) },
	{ "setting", WULTFW_OPT_STRING, NULL, "a 'system setting' to change: open() writes 'changed' to this file after wultfw_remember(), close() undoes it", F(setting) },
	{ "own_setting", WULTFW_OPT_STRING, NULL, "the same through wultfw_remember_plugin(): the plugin's restore op puts it back, in this process (close() calls wultfw_undo()) or in a later wultfw", F(own_setting) },
	{ "discard_at_stop", WULTFW_OPT_INT, "0", "stop() discards this many more datapoints, handed over by the read after it (as a measuring thread's last ones)", F(discard_at_stop) },
	{ "interval", WULTFW_OPT_BOOL, "false", "add LTime and WakeLatency and name them as the interval, for annotators", F(interval) },
	{ NULL }
};

static const char *const cstate_names[] = { "POLL", "C1" };

static const struct wultfw_column columns[] = {
	{ "Seq", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstate_names, 2 },
	/* interval = true: each datapoint's interval, for annotators */
	{ "LTime", "ns", WULTFW_COL_INT, 1, NULL, 0 },
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ NULL },
};

static const struct wultfw_schema schema = { 3, columns };
static const struct wultfw_schema schema_interval = { 5, columns };

struct testsrc {
	int64_t next;
	int setting_id;		/* wultfw_remember()'s, or -1 */
	int own_id;		/* wultfw_remember_plugin()'s, or -1 */
	uint64_t rng;
	struct wultfw_source_params p;
	bool started;
	int64_t late;		/* discarded in stop(), not yet handed over */
};

/* What the core handed over as the measured CPU's C-states, for info.yml. */
static void report_cstates(struct wultfw_ctx *ctx)
{
	char names[256] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < ctx->n_cstates && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 i ? "," : "", ctx->cstate_names[i]);
	wultfw_info(ctx, "cstates_handed", ctx->n_cstates ? names :
		    ctx->no_cstates ? ctx->no_cstates : "(none, no reason)");
}

static int change_setting(struct wultfw_ctx *ctx, struct testsrc *t,
			  const char *path);
static int change_own_setting(struct wultfw_ctx *ctx, struct testsrc *t,
			      const char *path);

static int testsrc_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct testsrc_cfg *cfg = ctx->cfg;
	struct testsrc *t;

	if (cfg->fail_open)
		return wultfw_fail_opt(ctx, O_FAIL_OPEN, -ENODEV, "%s",
				       cfg->fail_open);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ctx->priv = t;
	t->setting_id = t->own_id = -1;
	if ((cfg->setting && change_setting(ctx, t, cfg->setting)) ||
	    (cfg->own_setting && change_own_setting(ctx, t, cfg->own_setting))) {
		if (t->setting_id >= 0)
			wultfw_undo(ctx, t->setting_id);
		free(t);
		ctx->priv = NULL;
		return -EIO;
	}
	report_cstates(ctx);
	info->devid = "testsrc";
	info->devdescr = "deterministic test source";
	info->resolution_ns = 1;
	info->ldist_min_ns = cfg->min;
	info->ldist_max_ns = cfg->max;
	info->ldist_gran_ns = cfg->gran;
	info->schema = cfg->interval ? &schema_interval : &schema;
	if (cfg->interval) {
		info->interval_start = "LTime";
		info->interval_latency = "WakeLatency";
	}
	return 0;
}

/* Change a "setting" the way a plugin must: remembered first. */
static int change_setting(struct wultfw_ctx *ctx, struct testsrc *t,
			  const char *path)
{
	char old[64] = "";
	struct wultfw_restore_step step = { path, old };
	int fd = open(path, O_RDONLY), n;

	n = fd >= 0 ? (int)read(fd, old, sizeof(old) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return wultfw_fail(ctx, -ENOENT, "setting %s: cannot read it", path);
	old[strcspn(old, "\n")] = '\0';
	t->setting_id = wultfw_remember(ctx, "test setting changed", &step, 1);
	if (t->setting_id < 0)
		return t->setting_id;
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, "changed", 7) != 7) {
		if (fd >= 0)
			close(fd);
		wultfw_forget(ctx, t->setting_id);
		return wultfw_fail(ctx, -EIO, "setting %s: cannot write it", path);
	}
	close(fd);
	return 0;
}

/* path's first line into buf; -1 if it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), n;

	n = fd >= 0 ? (int)read(fd, buf, len - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -errno;
	close(fd);
	return ret;
}

/* A setting only this plugin's restore op puts back: "OLD\tPATH". */
static int change_own_setting(struct wultfw_ctx *ctx, struct testsrc *t,
			      const char *path)
{
	char old[64], data[WULTFW_RESTORE_DATA_MAX];

	if (read_line(path, old, sizeof(old)))
		return wultfw_fail(ctx, -ENOENT, "own_setting %s: cannot read it", path);
	snprintf(data, sizeof(data), "%s\t%s", old, path);
	t->own_id = wultfw_remember_plugin(ctx, "test setting changed, only testsrc puts it back", data);
	if (t->own_id < 0)
		return t->own_id;
	if (write_text(path, "changed"))
		return wultfw_fail(ctx, -EIO, "own_setting %s: cannot write it", path);
	return 0;
}

/* change_own_setting()'s data: the old value back into the file. */
static int testsrc_restore(struct wultfw_ctx *ctx, const char *data)
{
	const char *tab = strchr(data, '\t');
	char old[64];
	int ret;

	if (!tab || tab - data >= (long)sizeof(old))
		return wultfw_fail(ctx, -EINVAL, "not OLD<tab>PATH: '%s'", data);
	snprintf(old, sizeof(old), "%.*s", (int)(tab - data), data);
	ret = write_text(tab + 1, old);
	if (ret == -ENOENT)
		return 0;	/* gone: nothing to put back */
	if (ret)
		return wultfw_fail(ctx, ret, "cannot write %s: %s", tab + 1, strerror(-ret));
	wultfw_log(ctx, WULTFW_LOG_INFO, "%s is '%s' again", tab + 1, old);
	return 0;
}

static int testsrc_start(struct wultfw_ctx *ctx,
			 const struct wultfw_source_params *p)
{
	const struct testsrc_cfg *cfg = ctx->cfg;
	struct testsrc *t = ctx->priv;

	t->p = *p;
	t->rng = p->seed;
	t->started = true;
	if (cfg->watch) {
		char buf[64] = "";
		int fd = open(cfg->watch, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		wultfw_info(ctx, "watched", buf);
	}
	return 0;
}

/* Rows made so far, before the core sees them (page cache survives kill -9). */
static void note_progress(const char *path, int64_t made)
{
	char buf[24];
	int fd, n;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%20lld\n", (long long)made);
	if (pwrite(fd, buf, (size_t)n, 0) != n) {
		/* the test then finds no count and fails */
	}
	close(fd);
}

static int testsrc_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			uint64_t timeout_ns)
{
	const struct testsrc_cfg *cfg = ctx->cfg;
	struct testsrc *t = ctx->priv;
	int64_t total = cfg->total, fail = cfg->fail_after;
	int64_t every = cfg->discard, n = cfg->rows;
	uint64_t delay = cfg->delay;

	if (!t->started) {	/* drained after stop(): no rows buffered */
		b->discarded += (uint64_t)t->late;
		t->late = 0;
		return 0;
	}
	if (delay) {
		struct timespec ts = { (time_t)(delay / 1000000000ULL),
				       (long)(delay % 1000000000ULL) };

		if (delay > timeout_ns)
			ts = (struct timespec){ (time_t)(timeout_ns / 1000000000ULL),
						(long)(timeout_ns % 1000000000ULL) };
		if (nanosleep(&ts, NULL))
			return -errno;
	}
	while (n-- > 0 && b->rows < b->capacity) {
		union wultfw_cell *row;

		if (total && t->next >= total)
			return WULTFW_READ_END;
		if (fail && t->next >= fail)
			return wultfw_fail(ctx, -EIO, "simulated failure after %lld rows",
					   (long long)t->next);
		if (every && (t->next + 1) % every == 0) {
			t->next++;
			b->discarded++;
			continue;
		}
		row = wultfw_row(b, b->rows++);
		row[0].i = t->next++;
		row[1].i = (int64_t)wultfw_pick_ldist(&t->rng, t->p.ldist_from_ns,
						      t->p.ldist_to_ns, 1);
		row[2].i = t->next % 3 == 2 ? -1 : t->next % 3;
		if (cfg->interval) {	/* 1 ms apart, 1 to 3.25 us late */
			row[3].i = 1000000000 + (t->next - 1) * 1000000;
			row[4].i = 1000 + (t->next - 1) % 10 * 250;
		}
	}
	note_progress(cfg->progress, t->next);
	return 0;
}

static int testsrc_stop(struct wultfw_ctx *ctx)
{
	const struct testsrc_cfg *cfg = ctx->cfg;
	struct testsrc *t = ctx->priv;

	if (t->started)
		t->late = cfg->discard_at_stop;
	t->started = false;
	return 0;
}

static void testsrc_close(struct wultfw_ctx *ctx)
{
	struct testsrc *t = ctx->priv;

	/* Kept by the core if it fails: a later wultfw tries again. */
	if (t && t->own_id >= 0)
		wultfw_undo(ctx, t->own_id);
	if (t && t->setting_id >= 0)
		wultfw_undo(ctx, t->setting_id);
	free(ctx->priv);
	ctx->priv = NULL;
}

/* Option values alone, as the core calls it while loading the file. */
static int testsrc_validate(struct wultfw_ctx *ctx)
{
	const struct testsrc_cfg *cfg = ctx->cfg;

	if (cfg->rows < 1)
		return wultfw_fail_opt(ctx, O_ROWS, -EINVAL, "must be at least 1");
	if (ctx->cpu < 0)
		return wultfw_fail(ctx, -EINVAL, "the core gave no measured CPU");
	return 0;
}

static const struct wultfw_source_ops ops = {
	.open = testsrc_open,
	.start = testsrc_start,
	.read = testsrc_read,
	.stop = testsrc_stop,
	.close = testsrc_close,
};

WULTFW_PLUGIN(testsrc) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "testsrc",
	.summary = "deterministic rows for testing the core",
	.options = options,
	.source = &ops,
	.validate = testsrc_validate,
	.cfg_size = sizeof(struct testsrc_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 1, 3600000000000ULL },
	.restore = testsrc_restore,
	.columns = columns,
};
