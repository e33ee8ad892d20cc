/* SPDX-License-Identifier: MIT */
/*
 * hrt source: wake latency of a Linux high-resolution timer, measured by an
 * eBPF program (hrt.bpf.c) on the tp_btf cpu_idle tracepoint. No kernel
 * module: it runs wherever the kernel has BTF and Linux >= 6.7.
 *
 * open():  checks (root, BTF, kernel features, no other hrt run), loads the
 *          program (so a verifier rejection is reported before anything
 *          starts) and builds the schema.
 * start(): configures and attaches; the first idle entry on the measured
 *          CPU arms the first timer there.
 * read():  drains the ring buffer without being woken (see poll option),
 *          drops inconsistent datapoints, derives columns with lib/kside.
 * Counters: the msr / cstate_* perf events this machine has (hrt_pmu.c)
 *          are opened on the measured CPU and read by the program at TBI
 *          and TAI; their deltas become TotCyc, CC0%, CCx%, PCx%, CPUFreq,
 *          SMICnt through lib/kside. Absent counters give no columns.
 * stop()/close(): detach and destroy; freeing the maps cancels the timer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include <wultfw/plugin.h>

#include "sysstate/cpuidle.h"
#include <wultfw/kside.h>
#include "hrt_event.h"
#include "hrt_health.h"
#include "hrt_opts.h"
#include "hrt_pmu.h"
#include "hrt.skel.h"

#define HRT_LOCK_FMT	"/run/wultfw-hrt-cpu%d.lock"	/* one hrt run per CPU */
#define HRT_BTF_FILE	"/sys/kernel/btf/vmlinux"
#define HRT_PMU_ROOT	"/sys/bus/event_source/devices"

_Static_assert(HRT_PMU_MAX == HRT_MAX_CTR, "hrt_pmu.h and hrt_event.h disagree");

static const char *const hrt_bool_names[] = { "False", "True" };

/* Columns hrt adds after the kside ones. */
static const struct wultfw_column hrt_extra_cols[] = {
	{ .name = "SoftIRQCnt", .unit = "", .type = WULTFW_COL_INT,
	  .divisor = 1 },
	{ .name = "Disturbed", .unit = "", .type = WULTFW_COL_ENUM,
	  .enum_names = hrt_bool_names, .n_enum = 2 },
};

struct hrt_priv {
	const struct hrt_optvals *o;	/* ctx->cfg, checked by validate() */
	bool counters;			/* reading them: given, or found worth it */
	struct hrt_bpf *skel;
	struct ring_buffer *rb;
	struct wultfw_kside ks;
	struct wfw_cpuidle ci;
	bool have_ci;
	struct hrt_pmu pmu;		/* counters, opened on pmu.cpu */
	bool pmu_found;			/* pmu discovered */
	bool counters_auto_off;		/* not given, only the TSC: off */
	int lock_fd;
	int cpu;
	bool warned_same_cpu;
	/* Between ring_buffer__consume() and its callback. */
	struct wultfw_batch *cur;
	struct hrt_event pending;	/* consumed but did not fit */
	bool has_pending;
	uint64_t drop_cpu;		/* timer callback ran on another CPU */
	uint64_t drop_ctr;		/* a counter did not count all along */
	uint64_t ctr_slow;		/* counter reads > HRT_SLOW_READ_NS */
	uint64_t drop_ts[WULTFW_KSIDE_BAD_OVERHEAD + 1];	/* by wultfw_kside_check() */
	uint64_t rb_full_seen;		/* stats.rb_full already reported */
	uint64_t kept;			/* rows handed to the core */
	uint64_t t_start_ns;		/* CLOCK_MONOTONIC at start() */
	uint64_t ldist_from_ns, ldist_to_ns;
};

/* ---- libbpf messages: keep the tail for verifier errors ---- */

static char hrt_log[16384];
static size_t hrt_log_len;

