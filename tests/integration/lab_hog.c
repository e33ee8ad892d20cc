/* SPDX-License-Identifier: MIT */
/*
 * lab_hog CPU SPIN_US PERIOD_US SECONDS PID: test_lab.sh's made-worse SUT.
 * Pinned to CPU at SCHED_FIFO 99, above any measuring thread, it spins
 * SPIN_US out of every PERIOD_US, so whatever wakes on CPU then waits,
 * until PID is gone or SECONDS passed (its own bound). One line on stdout
 * once it spins, or one on stderr saying why it cannot, exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long arg(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || v < 0) {
		fprintf(stderr, "lab_hog: %s '%s': give a whole number\n", what, s);
		exit(2);
	}
	return v;
}

/* PID still there (EPERM: there, not ours). */
static int alive(pid_t pid)
{
	return !kill(pid, 0) || errno == EPERM;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 99 };
	long long spin, period, end, next, t;
	struct timespec ts;
	cpu_set_t set;
	pid_t pid;
	int cpu;

	if (argc != 6) {
		fprintf(stderr, "usage: lab_hog CPU SPIN_US PERIOD_US SECONDS PID\n");
		return 2;
	}
	cpu = (int)arg(argv[1], "CPU");
	spin = arg(argv[2], "SPIN_US") * 1000LL;
	period = arg(argv[3], "PERIOD_US") * 1000LL;
	end = now_ns() + arg(argv[4], "SECONDS") * 1000000000LL;
	pid = (pid_t)arg(argv[5], "PID");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "lab_hog: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "lab_hog: no SCHED_FIFO 99: %s\n", strerror(errno));
		return 1;
	}
	printf("lab_hog %d: SCHED_FIFO 99 on CPU %d, %lld of every %lld us, while pid %d lives\n",
	       (int)getpid(), cpu, spin / 1000, period / 1000, (int)pid);
	fflush(stdout);
	next = now_ns();
	while (next < end && alive(pid)) {
		t = now_ns();
		while (now_ns() - t < spin)
			;
		next += period;
		/* behind (preempted, throttled): never spin back to back */
		if (next < now_ns())
			next = now_ns() + period - spin;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return 0;
}
