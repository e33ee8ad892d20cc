/*
 * vmtest: exercises /dev/wultfw inside the test VM (tests/vm/run.sh boots it).
 * Every check prints one line "VMTEST PASS name" or "VMTEST FAIL name: why";
 * the host script counts them. Static, no dependencies but libc.
 *
 *   vmtest run CPU COUNT    hrt run on CPU: COUNT records, all consistent,
 *                           plausible latencies, discards counted
 *   vmtest tdt CPU          tdt must refuse with the clockevent reason
 *   vmtest badargs CPU      invalid ioctl arguments are rejected
 *   vmtest refuse CPU DEV WHY   DEV must refuse, WHY in its reason
 *   vmtest hold CPU SECS    keep an hrt run going (for unload tests)
 *   vmtest seed CPU N       same seed -> same launch distances, another
 *                           seed -> others, both as the kernel's PRNG says
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wultfw/ldist.h"
#include <uapi/wultfw/wultfw_ioctl.h>

#define DEVPATH "/dev/" WULTFW_DEVNAME
#define LDIST_FROM 20000ULL	/* ns */
#define LDIST_TO 500000ULL

static int failures;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("VMTEST PASS %s\n", name);
	} else {
		failures++;
		printf("VMTEST FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int open_dev(void)
{
	int fd = open(DEVPATH, O_RDWR);

	if (fd < 0) {
		printf("VMTEST FAIL open: %s: %s\n", DEVPATH, strerror(errno));
		exit(1);
	}
	return fd;
}

static int configure_seed(int fd, const char *dev, unsigned int cpu,
			  uint64_t from, uint64_t to, uint64_t seed,
			  struct wultfw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->cpu = cpu;
	snprintf(cfg->device, sizeof(cfg->device), "%s", dev);
	cfg->ldist_from_ns = from;
	cfg->ldist_to_ns = to;
	cfg->seed = seed;
	return ioctl(fd, WULTFW_IOC_CONFIG, cfg) ? -errno : 0;
}

static int configure(int fd, const char *dev, unsigned int cpu, uint64_t from,
		     uint64_t to, struct wultfw_config *cfg)
{
	return configure_seed(fd, dev, cpu, from, to, 12345, cfg);
}

static int get_stats(int fd, struct wultfw_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(fd, WULTFW_IOC_GET_STATS, st) ? -errno : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Read exactly @n records; returns how many were read. */
static size_t read_records(int fd, struct wultfw_record *recs, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, recs + got, (n - got) * sizeof(*recs));

		if (r <= 0) {
			printf("read: %s\n", r ? strerror(errno) : "end of file");
			break;
		}
		if (r % sizeof(*recs)) {
			printf("read returned %zd, not whole records\n", r);
			break;
		}
		got += r / sizeof(*recs);
	}
	return got;
}

/* Spin on @cpu for @ms milliseconds in a child: the CPU is busy, not idle. */
static pid_t spin_on(int cpu, int ms)
{
	pid_t pid = fork();
	struct timespec t0, t;

	if (pid)
		return pid;
	pin_to(cpu);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	_exit(0);
}

static int cmd_run(unsigned int cpu, size_t count)
{
	struct wultfw_record *recs = calloc(count, sizeof(*recs));
	uint64_t *wake = calloc(count, sizeof(*wake));
	uint64_t *intr = calloc(count, sizeof(*intr));
	struct wultfw_config cfg;
	struct wultfw_stats st, st2;
	size_t got, i, bad_seq = 0, bad_order = 0, bad_ldist = 0, bad_meta = 0;
	size_t bad_ctr = 0, bad_disc = 0, more, bad_pre = 0, irq_on = 0, neg = 0;
	uint64_t *aiov = calloc(count, sizeof(*aiov));
	uint64_t *introv = calloc(count, sizeof(*introv));
	uint64_t *adj = calloc(count, sizeof(*adj));
	struct timespec t0, t1;
	double secs;
	int fd, err;
	pid_t spinner;

	pin_to(cpu ? 0 : 1);	/* read from a CPU other than the measured one */
	fd = open_dev();
	err = configure(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, &cfg);
	result(!err, "hrt-config", "%s (%s)", strerror(-err), cfg.why);
	if (err)
		return 1;
	result(cfg.tunit == WULTFW_TUNIT_NS, "hrt-tunit", "tunit %u", cfg.tunit);
	printf("counters present: 0x%x\n", cfg.ctr_present);
	result(cfg.ctr_present & (1u << WULTFW_CTR_TSC), "ctr-tsc-present",
	       "TSC not present (0x%x)", cfg.ctr_present);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	result(!err, "hrt-start", "%s", strerror(-err));
	if (err)
		return 1;
	got = read_records(fd, recs, count);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	result(got == count, "hrt-count", "got %zu of %zu records", got, count);

	for (i = 0; i < got; i++) {
		struct wultfw_record *r = &recs[i];

		if (r->seq != i)
			bad_seq++;
		if (!(r->tbi < r->ltime && r->ltime < r->tai && r->ltime < r->tintr))
			bad_order++;
		if (r->ldist_ns < LDIST_FROM || r->ldist_ns > LDIST_TO)
			bad_ldist++;
		if (r->cpu != cpu || r->tunit != WULTFW_TUNIT_NS ||
		    r->ctr_present != cfg.ctr_present)
			bad_meta++;
		if (r->ctr_ai[WULTFW_CTR_TSC] <= r->ctr_bi[WULTFW_CTR_TSC])
			bad_ctr++;
		if (i && r->discarded < recs[i - 1].discarded)
			bad_disc++;
		wake[i] = r->tai - r->ltime;
		intr[i] = r->tintr - r->ltime;
		aiov[i] = r->ai_overhead_ns;
		introv[i] = r->intr_overhead_ns;
		/* hrt reads TAI and TIntr the same way: half a read each. */
		if (r->tai_pre_ns != r->tintr_pre_ns || r->tai_pre_ns == 0)
			bad_pre++;
		/* What lib/kside makes of it with interrupts on in idle. */
		if (r->tintr < r->tai) {
			irq_on++;
			if (wake[i] < r->tai_pre_ns + r->intr_overhead_ns)
				neg++;
			else
				adj[i] = wake[i] - r->tai_pre_ns - r->intr_overhead_ns;
		}
	}
	result(!bad_seq, "hrt-seq", "%zu records out of sequence", bad_seq);
	result(!bad_order, "hrt-order", "%zu records violate TBI<LTime<TAI, LTime<TIntr",
	       bad_order);
	result(!bad_ldist, "hrt-ldist", "%zu records with ldist outside range", bad_ldist);
	result(!bad_meta, "hrt-meta", "%zu records with wrong cpu/tunit/ctr_present",
	       bad_meta);
	result(!bad_ctr, "hrt-tsc-ctr", "%zu records with TSC after idle <= before",
	       bad_ctr);
	result(!bad_disc, "hrt-discarded-monotonic", "%zu decreasing discarded counts",
	       bad_disc);
	if (got) {
		qsort(wake, got, sizeof(*wake), cmp_u64);
		qsort(intr, got, sizeof(*intr), cmp_u64);
		printf("hrt: %zu records in %.2f s; WakeLatency ns: min %llu median %llu "
		       "p99 %llu max %llu; IntrLatency ns: min %llu median %llu max %llu\n",
		       got, secs, (unsigned long long)wake[0],
		       (unsigned long long)wake[got / 2],
		       (unsigned long long)wake[got * 99 / 100],
		       (unsigned long long)wake[got - 1], (unsigned long long)intr[0],
		       (unsigned long long)intr[got / 2], (unsigned long long)intr[got - 1]);
		get_stats(fd, &st);
		qsort(aiov, got, sizeof(*aiov), cmp_u64);
		qsort(introv, got, sizeof(*introv), cmp_u64);
		qsort(adj, got, sizeof(*adj), cmp_u64);
		printf("overheads: read_time %llu ns (tai_pre %llu); AIOverhead ns median "
		       "%llu max %llu; IntrOverhead ns median %llu max %llu; %zu of %zu "
		       "with interrupts on in idle, adjusted WakeLatency median %llu ns, "
		       "%zu would go negative\n",
		       (unsigned long long)st.read_cost_ns,
		       (unsigned long long)recs[0].tai_pre_ns,
		       (unsigned long long)aiov[got / 2], (unsigned long long)aiov[got - 1],
		       (unsigned long long)introv[got / 2],
		       (unsigned long long)introv[got - 1], irq_on, got,
		       irq_on > neg ? (unsigned long long)adj[got - (irq_on - neg) +
						       (irq_on - neg) / 2] : 0ULL, neg);
		/*
		 * Plausible: a clock read costs something but well under the
		 * latency; tai_pre is half of it; our code after a sample is
		 * measured in every record and is a fraction of the latency
		 * it is taken out of; the adjustment rarely goes negative.
		 */
		result(st.read_cost_ns > 0 && st.read_cost_ns < 100000 && !bad_pre &&
		       recs[0].tai_pre_ns == st.read_cost_ns / 2,
		       "overhead-read-cost", "read cost %llu ns, tai_pre %llu, %zu bad",
		       (unsigned long long)st.read_cost_ns,
		       (unsigned long long)recs[0].tai_pre_ns, bad_pre);
		result(aiov[0] > 0 && introv[0] > 0 && aiov[got / 2] < wake[got / 2] &&
		       introv[got / 2] < wake[got / 2], "overhead-measured",
		       "AIOverhead min %llu median %llu, IntrOverhead min %llu median "
		       "%llu, WakeLatency median %llu", (unsigned long long)aiov[0],
		       (unsigned long long)aiov[got / 2], (unsigned long long)introv[0],
		       (unsigned long long)introv[got / 2],
		       (unsigned long long)wake[got / 2]);
		/*
		 * An overhead measured over a wrong window or twice too big
		 * takes about half of them below zero. A few go there when
		 * the host deschedules the vCPU inside our code after a
		 * sample (TCG beside a build: 1.4-2%), so at most a quarter.
		 */
		result(neg * 4 <= irq_on, "overhead-adjusted-positive",
		       "%zu of %zu adjusted wake latencies negative", neg, irq_on);
		/* TCG is slow, but a wake-up is not a second late. */
		result(wake[got / 2] > 0 && wake[got / 2] < 10000000 &&
		       wake[got - 1] < 1000000000ULL, "hrt-latency-plausible",
		       "median %llu ns, max %llu ns", (unsigned long long)wake[got / 2],
		       (unsigned long long)wake[got - 1]);
	}

	/* Keep the measured CPU busy: events that fire while it is not idle
	 * must be dropped and counted, never published. */
	get_stats(fd, &st);
	printf("stats before busy phase: armed %llu published %llu discarded %llu "
	       "(cpu %llu noidle %llu order %llu)\n",
	       (unsigned long long)st.armed, (unsigned long long)st.published,
	       (unsigned long long)st.discarded, (unsigned long long)st.discard_cpu,
	       (unsigned long long)st.discard_noidle,
	       (unsigned long long)st.discard_order);
	spinner = spin_on(cpu, 1500);
	more = read_records(fd, recs, count < 200 ? count : 200);
	waitpid(spinner, NULL, 0);
	more += read_records(fd, recs + more, 50);
	err = get_stats(fd, &st2);
	result(!err, "stats-ioctl", "%s", strerror(-err));
	printf("stats: armed %llu published %llu discarded %llu (cpu %llu noidle %llu "
	       "order %llu) timeouts %llu rearm %llu ring_waits %llu\n",
	       (unsigned long long)st2.armed, (unsigned long long)st2.published,
	       (unsigned long long)st2.discarded, (unsigned long long)st2.discard_cpu,
	       (unsigned long long)st2.discard_noidle,
	       (unsigned long long)st2.discard_order, (unsigned long long)st2.timeouts,
	       (unsigned long long)st2.rearm, (unsigned long long)st2.ring_waits);
	result(st2.discarded > st.discarded, "discard-counted-busy-cpu",
	       "discarded stayed %llu while CPU %u was busy",
	       (unsigned long long)st2.discarded, cpu);
	result(st2.discarded == st2.discard_cpu + st2.discard_noidle + st2.discard_order +
	       st2.discard_changed,
	       "discard-sum", "total %llu != sum of reasons",
	       (unsigned long long)st2.discarded);
	result(more && recs[more - 1].discarded > st.discarded &&
	       recs[more - 1].discarded <= st2.discarded, "discard-in-records",
	       "last record says %llu discarded, stats %llu -> %llu",
	       more ? (unsigned long long)recs[more - 1].discarded : 0ULL,
	       (unsigned long long)st.discarded, (unsigned long long)st2.discarded);
	for (i = 0, bad_order = 0; i < more; i++)
		if (!(recs[i].tbi < recs[i].ltime && recs[i].ltime < recs[i].tai &&
		      recs[i].ltime < recs[i].tintr))
			bad_order++;
	result(!bad_order, "busy-records-consistent", "%zu bad records", bad_order);

	err = ioctl(fd, WULTFW_IOC_STOP) ? -errno : 0;
	result(!err, "hrt-stop", "%s", strerror(-err));
	get_stats(fd, &st);
	result(!st.running, "stopped-not-running", "running still %u", st.running);
	/* After stop, read drains what is left and then reports end of file. */
	while ((err = read(fd, recs, count * sizeof(*recs))) > 0)
		;
	result(err == 0, "eof-after-stop", "read returned %d (%s)", err, strerror(errno));
	close(fd);
	return failures != 0;
}

static int cmd_tdt(unsigned int cpu)
{
	struct wultfw_config cfg;
	int fd = open_dev(), err;

	err = configure(fd, "tdt", cpu, LDIST_FROM, LDIST_TO, &cfg);
	printf("tdt config: %s; why: %s\n", strerror(-err), cfg.why);
	result(err == -EOPNOTSUPP &&
	       strstr(cfg.why, "clockevent is not lapic-deadline"),
	       "tdt-refuses-clockevent", "error %d, why '%s'", err, cfg.why);
	close(fd);
	return failures != 0;
}

/* Device @dev must refuse configuration with @why in its reason. */
static int cmd_refuse(const char *dev, unsigned int cpu, const char *why)
{
	struct wultfw_config cfg;
	int fd = open_dev(), err;
	char name[64];

	err = configure(fd, dev, cpu, LDIST_FROM, LDIST_TO, &cfg);
	printf("%s config: %s; why: %s\n", dev, strerror(-err), cfg.why);
	snprintf(name, sizeof(name), "%s-refuses", dev);
	result(err < 0 && strstr(cfg.why, why), name, "error %d, why '%s'",
	       err, cfg.why);
	close(fd);
	return failures != 0;
}

static void expect_err(int got, int want, const char *name, const char *why)
{
	result(got == -want, name, "got %d (%s), want -%s; why '%s'", got,
	       strerror(-got), strerrorname_np(want), why);
}

static int set_online(unsigned int cpu, int on)
{
	char path[80];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", on);
	return fclose(f) ? -errno : 0;
}

static int cmd_badargs(unsigned int cpu)
{
	struct wultfw_config cfg;
	struct wultfw_stats st;
	struct wultfw_record rec;
	int fd = open_dev(), fd2, err;
	ssize_t r;

	fd2 = open(DEVPATH, O_RDWR);
	result(fd2 < 0 && errno == EBUSY, "second-open-ebusy", "fd %d errno %s", fd2,
	       strerror(errno));
	if (fd2 >= 0)
		close(fd2);

	err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	expect_err(err, EINVAL, "start-unconfigured", "");
	expect_err(configure(fd, "hrt", 4096, LDIST_FROM, LDIST_TO, &cfg), EINVAL,
		   "bad-cpu", cfg.why);
	expect_err(configure(fd, "nosuch", cpu, LDIST_FROM, LDIST_TO, &cfg), ENOENT,
		   "unknown-device", cfg.why);
	expect_err(configure(fd, "hrt", cpu, 0, LDIST_TO, &cfg), EINVAL,
		   "ldist-zero", cfg.why);
	expect_err(configure(fd, "hrt", cpu, LDIST_TO, LDIST_FROM, &cfg), EINVAL,
		   "ldist-from-gt-to", cfg.why);
	expect_err(configure(fd, "hrt", cpu, LDIST_FROM, 3600ULL * 1000000000ULL, &cfg),
		   ERANGE, "ldist-huge", cfg.why);
	expect_err(configure(fd, "hrt", cpu, 10, 100, &cfg), ERANGE, "ldist-tiny",
		   cfg.why);

	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg) - 8;
	strcpy(cfg.device, "hrt");
	cfg.cpu = cpu;
	cfg.ldist_from_ns = LDIST_FROM;
	cfg.ldist_to_ns = LDIST_TO;
	err = ioctl(fd, WULTFW_IOC_CONFIG, &cfg) ? -errno : 0;
	expect_err(err, EINVAL, "config-wrong-size", "");
	cfg.size = sizeof(cfg);
	memset(cfg.device, 'x', sizeof(cfg.device));
	err = ioctl(fd, WULTFW_IOC_CONFIG, &cfg) ? -errno : 0;
	expect_err(err, EINVAL, "device-not-terminated", cfg.why);
	err = ioctl(fd, WULTFW_IOC_CONFIG, NULL) ? -errno : 0;
	expect_err(err, EFAULT, "config-null", "");
	err = ioctl(fd, _IO(WULTFW_IOC_MAGIC, 99)) ? -errno : 0;
	expect_err(err, ENOTTY, "unknown-ioctl", "");
	memset(&st, 0, sizeof(st));
	st.size = 3;
	err = ioctl(fd, WULTFW_IOC_GET_STATS, &st) ? -errno : 0;
	expect_err(err, EINVAL, "stats-wrong-size", "");

	if (cpu) {
		err = set_online(cpu, 0);
		if (err) {
			result(0, "offline-cpu", "cannot offline CPU %u: %s", cpu,
			       strerror(-err));
		} else {
			expect_err(configure(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, &cfg),
				   ENODEV, "offline-cpu", cfg.why);
			err = set_online(cpu, 1);
			result(!err, "cpu-back-online", "%s", strerror(-err));
		}
	}

	err = configure(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, &cfg);
	result(!err, "good-config-after-bad", "%s (%s)", strerror(-err), cfg.why);
	r = read(fd, &rec, sizeof(rec) - 1);
	expect_err(r < 0 ? -errno : (int)r, EINVAL, "read-short-buffer", "");
	err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	result(!err, "start", "%s", strerror(-err));
	err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	expect_err(err, EBUSY, "start-twice", "");
	expect_err(configure(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, &cfg), EBUSY,
		   "config-while-running", cfg.why);
	close(fd);	/* closing a running device stops the run */

	fd = open_dev();
	result(get_stats(fd, &st) == 0 && !st.running, "close-stops-run",
	       "running %u after reopen", st.running);
	close(fd);
	return failures != 0;
}