/* Append the tail of a message; the verifier's verdict is at its end. */
static void hrt_log_append(const char *msg, size_t n)
{
	if (n >= sizeof(hrt_log) / 2) {
		msg += n - sizeof(hrt_log) / 2;
		n = sizeof(hrt_log) / 2;
	}
	if (hrt_log_len + n >= sizeof(hrt_log)) {
		size_t keep = sizeof(hrt_log) / 2 - 1;

		memmove(hrt_log, hrt_log + hrt_log_len - keep, keep);
		hrt_log_len = keep;
	}
	memcpy(hrt_log + hrt_log_len, msg, n);
	hrt_log_len += n;
	hrt_log[hrt_log_len] = '\0';
}

static int hrt_libbpf_print(enum libbpf_print_level level, const char *fmt,
			    va_list ap)
{
	char *msg = NULL;
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;
	/* The verifier log arrives as one message of any size. */
	n = vasprintf(&msg, fmt, ap);
	if (n > 0)
		hrt_log_append(msg, (size_t)n);
	free(msg);
	return 0;
}

/* Log the last `nlines` lines of libbpf's output; return the last one. */
static const char *hrt_log_tail(struct wultfw_ctx *ctx, int nlines,
				char *last, size_t len)
{
	const char *p = hrt_log + hrt_log_len;
	const char *start, *end;
	int n = 0;

	last[0] = '\0';
	/* Skip trailing newlines and libbpf's "-- END ... --" framing. */
	while (p > hrt_log && n <= nlines) {
		end = p;
		while (end > hrt_log && end[-1] == '\n')
			end--;
		start = end;
		while (start > hrt_log && start[-1] != '\n')
			start--;
		p = start;
		if (end == start)
			break;
		/* Framing and statistics around the verifier's verdict. */
		if (!strncmp(start, "-- END", 6) || !strncmp(start, "libbpf:", 7) ||
		    !strncmp(start, "processed ", 10) ||
		    !strncmp(start, "verification time", 17) ||
		    !strncmp(start, "stack depth", 11))
			continue;
		if (!last[0])
			snprintf(last, len, "%.*s", (int)(end - start), start);
		n++;
	}
	if (ctx->verbosity >= 2) {
		wultfw_log(ctx, WULTFW_LOG_ERROR, "verifier log, last lines:");
		for (; *p; ) {
			const char *nl = strchr(p, '\n');
			int l = nl ? (int)(nl - p) : (int)strlen(p);

			if (l && strncmp(p, "-- END", 6))
				wultfw_log(ctx, WULTFW_LOG_ERROR, "  %.*s", l, p);
			p += l + (nl ? 1 : 0);
		}
	}
	return last;
}

/* ---- checks that name exactly what is missing ---- */

/* True if the running kernel's BTF has an enumerator called `name`. */
static bool hrt_btf_has_enumerator(const struct btf *btf, const char *name)
{
	__u32 id, n = btf__type_cnt(btf);

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;
		__u16 i;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off),
				    name))
				return true;
	}
	return false;
}

static int hrt_check_kernel(struct wultfw_ctx *ctx)
{
	struct utsname u;
	struct btf *btf;
	int err = 0;

	uname(&u);
	if (geteuid() != 0)
		return wultfw_fail(ctx, -EPERM,
			"hrt loads an eBPF program and needs root: run wultfw "
			"as root");
	if (access(HRT_BTF_FILE, R_OK))
		return wultfw_fail(ctx, -ENOENT,
			"kernel %s has no BTF (%s missing): hrt needs a kernel "
			"built with CONFIG_DEBUG_INFO_BTF=y; use the tdt or timer "
			"source instead", u.release, HRT_BTF_FILE);
	btf = btf__load_vmlinux_btf();
	if (!btf)
		return wultfw_fail(ctx, -errno, "cannot parse %s: %s",
				   HRT_BTF_FILE, strerror(errno));
	if (btf__find_by_name_kind(btf, "btf_trace_cpu_idle", BTF_KIND_TYPEDEF) < 0)
		err = wultfw_fail(ctx, -EOPNOTSUPP,
			"kernel %s has no tp_btf tracepoint cpu_idle (needs Linux "
			">= 5.5 with CONFIG_CPU_IDLE tracepoints)", u.release);
	else if (btf__find_by_name_kind(btf, "bpf_timer", BTF_KIND_STRUCT) < 0)
		err = wultfw_fail(ctx, -EOPNOTSUPP,
			"kernel %s has no bpf_timer (needs Linux >= 5.15)",
			u.release);
	else if (!hrt_btf_has_enumerator(btf, "BPF_F_TIMER_CPU_PIN"))
		err = wultfw_fail(ctx, -EOPNOTSUPP,
			"kernel %s cannot pin a bpf_timer to a CPU "
			"(BPF_F_TIMER_CPU_PIN needs Linux >= 6.7); unpinned "
			"timers migrate and give wrong datapoints", u.release);
	btf__free(btf);
	return err;
}

