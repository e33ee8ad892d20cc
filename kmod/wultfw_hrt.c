// SPDX-License-Identifier: GPL-2.0
/*
 * wultfw 'hrt' device: a kernel high-resolution timer at an absolute
 * CLOCK_MONOTONIC time, pinned to the measured CPU and expiring in hard
 * interrupt context. LTime is the timer's expiry; TIntr is taken in its
 * handler. Time base: nanoseconds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

#include "uapi/wultfw/wultfw_ioctl.h"
#include "wultfw_dev.h"

static struct hrtimer hrt_timer;

static struct wultfw_device hrt_dev;

static enum hrtimer_restart hrt_fire(struct hrtimer *timer)
{
	wultfw_event(&hrt_dev, ktime_get_ns());
	return HRTIMER_NORESTART;
}

static int hrt_prepare(struct wultfw_device *dev, unsigned int cpu,
		       char *why, size_t whylen)
{
	if (hrtimer_resolution > dev->ldist_min_ns) {
		snprintf(why, whylen,
			 "high-resolution timers are off (resolution %u ns)",
			 hrtimer_resolution);
		return -EOPNOTSUPP;
	}
	return 0;
}

static u64 hrt_read_time(struct wultfw_device *dev)
{
	return ktime_get_ns();
}

static int hrt_arm(struct wultfw_device *dev, u64 ldist_ns, u64 *ltime)
{
	*ltime = ktime_get_ns() + ldist_ns;
	hrtimer_start(&hrt_timer, ns_to_ktime(*ltime),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	return 0;
}

static void hrt_cancel(struct wultfw_device *dev)
{
	hrtimer_cancel(&hrt_timer);
}

static struct wultfw_device hrt_dev = {
	.name = "hrt",
	.owner = THIS_MODULE,
	.tunit = WULTFW_TUNIT_NS,
	.resolution_ns = 1,
	.ldist_min_ns = 1000,
	.ldist_max_ns = NSEC_PER_SEC,
	.prepare = hrt_prepare,
	.read_time = hrt_read_time,
	.arm = hrt_arm,
	.cancel = hrt_cancel,
};

static int __init hrt_init(void)
{
	hrtimer_init(&hrt_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	hrt_timer.function = hrt_fire;
	return wultfw_register_device(&hrt_dev);
}

static void __exit hrt_exit(void)
{
	wultfw_unregister_device(&hrt_dev);
	hrtimer_cancel(&hrt_timer);
}

module_init(hrt_init);
module_exit(hrt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wultfw 'hrt' device: kernel hrtimer delayed event");
