/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the wultfw framework (wultfw.ko) and a delayed-event
 * device module (wultfw_hrt.ko, wultfw_tdt.ko, ...). A device fills a
 * struct wultfw_device and registers it; the framework never knows which
 * devices exist, so adding one never changes the framework.
 *
 * Contexts: prepare()/release()/cancel() run in process context on any CPU;
 * arm() runs on the measured CPU with interrupts disabled; read_time(),
 * read_overhead() and event_check() run on the measured CPU with
 * interrupts disabled (also from the idle path).
 * The device calls wultfw_event() from its interrupt path on the CPU that
 * took the interrupt.
 */
#ifndef _WULTFW_DEV_H
#define _WULTFW_DEV_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/types.h>

#include "uapi/wultfw/wultfw_ioctl.h"

struct wultfw_device {
	const char *name;	/* "hrt", "tdt": what user space asks for */
	struct module *owner;	/* THIS_MODULE: pinned while configured */
	u32 tunit;		/* WULTFW_TUNIT_* of read_time() and LTime */
	u64 resolution_ns;	/* launch distances are multiples of this */
	u64 ldist_min_ns;
	u64 ldist_max_ns;
	/* Names of the per-record values read_overhead() fills; NULL: none. */
	const char *dev_data_names[WULTFW_DEV_DATA];

	/* Can the device run on @cpu? If not, say why in @why. */
	int (*prepare)(struct wultfw_device *dev, unsigned int cpu,
		       char *why, size_t whylen);
	void (*release)(struct wultfw_device *dev);
	/* Current time in the device's time base. */
	u64 (*read_time)(struct wultfw_device *dev);
	/* Fire one event @ldist_ns from now; store its launch time. */
	int (*arm)(struct wultfw_device *dev, u64 ldist_ns, u64 *ltime);
	/* Make sure an armed event will not fire any more. */
	void (*cancel)(struct wultfw_device *dev);
	/*
	 * Optional, right after the TAI read: the part of that read before
	 * the time was sampled (*tai_pre_ns) and of the read in the interrupt
	 * path (*tintr_pre_ns), and the device's own per-datapoint values
	 * (@data, dev_data_names order, ns). All come in preset: half of the
	 * run's measured read_time() cost, and zeros.
	 */
	void (*read_overhead)(struct wultfw_device *dev, u64 *tai_pre_ns,
			      u64 *tintr_pre_ns, u64 *data);
	/*
	 * Optional, at every idle entry while armed: does the armed event
	 * still fire at *@ltime? The device may correct *@ltime when it was
	 * re-programmed for the same moment (tdt: nohz re-writes the TSC
	 * deadline of our own hrtimer); false makes the framework drop the
	 * datapoint unless a later idle entry before the event says true.
	 */
	bool (*event_check)(struct wultfw_device *dev, u64 *ltime);

	struct list_head node;	/* framework private */
};

int wultfw_register_device(struct wultfw_device *dev);
void wultfw_unregister_device(struct wultfw_device *dev);
/* Called by a device from its interrupt path; @tintr in its time base. */
void wultfw_event(struct wultfw_device *dev, u64 tintr);

#endif /* _WULTFW_DEV_H */
