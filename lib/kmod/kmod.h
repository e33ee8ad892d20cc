/* SPDX-License-Identifier: MIT */
/*
 * User-space client of the wultfw kernel modules (/dev/wultfw, see
 * include/uapi/wultfw/wultfw_ioctl.h). Every source that measures through the modules
 * (tdt, the kernel hrt device, later i210) talks to them through this one
 * library: open, configure, start, read records, stop; and turns a record
 * into a lib/kside datapoint (TSC cycles -> ns, counter deltas).
 */
#ifndef WFW_KMOD_H
#define WFW_KMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/kside.h>
#include <uapi/wultfw/wultfw_ioctl.h>

#define WFW_KMOD_DEVPATH "/dev/" WULTFW_DEVNAME

/* TSC -> CLOCK_MONOTONIC-rate nanoseconds: ns = (tsc - tsc0) * ns_per_cyc. */
struct wfw_kmod_tsc {
	uint64_t tsc0;
	double ns_per_cyc;
};

struct wfw_kmod {
	int fd;
	struct wultfw_config cfg;	/* as the module accepted it */
	struct wfw_kmod_tsc tsc;
	/* Present residency counters, in the order given to lib/kside. */
	size_t nres;
	int res_ctr[WULTFW_KSIDE_MAX_RES];	/* enum wultfw_ctr of each */
	const char *res_names[WULTFW_KSIDE_MAX_RES];
	/* Device-specific columns (cfg.dev_data_names), after the kside ones. */
	size_t ndev;
	int dev_idx[WULTFW_DEV_DATA];	/* record.dev_data index of each */
	struct wultfw_column dev_cols[WULTFW_DEV_DATA];
	uint64_t discarded_seen;
};

/*
 * Open the device node (NULL: WFW_KMOD_DEVPATH) for device (its module is
 * wultfw_DEVICE, as kmod/modules.list names it). why: what to do if not.
 */
int wfw_kmod_open(struct wfw_kmod *km, const char *path, const char *device,
		  char *why, size_t len);
void wfw_kmod_close(struct wfw_kmod *km);

/*
 * Configure; on refusal the module's reason is copied into why. The seed
 * makes the kernel's launch distance sequence reproducible.
 */
int wfw_kmod_config(struct wfw_kmod *km, const char *device, unsigned int cpu,
		    uint64_t from_ns, uint64_t to_ns, uint64_t seed,
		    char *why, size_t len);
int wfw_kmod_start(struct wfw_kmod *km);
int wfw_kmod_stop(struct wfw_kmod *km);
int wfw_kmod_stats(struct wfw_kmod *km, struct wultfw_stats *st);

/*
 * Read up to n records, waiting at most timeout_ns for the first.
 * Returns the number read (0 on timeout) or a negative errno.
 */
long wfw_kmod_read(struct wfw_kmod *km, struct wultfw_record *recs, size_t n,
		   uint64_t timeout_ns);

/* Measure the TSC rate against CLOCK_MONOTONIC over about `span_ns`. */
int wfw_kmod_tsc_calibrate(struct wfw_kmod_tsc *t, uint64_t span_ns);

/* Name of a counter slot as wult spells it ("CC6", "PC2", "SMI", ...). */
const char *wfw_kmod_ctr_name(int ctr);
/* "TSC,NMI,CC6" for the bits set in present. */
void wfw_kmod_ctr_list(uint32_t present, char *buf, size_t len);

/*
 * Fill kside counters/residency names from the accepted configuration
 * (km->cfg.ctr_present) and remember their order for wfw_kmod_to_dp();
 * the device's own values (cfg.dev_data_names) become kc->extra columns
 * (microseconds), filled by wfw_kmod_fill_dev().
 */
void wfw_kmod_kside_cfg(struct wfw_kmod *km, struct wultfw_kside_cfg *kc);

/* Record -> kside datapoint in nanoseconds on one clock. */
void wfw_kmod_to_dp(const struct wfw_kmod *km, const struct wultfw_record *r,
		    struct wultfw_kside_dp *dp);
/* The device columns of a row: row + first (kside's first_extra) on. */
void wfw_kmod_fill_dev(const struct wfw_kmod *km, const struct wultfw_record *r,
		       union wultfw_cell *row, size_t first);

#endif
