/* SPDX-License-Identifier: MIT */
/* hrt's hardware counters from perf PMUs; see hrt_pmu.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <sysstate/sysfile.h>

#include "hrt_pmu.h"

/*
 * Every counter hrt knows, in the order lib/kside wants them (TSC first:
 * the residency percentages are of its delta). Intel's cstate_* residency
 * counters and MPERF count at the TSC rate.
 */
static const struct {
	const char *pmu, *event;
	enum hrt_pmu_kind kind;
	const char *res_name;
} hrt_pmu_known[HRT_PMU_MAX] = {
	{ "msr", "tsc", HRT_PMU_TSC, NULL },
	{ "msr", "aperf", HRT_PMU_APERF, NULL },
	{ "msr", "mperf", HRT_PMU_MPERF, NULL },
	{ "msr", "smi", HRT_PMU_SMI, NULL },
	{ "cstate_core", "c1-residency", HRT_PMU_RES, "CC1" },
	{ "cstate_core", "c3-residency", HRT_PMU_RES, "CC3" },
	{ "cstate_core", "c6-residency", HRT_PMU_RES, "CC6" },
	{ "cstate_core", "c7-residency", HRT_PMU_RES, "CC7" },
	{ "cstate_module", "c6-residency", HRT_PMU_RES, "MC6" },
	{ "cstate_pkg", "c2-residency", HRT_PMU_RES, "PC2" },
	{ "cstate_pkg", "c3-residency", HRT_PMU_RES, "PC3" },
	{ "cstate_pkg", "c6-residency", HRT_PMU_RES, "PC6" },
	{ "cstate_pkg", "c7-residency", HRT_PMU_RES, "PC7" },
	{ "cstate_pkg", "c8-residency", HRT_PMU_RES, "PC8" },
	{ "cstate_pkg", "c9-residency", HRT_PMU_RES, "PC9" },
	{ "cstate_pkg", "c10-residency", HRT_PMU_RES, "PC10" },
};

/* format/TERM: "config:LO-HI" or "config:BIT" -> lo, width. */
static int hrt_pmu_parse_format(const char *fmtdir, const char *term,
				unsigned int *lo, unsigned int *width)
{
	char path[512], buf[64], *end;
	unsigned long a, b;

	if (snprintf(path, sizeof(path), "%s/%s", fmtdir, term) >=
	    (int)sizeof(path) || wfw_read_line(path, buf, sizeof(buf)))
		return -EINVAL;
	/* Only perf_event_attr.config, one bit range: all these PMUs use. */
	if (strncmp(buf, "config:", 7))
		return -EINVAL;
	a = strtoul(buf + 7, &end, 10);
	b = a;
	if (*end == '-')
		b = strtoul(end + 1, &end, 10);
	if (*end || end == buf + 7 || b < a || b > 63)
		return -EINVAL;
	*lo = (unsigned int)a;
	*width = (unsigned int)(b - a + 1);
	return 0;
}

int hrt_pmu_parse_event(const char *fmtdir, const char *spec,
			uint64_t *config)
{
	char buf[256], *save = NULL, *t;

	if (strlen(spec) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, spec);
	*config = 0;
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *end;
		unsigned int lo, width;
		uint64_t v = 1;		/* a bare term means term=1 */

		if (eq) {
			*eq = '\0';
			errno = 0;
			v = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || *end)
				return -EINVAL;
		}
		if (hrt_pmu_parse_format(fmtdir, t, &lo, &width))
			return -EINVAL;
		if (width < 64 && v >> width)
			return -EINVAL;
		*config |= v << lo;
	}
	return 0;
}

static void hrt_pmu_note_absent(struct hrt_pmu *pmu, const char *p,
				const char *e)
{
	size_t l = strlen(pmu->absent);

	snprintf(pmu->absent + l, sizeof(pmu->absent) - l, "%s%s/%s",
		 l ? "," : "", p, e);
}

