/* SPDX-License-Identifier: MIT */
/*
 * attrib-trace-test: runs the attribution's loader (plugins/attrib/
 * attrib_trace.h) on one CPU for a while, optionally making noise we
 * control there, and writes every event as a line for
 * tests/integration/test_attrib_trace.sh to check:
 *
 *   TS <tab> KIND <tab> ID <tab> DUR <tab> COMM
 *
 * KIND: irq+ irq- vec+ vec- sirq+ sirq- nmi switch lost. A summary goes
 * to stdout as "key value" lines. Exit 77 with one line when the loader
 * cannot run here.
 *
 * Noise (--noise), all started after the attach and joined before the
 * detach, each thread pinned to the measured CPU:
 *   wfw-spin  SCHED_FIFO 50: SPIN_RUNS times, sleep 5 ms then spin SPIN_US,
 *             noting when by CLOCK_MONOTONIC (spin_window lines)
 *   wfw-udp   UDP_PKTS datagrams to a socket on 127.0.0.1 (NET_RX runs
 *             in its context: the loopback has no RPS here)
 *   wfw-busy  spins while wfw-kick, on another CPU, sends it KICKS times a
 *             membarrier (a function-call IPI, CAL) and a signal (a
 *             reschedule IPI, RES: the kernel kicks a running task)
 * --bench: what tracing adds to a task switch on the measured CPU, by
 * two SCHED_FIFO threads there yielding to each other, untraced (before
 * the attach) and traced; --cost: the programs' own time per event;
 * --bpf-stats: the kernel's run time of the programs, all CPUs.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <linux/membarrier.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "attrib_irqs.h"
#include "attrib_smi.h"
#include "attrib_trace.h"

#define SPIN_RUNS	20
#define SPIN_US		200
#define UDP_PKTS	200
#define KICKS		200

static int cpu = 1, other_cpu = 0;
/* When wfw-spin spun, by its own clock: the trace must show it running. */
static uint64_t spin_win[SPIN_RUNS][2];
static atomic_int spin_tid, udp_tid, busy_tid, busy_stop, signals;
static FILE *out;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "attrib-trace-test: %s: %s\n", what, strerror(err));
	exit(1);
}

static void pin(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

/* Named before it runs on the measured CPU: switch records carry it. */
static void name_self(void *name)
{
	pthread_setname_np(pthread_self(), name);
}

static void *spin_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec nap = { 0, 5000000 };
	int i;

	name_self(arg);
	pin(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("SCHED_FIFO for wfw-spin", errno);
	atomic_store(&spin_tid, (int)gettid());
	for (i = 0; i < SPIN_RUNS; i++) {
		uint64_t end;

		nanosleep(&nap, NULL);
		spin_win[i][0] = now_ns();
		end = spin_win[i][0] + SPIN_US * 1000ULL;
		while ((spin_win[i][1] = now_ns()) < end)
			;
	}
	return NULL;
}

static void *udp_main(void *arg)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	char buf[64] = "wultfw attrib noise";
	int rx, tx, i;

	name_self(arg);
	pin(cpu);
	atomic_store(&udp_tid, (int)gettid());
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen))
		die("UDP socket on 127.0.0.1", errno);
	for (i = 0; i < UDP_PKTS; i++) {
		struct timespec nap = { 0, 500000 };

		if (sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&a,
			   sizeof(a)) < 0)
			die("sendto 127.0.0.1", errno);
		/* Drain, or the socket's queue fills and drops. */
		while (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		nanosleep(&nap, NULL);
	}
	close(rx);
	close(tx);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&signals, 1);
}

static void *busy_main(void *arg)
{
	name_self(arg);
	pin(cpu);
	atomic_store(&busy_tid, (int)gettid());
	while (!atomic_load(&busy_stop))
		;
	return NULL;
}

static void *kick_main(void *arg)
{
	int i, tid;

	name_self(arg);
	pin(other_cpu);
	while (!(tid = atomic_load(&busy_tid)))
		sched_yield();
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		die("membarrier register", errno);
	for (i = 0; i < KICKS; i++) {
		struct timespec nap = { 0, 500000 };

		if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
			die("membarrier", errno);
		if (syscall(SYS_tgkill, getpid(), tid, SIGUSR1))
			die("tgkill wfw-busy", errno);
		nanosleep(&nap, NULL);
	}
	atomic_store(&busy_stop, 1);
	return NULL;
}

/*
 * --bench: two SCHED_FIFO threads on the measured CPU hand it to each
 * other with sched_yield(), one task switch per call; ns per switch.
 */
#define BENCH_YIELDS	100000

static pthread_barrier_t yield_start;
static uint64_t yield_t0;

static void *yield_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 40 };
	int i;

	(void)arg;
	pin(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("SCHED_FIFO for the yielders", errno);
	/* Both there before either yields, or a yield switches to nobody. */
	if (pthread_barrier_wait(&yield_start) == PTHREAD_BARRIER_SERIAL_THREAD)
		yield_t0 = now_ns();
	for (i = 0; i < BENCH_YIELDS / 2; i++)
		sched_yield();
	return NULL;
}

