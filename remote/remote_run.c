/* SPDX-License-Identifier: MIT */
/*
 * One SUT's run, from the controller: connect, check the SUT's wultfw,
 * upload the experiment file, start the run detached on the SUT (its own
 * session, results under SUT_DIR/RUN_ID-HOST/out), watch it, stop it on Ctrl-C,
 * and bring the results back. Runs in its own thread; everything it tells
 * the user goes through the job's status and reason.
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "remote.h"
#include "run.h"
#include "signals.h"

/* Consecutive failed polls before the connection counts as lost. */
#define LOST_AFTER 5

/* One lock over every job's state: the controller's display reads them. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void wfw_remote_lock(void)
{
	pthread_mutex_lock(&lock);
}

void wfw_remote_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static __attribute__((format(printf, 3, 4)))
void set_state(struct wfw_sut_job *j, enum wfw_sut_state st,
		      const char *fmt, ...)
{
	va_list ap;

	wfw_remote_lock();
	j->state = st;
	va_start(ap, fmt);
	vsnprintf(j->status, sizeof(j->status), fmt, ap);
	va_end(ap);
	wfw_remote_unlock();
}

/* The job's final state and what the summary says about it; returns -1. */
static int conclude(struct wfw_sut_job *j, enum wfw_sut_state st,
		    const char *why)
{
	wfw_remote_lock();
	j->state = st;
	snprintf(j->reason, sizeof(j->reason), "%s", why);
	wfw_remote_unlock();
	return -1;
}

/* The SUT-side command line, run by sh in RUNDIR. */
static char *inner_script(const struct wfw_sut_job *j)
{
	char *w = wfw_shq(wfw_sut_wultfw(j->sut.o)), *only = NULL, *s;

	if (j->ro->only) {
		char *q = wfw_shq(j->ro->only);

		if (asprintf(&only, " --only %s", q) < 0)
			abort();
		free(q);
	}
	if (asprintf(&s, "%s --local%s -o out --no-progress%s%s >log 2>&1 & "
		     "echo $! >pid; wait $!; echo $? >rc.tmp; mv rc.tmp rc",
		     w, j->ro->config_file ? " -c exp.cfg" : "",
		     only ? only : "", j->ro->settings ? j->ro->settings : "") < 0)
		abort();
	free(w);
	free(only);
	return s;
}

/* printf '%s\n' 'NAME<TAB>OUTDIR' ... >dest: where results go back to. */
static char *dest_lines(const struct wfw_sut_job *j)
{
	char *cmd = strdup("printf '%s\\n'"), *line, *next;
	size_t i;

	for (i = 0; i < j->plan->n; i++) {
		if (asprintf(&line, "%s\t%s", j->plan->exps[i].name,
			     j->plan->exps[i].outdir) < 0)
			abort();
		cmd = wfw_shq_append(cmd, line);
		free(line);
	}
	if (asprintf(&next, "%s >dest", cmd) < 0)
		abort();
	free(cmd);
	return next;
}

