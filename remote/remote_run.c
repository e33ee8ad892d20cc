/* SPDX-License-Identifier: MIT */
/*
 * One SUT's run, from the controller: connect, then one ssh session
 * (remote_script.c) checks the SUT's wultfw, uploads the experiment file,
 * starts the run detached on the SUT (its own session, results under
 * SUT_DIR/RUN_ID-HOST/out) and streams its progress back; Ctrl-C stops it
 * through a second session; one more brings the results back as one
 * archive. Runs in its own thread; everything it tells the user goes
 * through the job's status and reason.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

/* What the session said so far (remote_script.c's lines). */
struct session {
	int rc;			/* R: the run's exit status; -1: none yet */
	bool started;		/* S seen */
	char refused[1024];	/* X: why nothing was started */
	char err[1024];		/* E: the SUT's first error line */
	char *listing;		/* after L: dest, \001, out's entries */
	size_t len, cap;
	bool in_listing;
	bool stop_sent;
};

static void refused(struct wfw_sut_job *j, struct session *ss, const char *l)
{
	const char *w = wfw_sut_wultfw(j->sut.o);
	const char *text = l + strcspn(l, " ") + (l[strcspn(l, " ")] ? 1 : 0);

	if (!strncmp(l, "nowfw", 5))
		snprintf(ss->refused, sizeof(ss->refused),
			 "no usable '%s' on the SUT (%s): install wultfw %s there, or name it with --sut-wultfw PATH",
			 w, text[0] ? text : "not found", PACKAGE_VERSION);
	else if (!strncmp(l, "verfail", 7))
		snprintf(ss->refused, sizeof(ss->refused),
			 "'%s --version' failed on the SUT (exit status %s)", w, text);
	else if (!strncmp(l, "version", 7))
		snprintf(ss->refused, sizeof(ss->refused),
			 "the SUT has '%s' (%s), this controller %s: install the same major version on both",
			 text, w, PACKAGE_STRING);
	else if (!strncmp(l, "busy", 4))
		snprintf(ss->refused, sizeof(ss->refused),
			 "a run is still going on on the SUT in %s: two at once would disturb each other; wait for it, then collect it with 'wultfw fetch -H %s'",
			 text, j->sut.host);
	else if (!strncmp(l, "mkdir", 5))
		snprintf(ss->refused, sizeof(ss->refused),
			 "cannot create %s on the SUT (%s)", j->rundir, text);
	else
		snprintf(ss->refused, sizeof(ss->refused),
			 "cannot start the run on the SUT (%s)", text);
}

/* A listing longer than this is not one a run leaves: the rest is dropped. */
#define LISTING_MAX (1 << 20)

/* Keep n bytes of the listing. */
static void append(struct session *ss, const char *l, size_t n)
{
	if (ss->len + n > LISTING_MAX)
		return;
	if (ss->len + n + 1 > ss->cap) {
		ss->cap = (ss->len + n + 1) * 2;
		ss->listing = realloc(ss->listing, ss->cap);
		if (!ss->listing)
			abort();
	}
	memcpy(ss->listing + ss->len, l, n);
	ss->len += n;
	ss->listing[ss->len] = '\0';
}

/* One line of the session, its newline taken off. */
static void session_line(struct wfw_sut_job *j, struct session *ss,
			 char *l, size_t n)
{
	size_t i;

	if (ss->in_listing) {
		append(ss, l, n);
		append(ss, "\n", 1);
		return;
	}
	/* what the SUT says reaches the terminal: no control characters */
	for (i = 0; i < n; i++)
		if ((unsigned char)l[i] < ' ' || l[i] == 0x7f)
			l[i] = '?';
	if (n < 1 || (n > 1 && l[1] != ' '))
		return;		/* not one of the script's lines */
	if (l[0] == 'X' && n > 2) {
		refused(j, ss, l + 2);
	} else if (l[0] == 'S') {
		ss->started = true;
		if (!ss->stop_sent)
			set_state(j, SUT_RUNNING, "running");
	} else if (l[0] == 'P' && n > 2 && !ss->stop_sent) {
		wfw_remote_lock();
		j->started = strtoul(l + 2, NULL, 10);
		wfw_remote_unlock();
		set_state(j, SUT_RUNNING, "running experiment %zu of %zu",
			  j->started ? j->started : 1, j->plan->n);
	} else if (l[0] == 'R' && n > 2) {
		ss->rc = atoi(l + 2);
	} else if (l[0] == 'E' && n > 1) {
		snprintf(ss->err, sizeof(ss->err), "%.*s", (int)strcspn(l + 2, "\n"), l + 2);
	} else if (l[0] == 'L') {
		ss->in_listing = true;
		append(ss, "", 0);
	}
}

