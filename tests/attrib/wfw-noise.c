/* SPDX-License-Identifier: MIT */
/*
 * Noise made on purpose on one CPU, for test_attrib.sh: a SCHED_FIFO
 * thread named wfw-spin that spins known times at known moments (each
 * printed as "START END" in CLOCK_MONOTONIC ns), UDP datagrams sent to
 * 127.0.0.1 from that CPU (their NET_RX softirq runs there), for a time,
 * or function-call IPIs (CAL) to that CPU, sent from another at known
 * moments (one every PERIOD_US; each call's start, end and the CAL IPIs
 * the CPU took meanwhile printed), each long enough to see (below).
 *
 *   wfw-noise spin CPU SPIN_US PERIOD_US COUNT
 *   wfw-noise udp CPU SECONDS
 *   wfw-noise ipi CPU FROM_CPU NEVENTS PERIOD_US COUNT
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("wfw-noise: sched_setaffinity");
		return -1;
	}
	return 0;
}

static int spin(long spin_us, long period_us, long count)
{
	struct sched_param sp = { .sched_priority = 95 };
	struct timespec next;
	uint64_t *t = calloc((size_t)count * 2, sizeof(*t));

	if (!t || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("wfw-noise: SCHED_FIFO");
		return 1;
	}
	prctl(PR_SET_NAME, "wfw-spin");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < count; i++) {
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		t[2 * i] = now_ns();
		while (now_ns() - t[2 * i] < (uint64_t)spin_us * 1000)
			;
		t[2 * i + 1] = now_ns();
	}
	/* Printed after, so no write lands inside a spin. */
	for (long i = 0; i < count; i++)
		printf("%llu %llu\n", (unsigned long long)t[2 * i],
		       (unsigned long long)t[2 * i + 1]);
	free(t);
	return 0;
}

static int udp(double seconds)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t len = sizeof(to);
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
	char buf[512] = { 0 };

	prctl(PR_SET_NAME, "wfw-udp");
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to.sin_port = 0;
	/* A receiver of our own, so the datagrams go up the stack. */
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)) ||
	    getsockname(rx, (struct sockaddr *)&to, &len)) {
		perror("wfw-noise: udp socket");
		return 1;
	}
	while (now_ns() < end) {
		for (int i = 0; i < 64; i++)
			(void)sendto(tx, buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&to, sizeof(to));
		while (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
	}
	return 0;
}

/*
 * A group of n software counting events bound to cpu: enabling or
 * disabling its leader from another CPU is one function-call IPI to cpu
 * (perf's cross-CPU call, which waits for it), whose handler schedules
 * the whole group in or out, so it lasts about as long as n makes it.
 * The leader's fd, or -1.
 */
static int ipi_group(int cpu, int n)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1,
	};
	struct rlimit nofile = { (rlim_t)n + 64, (rlim_t)n + 64 };
	int lead;

	if (setrlimit(RLIMIT_NOFILE, &nofile))
		perror("wfw-noise: RLIMIT_NOFILE");
	lead = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
	a.disabled = 0;	/* siblings go in and out with the leader */
	for (int i = 1; lead >= 0 && i < n; i++)
		if (syscall(SYS_perf_event_open, &a, -1, cpu, lead, 0) < 0)
			lead = -1;
	if (lead < 0)
		perror("wfw-noise: perf_event_open");
	return lead;
}

/*
 * cpu's count in the CAL row of /proc/interrupts (f, read again from its
 * start), or -1 without one. Read around each call, it says whether the
 * call was an IPI: a CPU in its idle loop with the polling flag set (in
 * the POLL state, or just woken and on its way out) takes a cross-CPU
 * call in the idle task, without one.
 */
static long long cal_count(FILE *f, int cpu)
{
	char line[4096], *p, *end;
	int col = -1, i = 0;
	long long v = -1;

	rewind(f);
	if (!fgets(line, sizeof(line), f))
		return -1;
	for (p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"), i++)
		if (!strncmp(p, "CPU", 3) && atoi(p + 3) == cpu)
			col = i;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		if (strncmp(line + strspn(line, " "), "CAL:", 4))
			continue;
		p = strchr(line, ':') + 1;
		for (i = 0; i <= col; i++) {
			v = strtoll(p, &end, 10);
			if (end == p)
				return -1;
			p = end;
		}
		break;
	}
	return v;
}

/*
 * COUNT calls, one every PERIOD_US, enabling and disabling in turn; each
 * call's start and end printed, as spin's are, and the CAL IPIs cpu took
 * meanwhile (/proc/interrupts). Not two in a row: the second would find
 * cpu just back in its idle loop, polling.
 */
static int ipi(int cpu, int nevents, long period_us, long count)
{
	uint64_t *t = calloc((size_t)count * 3, sizeof(*t));
	FILE *irqs = fopen("/proc/interrupts", "re");
	int lead = ipi_group(cpu, nevents);
	struct sched_param sp = { .sched_priority = 95 };
	struct timespec next;
	long long before;

	if (!irqs)
		perror("wfw-noise: /proc/interrupts");
	if (!t || !irqs || lead < 0)
		return 1;
	if (cal_count(irqs, cpu) < 0) {
		fprintf(stderr, "wfw-noise: /proc/interrupts has no CAL count of CPU %d\n", cpu);
		return 1;
	}
	/* Not held up on its own CPU by others: a call's time is the IPI's. */
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("wfw-noise: SCHED_FIFO");
		return 1;
	}
	prctl(PR_SET_NAME, "wfw-ipi");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < count; i++) {
		unsigned long req = i % 2 ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE;

		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		before = cal_count(irqs, cpu);
		t[3 * i] = now_ns();
		if (ioctl(lead, req, 0)) {
			perror("wfw-noise: perf ioctl");
			return 1;
		}
		t[3 * i + 1] = now_ns();
		t[3 * i + 2] = (uint64_t)(cal_count(irqs, cpu) - before);
	}
	for (long i = 0; i < count; i++)
		printf("%llu %llu %llu\n", (unsigned long long)t[3 * i],
		       (unsigned long long)t[3 * i + 1], (unsigned long long)t[3 * i + 2]);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "spin"))
		return pin(atoi(argv[2])) ? 1 : spin(atol(argv[3]), atol(argv[4]), atol(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "udp"))
		return pin(atoi(argv[2])) ? 1 : udp(atof(argv[3]));
	if (argc == 7 && !strcmp(argv[1], "ipi"))
		return pin(atoi(argv[3])) ? 1 : ipi(atoi(argv[2]), atoi(argv[4]),
						 atol(argv[5]), atol(argv[6]));
	fprintf(stderr, "usage: wfw-noise spin CPU SPIN_US PERIOD_US COUNT | udp CPU SECONDS"
		" | ipi CPU FROM_CPU NEVENTS PERIOD_US COUNT\n");
	return 2;
}
