/* SPDX-License-Identifier: MIT */
/*
 * Noise made on purpose on one CPU, for test_attrib.sh: a SCHED_FIFO
 * thread named wfw-spin that spins known times at known moments (each
 * printed as "START END" in CLOCK_MONOTONIC ns), or UDP datagrams sent to
 * 127.0.0.1 from that CPU (their NET_RX softirq runs there), for a time.
 *
 *   wfw-noise spin CPU SPIN_US PERIOD_US COUNT
 *   wfw-noise udp CPU SECONDS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "spin"))
		return pin(atoi(argv[2])) ? 1 : spin(atol(argv[3]), atol(argv[4]), atol(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "udp"))
		return pin(atoi(argv[2])) ? 1 : udp(atof(argv[3]));
	fprintf(stderr, "usage: wfw-noise spin CPU SPIN_US PERIOD_US COUNT | udp CPU SECONDS\n");
	return 2;
}
