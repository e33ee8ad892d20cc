// SPDX-License-Identifier: GPL-2.0
/*
 * wultfw 'tdt' device: the LAPIC TSC-deadline timer of the measured CPU,
 * driven through a pinned hrtimer. LTime is the TSC deadline the kernel
 * programs for that hrtimer (read back from MSR_IA32_TSC_DEADLINE right after
 * arming); TIntr is the TSC at the local_timer_entry tracepoint, the first
 * thing the LAPIC timer interrupt does. Time base: TSC cycles.
 *
 * Only valid where the CPU's clockevent device is "lapic-deadline": with any
 * other clockevent the MSR is not what wakes the CPU.
 *
 * The deadline can change after arming: an earlier timer (the tick) may
 * hold the MSR when we arm, and nohz re-programs the clockevent when it
 * stops or restarts the tick, converting our hrtimer's expiry to a TSC
 * value anew (a few cycles off). So the MSR is read again at every idle
 * entry (tdt_event_check()): a deadline within the slack of LTime is our
 * timer and becomes LTime; any other means an other timer is armed, and
 * unless a later idle entry before the event finds ours again (the CPU
 * wakes early for the other one), the framework drops the datapoint
 * (discard_changed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include "uapi/wultfw/wultfw_ioctl.h"
#include "wultfw_dev.h"

#define TDT_CLOCKEVENT	"lapic-deadline"

static struct wultfw_device tdt_dev;
static struct hrtimer tdt_timer;
static struct tracepoint *tdt_lte_tp;	/* local_timer_entry */
static bool tdt_lte_on;
static unsigned int tdt_cpu;
static u64 tdt_lte_tsc;			/* TSC at the last local timer entry */
static u64 tdt_slack;			/* TSC cycles, set when arming */

static void tdt_lte_probe(void *data, int vector)
{
	if (smp_processor_id() == READ_ONCE(tdt_cpu))
		WRITE_ONCE(tdt_lte_tsc, rdtsc_ordered());
}

static enum hrtimer_restart tdt_fire(struct hrtimer *timer)
{
	wultfw_event(&tdt_dev, READ_ONCE(tdt_lte_tsc));
	return HRTIMER_NORESTART;
}

static void tdt_find_lte(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "local_timer_entry"))
		tdt_lte_tp = tp;
}

/* The name of @cpu's clockevent device, as sysfs shows it. */
static void tdt_clockevent_name(unsigned int cpu, char *name, size_t len)
{
	char path[80];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	strscpy(name, "unknown", len);
	snprintf(path, sizeof(path),
		 "/sys/devices/system/clockevents/clockevent%u/current_device",
		 cpu);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return;
	n = kernel_read(f, name, len - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0) {
		strscpy(name, "unknown", len);
		return;
	}
	name[n] = '\0';
	strim(name);
}

static int tdt_prepare(struct wultfw_device *dev, unsigned int cpu,
		       char *why, size_t whylen)
{
	char ced[32];
	int err;

	tdt_clockevent_name(cpu, ced, sizeof(ced));
	if (!boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER) ||
	    strcmp(ced, TDT_CLOCKEVENT)) {
		snprintf(why, whylen,
			 "clockevent is not lapic-deadline (CPU %u uses '%s'%s)",
			 cpu, ced,
			 boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER) ?
			 "" : ", no TSC-deadline timer in CPUID");
		return -EOPNOTSUPP;
	}
	if (!tsc_khz) {
		snprintf(why, whylen, "TSC frequency unknown (tsc_khz is 0)");
		return -EOPNOTSUPP;
	}
	tdt_lte_tp = NULL;
	for_each_kernel_tracepoint(tdt_find_lte, NULL);
	if (!tdt_lte_tp) {
		snprintf(why, whylen,
			 "kernel has no local_timer_entry tracepoint for TIntr");
		return -EOPNOTSUPP;
	}
	WRITE_ONCE(tdt_cpu, cpu);
	err = tracepoint_probe_register(tdt_lte_tp, tdt_lte_probe, NULL);
	if (err) {
		snprintf(why, whylen,
			 "cannot hook local_timer_entry: error %d", err);
		return err;
	}
	tdt_lte_on = true;
	return 0;
}

static void tdt_release(struct wultfw_device *dev)
{
	if (!tdt_lte_on)
		return;
	tracepoint_probe_unregister(tdt_lte_tp, tdt_lte_probe, NULL);
	tracepoint_synchronize_unregister();
	tdt_lte_on = false;
}

static u64 tdt_read_time(struct wultfw_device *dev)
{
	return rdtsc_ordered();
}

/*
 * Interrupts are off and we are on the measured CPU, so nothing reprograms
 * the deadline between hrtimer_start() and the MSR read. If another timer
 * expires first, the MSR holds its deadline, not ours: LTime is then the
 * TSC we expect, and the idle entry check finds the real deadline once the
 * other timer has fired (spinning on -EAGAIN here would burn the CPU until
 * the next tick).
 */
static int tdt_arm(struct wultfw_device *dev, u64 ldist_ns, u64 *ltime)
{
	u64 now = rdtsc_ordered();
	u64 expect = now + div_u64(ldist_ns * tsc_khz, USEC_PER_SEC);
	u64 slack = div_u64((2000 + ldist_ns / 1000) * tsc_khz, USEC_PER_SEC);
	u64 deadline;

	WRITE_ONCE(tdt_lte_tsc, 0);
	hrtimer_start(&tdt_timer, ns_to_ktime(ktime_get_ns() + ldist_ns),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	if (rdmsrl_safe(MSR_IA32_TSC_DEADLINE, &deadline))
		return -EIO;
	WRITE_ONCE(tdt_slack, slack);
	if (deadline + slack < expect || deadline > expect + slack)
		deadline = expect;
	*ltime = deadline;
	return 0;
}

/* Idle entry, measured CPU, interrupts off. */
static bool tdt_event_check(struct wultfw_device *dev, u64 *ltime)
{
	u64 deadline, slack = READ_ONCE(tdt_slack);

	if (rdmsrl_safe(MSR_IA32_TSC_DEADLINE, &deadline))
		return false;
	if (deadline + slack < *ltime || deadline > *ltime + slack)
		return false;	/* another timer's deadline, or none */
	*ltime = deadline;
	return true;
}

static void tdt_cancel(struct wultfw_device *dev)
{
	hrtimer_cancel(&tdt_timer);
}

static struct wultfw_device tdt_dev = {
	.name = "tdt",
	.owner = THIS_MODULE,
	.tunit = WULTFW_TUNIT_TSC,
	.resolution_ns = 1,
	.ldist_min_ns = 1000,
	.ldist_max_ns = NSEC_PER_SEC,
	.prepare = tdt_prepare,
	.release = tdt_release,
	.read_time = tdt_read_time,
	.arm = tdt_arm,
	.cancel = tdt_cancel,
	.event_check = tdt_event_check,
};

static int __init tdt_init(void)
{
	hrtimer_init(&tdt_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	tdt_timer.function = tdt_fire;
	return wultfw_register_device(&tdt_dev);
}

static void __exit tdt_exit(void)
{
	wultfw_unregister_device(&tdt_dev);
	hrtimer_cancel(&tdt_timer);
	tdt_release(&tdt_dev);
}

module_init(tdt_init);
module_exit(tdt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wultfw 'tdt' device: LAPIC TSC-deadline timer delayed event");
