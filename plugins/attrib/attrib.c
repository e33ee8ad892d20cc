/* SPDX-License-Identifier: MIT */
/*
 * attrib: the latency attribution annotator (doc/attribution.md). The
 * eBPF side (attrib_trace) records every context change of the measured
 * CPU; after each read of the source the core hands the datapoints'
 * intervals here, the records drained so far go to the accounting, and
 * each interval gets its breakdown, or empty cells where records are
 * missing. attrib-threads.csv names the threads CausePID holds.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "attrib_account.h"
#include "attrib_cause.h"
#include "attrib_irqs.h"
#include "attrib_smi.h"
#include "attrib_trace.h"

struct attrib_cfg {
	int64_t ring_events;
	bool cost;
	const char *smi_event;
};

enum { O_RING, O_COST, O_SMI };

#define F(field) .off = offsetof(struct attrib_cfg, field)

static const struct wultfw_option attrib_options[] = {
	[O_RING] = { "ring_events", WULTFW_OPT_INT, "65536",
		"records the ring between the eBPF programs and wultfw holds (a power of two); a burst longer than it loses records and empties the rows it covers",
		.min = "64", .max = "16777216", .unit = "records", F(ring_events) },
	[O_COST] = { "cost", WULTFW_OPT_BOOL, "false",
		"time every eBPF program run on the measured CPU and write the mean to info.yml (attrib_cost_ns); adds two clock reads to each",
		F(cost) },
	[O_SMI] = { "smi_event", WULTFW_OPT_STRING, "smi",
		"the msr PMU event read at every record for SMICnt: smi (MSR_SMI_COUNT, Intel), \"\" for no SMICnt; any other (tsc) is a stand-in for tests only, its counts are not SMIs",
		F(smi_event) },
	{ .name = NULL },
};

/* Columns in the order attrib_fill() writes them. */
enum {
	C_IRQ, C_SOFTIRQ, C_NMI, C_THREAD, C_EXIT,
	C_IRQCNT, C_SWIRQCNT, C_NMICNT, C_SMICNT, C_CAUSE, C_CAUSETIME, C_CAUSEPID,
	NCOLS
};

