/* SPDX-License-Identifier: MIT */
/*
 * An experiment on several CPUs at once: one child process per CPU, each
 * an ordinary run (run.c) of a source pinned to its CPU, with its own CPU
 * lock and result directory EXP/cpuN/. Processes, not threads: each child
 * has its own change registry (restore.c's slots and PID.state file), log
 * tee, first error and plugin state, so nothing of one run can clobber
 * another's. What they do share, the parent keeps: the terminal (one
 * progress line for all), the stop signal (passed on once) and EXP/info.yml,
 * which names the CPUs so readers open EXP as one result with a CPU column.
 */
#include "config.h"

#include "percpu.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sysstate/proc.h>

#include "cpuset.h"
#include "livetab.h"
#include "log.h"
#include "percpu_once.h"
#include "restore.h"
#include "resultdir.h"
#include "runwatch.h"
#include "signals.h"

#define POLL_NS 100000000L	/* how often the parent looks at its children */

/* What a child shares with the parent (MAP_SHARED). */
struct percpu_slot {
	volatile uint64_t live[2];	/* datapoints, discarded so far */
	struct wfw_run_result r;	/* the child's, once it ended */
	struct wfw_live stats;		/* the live table's row */
	int stop_req;			/* the parent's: another CPU crossed stop_above */
};

struct percpu {
	struct wfw_experiment *e;
	const struct wfw_run_opts *o;
	struct percpu_slot *slots;
	pid_t *pids;			/* 0: not started or reaped */
	int *status;			/* each child's exit status */
	size_t started;
	char dir[PATH_MAX];
	int dirfd;
	struct wfw_info info;
	uint64_t start;
	long hit;			/* the child that crossed stop_above first, or -1 */
	struct wfw_livetab tab;		/* on a terminal: every CPU's figures */
	struct wfw_percpu_once once;	/* C-states, housekeeping, collectors */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- EXP/: the marker readers rely on ---- */

static void fill_info(struct percpu *pc)
{
	const struct wfw_experiment *e = pc->e;
	struct wfw_info *info = &pc->info;
	char buf[4096], date[64];
	time_t now = time(NULL);
	struct tm tm;

	wfw_info_str(info, "collector", "wultfw " PACKAGE_VERSION);
	wfw_info_str(info, "reportid", e->name);
	wfw_info_identity(info, e->name);
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	wfw_info_str(info, "date", date);
	wfw_info_str(info, "source", e->source.h.desc->name);
	wfw_info_raw(info, "per_cpu_dirs", "true");
	wfw_cpuset_format(e->cpus, e->ncpus, buf, sizeof(buf));
	wfw_info_fmt(info, "cpus", "[%s]", buf);
	wfw_info_running(info, pc->o->config_file);
}

/* A generated name taken already got a number: the experiment has it too. */
static void take_dir_name(struct percpu *pc)
{
	const char *base = strrchr(pc->dir, '/');
	char *name;

	base = base ? base + 1 : pc->dir;
	if (!strcmp(base, pc->e->name) || !(name = strdup(base)))
		return;
	free(pc->e->name);
	pc->e->name = name;
}

/* EXP/ with info.yml (running, our pid) and logs/, as a run's own. */
static int make_dir(struct percpu *pc)
{
	char err[1024];
	int ret;

	snprintf(pc->dir, sizeof(pc->dir), "%s/%s", pc->e->outdir, pc->e->name);
	pc->dirfd = wfw_resultdir_make(pc->dir, sizeof(pc->dir), pc->o->force,
				       pc->o->numbered, err, sizeof(err));
	if (pc->dirfd < 0) {
		wfw_err("%s", err);
		return pc->dirfd;
	}
	take_dir_name(pc);
	fill_info(pc);
	ret = wfw_info_write_at(&pc->info, pc->dirfd, 4096);
	if (!ret && mkdirat(pc->dirfd, "logs", 0755))
		ret = -errno;
	if (!ret && pc->o->cmdline) {
		char *line = malloc(strlen(pc->o->cmdline) + 2);

		if (line) {
			sprintf(line, "%s\n", pc->o->cmdline);
			wfw_write_text_at(pc->dirfd, "logs/cmdline", line);
			free(line);
		}
	}
	if (ret)
		wfw_err("cannot write %s: %s", pc->dir, strerror(-ret));
	return ret;
}

/* ---- the children ---- */

/* *s = a copy of v, the old one freed (no pointer to it lost: LSan). */
static int replace(char **s, const char *v)
{
	char *c = strdup(v);

	if (!c)
		return -ENOMEM;
	free(*s);
	*s = c;
	return 0;
}

/* In the child: one ordinary run of CPU cpu into EXP/cpuN/; never returns. */
static void child(struct percpu *pc, size_t i, pid_t parent)
{
	struct wfw_experiment *e = pc->e;
	struct wfw_run_opts co = *pc->o;
	char dirname[32], name[512];
	int cpu = e->cpus[i];

	/* The terminal's Ctrl-C goes to the parent, which passes it on once. */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);	/* a killed parent stops us */
	if (getppid() != parent)
		_exit(1);
	snprintf(dirname, sizeof(dirname), "cpu%d", cpu);
	snprintf(name, sizeof(name), "%s-cpu%d", e->name, cpu);
	/* The child's copy of the experiment: its reportid, messages, place. */
	if (replace(&e->name, name) || replace(&e->outdir, pc->dir))
		_exit(1);
	e->cpu = cpu;
	e->ncpus = 1;
	co.dirname = dirname;
	co.force = false;		/* EXP/ is new */
	co.numbered = false;
	co.progress = false;		/* the parent draws it */
	co.no_leftovers = true;		/* the parent restored them */
	wfw_livetab_child(&pc->tab);
	co.parent_once = true;		/* and sets C-states, runs collectors */
	co.live = pc->slots[i].live;
	co.live_stats = &pc->slots[i].stats;
	co.stop_req = &pc->slots[i].stop_req;
	wfw_run_experiment(e, &co, &pc->slots[i].r);
	fflush(NULL);
	exit(pc->slots[i].r.failed ? 1 : 0);	/* atexit: its own changes back */
}

