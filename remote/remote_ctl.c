/* SPDX-License-Identifier: MIT */
/*
 * wultfw -H HOST[,HOST...]: the controller. Runs every SUT's job in its
 * own thread (at most --jobs at a time), draws one progress line per SUT
 * on a terminal, and prints a summary per SUT at the end.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "remote.h"
#include "run.h"
#include "signals.h"

struct pool {
	struct wfw_sut_job *jobs;
	size_t n, next;
};

/* A worker takes the next waiting SUT until none is left. */
static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	for (;;) {
		wfw_remote_lock();
		i = p->next < p->n ? p->next++ : p->n;
		wfw_remote_unlock();
		if (i == p->n || wfw_stop_signal)
			return NULL;
		wfw_sut_job_run(&p->jobs[i]);
	}
}

static const char *state_name(enum wfw_sut_state st)
{
	static const char *const names[] = {
		[SUT_WAITING] = "waiting", [SUT_CONNECTING] = "connecting",
		[SUT_RUNNING] = "running", [SUT_STOPPING] = "stopping",
		[SUT_FETCHING] = "copying back", [SUT_DONE] = "done",
		[SUT_FAILED] = "failed", [SUT_INTERRUPTED] = "interrupted",
		[SUT_DETACHED] = "detached", [SUT_EMPTY] = "empty",
	};
	return names[st];
}

static bool finished(enum wfw_sut_state st)
{
	return st >= SUT_DONE;
}

/* Redraw one line per SUT (after the first time, move up over them). */
static void draw(struct pool *p, bool again)
{
	long now = (long)time(NULL);
	size_t i;

	if (again)
		fprintf(stderr, "\033[%zuA", p->n);
	wfw_remote_lock();
	for (i = 0; i < p->n; i++) {
		const struct wfw_sut_job *j = &p->jobs[i];

		fprintf(stderr, "\r\033[K%s: %s", j->sut.host,
			finished(j->state) ? state_name(j->state) : j->status[0] ? j->status : "waiting");
		if (j->t0 && !finished(j->state))
			fprintf(stderr, ", %lds", now - j->t0);
		fputc('\n', stderr);
	}
	wfw_remote_unlock();
}

/* Without a terminal: one line whenever a SUT changes state. */
static void report_changes(struct pool *p, enum wfw_sut_state *seen)
{
	size_t i;

	wfw_remote_lock();
	for (i = 0; i < p->n; i++) {
		const struct wfw_sut_job *j = &p->jobs[i];

		if (j->state != seen[i] && !finished(j->state))
			wfw_info("%s: %s", j->sut.host, j->status);
		seen[i] = j->state;
	}
	wfw_remote_unlock();
}

static bool all_finished(struct pool *p)
{
	size_t i;
	bool done = true;

	wfw_remote_lock();
	for (i = 0; i < p->n; i++)
		if (!finished(p->jobs[i].state) &&
		    !(p->jobs[i].state == SUT_WAITING && wfw_stop_signal))
			done = false;
	wfw_remote_unlock();
	return done;
}

/* Per SUT: done, failed with why, interrupted, or left running. */
static int summary(struct pool *p)
{
	int status = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct wfw_sut_job *j = &p->jobs[i];

		switch (j->state) {
		case SUT_DONE:
			wfw_info("%s: done: %s", j->sut.host, j->reason);
			break;
		case SUT_INTERRUPTED:
			wfw_warn("%s: interrupted: %s", j->sut.host, j->reason);
			if (!status)
				status = 128 + (wfw_stop_signal ? wfw_stop_signal : 2);
			break;
		case SUT_WAITING:
			wfw_warn("%s: not started (stopped first)", j->sut.host);
			break;
		case SUT_EMPTY:
			wfw_warn("%s: empty: %s", j->sut.host, j->reason);
			if (!status)
				status = WFW_EXIT_EMPTY;
			break;
		default:
			wfw_err("%s: %s: %s", j->sut.host, state_name(j->state),
				j->reason);
			status = 1;
		}
	}
	if (wfw_stop_signal && status != 1)
		status = 128 + wfw_stop_signal;
	return status;
}