/* Split buf[0..*len) into lines for session_line(); keep the rest. */
static void session_lines(struct wfw_sut_job *j, struct session *ss,
			  char *buf, size_t *len, bool eof)
{
	size_t start = 0, i;

	for (i = 0; i < *len; i++) {
		if (buf[i] != '\n')
			continue;
		buf[i] = '\0';
		session_line(j, ss, buf + start, i - start);
		start = i + 1;
	}
	if (eof && start < *len) {
		buf[*len] = '\0';
		session_line(j, ss, buf + start, *len - start);
		start = *len;
	}
	memmove(buf, buf + start, *len - start);
	*len -= start;
}

/* Read the session's lines as they come; Ctrl-C stops the SUT's run. */
static void read_session(struct wfw_sut_job *j, struct session *ss, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[8192];
	size_t len = 0;
	ssize_t r;

	for (;;) {
		if (wfw_stop_signal && ss->started && !ss->stop_sent) {
			ss->stop_sent = true;
			set_state(j, SUT_STOPPING, "stopping");
			send_stop(j);
		}
		if (poll(&pfd, 1, 250) == 0)
			continue;
		r = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
		/* a line longer than the buffer: taken in pieces */
		session_lines(j, ss, buf, &len, len == sizeof(buf) - 1);
	}
	session_lines(j, ss, buf, &len, true);
}

/*
 * The whole run in one ssh session (remote_script.c): checks, start,
 * progress, the exit status and what to fetch. Returns ssh's exit status.
 */
static int run_session(struct wfw_sut_job *j, struct session *ss)
{
	char *script = wfw_run_script(j), *cmd;
	int fds[2], in_fd = -1, pid, st;

	cmd = wfw_shq_append(strdup("sh -c"), script);
	free(script);
	if (j->ro->config_file) {
		in_fd = open(j->ro->config_file, O_RDONLY | O_CLOEXEC);
		if (in_fd < 0) {
			snprintf(ss->refused, sizeof(ss->refused), "cannot read %s: %s",
				 j->ro->config_file, strerror(errno));
			free(cmd);
			return -1;
		}
	}
	if (pipe2(fds, O_CLOEXEC))
		abort();
	st = wfw_ssh_spawn(&j->sut, cmd, in_fd, fds[1], &pid);
	close(fds[1]);
	if (in_fd >= 0)
		close(in_fd);
	free(cmd);
	if (!st)
		read_session(j, ss, fds[0]);
	close(fds[0]);
	return st ? -1 : wfw_ssh_wait(&j->sut, pid);
}

/* The SUT's first error, at the controller's file:line. */
static void sut_error(struct wfw_sut_job *j, const char *line, char *buf,
		      size_t len)
{
	const char *p = strstr(line, "error: "), *at;

	p = p ? p + 7 : line;
	/* "exp.cfg:12: ..." is the controller's file on the SUT */
	at = j->ro->config_file ? strstr(p, "exp.cfg:") : NULL;
	if (at && (at == p || at[-1] == ' '))
		snprintf(buf, len, "%.*s%s:%s", (int)(at - p), p,
			 j->ro->config_file, at + 8);
	else
		snprintf(buf, len, "%s", p);
}