/*
 * Refuse a second hrt run on the same CPU: both would arm timers there.
 * Runs on other CPUs (a CPU list) are let be: each program returns at
 * once from another CPU's idle entry and exit.
 */
static int hrt_lock(struct wultfw_ctx *ctx, struct hrt_priv *p)
{
	char buf[32], path[64];
	ssize_t n;

	snprintf(path, sizeof(path), HRT_LOCK_FMT, ctx->cpu >= 0 ? ctx->cpu : 0);
	p->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (p->lock_fd < 0)
		return wultfw_fail(ctx, -errno, "cannot open %s: %s",
				   path, strerror(errno));
	if (flock(p->lock_fd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		n = pread(p->lock_fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		close(p->lock_fd);
		p->lock_fd = -1;
		if (err == EWOULDBLOCK)
			return wultfw_fail(ctx, -EBUSY,
				"another hrt run is active on CPU %d (pid %s, lock %s): "
				"wait for it to finish or stop it first",
				ctx->cpu, buf[0] ? buf : "?", path);
		return wultfw_fail(ctx, -err, "cannot lock %s: %s",
				   path, strerror(err));
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(p->lock_fd, 0) || pwrite(p->lock_fd, buf, (size_t)n, 0) != n)
		wultfw_log(ctx, WULTFW_LOG_WARN, "cannot write pid to %s", path);
	return 0;
}

/* ---- ops ---- */

static void hrt_close(struct wultfw_ctx *ctx);

static int hrt_load(struct wultfw_ctx *ctx, struct hrt_priv *p)
{
	char last[256];
	int err;

	hrt_log_len = 0;
	hrt_log[0] = '\0';
	libbpf_set_print(hrt_libbpf_print);
	p->skel = hrt_bpf__open();
	if (!p->skel)
		return wultfw_fail(ctx, -errno, "cannot open the hrt eBPF "
				   "object: %s", strerror(errno));
	err = bpf_map__set_max_entries(p->skel->maps.hrt_rb,
				       (__u32)(p->o->ring_kib * 1024));
	if (err)
		return wultfw_fail(ctx, err, "ring_kib: cannot size the ring "
				   "buffer: %s", strerror(-err));
	err = hrt_bpf__load(p->skel);
	if (err) {
		hrt_log_tail(ctx, 12, last, sizeof(last));
		return wultfw_fail(ctx, err, "the kernel rejected the hrt eBPF "
			"program (%s): %s%s", strerror(-err),
			last[0] ? last : "no verifier message",
			ctx->verbosity >= 2 ? "" :
			"; run with -v -v for the verifier log");
	}
	return 0;
}

/*
 * counters not given and nothing beyond the TSC: TotCyc alone is a raw
 * column, and reading it makes every idle entry slower (~200 ns here, ~1 us
 * on a loaded host: doc/hrt-measurements.md), so leave the counters off and
 * say so. True if they were switched off.
 */
static bool hrt_counters_auto_off(struct wultfw_ctx *ctx, struct hrt_priv *p)
{
	char v[256];

	if (p->o->counters_set || hrt_pmu_beyond_tsc(&p->pmu))
		return false;
	hrt_pmu_present_str(&p->pmu, v, sizeof(v));
	wultfw_log(ctx, WULTFW_LOG_INFO, "counters: this machine has %s and no counter beyond it, which alone gives only TotCyc (a raw column) for a slower idle entry: not reading counters; counters = true reads it anyway",
		   v);
	hrt_pmu_close(&p->pmu);
	p->pmu.n = 0;
	p->counters = false;
	p->counters_auto_off = true;
	return true;
}

/*
 * Find the counters (first call) and open them on `cpu` into the program's
 * perf-event array. A counter sysfs lists but the kernel will not open is
 * an error, not a silently missing column.
 */
static int hrt_pmu_setup(struct wultfw_ctx *ctx, struct hrt_priv *p, int cpu)
{
	int map = bpf_map__fd(p->skel->maps.hrt_ctrs);
	char msg[400];
	__u32 i;
	int err;

	if (!p->counters) {
		p->pmu.cpu = cpu;	/* none opened, none wanted */
		return 0;
	}
	if (!p->pmu_found) {
		err = hrt_pmu_discover(&p->pmu, HRT_PMU_ROOT, msg, sizeof(msg));
		if (err)
			return wultfw_fail(ctx, err, "%s", msg);
		p->pmu_found = true;
		if (hrt_counters_auto_off(ctx, p)) {
			p->pmu.cpu = cpu;
			return 0;
		}
	}
	if (p->pmu.cpu == cpu)
		return 0;
	err = hrt_pmu_open(&p->pmu, cpu, msg, sizeof(msg));
	if (err)
		return wultfw_fail(ctx, err, "%s", msg);
	for (i = 0; i < p->pmu.n; i++) {
		int fd = p->pmu.c[i].fd;

		if (bpf_map_update_elem(map, &i, &fd, BPF_ANY))
			return wultfw_fail(ctx, -errno, "cannot put perf event "
				"%s/%s into the hrt_ctrs map: %s",
				p->pmu.c[i].pmu, p->pmu.c[i].event,
				strerror(errno));
	}
	return 0;
}

static int hrt_ringbuf_cb(void *data, void *sample, size_t len);

static int hrt_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	struct wultfw_kside_cfg kc = { 0 };
	struct hrt_priv *p;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->lock_fd = -1;
	p->cpu = -1;
	ctx->priv = p;

	p->o = ctx->cfg;
	p->counters = !p->o->counters_set || p->o->counters;
	err = hrt_check_kernel(ctx);
	if (!err)
		err = hrt_lock(ctx, p);
	if (!err)
		err = hrt_load(ctx, p);
	if (!err)
		err = hrt_pmu_setup(ctx, p, ctx->cpu >= 0 ? ctx->cpu : 0);
	if (err) {
		hrt_close(ctx);
		return err;
	}

	/*
	 * ReqCState names from the measured CPU (ctx->cpu; CPU 0 when the
	 * core gives none, as in wultfw scan); start() checks they agree.
	 */
	p->have_ci = wfw_cpuidle_open(&p->ci, ctx->cpu >= 0 ? ctx->cpu : 0,
				      ctx->sysfs_root) == 0;
	kc.counters = WULTFW_KSIDE_HAS_NMI;
	hrt_pmu_kside_cfg(&p->pmu, &kc);
	kc.cstate_names = p->have_ci ? p->ci.name_ptrs : NULL;
	kc.n_cstates = p->have_ci ? (size_t)p->ci.nstates : 0;
	kc.raw = p->o->raw;
	kc.extra = hrt_extra_cols;
	kc.nextra = sizeof(hrt_extra_cols) / sizeof(hrt_extra_cols[0]);
	err = wultfw_kside_init(&p->ks, &kc);
	if (err) {
		hrt_close(ctx);
		return wultfw_fail(ctx, err, "internal: bad kside schema");
	}

	info->devid = "hrt";
	info->devdescr = "Linux hrtimer (bpf_timer pinned, absolute), "
			 "measured by eBPF on tp_btf/cpu_idle";
	info->resolution_ns = 1;	/* bpf_ktime_get_ns() */
	info->ldist_min_ns = 1000;
	info->ldist_max_ns = 1000000000;
	info->ldist_gran_ns = 1;
	info->schema = &p->ks.schema;
	wultfw_kside_interval(info);	/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	return 0;
}

static int hrt_check_cpu(struct wultfw_ctx *ctx, struct hrt_priv *p, int cpu)
{
	struct wfw_cpuidle ci;
	int i, err;

	/* The core checked that the CPU is online before start(). */
	if (cpu < 0 || cpu >= libbpf_num_possible_cpus())
		return wultfw_fail(ctx, -EINVAL, "cpu = %d: no such CPU", cpu);
	if (!p->have_ci)
		return 0;
	err = wfw_cpuidle_open(&ci, cpu, ctx->sysfs_root);
	if (err)
		return wultfw_fail(ctx, err, "cpu %d: cannot read its cpuidle "
				   "states: %s", cpu, strerror(-err));
	err = ci.nstates != p->ci.nstates;
	for (i = 0; !err && i < ci.nstates; i++)
		err = strcmp(ci.names[i], p->ci.names[i]) != 0;
	wfw_cpuidle_close(&ci);
	if (err)
		return wultfw_fail(ctx, -EINVAL, "cpu %d has other cpuidle "
			"states than CPU 0; ReqCState names would be wrong", cpu);
	return 0;
}

/* info.yml: which counters give the residency columns, and from where. */
static void hrt_counters_info(struct wultfw_ctx *ctx, struct hrt_priv *p)
{
	char v[512];

	if (p->counters_auto_off) {
		wultfw_info(ctx, "hrt_counters", "none (counters not given and only msr/tsc here; counters = true reads it)");
		return;
	}
	if (!p->counters) {
		wultfw_info(ctx, "hrt_counters", "none (counters = false)");
		return;
	}
	hrt_pmu_present_str(&p->pmu, v, sizeof(v));
	wultfw_info(ctx, "hrt_counters", v);
	if (p->pmu.n) {
		snprintf(v, sizeof(v), "perf events (%s) on CPU %d, read by "
			 "eBPF bpf_perf_event_read_value() at TBI and TAI",
			 HRT_PMU_ROOT, p->pmu.cpu);
		wultfw_info(ctx, "hrt_counters_source", v);
	}
	wultfw_info(ctx, "hrt_counters_absent",
		    p->pmu.absent[0] ? p->pmu.absent : "none");
}

static uint64_t hrt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Why records were dropped, for the rate warning (hrt_health.h). */
static void hrt_health_drops(const struct hrt_priv *p,
			     const struct hrt_stats *st,
			     struct hrt_health_in *in)
{
	static const char *const longer = "longer launch distances (idle was entered after the launch time)";
	const struct {
		uint64_t n;
		const char *why, *advice;
	} d[] = {
		{ st->rb_full, "ring buffer full", "a larger ring_kib" },
		{ p->drop_cpu, "timer ran on another CPU", NULL },
		{ p->drop_ctr, "a counter stopped counting", NULL },
		{ p->drop_ts[WULTFW_KSIDE_BAD_TBI], "idle entered after the launch time", longer },
		{ p->drop_ts[WULTFW_KSIDE_BAD_TAI], "idle exit before the launch time", NULL },
		{ p->drop_ts[WULTFW_KSIDE_BAD_TINTR], "handler before the launch time", NULL },
		{ p->drop_ts[WULTFW_KSIDE_BAD_ZERO], "a timestamp missing", NULL },
		{ p->drop_ts[WULTFW_KSIDE_BAD_TOTCYC], "TotCyc 0", NULL },
		{ p->drop_ts[WULTFW_KSIDE_BAD_OVERHEAD], "overheads above the latency", NULL },
	};
	size_t i;

	_Static_assert(sizeof(d) / sizeof(d[0]) <= HRT_HEALTH_MAX_DROPS,
		       "raise HRT_HEALTH_MAX_DROPS");
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		in->drop[i] = (struct hrt_health_drop){ d[i].why, d[i].n,
							d[i].advice };
	in->ndrop = i;
}

/* One warning per problem, not only a key in info.yml (hrt_health.h). */
static void hrt_warn_health(struct wultfw_ctx *ctx, struct hrt_priv *p,
			    const struct hrt_stats *st)
{
	struct hrt_health_in in = {
		.duration_ns = hrt_now_ns() - p->t_start_ns,
		.ldist_from_ns = p->ldist_from_ns,
		.ldist_to_ns = p->ldist_to_ns,
		.records = st->events + st->rb_full,
		.kept = p->kept,
		.arms = st->arms,
		.busy = st->busy,
		.early_wakeups = st->early_exits,
		.probe_entry_ns = st->cost_cnt[HRT_COST_ENTRY] ?
			st->cost_ns[HRT_COST_ENTRY] / st->cost_cnt[HRT_COST_ENTRY] : 0,
		.counters = p->pmu.n > 0,
	};
	char warn[2][HRT_HEALTH_LEN];
	size_t i, n;

	hrt_health_drops(p, st, &in);
	n = hrt_health(&in, warn, 2);
	for (i = 0; i < n; i++)
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", warn[i]);
}

static int hrt_start(struct wultfw_ctx *ctx,
		     const struct wultfw_source_params *params)
{
	struct hrt_priv *p = ctx->priv;
	struct hrt_bpf__bss *bss = p->skel->bss;
	int err;

	err = hrt_check_cpu(ctx, p, params->cpu);
	if (err)
		return err;
	err = hrt_pmu_setup(ctx, p, params->cpu);
	if (err)
		return err;
	p->cpu = params->cpu;
	bss->nctr = (__u32)p->pmu.n;
	hrt_counters_info(ctx, p);
	bss->target_cpu = (__u32)params->cpu;
	bss->ldist_from = params->ldist_from_ns;
	bss->ldist_to = params->ldist_to_ns;
	bss->ldist_gran = 1;
	bss->rng = params->seed;
	memset(&bss->stats, 0, sizeof(bss->stats));

	p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.hrt_rb),
				 hrt_ringbuf_cb, p, NULL);
	if (!p->rb)
		return wultfw_fail(ctx, -errno, "cannot map the BPF ring "
				   "buffer: %s", strerror(errno));
	err = hrt_bpf__attach(p->skel);
	if (err) {
		char last[256];

		hrt_log_tail(ctx, 4, last, sizeof(last));
		return wultfw_fail(ctx, err, "cannot attach the tp_btf "
			"programs: %s (%s)", strerror(-err), last);
	}
	/* From now on the next idle entry of the CPU arms the first timer. */
	p->ldist_from_ns = params->ldist_from_ns;
	p->ldist_to_ns = params->ldist_to_ns;
	p->t_start_ns = hrt_now_ns();
	__atomic_store_n(&bss->run, 1, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Counter reads that took this long were interrupted (in a VM: the vCPU
 * was descheduled); their window differs from TBI..TAI by up to that much.
 */
#define HRT_SLOW_READ_NS 1000

/*
 * ns the counter deltas cover: TBI..TAI moved by where inside each read
 * span the counters were sampled (taken as the middle); 0 if that is
 * nonsense, and kside falls back to TAI - TBI.
 */
static uint64_t hrt_ctr_window(const struct hrt_event *e)
{
	int64_t w = (int64_t)(e->tai - e->tbi) +
		    ((int64_t)e->ctr_span_tai - (int64_t)e->ctr_span_tbi) / 2;

	return w > 0 ? (uint64_t)w : 0;
}

/* Turn one record into a row, or count why it is dropped. */
static void hrt_add(struct hrt_priv *p, struct wultfw_batch *b,
		    const struct hrt_event *e)
{
	struct wultfw_kside_dp dp = { 0 };
	enum wultfw_kside_bad why;
	union wultfw_cell *row;
	size_t x = p->ks.first_extra;

	if (e->intr_cpu != p->cpu) {
		/* Pinning failed: the timer ran elsewhere, TIntr is foreign. */
		p->drop_cpu++;
		b->discarded++;
		return;
	}
	dp.tbi = e->tbi;
	dp.ltime = e->ltime;
	dp.tai = e->tai;
	dp.tintr = e->tintr;
	dp.ldist = e->ldist;
	dp.req_state = (int)e->req_state;
	dp.intr_off = -1;
	dp.nmi = e->nmi;
	if (p->pmu.n) {
		if (e->ctr_bad) {
			/* Deltas not of this idle period: no made-up residency. */
			p->drop_ctr++;
			b->discarded++;
			return;
		}
		uint64_t d[HRT_MAX_CTR];

		for (size_t i = 0; i < HRT_MAX_CTR; i++)
			d[i] = e->ctr[i];
		hrt_pmu_fill_dp(&p->pmu, d, &dp);
		/* The time the deltas cover, for CPUFreq (hrt_event.h). */
		dp.cyc_ns = hrt_ctr_window(e);
		if (e->ctr_span_tbi > HRT_SLOW_READ_NS ||
		    e->ctr_span_tai > HRT_SLOW_READ_NS)
			p->ctr_slow++;
	}
	why = wultfw_kside_check(&p->ks, &dp);
	if (why != WULTFW_KSIDE_OK) {
		p->drop_ts[why]++;
		b->discarded++;
		return;
	}
	row = wultfw_row(b, b->rows++);
	p->kept++;
	wultfw_kside_fill(&p->ks, &dp, row);
	row[x].i = e->softirq;
	row[x + 1].i = e->softirq || e->nmi;
}

static int hrt_ringbuf_cb(void *data, void *sample, size_t len)
{
	struct hrt_priv *p = data;
	struct wultfw_batch *b = p->cur;

	if (len < sizeof(struct hrt_event))
		return 0;
	if (b->rows >= b->capacity) {
		/* libbpf has consumed it already: keep it for the next read. */
		memcpy(&p->pending, sample, sizeof(p->pending));
		p->has_pending = true;
		return -ENOSPC;
	}
	hrt_add(p, b, sample);
	return 0;
}

static int hrt_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		    uint64_t timeout_ns)
{
	struct hrt_priv *p = ctx->priv;
	struct hrt_stats *st = &p->skel->bss->stats;
	uint64_t waited = 0, full;
	int err;

	if (!p->warned_same_cpu && sched_getcpu() == p->cpu) {
		p->warned_same_cpu = true;
		wultfw_log(ctx, WULTFW_LOG_WARN, "reading datapoints on the "
			   "measured CPU %d disturbs it; pin the reader "
			   "elsewhere", p->cpu);
	}
	if (st->arm_errors)
		return wultfw_fail(ctx, -EOPNOTSUPP, "bpf_timer_start() failed "
			"with %lld: this kernel does not support absolute "
			"CPU-pinned bpf timers (needs Linux >= 6.7)",
			(long long)st->last_error);
	if (st->ctr_read_err) {
		__u32 i = st->ctr_err_idx;

		return wultfw_fail(ctx, (int)st->ctr_last_err,
			"bpf_perf_event_read_value(%s/%s) on CPU %d failed: %s "
			"(errno %lld)", i < p->pmu.n ? p->pmu.c[i].pmu : "?",
			i < p->pmu.n ? p->pmu.c[i].event : "?", p->cpu,
			strerror((int)-st->ctr_last_err),
			(long long)-st->ctr_last_err);
	}
	p->cur = b;
	if (p->has_pending && b->rows < b->capacity) {
		p->has_pending = false;
		hrt_add(p, b, &p->pending);
	}
	for (;;) {
		struct timespec ts;

		if (!p->has_pending) {
			err = ring_buffer__consume(p->rb);
			if (err < 0 && err != -ENOSPC)
				return wultfw_fail(ctx, err, "reading the BPF "
					"ring buffer: %s", strerror(-err));
		}
		if (b->rows || waited >= timeout_ns || wultfw_stopping(ctx))
			break;
		/* Poll instead of being woken: no IPI to the measured CPU. */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(p->o->poll < timeout_ns - waited ?
				    p->o->poll : timeout_ns - waited);
		nanosleep(&ts, NULL);
		waited += (uint64_t)ts.tv_nsec;
	}
	/* Records the program could not store are lost datapoints too. */
	full = __atomic_load_n(&st->rb_full, __ATOMIC_RELAXED);
	b->discarded += full - p->rb_full_seen;
	p->rb_full_seen = full;
	return WULTFW_READ_OK;
}

