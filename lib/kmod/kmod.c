/* SPDX-License-Identifier: MIT */
/* Client of /dev/wultfw; see kmod.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define WFW_KMOD_HAVE_TSC 1
#endif

#include "kmod/kmod.h"

static const char *const wfw_kmod_ctr_names[WULTFW_NR_CTRS] = {
	[WULTFW_CTR_TSC] = "TSC",	[WULTFW_CTR_APERF] = "APERF",
	[WULTFW_CTR_MPERF] = "MPERF",	[WULTFW_CTR_SMI] = "SMI",
	[WULTFW_CTR_NMI] = "NMI",	[WULTFW_CTR_CC1] = "CC1",
	[WULTFW_CTR_CC3] = "CC3",	[WULTFW_CTR_CC6] = "CC6",
	[WULTFW_CTR_CC7] = "CC7",	[WULTFW_CTR_MC6] = "MC6",
	[WULTFW_CTR_PC2] = "PC2",	[WULTFW_CTR_PC3] = "PC3",
	[WULTFW_CTR_PC6] = "PC6",	[WULTFW_CTR_PC7] = "PC7",
	[WULTFW_CTR_PC8] = "PC8",	[WULTFW_CTR_PC9] = "PC9",
	[WULTFW_CTR_PC10] = "PC10",
};

const char *wfw_kmod_ctr_name(int ctr)
{
	return ctr >= 0 && ctr < WULTFW_NR_CTRS ? wfw_kmod_ctr_names[ctr] : "?";
}

void wfw_kmod_ctr_list(uint32_t present, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < WULTFW_NR_CTRS && off < len; i++) {
		int n;

		if (!(present & (1u << i)))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
			     wfw_kmod_ctr_names[i]);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

int wfw_kmod_open(struct wfw_kmod *km, const char *path, const char *device,
		  char *why, size_t len)
{
	memset(km, 0, sizeof(*km));
	km->fd = -1;
	if (!path)
		path = WFW_KMOD_DEVPATH;
	km->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (km->fd >= 0)
		return 0;
	if (errno == ENOENT && access("/proc/modules", F_OK))
		snprintf(why, len, "%s does not exist and this kernel cannot load "
			 "modules (no /proc/modules): use the eBPF source 'hrt' "
			 "or the 'timer' source here", path);
	else if (errno == ENOENT)
		snprintf(why, len, "%s does not exist: the wultfw kernel modules "
			 "are not loaded; install them with 'wultfw deploy', then "
			 "'modprobe wultfw_%s'", path, device);
	else if (errno == EBUSY)
		snprintf(why, len, "%s is in use by another measurement (one "
			 "opener at a time): wait for it to finish", path);
	else if (errno == EACCES || errno == EPERM)
		snprintf(why, len, "%s: %s: run as root", path, strerror(errno));
	else
		snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
	return -errno;
}

void wfw_kmod_close(struct wfw_kmod *km)
{
	if (km->fd >= 0)
		close(km->fd);	/* the module stops any run on close */
	km->fd = -1;
}

int wfw_kmod_config(struct wfw_kmod *km, const char *device, unsigned int cpu,
		    uint64_t from_ns, uint64_t to_ns, uint64_t seed,
		    char *why, size_t len)
{
	struct wultfw_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.cpu = cpu;
	if (strlen(device) >= sizeof(cfg.device)) {
		snprintf(why, len, "device name '%s' is too long", device);
		return -EINVAL;
	}
	strcpy(cfg.device, device);
	cfg.ldist_from_ns = from_ns;
	cfg.ldist_to_ns = to_ns;
	cfg.seed = seed;
	if (ioctl(km->fd, WULTFW_IOC_CONFIG, &cfg)) {
		int err = errno;

		snprintf(why, len, "%s", cfg.why[0] ? cfg.why : strerror(err));
		return -err;
	}
	km->cfg = cfg;
	return 0;
}

int wfw_kmod_start(struct wfw_kmod *km)
{
	km->discarded_seen = 0;
	return ioctl(km->fd, WULTFW_IOC_START) ? -errno : 0;
}

int wfw_kmod_stop(struct wfw_kmod *km)
{
	return ioctl(km->fd, WULTFW_IOC_STOP) ? -errno : 0;
}

int wfw_kmod_stats(struct wfw_kmod *km, struct wultfw_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(km->fd, WULTFW_IOC_GET_STATS, st) ? -errno : 0;
}

long wfw_kmod_read(struct wfw_kmod *km, struct wultfw_record *recs, size_t n,
		   uint64_t timeout_ns)
{
	struct pollfd pfd = { .fd = km->fd, .events = POLLIN };
	ssize_t r;
	int ms = (int)((timeout_ns + 999999) / 1000000);

	r = read(km->fd, recs, n * sizeof(*recs));
	if (r < 0 && errno == EAGAIN) {
		if (poll(&pfd, 1, ms) < 0)
			return errno == EINTR ? 0 : -errno;
		r = read(km->fd, recs, n * sizeof(*recs));
		if (r < 0 && errno == EAGAIN)
			return 0;
	}
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	return (long)((size_t)r / sizeof(*recs));
}

static uint64_t wfw_kmod_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#ifdef WFW_KMOD_HAVE_TSC
/* One (mono, tsc) pair: the tightest of a few tries brackets the TSC read. */
static void wfw_kmod_pair(uint64_t *mono, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t a = wfw_kmod_mono_ns();
		uint64_t t = __rdtsc();
		uint64_t b = wfw_kmod_mono_ns();

		if (b - a < best) {
			best = b - a;
			*mono = a + (b - a) / 2;
			*tsc = t;
		}
	}
}
#endif