int hrt_pmu_discover(struct hrt_pmu *pmu, const char *root, char *err,
		     size_t errlen)
{
	char path[512], buf[256], fmtdir[512];
	size_t i;

	memset(pmu, 0, sizeof(*pmu));
	pmu->cpu = -1;
	for (i = 0; i < HRT_PMU_MAX; i++) {
		const char *p = hrt_pmu_known[i].pmu, *e = hrt_pmu_known[i].event;
		struct hrt_pmu_ctr *c = &pmu->c[pmu->n];
		unsigned long type;
		char *end;
		int r;

		snprintf(path, sizeof(path), "%s/%s/events/%s", root, p, e);
		r = wfw_read_line(path, buf, sizeof(buf));
		/* Without the TSC there is no TotCyc to divide by. */
		if (r == -ENOENT || (i > 0 && (!pmu->n ||
					       pmu->c[0].kind != HRT_PMU_TSC))) {
			hrt_pmu_note_absent(pmu, p, e);
			continue;
		}
		if (r) {
			snprintf(err, errlen, "cannot read %s", path);
			return -EIO;
		}
		snprintf(fmtdir, sizeof(fmtdir), "%s/%s/format", root, p);
		if (hrt_pmu_parse_event(fmtdir, buf, &c->config)) {
			snprintf(err, errlen, "%s: cannot parse \"%s\" against "
				 "%s (only config:LO-HI terms are known)",
				 path, buf, fmtdir);
			return -EINVAL;
		}
		snprintf(path, sizeof(path), "%s/%s/type", root, p);
		if (wfw_read_line(path, buf, sizeof(buf))) {
			snprintf(err, errlen, "cannot read %s", path);
			return -EIO;
		}
		type = strtoul(buf, &end, 10);
		if (*end || end == buf || type > UINT32_MAX) {
			snprintf(err, errlen, "%s: \"%s\" is not a PMU type",
				 path, buf);
			return -EINVAL;
		}
		c->pmu = p;
		c->event = e;
		c->kind = hrt_pmu_known[i].kind;
		c->res_name = hrt_pmu_known[i].res_name;
		c->type = (uint32_t)type;
		c->fd = -1;
		pmu->n++;
	}
	return 0;
}

int hrt_pmu_open(struct hrt_pmu *pmu, int cpu, char *err, size_t errlen)
{
	size_t i;

	hrt_pmu_close(pmu);
	for (i = 0; i < pmu->n; i++) {
		struct hrt_pmu_ctr *c = &pmu->c[i];
		struct perf_event_attr a;
		long fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = c->type;
		a.config = c->config;
		/* Counting only, whole CPU, never multiplexed away. */
		a.pinned = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			snprintf(err, errlen, "perf event %s/%s (type %" PRIu32
				 ", config 0x%" PRIx64 ") exists but cannot be "
				 "opened on CPU %d: %s (errno %d)", c->pmu,
				 c->event, c->type, c->config, cpu, strerror(e),
				 e);
			hrt_pmu_close(pmu);
			return -e;
		}
		c->fd = (int)fd;
	}
	pmu->cpu = cpu;
	return 0;
}

void hrt_pmu_close(struct hrt_pmu *pmu)
{
	size_t i;

	for (i = 0; i < pmu->n; i++) {
		if (pmu->c[i].fd >= 0)
			close(pmu->c[i].fd);
		pmu->c[i].fd = -1;
	}
	pmu->cpu = -1;
}

void hrt_pmu_kside_cfg(const struct hrt_pmu *pmu, struct wultfw_kside_cfg *kc)
{
	static const unsigned int bit[] = {
		[HRT_PMU_TSC] = WULTFW_KSIDE_HAS_TSC,
		[HRT_PMU_APERF] = WULTFW_KSIDE_HAS_APERF,
		[HRT_PMU_MPERF] = WULTFW_KSIDE_HAS_MPERF,
		[HRT_PMU_SMI] = WULTFW_KSIDE_HAS_SMI,
		[HRT_PMU_RES] = 0,
	};
	size_t i;

	kc->nres = 0;
	for (i = 0; i < pmu->n; i++) {
		kc->counters |= bit[pmu->c[i].kind];
		if (pmu->c[i].kind == HRT_PMU_RES && kc->nres < WULTFW_KSIDE_MAX_RES)
			kc->res_names[kc->nres++] = pmu->c[i].res_name;
	}
}

void hrt_pmu_fill_dp(const struct hrt_pmu *pmu, const uint64_t *deltas,
		     struct wultfw_kside_dp *dp)
{
	size_t i, r = 0;

	for (i = 0; i < pmu->n; i++) {
		switch (pmu->c[i].kind) {
		case HRT_PMU_TSC:
			dp->tsc = deltas[i];
			break;
		case HRT_PMU_APERF:
			dp->aperf = deltas[i];
			break;
		case HRT_PMU_MPERF:
			dp->mperf = deltas[i];
			break;
		case HRT_PMU_SMI:
			dp->smi = deltas[i];
			break;
		case HRT_PMU_RES:
			if (r < WULTFW_KSIDE_MAX_RES)
				dp->res[r++] = deltas[i];
			break;
		}
	}
}

bool hrt_pmu_beyond_tsc(const struct hrt_pmu *pmu)
{
	for (size_t i = 0; i < pmu->n; i++)
		if (pmu->c[i].kind != HRT_PMU_TSC)
			return true;
	return false;
}

void hrt_pmu_present_str(const struct hrt_pmu *pmu, char *buf, size_t len)
{
	size_t i, l = 0;

	buf[0] = '\0';
	for (i = 0; i < pmu->n && l < len; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s/%s", i ? "," : "",
				      pmu->c[i].pmu, pmu->c[i].event);
	if (!pmu->n)
		snprintf(buf, len, "none");
}