static void run_id(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	snprintf(buf, len, "run-%04d%02d%02d-%02d%02d%02d-%ld", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long)getpid());
}

/* --check: the file is valid; what each SUT can run, its run will say. */
static int check_only(struct wfw_plan *plan, const struct wfw_remote_opts *ro)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		printf("%s: experiment '%s': source %s on CPU %d, %zu sink%s: valid (each SUT checks its machine when it runs)\n",
		       plan->file, plan->exps[i].name,
		       plan->exps[i].source.h.desc->name, plan->exps[i].cpu,
		       plan->exps[i].nsinks, plan->exps[i].nsinks == 1 ? "" : "s");
	for (i = 0; i < ro->hosts.n; i++)
		printf("SUT %s\n", ro->hosts.v[i]);
	return 0;
}

/* A result directory that exists already stops us before any SUT runs. */
static int check_dests(struct wfw_plan *plan, const struct wfw_remote_opts *ro)
{
	char path[4096], host_dir[256];
	size_t i, k;
	int bad = 0;

	for (k = 0; k < ro->hosts.n; k++) {
		wfw_host_dir(ro->hosts.v[k], host_dir, sizeof(host_dir));
		for (i = 0; i < plan->n; i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", plan->exps[i].outdir,
				 host_dir, plan->exps[i].name);
			if (!ro->force && !access(path, F_OK)) {
				wfw_err("result directory %s exists already: move it away, choose another outdir (-o), or replace it with --force",
					path);
				bad = 1;
			}
		}
	}
	return bad;
}

/* One job per SUT, all waiting. */
static void pool_init(struct pool *p, struct wfw_plan *plan, struct wfw_remote_opts *ro)
{
	size_t i;

	p->n = ro->hosts.n;
	p->next = 0;
	p->jobs = calloc(p->n, sizeof(*p->jobs));
	if (!p->jobs)
		abort();
	for (i = 0; i < p->n; i++) {
		wfw_sut_init(&p->jobs[i].sut, ro->hosts.v[i], (int)i, &ro->ssh);
		p->jobs[i].ro = ro;
		p->jobs[i].plan = plan;
	}
}

/* Until every SUT has finished: progress lines, or a message per change. */
static void watch(struct pool *p, bool progress)
{
	enum wfw_sut_state *seen = calloc(p->n, sizeof(*seen));
	bool drawn = false;

	if (!seen)
		abort();
	while (!all_finished(p)) {
		struct timespec ts = { 0, 250000000 };

		if (progress) {
			draw(p, drawn);
			drawn = true;
		} else {
			report_changes(p, seen);
		}
		nanosleep(&ts, NULL);
	}
	if (progress)
		draw(p, drawn);
	free(seen);
}

/* At most @jobs workers (0: one per SUT) take the SUTs in turn. */
static void run_pool(struct pool *p, size_t jobs, bool progress)
{
	size_t i, nthreads = jobs && jobs < p->n ? jobs : p->n;
	pthread_t *threads = calloc(nthreads, sizeof(*threads));

	if (!threads)
		abort();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, worker, p))
			abort();
	watch(p, progress);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

int wfw_remote_main(struct wfw_plan *plan, struct wfw_remote_opts *ro)
{
	struct pool p = { 0 };
	int status;

	if (ro->check)
		return check_only(plan, ro);
	if (check_dests(plan, ro))
		return 2;
	if (wfw_ssh_opts_init(&ro->ssh)) {
		wfw_err("cannot create a private directory for ssh control sockets in /tmp");
		return 1;
	}
	run_id(ro->run_id, sizeof(ro->run_id));
	pool_init(&p, plan, ro);
	wfw_info("running %zu experiment%s on %zu SUT%s (run %s)", plan->n,
		 plan->n == 1 ? "" : "s", p.n, p.n == 1 ? "" : "s", ro->run_id);
	run_pool(&p, ro->jobs, ro->progress);
	status = summary(&p);
	wfw_ssh_opts_cleanup(&ro->ssh);
	free(p.jobs);
	return status;
}