/* The datapoints of every result in got ("DIR/NAME, DIR/NAME"), from info.yml. */
static void count_datapoints(struct wfw_sut_job *j, const char *got)
{
	char path[4200], line[256];
	const char *p = got;
	bool all = true;
	size_t n;
	FILE *f;

	j->datapoints = 0;
	line[0] = '\0';
	while (*p) {
		n = strcspn(p, ",");
		snprintf(path, sizeof(path), "%.*s/info.yml", (int)n, p);
		p += n;
		p += strspn(p, ", ");
		f = fopen(path, "r");
		if (!f) {
			all = false;
			continue;
		}
		while (fgets(line, sizeof(line), f) && strncmp(line, "datapoints: ", 12))
			;
		if (!strncmp(line, "datapoints: ", 12))
			j->datapoints += strtoull(line + 12, NULL, 10);
		else
			all = false;
		fclose(f);
	}
	j->counted = all && got[0];
}

/* Bring everything back; the final state says how the run ended. */
static void finish(struct wfw_sut_job *j, struct session *ss)
{
	char got[2048], why[2048], err[1024];
	int rc = ss->rc;
	bool interrupted = rc == 130 || rc == 143 || rc == 129;

	err[0] = '\0';
	if (rc != 0 && !interrupted && ss->err[0])
		sut_error(j, ss->err, err, sizeof(err));
	set_state(j, SUT_FETCHING, "copying results back");
	if (wfw_remote_collect_listed(&j->sut, j->rundir, NULL, ss->listing,
				      NULL, 0, j->ro->force, got, sizeof(got),
				      why, sizeof(why))) {
		conclude(j, SUT_FAILED, why);
		return;
	}
	wfw_remote_lock();
	snprintf(j->where, sizeof(j->where), "%s", got);
	count_datapoints(j, got);
	wfw_remote_unlock();
	if (rc == 0) {
		snprintf(why, sizeof(why), "results in %s", got[0] ? got : "(none)");
		conclude(j, SUT_DONE, why);
	} else if (rc == WFW_EXIT_EMPTY) {
		snprintf(why, sizeof(why), "no datapoint (info.yml's empty_reason says why); results in %s",
			 got[0] ? got : "(none)");
		conclude(j, SUT_EMPTY, why);
	} else if (rc == WFW_EXIT_STOP_ABOVE) {
		snprintf(why, sizeof(why), "a datapoint crossed stop_above (info.yml's stopped_by says which); results in %s",
			 got[0] ? got : "(none)");
		conclude(j, SUT_STOPPED, why);
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

/* The session ended without an exit status: why, and what is left. */
static void session_lost(struct wfw_sut_job *j, struct session *ss, int st)
{
	char why[2048];
	const char *ssh_err = j->sut.err[0] ? j->sut.err : "ssh failed";

	if (ss->refused[0]) {
		conclude(j, SUT_FAILED, ss->refused);
	} else if (ss->started || st == 255) {
		/* ssh's own failure after the start, or during it: the run
		 * goes on (or may have started) on the SUT */
		snprintf(why, sizeof(why),
			 "lost the connection%s (%s); %s on the SUT in %s: collect it later with 'wultfw fetch -H %s'",
			 ss->started ? "" : " while starting the run", ssh_err,
			 ss->started ? "the run goes on" : "it may be going on",
			 j->rundir, j->sut.host);
		conclude(j, SUT_DETACHED, why);
	} else {
		snprintf(why, sizeof(why), "cannot start the run on the SUT (%s)",
			 j->sut.err[0] ? j->sut.err : "the session ended at once");
		conclude(j, SUT_FAILED, why);
	}
}

void wfw_sut_job_run(struct wfw_sut_job *j)
{
	struct session ss = { .rc = -1 };
	char why[1024], host_dir[WFW_HOST_MAX + 1];
	int st;

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
	if (wfw_stop_signal) {
		conclude(j, SUT_INTERRUPTED, "stopped before the run started");
		goto out;
	}
	st = run_session(j, &ss);
	if (ss.rc < 0 || !ss.in_listing)
		session_lost(j, &ss, st);
	else
		finish(j, &ss);
out:
	free(ss.listing);
	wfw_ssh_disconnect(&j->sut);
}