int wfw_kmod_tsc_calibrate(struct wfw_kmod_tsc *t, uint64_t span_ns)
{
#ifdef WFW_KMOD_HAVE_TSC
	uint64_t m0, c0, m1, c1;
	struct timespec ts = { .tv_sec = (time_t)(span_ns / 1000000000ULL),
			       .tv_nsec = (long)(span_ns % 1000000000ULL) };

	wfw_kmod_pair(&m0, &c0);
	nanosleep(&ts, NULL);
	wfw_kmod_pair(&m1, &c1);
	if (c1 <= c0 || m1 <= m0)
		return -EIO;
	t->tsc0 = c0;
	t->ns_per_cyc = (double)(m1 - m0) / (double)(c1 - c0);
	return 0;
#else
	(void)t;
	(void)span_ns;
	return -EOPNOTSUPP;
#endif
}

void wfw_kmod_kside_cfg(struct wfw_kmod *km, struct wultfw_kside_cfg *kc)
{
	static const struct { int ctr; unsigned int bit; } simple[] = {
		{ WULTFW_CTR_TSC, WULTFW_KSIDE_HAS_TSC },
		{ WULTFW_CTR_APERF, WULTFW_KSIDE_HAS_APERF },
		{ WULTFW_CTR_MPERF, WULTFW_KSIDE_HAS_MPERF },
		{ WULTFW_CTR_SMI, WULTFW_KSIDE_HAS_SMI },
		{ WULTFW_CTR_NMI, WULTFW_KSIDE_HAS_NMI },
	};
	uint32_t present = km->cfg.ctr_present;
	size_t i;
	int c;

	/* The module measures its own timestamping cost (kmod/README.md). */
	kc->counters = WULTFW_KSIDE_HAS_OVERHEADS;
	for (i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
		if (present & (1u << simple[i].ctr))
			kc->counters |= simple[i].bit;
	/* Residency percentages need TotCyc (the TSC delta). */
	km->nres = 0;
	for (c = WULTFW_CTR_CC1; c < WULTFW_NR_CTRS; c++) {
		if (!(present & (1u << c)) || !(present & (1u << WULTFW_CTR_TSC)) ||
		    km->nres >= WULTFW_KSIDE_MAX_RES)
			continue;
		km->res_ctr[km->nres] = c;
		km->res_names[km->nres] = wfw_kmod_ctr_names[c];
		km->nres++;
	}
	kc->nres = km->nres;
	for (i = 0; i < km->nres; i++)
		kc->res_names[i] = km->res_names[i];

	km->ndev = 0;
	for (c = 0; c < WULTFW_DEV_DATA; c++) {
		/* The module NUL-terminates; never trust it blindly. */
		const char *n = km->cfg.dev_data_names[c];

		if (!n[0] || !memchr(n, '\0', WULTFW_NAME_LEN))
			continue;
		km->dev_idx[km->ndev] = c;
		km->dev_cols[km->ndev] = (struct wultfw_column){
			.name = n, .unit = "us", .type = WULTFW_COL_INT,
			.divisor = 1000,
		};
		km->ndev++;
	}
	kc->extra = km->ndev ? km->dev_cols : NULL;
	kc->nextra = km->ndev;
}

void wfw_kmod_fill_dev(const struct wfw_kmod *km, const struct wultfw_record *r,
		       union wultfw_cell *row, size_t first)
{
	size_t i;

	for (i = 0; i < km->ndev; i++)
		row[first + i].i = (int64_t)r->dev_data[km->dev_idx[i]];
}

static uint64_t wfw_kmod_ns(const struct wfw_kmod *km, uint32_t tunit,
			    uint64_t t)
{
	if (tunit == WULTFW_TUNIT_NS)
		return t;
	/* Records come after calibration, but never wrap on a stray value. */
	if (t < km->tsc.tsc0)
		return 0;
	return (uint64_t)((double)(t - km->tsc.tsc0) * km->tsc.ns_per_cyc + 0.5);
}

void wfw_kmod_to_dp(const struct wfw_kmod *km, const struct wultfw_record *r,
		    struct wultfw_kside_dp *dp)
{
	size_t i;

#define WFW_KMOD_DELTA(c) ((r->ctr_present & (1u << (c))) ? \
			   r->ctr_ai[c] - r->ctr_bi[c] : 0)
	memset(dp, 0, sizeof(*dp));
	dp->tbi = wfw_kmod_ns(km, r->tunit, r->tbi);
	dp->ltime = wfw_kmod_ns(km, r->tunit, r->ltime);
	dp->tai = wfw_kmod_ns(km, r->tunit, r->tai);
	dp->tintr = wfw_kmod_ns(km, r->tunit, r->tintr);
	dp->ldist = r->ldist_ns;
	dp->req_state = (int)r->req_cstate;
	dp->intr_off = -1;
	/* Already nanoseconds whatever the time base. */
	dp->tai_pre = r->tai_pre_ns;
	dp->tintr_pre = r->tintr_pre_ns;
	dp->ai_overhead = r->ai_overhead_ns;
	dp->intr_overhead = r->intr_overhead_ns;
	dp->tsc = WFW_KMOD_DELTA(WULTFW_CTR_TSC);
	dp->aperf = WFW_KMOD_DELTA(WULTFW_CTR_APERF);
	dp->mperf = WFW_KMOD_DELTA(WULTFW_CTR_MPERF);
	dp->smi = WFW_KMOD_DELTA(WULTFW_CTR_SMI);
	dp->nmi = WFW_KMOD_DELTA(WULTFW_CTR_NMI);
	for (i = 0; i < km->nres; i++)
		dp->res[i] = WFW_KMOD_DELTA(km->res_ctr[i]);
#undef WFW_KMOD_DELTA
}