/* Arms two seeded runs must share before their sequences are compared. */
#define SEED_MIN_COMMON 30

/*
 * User space's launch distance for arm number @n of a run with @seed:
 * the shared generator (include/wultfw/ldist.h) after n draws. The kernel
 * module must have picked exactly this.
 */
static uint64_t expect_ldist(uint64_t seed, uint64_t n, uint64_t from,
			     uint64_t to, uint64_t gran)
{
	unsigned long long state = seed + n * 0x9e3779b97f4a7c15ULL;

	return wultfw_ldist_pick(&state, from, to, gran);
}

/* The hrt device's resolution as the module reported it: the pick's gran. */
static uint64_t cfg_gran = 1;

/* One hrt run with @seed: arm_seq -> ldist of the first @n records. */
static size_t seeded_run(unsigned int cpu, uint64_t seed, size_t n,
			 uint64_t *ldist, uint64_t *arm)
{
	struct wultfw_record *recs = calloc(n, sizeof(*recs));
	struct wultfw_config cfg;
	size_t got = 0, i;
	int fd = open_dev(), err;

	err = configure_seed(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, seed, &cfg);
	if (!err)
		cfg_gran = cfg.resolution_ns;
	if (!err)
		err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	if (!err)
		got = read_records(fd, recs, n);
	close(fd);
	for (i = 0; i < got; i++) {
		ldist[i] = recs[i].ldist_ns;
		arm[i] = recs[i].arm_seq;
	}
	free(recs);
	return got;
}