static const struct wultfw_column attrib_columns[] = {
	[C_IRQ] = { "IRQTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_SOFTIRQ] = { "SoftIRQTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_NMI] = { "NMITime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_THREAD] = { "ThreadTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_EXIT] = { "ExitTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_IRQCNT] = { "IRQCnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	[C_SWIRQCNT] = { "SWIRQCnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	[C_NMICNT] = { "NMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	/* Only where the SMI count is read (attrib_smi.h). */
	[C_SMICNT] = { "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	[C_CAUSE] = { "Cause", "", WULTFW_COL_ENUM, 1, NULL, 0 },
	/* The dominant contributor's own time: one IRQ, one thread, ... */
	[C_CAUSETIME] = { "CauseTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[C_CAUSEPID] = { "CausePID", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ .name = NULL },
};

struct attrib {
	int cpu;
	struct attrib_trace *trace;
	struct attrib_acct *acct;
	struct attrib_irqtab irqs;
	struct attrib_causes causes;
	struct wultfw_column cols[NCOLS];
	int at[NCOLS];		/* each column's place in cols, -1: the source's */
	struct wultfw_schema schema;
	struct wultfw_file *threads;
	struct attrib_smi smi;	/* fd -1: no SMICnt */
	bool attached;
	bool kick;		/* records were lost: make the CPU switch */
	uint64_t rows, unknown, gone, smi_unknown;
	char why[ATTRIB_WHY_LEN];
};

/* ---- open ---- */

/*
 * The SMI count for the eBPF programs, and for info.yml how it is read
 * or why there is no SMICnt (never a made-up 0).
 */
static void open_smi(struct wultfw_ctx *ctx, struct attrib *a, const char *event)
{
	char why[320], line[400];

	a->smi.fd = -1;
	if (!event || !event[0]) {
		wultfw_info(ctx, "attrib_smi", "not counted: smi_event is \"\"");
		return;
	}
	if (attrib_smi_open(&a->smi, a->cpu, "", event, why, sizeof(why))) {
		wultfw_info(ctx, "attrib_smi", why);
		return;
	}
	snprintf(line, sizeof(line), "SMICnt from %s, read at every record",
		 a->smi.how);
	wultfw_info(ctx, "attrib_smi", line);
	if (a->smi.stand_in)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "SMICnt counts msr/%s, a stand-in for tests: its values are not SMIs",
			   event);
}

static bool has_column(const struct wultfw_schema *s, const char *name)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return true;
	return false;
}

/*
 * Its columns, but for those the source has already (hrt's NMICnt, counted
 * by hrt over LTime..TAI): the source's are kept.
 */
static int attrib_build_schema(struct wultfw_ctx *ctx, struct attrib *a,
			       const struct wultfw_schema *src)
{
	int ret = attrib_irqtab_read(&a->irqs, NULL, a->why, sizeof(a->why));
	size_t n = 0;

	if (ret)
		return wultfw_fail(ctx, ret, "reading the IRQ names: %s", a->why);
	if (attrib_causes_build(&a->causes, &a->irqs))
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	for (int c = 0; c < NCOLS; c++) {
		a->at[c] = -1;
		if (c == C_SMICNT && a->smi.fd < 0)
			continue;
		if (has_column(src, attrib_columns[c].name)) {
			wultfw_log(ctx, WULTFW_LOG_DEBUG, "the source's %s kept",
				   attrib_columns[c].name);
			continue;
		}
		a->at[c] = (int)n;
		a->cols[n++] = attrib_columns[c];
	}
	if (a->at[C_CAUSE] < 0 || a->at[C_EXIT] < 0)
		return wultfw_fail(ctx, -EINVAL, "the source has columns Cause or ExitTime of its own: attribution cannot add its own");
	a->cols[a->at[C_CAUSE]].enum_names = (const char *const *)a->causes.names;
	a->cols[a->at[C_CAUSE]].n_enum = a->causes.n;
	a->schema.cols = a->cols;
	a->schema.ncols = n;
	return 0;
}

static void attrib_close(struct wultfw_ctx *ctx);

/* Option values, at file:line before anything runs (also --check). */
static int attrib_validate(struct wultfw_ctx *ctx)
{
	const struct attrib_cfg *cfg = ctx->cfg;

	if (cfg->ring_events & (cfg->ring_events - 1))
		return wultfw_fail_opt(ctx, O_RING, -EINVAL,
				       "%" PRId64 " is not a power of two (65536, 262144, ...)",
				       cfg->ring_events);
	if (cfg->smi_event && cfg->smi_event[0] && !attrib_smi_name_ok(cfg->smi_event))
		return wultfw_fail_opt(ctx, O_SMI, -EINVAL,
				       "'%.64s' is no msr event name: smi (the default), \"\" for none, tsc for tests",
				       cfg->smi_event);
	return 0;
}

static int attrib_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run,
		       struct wultfw_annotator_info *info)
{
	const struct attrib_cfg *cfg = ctx->cfg;
	struct attrib_trace_opts o = {
		.cpu = run->cpu, .ring_events = (unsigned)cfg->ring_events,
		.cost = cfg->cost,
	};
	struct attrib *a;
	int ret;

	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->smi.fd = -1;
	ctx->priv = a;
	a->cpu = run->cpu;
	ret = attrib_trace_check(a->why, sizeof(a->why));
	if (!ret) {
		open_smi(ctx, a, cfg->smi_event);
		o.smi = a->smi.fd >= 0;
		o.smi_fd = a->smi.fd;
		ret = attrib_trace_open(&a->trace, &o, a->why, sizeof(a->why));
	}
	if (ret) {
		wultfw_fail(ctx, ret, "%s", a->why);
		attrib_close(ctx);
		return ret;
	}
	if (attrib_trace_missing(a->trace)[0])
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "this kernel lacks the tracepoints %s: their time counts as ExitTime",
			   attrib_trace_missing(a->trace));
	a->acct = attrib_acct_new(0);
	ret = a->acct ? attrib_build_schema(ctx, a, run->schema) : -ENOMEM;
	if (ret) {
		attrib_close(ctx);
		return ret;
	}
	wultfw_info(ctx, "attrib", "on");
	wultfw_info(ctx, "attrib_latency", run->source->interval_latency);
	wultfw_info(ctx, "attrib_start", run->source->interval_start);
	info->schema = &a->schema;
	return 0;
}

