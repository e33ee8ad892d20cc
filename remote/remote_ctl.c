/* SPDX-License-Identifier: MIT */
/*
 * wultfw -H HOST[,HOST...]: the controller. Runs every SUT's job in its
 * own thread (at most --jobs at a time), draws one progress line per SUT
 * on a terminal (one summary line for more than a few), and prints why
 * each SUT that failed did, then a table of every SUT at the end.
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
		[SUT_STOPPED] = "stopped above",
	};
	return names[st];
}

static bool finished(enum wfw_sut_state st)
{
	return st >= SUT_DONE;
}

/* Beyond this many SUTs, progress is one summary line. */
#define FEW_SUTS 4

/* How many SUTs are in each state, and which failed (for the summary). */
struct tally {
	size_t waiting, running, done, failed;
	char failed_names[160];
};

static void count(struct pool *p, struct tally *t)
{
	size_t i, used = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < p->n; i++) {
		const struct wfw_sut_job *j = &p->jobs[i];

		if (j->state == SUT_WAITING) {
			t->waiting++;
		} else if (!finished(j->state)) {
			t->running++;
		} else if (j->state == SUT_DONE || j->state == SUT_EMPTY ||
			   j->state == SUT_STOPPED || j->state == SUT_INTERRUPTED) {
			t->done++;
		} else {
			t->failed++;
			if (strstr(t->failed_names, "..."))
				continue;
			if (used + strlen(j->sut.host) + 6 < sizeof(t->failed_names))
				used += (size_t)snprintf(t->failed_names + used,
							 sizeof(t->failed_names) - used, "%s%s",
							 used ? ", " : "", j->sut.host);
			else
				used += (size_t)snprintf(t->failed_names + used,
							 sizeof(t->failed_names) - used, ", ...");
		}
	}
}

/* "40 SUTs: 3 waiting, 30 running, 6 done, 1 failed (sut7)" */
static void tally_line(const struct pool *p, const struct tally *t,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%zu SUTs: %zu waiting, %zu running, %zu done, %zu failed%s%s%s",
		 p->n, t->waiting, t->running, t->done, t->failed,
		 t->failed ? " (" : "", t->failed_names, t->failed ? ")" : "");
}

/* Redraw one line per SUT, or the one summary line for many. */
static void draw(struct pool *p, bool again)
{
	long now = (long)time(NULL);
	char line[256];
	struct tally t;
	size_t i;

	wfw_remote_lock();
	if (p->n > FEW_SUTS) {
		count(p, &t);
		tally_line(p, &t, line, sizeof(line));
		fprintf(stderr, "\r\033[K%s", line);
		wfw_remote_unlock();
		return;
	}
	if (again)
		fprintf(stderr, "\033[%zuA", p->n);
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

/*
 * Without a terminal: one line whenever a SUT changes state, or for many
 * SUTs the summary line whenever it changes.
 */
static void report_changes(struct pool *p, enum wfw_sut_state *seen,
			   char *last, size_t len)
{
	char line[256];
	struct tally t;
	size_t i;

	wfw_remote_lock();
	if (p->n > FEW_SUTS) {
		count(p, &t);
		tally_line(p, &t, line, sizeof(line));
		if (strcmp(line, last))
			wfw_info("%s", line);
		snprintf(last, len, "%s", line);
		wfw_remote_unlock();
		return;
	}
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

/* The final table: host, status, datapoints, where the result is. */
static void table(struct pool *p)
{
	int w = 4;
	char dp[32];
	size_t i;

	for (i = 0; i < p->n; i++)
		if ((int)strlen(p->jobs[i].sut.host) > w)
			w = (int)strlen(p->jobs[i].sut.host);
	printf("%-*s  %-11s  %10s  %s\n", w, "HOST", "STATUS", "DATAPOINTS", "RESULT");
	for (i = 0; i < p->n; i++) {
		const struct wfw_sut_job *j = &p->jobs[i];

		if (j->counted)
			snprintf(dp, sizeof(dp), "%llu", j->datapoints);
		else
			snprintf(dp, sizeof(dp), "-");
		printf("%-*s  %-11s  %10s  %s\n", w, j->sut.host,
		       j->state == SUT_WAITING ? "not started" : state_name(j->state),
		       dp, j->where[0] ? j->where : "-");
	}
	fflush(stdout);
}

/* Per SUT that did not simply finish: why, one line; then the table. */
static int summary(struct pool *p)
{
	int status = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct wfw_sut_job *j = &p->jobs[i];

		switch (j->state) {
		case SUT_DONE:
			wfw_debug("%s: done: %s", j->sut.host, j->reason);
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
		case SUT_STOPPED:
			wfw_warn("%s: stopped above: %s", j->sut.host, j->reason);
			if (!status)
				status = WFW_EXIT_STOP_ABOVE;
			break;
		default:
			wfw_err("%s: %s: %s", j->sut.host, state_name(j->state),
				j->reason);
			status = 1;
		}
	}
	if (wfw_verbosity > 0)
		table(p);
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
		printf("%s: experiment '%s': source %s on CPU %d; %zu sink%s: valid (each SUT checks its machine when it runs)\n",
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
	char last[256] = "";
	bool drawn = false;

	if (!seen)
		abort();
	while (!all_finished(p)) {
		struct timespec ts = { 0, 250000000 };

		if (progress) {
			draw(p, drawn);
			drawn = true;
		} else {
			report_changes(p, seen, last, sizeof(last));
		}
		nanosleep(&ts, NULL);
	}
	if (progress) {
		draw(p, drawn);
		if (p->n > FEW_SUTS)
			fputc('\n', stderr);
	} else {
		report_changes(p, seen, last, sizeof(last));
	}
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