static int start_children(struct percpu *pc)
{
	pid_t parent = getpid();

	fflush(NULL);		/* nothing buffered is written twice */
	for (; pc->started < pc->e->ncpus; pc->started++) {
		pid_t pid = fork();

		if (pid < 0) {
			wfw_err("experiment '%s': cannot start the run of CPU %d: %s",
				pc->e->name, pc->e->cpus[pc->started], strerror(errno));
			return -errno;
		}
		if (!pid)
			child(pc, pc->started, parent);
		pc->pids[pc->started] = pid;
	}
	return 0;
}

static size_t reap(struct percpu *pc)
{
	size_t going = 0;

	for (size_t i = 0; i < pc->started; i++) {
		int st;

		if (!pc->pids[i])
			continue;
		if (waitpid(pc->pids[i], &st, WNOHANG) == pc->pids[i]) {
			pc->status[i] = st;
			pc->pids[i] = 0;
		} else {
			going++;
		}
	}
	return going;
}

static void signal_children(struct percpu *pc, int sig)
{
	for (size_t i = 0; i < pc->started; i++)
		if (pc->pids[i])
			kill(pc->pids[i], sig);
}

/* A child crossed stop_above: every other one asked to stop. */
static void watch_stops(struct percpu *pc)
{
	for (size_t i = 0; pc->hit < 0 && i < pc->started; i++) {
		if (!__atomic_load_n(&pc->slots[i].r.stop_hit.hit, __ATOMIC_ACQUIRE))
			continue;
		pc->hit = (long)i;
		for (size_t k = 0; k < pc->started; k++)
			__atomic_store_n(&pc->slots[k].stop_req, 1, __ATOMIC_RELEASE);
	}
}

/* The table of the children's slots, before they start. */
static void begin_table(struct percpu *pc)
{
	const struct wfw_experiment *e = pc->e;
	struct wfw_livetab *t = &pc->tab;

	if (wfw_livetab_begin(t, e->name, e->cpus, e->ncpus, e->max_datapoints,
			      e->max_time_ns, pc->o->progress))
		t->on = false;
	for (size_t i = 0; t->rows && i < e->ncpus; i++)
		t->rows[i] = &pc->slots[i].stats;
}

/* Until every child ended: the live table, and a stop passed on. */
static void wait_children(struct percpu *pc)
{
	struct timespec poll = { 0, POLL_NS };
	int forwarded = 0;
	uint64_t seen = 0;

	wfw_livetab_forked(&pc->tab);
	while (reap(pc)) {
		uint64_t dp = 0;

		if (wfw_stop_signal && !forwarded) {
			forwarded = wfw_stop_signal;
			signal_children(pc, forwarded);
		}
		watch_stops(pc);
		wfw_livetab_update(&pc->tab);
		for (size_t i = 0; i < pc->started; i++)
			dp += pc->slots[i].live[0];
		if (dp != seen)
			wfw_percpu_once_tick(&pc->once);
		seen = dp;
		nanosleep(&poll, NULL);	/* a signal cuts it short: fine */
	}
	watch_stops(pc);
	wfw_livetab_end(&pc->tab);
}

/* ---- the whole ---- */