static int upload_config(struct wfw_sut_job *j, const char *qdir)
{
	char *cmd;
	int fd = -1, st;

	if (j->ro->config_file) {
		fd = open(j->ro->config_file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
	}
	if (asprintf(&cmd, "mkdir -p -- %s && cat >%s/exp.cfg", qdir, qdir) < 0)
		abort();
	st = wfw_ssh_run(&j->sut, cmd, fd, -1);
	free(cmd);
	if (fd >= 0)
		close(fd);
	return st ? -1 : 0;
}

/*
 * Start the detached run: setsid -f puts it in its own session and lets it
 * go at once, so it is nobody's child here and survives this connection,
 * this process and a killed sshd.
 */
static int start_run(struct wfw_sut_job *j)
{
	char *qdir = wfw_shq(j->rundir), *qhost = wfw_shq(j->sut.host);
	char *inner = inner_script(j), *qinner = wfw_shq(inner);
	char *dest = dest_lines(j), *cmd, *out = NULL, why[1024];
	int st = -1;

	if (upload_config(j, qdir)) {
		snprintf(why, sizeof(why), "cannot create %s on the SUT (%s)",
			 j->rundir, j->sut.err);
		goto out;
	}
	if (asprintf(&cmd, "cd %s || exit 1; %s || exit 1; "
		     "WULTFW_HOST=%s setsid -f nohup sh -c %s </dev/null >/dev/null 2>&1; "
		     "i=0; while [ ! -s pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; cat pid",
		     qdir, dest, qhost, qinner) < 0)
		abort();
	st = wfw_ssh_capture(&j->sut, cmd, &out);
	free(cmd);
	if (st == 255) {
		/* ssh's own failure: the run may have started all the same */
		snprintf(why, sizeof(why),
			 "lost the connection while starting the run (%s); it may be going on on the SUT in %s: collect it later with 'wultfw fetch -H %s'",
			 j->sut.err[0] ? j->sut.err : "ssh failed", j->rundir, j->sut.host);
		conclude(j, SUT_DETACHED, why);
		st = -2;
	} else if (st || !out || atoi(out) <= 0) {
		snprintf(why, sizeof(why), "cannot start the run on the SUT (%s)",
			 j->sut.err[0] ? j->sut.err : "no process id");
		st = -1;
	}
out:
	if (st && st != -2)
		conclude(j, SUT_FAILED, why);
	free(out);
	free(dest);
	free(qinner);
	free(inner);
	free(qhost);
	free(qdir);
	return st;
}

/* Two runs at once on one SUT would disturb each other's measurements. */
static int check_idle(struct wfw_sut_job *j)
{
	char why[1024], *text, *p;
	int st, ret = 0;

	text = wfw_remote_list_runs(&j->sut, &st);
	if (st) {
		snprintf(why, sizeof(why), "cannot look for runs in %s on the SUT (%s)",
			 wfw_sut_dir(j->sut.o), j->sut.err);
		ret = conclude(j, SUT_FAILED, why);
	}
	for (p = st ? NULL : text; p && *p && !ret; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "running ", 8))
			continue;
		snprintf(why, sizeof(why),
			 "a run is still going on on the SUT in %.*s: two at once would disturb each other; wait for it, then collect it with 'wultfw fetch -H %s'",
			 (int)strcspn(p + 8, " \n"), p + 8, j->sut.host);
		ret = conclude(j, SUT_FAILED, why);
	}
	free(text);
	return ret;
}

/* Sleep about a second, waking early when a stop is asked for. */
static void nap(void)
{
	struct timespec ts = { 0, 100000000 };
	int i;

	for (i = 0; i < 10 && !wfw_stop_signal; i++)
		nanosleep(&ts, NULL);
}

/* Ask the SUT's wultfw to stop as after a local Ctrl-C. */
static int send_stop(struct wfw_sut_job *j)
{
	char *q = wfw_shq(j->rundir), *cmd;
	int st;

	if (asprintf(&cmd, "cd %s && { [ -f rc ] || kill -INT \"$(cat pid)\"; }", q) < 0)
		abort();
	st = wfw_ssh_run(&j->sut, cmd, -1, -1);
	free(cmd);
	free(q);
	return st;
}

/* The experiments begun so far: entries of out/. */
static size_t count_started(const char *names)
{
	size_t n = 0;
	const char *p;

	for (p = names; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p != '\n' && *p != '.')
			n++;
	return n;
}

/*
 * Wait for the SUT's run to end. Returns its exit status, or -1 when the
 * connection is lost (the run goes on there).
 */
static int watch_run(struct wfw_sut_job *j)
{
	char *q = wfw_shq(j->rundir), *cmd, *out;
	int failures = 0, rc = -1, stop_sent = 0, st;

	if (asprintf(&cmd, "cd %s || exit 0; cat rc 2>/dev/null || { kill -0 \"$(cat pid)\" 2>/dev/null && echo running; } || echo lost; ls out 2>/dev/null; true", q) < 0)
		abort();
	free(q);
	for (;;) {
		if (wfw_stop_signal && !stop_sent) {
			set_state(j, SUT_STOPPING, "stopping");
			stop_sent = send_stop(j) == 0;
		}
		out = NULL;
		st = wfw_ssh_capture(&j->sut, cmd, &out);
		if (st) {
			free(out);
			if (++failures >= LOST_AFTER)
				break;
			nap();
			continue;
		}
		failures = 0;
		wfw_remote_lock();
		j->started = count_started(strchr(out, '\n') ? strchr(out, '\n') + 1 : NULL);
		wfw_remote_unlock();
		/* lost: no exit status and no process (the SUT rebooted?) */
		if (!out[0] || !strncmp(out, "lost", 4)) {
			rc = 255;
		} else if (strncmp(out, "running", 7)) {
			rc = atoi(out);
		} else if (!stop_sent) {
			set_state(j, SUT_RUNNING, "running experiment %zu of %zu",
				  j->started ? j->started : 1, j->plan->n);
		}
		free(out);
		if (rc >= 0)
			break;
		nap();
	}
	free(cmd);
	return rc;
}