static int hrt_stop(struct wultfw_ctx *ctx)
{
	struct hrt_priv *p = ctx->priv;
	struct hrt_stats *st;
	char v[64];

	if (!p || !p->skel)
		return 0;
	st = &p->skel->bss->stats;
	__atomic_store_n(&p->skel->bss->run, 0, __ATOMIC_RELEASE);
	hrt_bpf__detach(p->skel);

#define HRT_INFO(key, val) do { \
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(val)); \
		wultfw_info(ctx, key, v); \
	} while (0)
	HRT_INFO("hrt_timers_armed", st->arms);
	HRT_INFO("hrt_busy_at_launch", st->busy);
	HRT_INFO("hrt_early_wakeups", st->early_exits);
	HRT_INFO("hrt_dropped_ringbuf_full", st->rb_full);
	HRT_INFO("hrt_dropped_other_cpu", p->drop_cpu);
	HRT_INFO("hrt_dropped_tbi_after_ltime", p->drop_ts[WULTFW_KSIDE_BAD_TBI]);
	HRT_INFO("hrt_dropped_tai_before_ltime", p->drop_ts[WULTFW_KSIDE_BAD_TAI]);
	HRT_INFO("hrt_dropped_tintr_before_ltime", p->drop_ts[WULTFW_KSIDE_BAD_TINTR]);
	HRT_INFO("hrt_dropped_missing_timestamp", p->drop_ts[WULTFW_KSIDE_BAD_ZERO]);
	HRT_INFO("hrt_dropped_totcyc_zero", p->drop_ts[WULTFW_KSIDE_BAD_TOTCYC]);
	HRT_INFO("hrt_dropped_counter_not_counting", p->drop_ctr);
	if (p->pmu.n)
		HRT_INFO("hrt_counter_reads_slow", p->ctr_slow);
	/* Average cost of the cpu_idle probe on the measured CPU, by path. */
	HRT_INFO("hrt_probe_ns_idle_entry", st->cost_cnt[HRT_COST_ENTRY] ?
		 st->cost_ns[HRT_COST_ENTRY] / st->cost_cnt[HRT_COST_ENTRY] : 0);
	HRT_INFO("hrt_probe_ns_idle_exit", st->cost_cnt[HRT_COST_EXIT] ?
		 st->cost_ns[HRT_COST_EXIT] / st->cost_cnt[HRT_COST_EXIT] : 0);
	HRT_INFO("hrt_probe_ns_exit_datapoint", st->cost_cnt[HRT_COST_EXIT_DP] ?
		 st->cost_ns[HRT_COST_EXIT_DP] / st->cost_cnt[HRT_COST_EXIT_DP] : 0);
	for (int i = 0; i < 8; i++) {
		char key[48];

		if (!st->idle_entries[i])
			continue;
		snprintf(key, sizeof(key), "hrt_idle_entries_state%d", i);
		HRT_INFO(key, st->idle_entries[i]);
	}