/* ---- start: attach, and make the CPU switch once ---- */

static void *kick_thread(void *arg)
{
	struct timespec ts = { 0, 200000 };

	(void)arg;
	nanosleep(&ts, NULL);
	return NULL;
}

/*
 * Which task runs is known only from a switch record: a short sleep of a
 * thread pinned to the measured CPU makes two. Once at the start and after
 * records were lost; each costs the CPU about two context switches.
 */
static void kick_cpu(int cpu)
{
	pthread_attr_t at;
	pthread_t t;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_attr_init(&at))
		return;
	if (!pthread_attr_setaffinity_np(&at, sizeof(set), &set) &&
	    !pthread_create(&t, &at, kick_thread, NULL))
		pthread_join(t, NULL);
	pthread_attr_destroy(&at);
}

static int attrib_start(struct wultfw_ctx *ctx)
{
	struct attrib *a = ctx->priv;
	struct wultfw_file_spec spec = {
		.size = sizeof(spec), .name = "attrib-threads.csv",
	};
	int ret = wultfw_file_open(ctx, &spec, &a->threads);

	if (ret)
		return ret;
	ret = attrib_trace_attach(a->trace, a->why, sizeof(a->why));
	if (ret)
		return wultfw_fail(ctx, ret, "%s", a->why);
	a->attached = true;
	kick_cpu(a->cpu);
	return 0;
}

/* ---- annotate ---- */

/*
 * An NMI that ran several handlers comes as one record per handler, back
 * to back: one NMI for NMICnt, so a record starting within this of the
 * last one's end is merged into it.
 */
#define NMI_SAME_NS 1000

/* Add n records, merging an NMI's handler records. 0 or -ENOMEM. */
static int add_records(struct attrib *a, const struct attrib_event *ev, size_t n)
{
	struct attrib_event buf[256];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct attrib_event *last = k ? &buf[k - 1] : NULL;

		if (last && last->kind == ATTRIB_NMI && ev[i].kind == ATTRIB_NMI &&
		    ev[i].ts >= last->ts && ev[i].ts - ev[i].dur <= last->ts + NMI_SAME_NS) {
			last->dur = ev[i].ts - (last->ts - last->dur);
			last->ts = ev[i].ts;
			last->smi = ev[i].smi;
			last->flags = ev[i].flags;
			continue;
		}
		if (k == sizeof(buf) / sizeof(buf[0])) {
			if (attrib_acct_add(a->acct, buf, k))
				return -ENOMEM;
			k = 0;
		}
		buf[k++] = ev[i];
	}
	return k && attrib_acct_add(a->acct, buf, k) ? -ENOMEM : 0;
}

/* Records from the ring into the accounting; a loss marks a window. */
static int take_records(void *arg, const struct attrib_event *ev, size_t n)
{
	struct attrib *a = arg;
	size_t from = 0;

	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind != ATTRIB_LOST)
			continue;
		if (i > from && add_records(a, &ev[from], i - from))
			return -ENOMEM;
		attrib_acct_lost(a->acct, ev[i].ts - ev[i].dur, ev[i].ts);
		a->kick = true;
		from = i + 1;
	}
	if (n > from && add_records(a, &ev[from], n - from))
		return -ENOMEM;
	return 0;
}

static int drain(struct wultfw_ctx *ctx, struct attrib *a)
{
	ssize_t got;

	do {
		got = attrib_trace_poll(a->trace, take_records, a, a->why, sizeof(a->why));
	} while (got > 0);
	if (got < 0)
		return wultfw_fail(ctx, (int)got, "reading the attribution's records: %s",
				   got == -ENOMEM ? "out of memory" : a->why);
	return 0;
}

/* Column c of the row, unless the source has its own. */
static void put(const struct attrib *a, union wultfw_cell *row, int c, int64_t v)
{
	if (a->at[c] >= 0)
		row[a->at[c]].i = v;
}