/* Arms both runs published; *same: how many of them with equal ldist. */
static size_t match_arms(const uint64_t *a1, const uint64_t *l1, size_t g1,
			 const uint64_t *a2, const uint64_t *l2, size_t g2,
			 size_t *same)
{
	size_t i = 0, j = 0, common = 0;

	*same = 0;
	while (i < g1 && j < g2) {
		if (a1[i] < a2[j]) {
			i++;
		} else if (a2[j] < a1[i]) {
			j++;
		} else {
			common++;
			*same += l1[i++] == l2[j++];
		}
	}
	return common;
}

static int cmd_seed(unsigned int cpu, size_t n)
{
	uint64_t *l1 = calloc(n, 8), *a1 = calloc(n, 8), *l2 = calloc(n, 8);
	uint64_t *a2 = calloc(n, 8), *l3 = calloc(n, 8), *a3 = calloc(n, 8);
	size_t g1, g2, g3, i, same, same3, common, common3, unexpected = 0;
	struct wultfw_config cfg;
	int fd;

	pin_to(cpu ? 0 : 1);
	g1 = seeded_run(cpu, 7, n, l1, a1);
	g2 = seeded_run(cpu, 7, n, l2, a2);
	g3 = seeded_run(cpu, 8, n, l3, a3);
	result(g1 == n && g2 == n && g3 == n, "seed-runs",
	       "expected %zu records from each run, got %zu/%zu/%zu",
	       n, g1, g2, g3);
	/* Records are matched by arm number: drops leave gaps, not shifts. */
	common = match_arms(a1, l1, g1, a2, l2, g2, &same);
	common3 = match_arms(a1, l1, g1, a3, l3, g3, &same3);
	for (i = 0; i < g1; i++)
		unexpected += l1[i] != expect_ldist(7, a1[i], LDIST_FROM, LDIST_TO,
						    cfg_gran);
	printf("seed: %zu arms in common, %zu same ldist; other seed: %zu of %zu "
	       "different; first ldist %llu %llu %llu ns\n", common, same,
	       common3 - same3, common3,
	       g1 ? (unsigned long long)l1[0] : 0ULL,
	       g2 ? (unsigned long long)l2[0] : 0ULL,
	       g3 ? (unsigned long long)l3[0] : 0ULL);
	/*
	 * Under TCG on a loaded host many arms are dropped (CPU busy, late
	 * timer), so only the arms both runs published are compared; 30 of
	 * them are enough to tell two sequences apart.
	 */
	result(common >= SEED_MIN_COMMON && same == common, "seed-same-sequence",
	       "expected >= %d arms in common, all with the same ldist; saw %zu "
	       "in common, %zu the same", SEED_MIN_COMMON, common, same);
	/* Draws from 480001 values: a few equal ones by chance at most. */
	result(common3 >= SEED_MIN_COMMON && same3 <= 2, "seed-other-sequence",
	       "expected >= %d arms in common with seed 8, at most 2 with the "
	       "same ldist; saw %zu in common, %zu the same", SEED_MIN_COMMON,
	       common3, same3);
	result(!unexpected, "seed-ldist-is-prng", "%zu ldist values are not the "
	       "splitmix64 sequence of seed 7", unexpected);

	fd = open_dev();
	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.cpu = cpu;
	strcpy(cfg.device, "hrt");
	cfg.ldist_from_ns = LDIST_FROM;
	cfg.ldist_to_ns = LDIST_TO;
	cfg.reserved = 1;
	expect_err(ioctl(fd, WULTFW_IOC_CONFIG, &cfg) ? -errno : 0, EINVAL,
		   "config-reserved-nonzero", cfg.why);
	close(fd);
	return failures != 0;
}