/* The first error the SUT's wultfw logged, at the controller's file. */
static void sut_error(struct wfw_sut_job *j, char *buf, size_t len)
{
	char *q = wfw_shq(j->rundir), *cmd, *out = NULL, *p, *at;

	buf[0] = '\0';
	if (asprintf(&cmd, "grep -m1 -e 'error:' %s/log", q) < 0)
		abort();
	free(q);
	if (wfw_ssh_capture(&j->sut, cmd, &out) == 0) {
		out[strcspn(out, "\n")] = '\0';
		p = strstr(out, "error: ");
		p = p ? p + 7 : out;
		/* "exp.cfg:12: ..." is the controller's file on the SUT */
		at = j->ro->config_file ? strstr(p, "exp.cfg:") : NULL;
		if (at && (at == p || at[-1] == ' '))
			snprintf(buf, len, "%.*s%s:%s", (int)(at - p), p,
				 j->ro->config_file, at + 8);
		else
			snprintf(buf, len, "%s", p);
	}
	free(out);
	free(cmd);
}

/* Bring everything back; the final state says how the run ended. */
static void finish(struct wfw_sut_job *j, int rc)
{
	char got[2048], why[2048], err[1024];
	bool interrupted = rc == 130 || rc == 143 || rc == 129;

	/* Read the SUT's error before the copy removes its log. */
	err[0] = '\0';
	if (rc != 0 && !interrupted)
		sut_error(j, err, sizeof(err));
	set_state(j, SUT_FETCHING, "copying results back");
	if (wfw_remote_collect(&j->sut, j->rundir, NULL, NULL, 0, j->ro->force,
			       got, sizeof(got), why, sizeof(why))) {
		conclude(j, SUT_FAILED, why);
		return;
	}
	if (rc == 0) {
		snprintf(why, sizeof(why), "results in %s", got[0] ? got : "(none)");
		conclude(j, SUT_DONE, why);
	} else if (rc == WFW_EXIT_EMPTY) {
		snprintf(why, sizeof(why), "no datapoint (info.yml's empty_reason says why); results in %s",
			 got[0] ? got : "(none)");
		conclude(j, SUT_EMPTY, why);
	} else if (interrupted) {
		snprintf(why, sizeof(why), "stopped; what was measured is in %s",
			 got[0] ? got : "(nothing)");
		conclude(j, SUT_INTERRUPTED, why);
	} else {
		snprintf(why, sizeof(why), "%s (wultfw exit status %d on the SUT)%s%s",
			 err[0] ? err : "the run failed", rc,
			 got[0] ? "; results in " : "", got);
		conclude(j, SUT_FAILED, why);
	}
}

void wfw_sut_job_run(struct wfw_sut_job *j)
{
	char why[1024];
	int rc;

	char host_dir[WFW_HOST_MAX + 1];

	j->t0 = (long)time(NULL);
	/* The host in the name: several "SUTs" may share one machine. */
	wfw_host_dir(j->sut.host, host_dir, sizeof(host_dir));
	snprintf(j->rundir, sizeof(j->rundir), "%s/%s-%s",
		 wfw_sut_dir(j->sut.o), j->ro->run_id, host_dir);
	set_state(j, SUT_CONNECTING, "connecting");
	if (wfw_ssh_connect(&j->sut, why, sizeof(why))) {
		conclude(j, SUT_FAILED, why);
		return;
	}
	if (wfw_sut_check_version(&j->sut, why, sizeof(why))) {
		conclude(j, SUT_FAILED, why);
		goto out;
	}
	if (wfw_stop_signal) {
		conclude(j, SUT_INTERRUPTED, "stopped before the run started");
		goto out;
	}
	if (check_idle(j) || start_run(j))
		goto out;
	set_state(j, SUT_RUNNING, "running");
	rc = watch_run(j);
	if (rc < 0) {
		snprintf(why, sizeof(why),
			 "lost the connection (%s); the run goes on on the SUT in %s: collect it later with 'wultfw fetch -H %s'",
			 j->sut.err[0] ? j->sut.err : "ssh failed", j->rundir, j->sut.host);
		conclude(j, SUT_DETACHED, why);
		goto out;
	}
	finish(j, rc);
out:
	wfw_ssh_disconnect(&j->sut);
}