static void fill(const struct attrib *a, const struct attrib_row *r,
		 union wultfw_cell *row)
{
	put(a, row, C_IRQ, (int64_t)r->irq_ns);
	put(a, row, C_SOFTIRQ, (int64_t)r->softirq_ns);
	put(a, row, C_NMI, (int64_t)r->nmi_ns);
	put(a, row, C_THREAD, (int64_t)r->thread_ns);
	put(a, row, C_EXIT, (int64_t)r->exit_ns);
	put(a, row, C_IRQCNT, r->irq_cnt);
	put(a, row, C_SWIRQCNT, r->softirq_cnt);
	put(a, row, C_NMICNT, r->nmi_cnt);
	put(a, row, C_CAUSE, (int64_t)attrib_causes_index(&a->causes, r));
	put(a, row, C_CAUSETIME, (int64_t)r->cause_ns);
	if (r->cause_pid >= 0)
		put(a, row, C_CAUSEPID, r->cause_pid);
	if (r->smi_cnt >= 0)
		put(a, row, C_SMICNT, r->smi_cnt);
}

/* At most this long per batch for a record after the last interval. */
#define SMI_WAIT_MS 50

/*
 * SMICnt needs a record at or after an interval's end, which may come
 * just after the source gave the datapoint (the next switch, the timer
 * interrupt's exit): wait for it a little, off the measured CPU.
 */
static int wait_after(struct wultfw_ctx *ctx, struct attrib *a, uint64_t end)
{
	struct timespec ms = { 0, 1000000 };
	int ret = 0;

	for (int i = 0; !ret && i < SMI_WAIT_MS && !attrib_acct_seen(a->acct, end); i++) {
		nanosleep(&ms, NULL);
		ret = drain(ctx, a);
	}
	return ret;
}

static int attrib_annotate(struct wultfw_ctx *ctx, const struct wultfw_intervals *iv,
			   struct wultfw_batch *out)
{
	struct attrib *a = ctx->priv;
	uint64_t end = 0;
	struct attrib_row r;
	int ret = drain(ctx, a);

	if (ret)
		return ret;
	for (size_t i = 0; i < iv->n; i++) {
		if (iv->start[i] == WULTFW_CELL_EMPTY || iv->latency[i] == WULTFW_CELL_EMPTY ||
		    iv->start[i] < 0 || iv->latency[i] < 0)
			continue;
		if ((uint64_t)(iv->start[i] + iv->latency[i]) > end)
			end = (uint64_t)(iv->start[i] + iv->latency[i]);
	}
	/* Every interval ended before the source gave it, so before the drain. */
	attrib_acct_complete(a->acct, end);
	if (a->at[C_SMICNT] >= 0 && end && (ret = wait_after(ctx, a, end)))
		return ret;
	for (size_t i = 0; i < iv->n; i++) {
		enum attrib_status st;

		if (iv->start[i] == WULTFW_CELL_EMPTY || iv->latency[i] == WULTFW_CELL_EMPTY ||
		    iv->start[i] < 0 || iv->latency[i] < 0)
			continue;	/* left empty */
		a->rows++;
		st = attrib_acct_explain(a->acct, (uint64_t)iv->start[i], iv->latency[i], &r);
		if (st == ATTRIB_OK) {
			fill(a, &r, wultfw_row(out, i));
			a->smi_unknown += r.smi_cnt < 0;
		} else if (st == ATTRIB_GONE) {
			a->gone++;
		} else {
			a->unknown++;
		}
	}
	/* Intervals come in order: none will start before this batch's last. */
	if (iv->n && iv->start[iv->n - 1] > 0)
		attrib_acct_release(a->acct, (uint64_t)iv->start[iv->n - 1]);
	if (a->kick) {
		a->kick = false;
		kick_cpu(a->cpu);
	}
	return 0;
}

/* ---- stop ---- */

/* Records per datapoint beyond which its cost shows in the latencies. */
#define ATTRIB_BUSY_EVENTS 20

/*
 * A comm as a CSV field: the measured system's bytes, control ones shown as
 * '?', quoted (quotes doubled) when it holds a comma or a quote (RFC 4180).
 */