/* Start an hrt run and keep reading until killed or @secs pass. */
static int cmd_hold(unsigned int cpu, int secs)
{
	struct wultfw_record recs[64];
	struct wultfw_config cfg;
	time_t end = time(NULL) + secs;
	size_t total = 0;
	ssize_t r;
	int fd = open_dev(), err;

	pin_to(cpu ? 0 : 1);
	err = configure(fd, "hrt", cpu, LDIST_FROM, LDIST_TO, &cfg);
	if (!err)
		err = ioctl(fd, WULTFW_IOC_START) ? -errno : 0;
	result(!err, "hold-start", "%s (%s)", strerror(-err), cfg.why);
	printf("hold: running\n");
	fflush(stdout);
	while (!err && time(NULL) < end) {
		r = read(fd, recs, sizeof(recs));
		if (r <= 0)
			break;
		total += r / sizeof(recs[0]);
	}
	printf("hold: read %zu records\n", total);
	close(fd);
	return err != 0;
}

int main(int argc, char **argv)
{
	unsigned int cpu = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 3 && !strcmp(argv[1], "run"))
		return cmd_run(cpu, strtoul(argv[3], NULL, 0));
	if (argc > 2 && !strcmp(argv[1], "tdt"))
		return cmd_tdt(cpu);
	if (argc > 4 && !strcmp(argv[1], "refuse"))
		return cmd_refuse(argv[3], cpu, argv[4]);
	if (argc > 2 && !strcmp(argv[1], "badargs"))
		return cmd_badargs(cpu);
	if (argc > 3 && !strcmp(argv[1], "seed"))
		return cmd_seed(cpu, strtoul(argv[3], NULL, 0));
	if (argc > 3 && !strcmp(argv[1], "hold"))
		return cmd_hold(cpu, atoi(argv[3]));
	fprintf(stderr, "usage: vmtest run CPU COUNT | tdt CPU | badargs CPU | refuse CPU DEV WHY | "
		"hold CPU SECS\n");
	return 2;
}