/* The children's results summed into r; EXP/info.yml says how it ended. */
static void finish(struct percpu *pc, struct wfw_run_result *r, bool failed)
{
	struct wfw_info *info = &pc->info;
	bool all_empty = pc->started > 0;

	for (size_t i = 0; i < pc->started; i++) {
		const struct wfw_run_result *c = &pc->slots[i].r;
		bool exited = WIFEXITED(pc->status[i]);

		r->datapoints += c->datapoints;
		r->discarded += c->discarded;
		r->collectors_failed += c->collectors_failed;
		if (c->stop_signal)
			r->stop_signal = c->stop_signal;
		r->stopped_by_other |= c->stopped_by_other;
		failed |= c->failed || !exited || WEXITSTATUS(pc->status[i]);
		all_empty &= c->empty;
		if (!exited)
			wfw_err("experiment '%s': the run of CPU %d was killed by signal %d: %s/cpu%d may be incomplete",
				pc->e->name, pc->e->cpus[i], WTERMSIG(pc->status[i]),
				pc->dir, pc->e->cpus[i]);
	}
	if (wfw_stop_signal)
		r->stop_signal = wfw_stop_signal;
	if (pc->hit >= 0)
		r->stop_hit = pc->slots[pc->hit].r.stop_hit;
	r->duration_s = (double)(now_ns() - pc->start) / 1e9;
	r->failed = failed;
	r->empty = !failed && !r->stop_signal && all_empty;
	wfw_info_fmt(info, "duration", "%.3f", r->duration_s);
	wfw_info_fmt(info, "datapoints", "%" PRIu64, r->datapoints);
	wfw_info_fmt(info, "discarded", "%" PRIu64, r->discarded);
	r->empty &= !wfw_stopped(r);
	wfw_info_str(info, "status", failed ? "failed" : r->stop_signal ?
		     "interrupted" : wfw_stopped(r) ? "stopped" :
		     r->empty ? "empty" : "complete");
	if (r->stop_hit.hit)
		wfw_stop_info(&r->stop_hit, info);
	if (wfw_info_write_at(info, pc->dirfd, 0))
		wfw_err("cannot write %s/info.yml", pc->dir);
}

static void report(const struct percpu *pc, const struct wfw_run_result *r)
{
	char cpus[256];

	wfw_cpuset_format(pc->e->cpus, pc->e->ncpus, cpus, sizeof(cpus));
	if (r->failed)
		wfw_err("experiment '%s': the run of at least one CPU failed (above); what was measured is in %s/cpuN/",
			pc->e->name, pc->dir);
	else if (r->stop_hit.hit && !r->stop_signal)
		wfw_stop_report(pc->e->name, &r->stop_hit, r->datapoints, pc->dir);
	else
		wfw_info("experiment '%s': %" PRIu64 " datapoints on CPUs %s in %.1fs%s, results in %s/cpuN/ (all CPUs side by side: wultfw calc %s)",
			 pc->e->name, r->datapoints, cpus, r->duration_s,
			 r->stop_signal ? " (interrupted)" : "", pc->dir, pc->dir);
}

static int alloc(struct percpu *pc)
{
	size_t n = pc->e->ncpus;

	pc->slots = mmap(NULL, n * sizeof(*pc->slots), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pc->slots == MAP_FAILED) {
		pc->slots = NULL;
		return -ENOMEM;
	}
	pc->pids = calloc(n, sizeof(*pc->pids));
	pc->status = calloc(n, sizeof(*pc->status));
	return pc->pids && pc->status ? 0 : -ENOMEM;
}

int wfw_run_percpu(struct wfw_experiment *e, const struct wfw_run_opts *o,
		   struct wfw_run_result *r)
{
	struct percpu pc = { .e = e, .o = o, .dirfd = -1, .hit = -1 };
	int ret;

	memset(r, 0, sizeof(*r));
	/* What a killed run left changed goes back once, before any child. */
	if (wfw_restore_leftovers("run", o->sysfs_root, true) < 0)
		wfw_warn("settings a killed wultfw changed could not all be restored (above): this experiment may measure with them");
	ret = alloc(&pc);
	if (ret)
		wfw_err("out of memory");
	if (!ret)	/* refused C-states leave no result directory */
		ret = wfw_percpu_once_begin(&pc.once, e, o, &pc.info);
	if (!ret)
		ret = make_dir(&pc);
	if (!ret) {
		pc.start = now_ns();
		begin_table(&pc);
		ret = start_children(&pc);
		/*
		 * The collectors' threads start after the fork: a child forked
		 * beside them could inherit a lock one of them held (a
		 * sanitized build's children hung in malloc).
		 */
		if (!ret)
			wfw_percpu_once_collect(&pc.once, e, o, pc.dir, &pc.info);
		if (ret)	/* the started ones stop, with what they have */
			signal_children(&pc, SIGINT);
		wait_children(&pc);
		wfw_percpu_once_end(&pc.once, &pc.info, r);
		finish(&pc, r, ret < 0);
		report(&pc, r);
	}
	wfw_percpu_once_end(&pc.once, &pc.info, r);	/* a failed start too */
	if (ret)
		r->failed = true;
	if (pc.dirfd >= 0)
		close(pc.dirfd);
	wfw_info_free(&pc.info);
	if (pc.slots)
		munmap(pc.slots, e->ncpus * sizeof(*pc.slots));
	free(pc.pids);
	free(pc.status);
	return r->failed ? (ret ? ret : -EIO) : 0;
}