static void comm_field(const char *comm, char *out, size_t len)
{
	size_t n = strnlen(comm, ATTRIB_COMM_LEN), c = 0;
	bool quote = memchr(comm, ',', n) || memchr(comm, '"', n);

	if (quote)
		out[c++] = '"';
	for (size_t k = 0; k < n && c + 3 < len; k++) {
		unsigned char ch = (unsigned char)comm[k];

		if (ch == '"')
			out[c++] = '"';
		out[c++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (quote)
		out[c++] = '"';
	out[c] = '\0';
}

static int write_threads(struct wultfw_ctx *ctx, struct attrib *a)
{
	size_t n = 0;
	const struct attrib_thread *t = attrib_acct_threads(a->acct, &n);
	char line[96], comm[2 * ATTRIB_COMM_LEN + 4];
	int ret = wultfw_file_write(ctx, a->threads, "PID,Comm\n", 9, 0);

	for (size_t i = 0; !ret && i < n; i++) {
		int k;

		comm_field(t[i].comm, comm, sizeof(comm));
		k = snprintf(line, sizeof(line), "%u,%s\n", t[i].pid, comm);
		ret = wultfw_file_write(ctx, a->threads, line, (size_t)k, 1);
	}
	if (wultfw_file_close(ctx, a->threads, ret >= 0) < 0 && ret >= 0)
		ret = -EIO;
	a->threads = NULL;
	return ret;
}

static void info_u64(struct wultfw_ctx *ctx, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	wultfw_info(ctx, key, buf);
}

static void note_stats(struct wultfw_ctx *ctx, struct attrib *a)
{
	struct attrib_trace_stats st;

	attrib_trace_stats(a->trace, &st);
	info_u64(ctx, "attrib_events", st.seen);
	info_u64(ctx, "attrib_lost", st.lost + st.late);
	info_u64(ctx, "attrib_rows_unknown", a->unknown + a->gone);
	if (a->at[C_SMICNT] >= 0)
		info_u64(ctx, "attrib_smi_rows_unknown", a->smi_unknown);
	if (st.cost_cnt)
		info_u64(ctx, "attrib_cost_ns", st.cost_ns / st.cost_cnt);
	/* Its own cost lands in the latencies it explains: say when it is big. */
	if (a->rows && st.seen / a->rows >= ATTRIB_BUSY_EVENTS)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "CPU %d changed context %" PRIu64 " times per datapoint: at 100-300 ns each (doc/attribution.md) the attribution's own work adds microseconds to each latency here; compare with a run without it",
			   a->cpu, st.seen / a->rows);
	if (a->unknown + a->gone)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "%" PRIu64 " of %" PRIu64 " datapoints have no breakdown: records of their intervals were lost (%" PRIu64 " of %" PRIu64 " lost; a larger ring_events keeps more)",
			   a->unknown + a->gone, a->rows, st.lost + st.late, st.seen);
}

static int attrib_stop(struct wultfw_ctx *ctx)
{
	struct attrib *a = ctx->priv;
	int ret;

	if (a->attached)
		attrib_trace_detach(a->trace);
	a->attached = false;
	ret = drain(ctx, a);
	attrib_acct_release(a->acct, UINT64_MAX);
	note_stats(ctx, a);
	if (a->threads) {
		int wret = write_threads(ctx, a);

		if (!ret)
			ret = wret;
	}
	return ret;
}

static void attrib_close(struct wultfw_ctx *ctx)
{
	struct attrib *a = ctx->priv;

	if (!a)
		return;
	attrib_trace_close(a->trace);
	attrib_smi_close(&a->smi);
	attrib_acct_free(a->acct);
	attrib_causes_free(&a->causes);
	attrib_irqtab_free(&a->irqs);
	free(a);
	ctx->priv = NULL;
}

static const struct wultfw_annotator_ops attrib_ops = {
	.open = attrib_open,
	.start = attrib_start,
	.annotate = attrib_annotate,
	.stop = attrib_stop,
	.close = attrib_close,
};

extern const struct wultfw_plugin attrib_LTX_wultfw_plugin;
const struct wultfw_plugin attrib_LTX_wultfw_plugin = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_ANNOTATOR,
	.name = "attrib",
	.summary = "latency attribution: each datapoint's latency split into IRQ, softirq, NMI, thread and idle-exit time, by eBPF on the measured CPU",
	.options = attrib_options,
	.validate = attrib_validate,
	.cfg_size = sizeof(struct attrib_cfg),
	.columns = attrib_columns,
	.annotator = &attrib_ops,
};