static double bench_switch(void)
{
	pthread_t a, b;

	pthread_barrier_init(&yield_start, NULL, 2);
	if (pthread_create(&a, NULL, yield_main, NULL) ||
	    pthread_create(&b, NULL, yield_main, NULL))
		die("pthread_create", errno);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_barrier_destroy(&yield_start);
	return (double)(now_ns() - yield_t0) / BENCH_YIELDS;
}

static double traced;
static atomic_int bench_done;

/* The traced half, while main polls the ring. */
static void *bench_main(void *arg)
{
	(void)arg;
	traced = bench_switch();
	atomic_store(&bench_done, 1);
	return NULL;
}

struct noise {
	pthread_t th[4];
	int n;
	atomic_int done;
};

static void start(struct noise *nz, const char *name, void *(*fn)(void *))
{
	int err = pthread_create(&nz->th[nz->n++], NULL, fn, (void *)name);

	if (err)
		die("pthread_create", err);
}

static void *noise_main(void *arg)
{
	struct noise *nz = arg;
	int i;

	start(nz, "wfw-spin", spin_main);
	start(nz, "wfw-udp", udp_main);
	start(nz, "wfw-busy", busy_main);
	start(nz, "wfw-kick", kick_main);
	for (i = 0; i < nz->n; i++)
		pthread_join(nz->th[i], NULL);
	atomic_store(&nz->done, 1);
	return NULL;
}

static const char *kind_name(unsigned int k)
{
	static const char *const names[] = {
		[ATTRIB_IRQ_ENTRY] = "irq+", [ATTRIB_IRQ_EXIT] = "irq-",
		[ATTRIB_VEC_ENTRY] = "vec+", [ATTRIB_VEC_EXIT] = "vec-",
		[ATTRIB_SOFTIRQ_ENTRY] = "sirq+", [ATTRIB_SOFTIRQ_EXIT] = "sirq-",
		[ATTRIB_NMI] = "nmi", [ATTRIB_SWITCH] = "switch",
		[ATTRIB_LOST] = "lost",
	};

	return k < sizeof(names) / sizeof(names[0]) && names[k] ? names[k] : "?";
}

static unsigned long long markers, smi_records;

static int write_events(void *arg, const struct attrib_event *ev, size_t n)
{
	size_t i, j;

	(void)arg;
	for (i = 0; i < n; i++) {
		markers += ev[i].kind == ATTRIB_LOST;
		smi_records += !!(ev[i].flags & ATTRIB_F_SMI);
	}
	for (i = 0; out && i < n; i++) {
		char comm[ATTRIB_COMM_LEN + 1];

		for (j = 0; j < ATTRIB_COMM_LEN && ev[i].comm[j]; j++)
			comm[j] = ev[i].comm[j] > 0x20 && ev[i].comm[j] < 0x7f ?
				  ev[i].comm[j] : '_';
		comm[j] = '\0';
		fprintf(out, "%llu\t%s\t%u\t%llu\t%s\n",
			(unsigned long long)ev[i].ts, kind_name(ev[i].kind),
			ev[i].id, (unsigned long long)ev[i].dur, comm);
	}
	return 0;
}

static void print_machine(void)
{
	struct attrib_irqtab tab;
	struct attrib_smi smi;
	char why[ATTRIB_WHY_LEN];
	unsigned int v;

	if (attrib_irqtab_read(&tab, NULL, why, sizeof(why))) {
		printf("irqs error: %s\n", why);
	} else {
		printf("irqs %zu numbered, vectors", tab.n);
		for (v = 0; v < ATTRIB_NVEC; v++)
			if (tab.vec[v])
				printf(" %s", attrib_vec_name(v));
		printf(", odd lines %u\n", tab.odd);
		attrib_irqtab_free(&tab);
	}
	if (attrib_smi_open(&smi, cpu, "", NULL, why, sizeof(why)))
		printf("smi not available: %s\n", why);
	else
		printf("smi %s\n", smi.how);
	attrib_smi_close(&smi);
}