#undef HRT_INFO
	hrt_warn_health(ctx, p, st);
	return 0;
}

static void hrt_close(struct wultfw_ctx *ctx)
{
	struct hrt_priv *p = ctx->priv;

	if (!p)
		return;
	ring_buffer__free(p->rb);
	hrt_pmu_close(&p->pmu);
	/* Destroying the skeleton closes the maps: the timer is cancelled. */
	hrt_bpf__destroy(p->skel);
	if (p->have_ci)
		wfw_cpuidle_close(&p->ci);
	if (p->lock_fd >= 0)
		close(p->lock_fd);	/* releases the flock */
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops hrt_ops = {
	.open = hrt_open,
	.start = hrt_start,
	.read = hrt_read,
	.stop = hrt_stop,
	.close = hrt_close,
};

/* Option values alone, before anything runs (wultfw --check). */
static int hrt_validate(struct wultfw_ctx *ctx)
{
	return hrt_check_opts(ctx);
}

WULTFW_PLUGIN(hrt) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "hrt",
	.summary = "hrtimer wake latency measured with eBPF (tp_btf + "
		   "bpf_timer), no kernel module; root, BTF, Linux >= 6.7",
	.options = hrt_options,
	.source = &hrt_ops,
	.validate = hrt_validate,
	.cfg_size = sizeof(struct hrt_optvals),
	.ldist = { WULTFW_LDIST_LAUNCH, 1000, 1000000000ULL },
	.caps = WULTFW_CAP_CPU_LIST,	/* one pinned instance per CPU */
};