static void usage(void)
{
	fprintf(stderr, "usage: attrib-trace-test [-c CPU] [-t SECONDS] [-r RING_EVENTS] "
		"[-o EVENTS] [--noise] [--cost] [--bpf-stats] [--bench] [--smi EVENT]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "noise", no_argument, NULL, 'n' },
		{ "cost", no_argument, NULL, 'C' },
		{ "bpf-stats", no_argument, NULL, 'S' },
		{ "bench", no_argument, NULL, 'B' },
		{ "smi", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct attrib_trace_opts o = { 0 };
	struct attrib_trace_stats st;
	struct attrib_trace *t;
	struct noise nz = { .n = 0 };
	pthread_t noise_th;
	char why[ATTRIB_WHY_LEN];
	double secs = 1.0;
	uint64_t t0, t1;
	bool noise = false, bench = false;
	double base = 0;
	pthread_t bench_th;
	int stats_fd = -1;	/* --bpf-stats: 0, then the fd */
	const char *smi_event = NULL;	/* --smi: read into every record */
	struct attrib_smi smi = { .fd = -1 };
	uint64_t run_ns, run_cnt;
	ssize_t got;
	int c, err;

	while ((c = getopt_long(argc, argv, "c:t:o:r:", lopts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu = atoi(optarg); break;
		case 'r': o.ring_events = (unsigned)atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 'o':
			out = fopen(optarg, "we");
			if (!out)
				die(optarg, errno);
			break;
		case 'n': noise = true; break;
		case 'C': o.cost = true; break;
		case 'S': stats_fd = 0; break;
		case 'B': bench = true; break;
		case 's': smi_event = optarg; break;
		default: usage();
		}
	}
	if (secs <= 0 || secs > 600)
		usage();
	other_cpu = cpu == 0 ? 1 : 0;
	/* Never poll from the measured CPU. */
	pin(other_cpu);
	err = attrib_trace_check(why, sizeof(why));
	if (err) {
		printf("SKIP: %s\n", why);
		return 77;
	}
	print_machine();
	o.cpu = cpu;
	if (smi_event) {
		if (attrib_smi_open(&smi, cpu, "", smi_event, why, sizeof(why))) {
			printf("SKIP: %s\n", why);
			return 77;
		}
		o.smi = true;
		o.smi_fd = smi.fd;
	}
	err = attrib_trace_open(&t, &o, why, sizeof(why));
	if (err) {
		fprintf(stderr, "attrib-trace-test: %s\n", why);
		return 1;
	}
	printf("missing %s\n", attrib_trace_missing(t)[0] ?
	       attrib_trace_missing(t) : "none");
	signal(SIGUSR1, on_usr1);
	/* The kernel times every BPF program while this fd is open. */
	if (!stats_fd && (stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME)) < 0)
		die("bpf_enable_stats", -stats_fd);
	if (bench)
		base = bench_switch();
	if (attrib_trace_attach(t, why, sizeof(why))) {
		fprintf(stderr, "attrib-trace-test: %s\n", why);
		return 1;
	}
	t0 = now_ns();
	if (noise && (err = pthread_create(&noise_th, NULL, noise_main, &nz)))
		die("pthread_create", err);
	if (bench && (err = pthread_create(&bench_th, NULL, bench_main, NULL)))
		die("pthread_create", err);
	for (;;) {
		struct timespec nap = { 0, 20000000 };

		got = attrib_trace_poll(t, write_events, NULL, why, sizeof(why));
		if (got < 0) {
			fprintf(stderr, "attrib-trace-test: %s\n", why);
			return 1;
		}
		if (noise ? atomic_load(&nz.done) :
		    now_ns() - t0 >= secs * 1e9 &&
		    (!bench || atomic_load(&bench_done)))
			break;
		nanosleep(&nap, NULL);
	}
	if (noise)
		pthread_join(noise_th, NULL);
	if (bench)
		pthread_join(bench_th, NULL);
	t1 = now_ns();
	if (stats_fd > 0 && !attrib_trace_runtime(t, &run_ns, &run_cnt))
		printf("kernel_run_ns %llu\nkernel_run_cnt %llu\n",
		       (unsigned long long)run_ns, (unsigned long long)run_cnt);
	attrib_trace_detach(t);
	while ((got = attrib_trace_poll(t, write_events, NULL, why, sizeof(why))) > 0)
		;
	if (got < 0) {
		fprintf(stderr, "attrib-trace-test: %s\n", why);
		return 1;
	}
	attrib_trace_stats(t, &st);
	printf("markers %llu\n", (unsigned long long)markers);
	if (smi_event)
		printf("smi_records %llu\n", smi_records);
	printf("seconds %.3f\nseen %llu\nlost %llu\ndelivered %llu\nlate %llu\n"
	       "reordered %llu\nper_second %.0f\n", (t1 - t0) / 1e9,
	       (unsigned long long)st.seen, (unsigned long long)st.lost,
	       (unsigned long long)st.delivered, (unsigned long long)st.late,
	       (unsigned long long)st.reordered, st.seen / ((t1 - t0) / 1e9));
	if (bench)
		printf("switch_ns_untraced %.1f\nswitch_ns_traced %.1f\n",
		       base, traced);
	if (o.cost)
		printf("cost_ns %.1f\ncost_events %llu\n", st.cost_cnt ?
		       (double)st.cost_ns / (double)st.cost_cnt : 0.0,
		       (unsigned long long)st.cost_cnt);
	for (c = 0; noise && c < SPIN_RUNS; c++)
		printf("spin_window %llu %llu\n",
		       (unsigned long long)spin_win[c][0],
		       (unsigned long long)spin_win[c][1]);
	if (noise)
		printf("spin_tid %d\nspin_runs %d\nspin_us %d\nudp_tid %d\n"
		       "udp_pkts %d\nbusy_tid %d\nkicks %d\nsignals %d\n",
		       atomic_load(&spin_tid), SPIN_RUNS, SPIN_US,
		       atomic_load(&udp_tid), UDP_PKTS, atomic_load(&busy_tid),
		       KICKS, atomic_load(&signals));
	attrib_trace_close(t);
	attrib_smi_close(&smi);
	if (out && fclose(out))
		die("writing the events", errno);
	return 0;
}
