// SPDX-License-Identifier: GPL-2.0
/*
 * wultfw framework: measures how long the measured CPU takes to wake up for a
 * delayed event. A device module (hrt, tdt, ...) registers a struct
 * wultfw_device; user space picks one through /dev/wultfw, and an armer
 * thread bound to the measured CPU arms it again and again:
 *
 *   armer: arm(LTime = now + ldist), sleep -> CPU goes idle
 *   cpu_idle entry (irqs off): counters, TBI   (last entry before LTime)
 *   device interrupt path:     TIntr, then wake the armer (IntrOverhead)
 *   cpu_idle exit:             TAI, then counters (AIOverhead)
 *                              (first exit at/after LTime)
 *   armer wakes up: check TBI < LTime < TAI, LTime < TIntr, publish record
 *
 * Launch distances come from a small PRNG seeded from the configuration,
 * so a seed reproduces the sequence. The cost of our own timestamping is
 * measured (read_time() at start, the probes and the event per datapoint)
 * and published in every record; user space subtracts it (README.md).
 *
 * The probes, the device interrupt and the armer all run on the measured CPU,
 * so the datapoint in progress needs no lock: the armer reads it with local
 * interrupts disabled.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <asm/tsc.h>
#include <trace/events/power.h>

#include "uapi/wultfw/wultfw_ioctl.h"
#include "wultfw/ldist.h"
#include "wultfw_ctrs.h"
#include "wultfw_dev.h"

#define WULTFW_RING_LEN		1024	/* records, power of two */
#define WULTFW_READ_BATCH	16	/* records copied per lock hold */

/* The datapoint in progress; only touched on the measured CPU. */
struct wultfw_dp {
	bool armed;		/* probes record only while armed */
	bool fired;		/* the device interrupt came */
	bool changed;		/* device says the event moved (last entry) */
	int event_cpu;
	u32 req_cstate;
	u64 ltime, tbi, tai, tintr;
	u64 ai_cyc, intr_cyc;	/* AIOverhead / IntrOverhead in TSC cycles */
	u64 tai_pre_ns, tintr_pre_ns;
	u64 dev_data[WULTFW_DEV_DATA];
	u64 ctr_bi[WULTFW_NR_CTRS];
	u64 ctr_ai[WULTFW_NR_CTRS];
};

static struct wultfw {
	struct mutex lock;		/* everything but the ring and dp */
	struct list_head devices;
	bool open;

	/* Configuration (valid while dev != NULL). */
	struct wultfw_device *dev;
	unsigned int cpu;
	u64 ldist_from, ldist_to;
	u64 seed;
	struct wultfw_ctrs ctrs;

	/* Run. */
	u64 rng;			/* launch distance PRNG state */
	u64 read_cost_ns;		/* one read_time(), measured at start */
	struct task_struct *armer;
	bool running;			/* readers see EOF once false */
	struct wultfw_dp dp;
	wait_queue_head_t event_wq;	/* armer waits for the event */

	/* Ring of published records: armer produces, one reader consumes. */
	spinlock_t ring_lock;
	struct wultfw_record *ring;
	struct wultfw_record *bounce;	/* reader's copy-out buffer */
	struct mutex read_lock;
	unsigned long head, tail;	/* free running */
	wait_queue_head_t read_wq;
	wait_queue_head_t space_wq;
	struct wultfw_stats stats;
} wfw;

/* ---- device registry ---- */

static struct wultfw_device *wultfw_find_device(const char *name)
{
	struct wultfw_device *dev;

	list_for_each_entry(dev, &wfw.devices, node)
		if (!strcmp(dev->name, name))
			return dev;
	return NULL;
}

int wultfw_register_device(struct wultfw_device *dev)
{
	int err = 0;

	int i;

	if (!dev->name || !dev->prepare || !dev->read_time || !dev->arm ||
	    !dev->cancel || !dev->resolution_ns || !dev->ldist_min_ns ||
	    dev->ldist_min_ns > dev->ldist_max_ns ||
	    strlen(dev->name) >= WULTFW_NAME_LEN)
		return -EINVAL;
	for (i = 0; i < WULTFW_DEV_DATA; i++)
		if (dev->dev_data_names[i] &&
		    strlen(dev->dev_data_names[i]) >= WULTFW_NAME_LEN)
			return -EINVAL;
	mutex_lock(&wfw.lock);
	if (wultfw_find_device(dev->name))
		err = -EEXIST;
	else
		list_add_tail(&dev->node, &wfw.devices);
	mutex_unlock(&wfw.lock);
	if (!err)
		pr_info("device '%s' registered\n", dev->name);
	return err;
}
EXPORT_SYMBOL_GPL(wultfw_register_device);

void wultfw_unregister_device(struct wultfw_device *dev)
{
	/* A configured device holds a module reference, so it is not ours. */
	mutex_lock(&wfw.lock);
	WARN_ON(wfw.dev == dev);
	list_del(&dev->node);
	mutex_unlock(&wfw.lock);
}
EXPORT_SYMBOL_GPL(wultfw_unregister_device);

/* ---- probes: measured CPU, interrupts disabled ---- */

static u64 wultfw_cyc_to_ns(u64 cyc)
{
	return tsc_khz ? div_u64(cyc * 1000000ULL, tsc_khz) : 0;
}

static void wultfw_idle_probe(void *data, unsigned int state,
			      unsigned int cpu_id)
{
	struct wultfw_dp *dp = &wfw.dp;
	struct wultfw_device *dev = wfw.dev;
	u64 now, t0;
	int i;

	if (cpu_id != wfw.cpu || !READ_ONCE(dp->armed) ||
	    smp_processor_id() != wfw.cpu)
		return;

	if (state != PWR_EVENT_EXIT) {
		if (dp->fired)
			return;	/* the event came while the CPU was busy */
		dp->changed = dev->event_check &&
			      !dev->event_check(dev, &dp->ltime);
		wultfw_ctrs_read(&wfw.ctrs, dp->ctr_bi);
		dp->req_cstate = state;
		dp->tai = 0;
		dp->tbi = dev->read_time(dev);	/* last: closest to idle */
		return;
	}

	/* TAI first: only the checks above and here precede it. */
	if (!dp->tbi || dp->tai)
		return;
	now = dev->read_time(dev);
	t0 = rdtsc_ordered();
	if (!dp->fired && now < dp->ltime) {
		/* Woken early by something else; the next entry counts. */
		dp->tbi = 0;
		return;
	}
	dp->tai = now;
	dp->tai_pre_ns = wfw.read_cost_ns / 2;
	dp->tintr_pre_ns = wfw.read_cost_ns / 2;
	for (i = 0; i < WULTFW_DEV_DATA; i++)
		dp->dev_data[i] = 0;
	if (dev->read_overhead)
		dev->read_overhead(dev, &dp->tai_pre_ns, &dp->tintr_pre_ns,
				   dp->dev_data);
	wultfw_ctrs_read(&wfw.ctrs, dp->ctr_ai);
	/* With interrupts off in idle, the handler waited for all this. */
	dp->ai_cyc = rdtsc_ordered() - t0;
}

void wultfw_event(struct wultfw_device *dev, u64 tintr)
{
	struct wultfw_dp *dp = &wfw.dp;
	u64 t0 = rdtsc_ordered();

	if (dev != READ_ONCE(wfw.dev) || !READ_ONCE(dp->armed) ||
	    READ_ONCE(dp->fired))
		return;
	dp->tintr = tintr;
	dp->event_cpu = smp_processor_id();
	WRITE_ONCE(dp->fired, true);
	wake_up(&wfw.event_wq);
	/* With interrupts on in idle (POLL), the idle exit waited for this. */
	dp->intr_cyc = rdtsc_ordered() - t0;
}
EXPORT_SYMBOL_GPL(wultfw_event);

/* ---- armer thread ---- */

/* The generator user space and hrt.bpf.c use: include/wultfw/ldist.h. */
static u64 wultfw_pick_ldist(void)
{
	unsigned long long rng = wfw.rng;
	u64 ldist = wultfw_ldist_pick(&rng, wfw.ldist_from, wfw.ldist_to,
				      wfw.dev->resolution_ns);

	wfw.rng = rng;
	return ldist;
}

/*
 * The cost of one read_time() on the measured CPU: the best of a few
 * rounds of back-to-back reads with interrupts off. Half of it is taken
 * as the part before the time is sampled (README.md, "Overheads").
 */
static u64 wultfw_measure_read_cost(struct wultfw_device *dev)
{
	u64 best = U64_MAX, t0, t1;
	unsigned long flags;
	int i, j;

	if (!tsc_khz)
		return 0;
	for (i = 0; i < 32; i++) {
		local_irq_save(flags);
		t0 = rdtsc_ordered();
		for (j = 0; j < 8; j++)
			dev->read_time(dev);
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		best = min(best, t1 - t0);
	}
	return wultfw_cyc_to_ns(best) / 8;
}

static bool wultfw_ring_full(void)
{
	return READ_ONCE(wfw.head) - READ_ONCE(wfw.tail) >= WULTFW_RING_LEN;
}

/* Check one finished datapoint; publish it or count why it was dropped. */
static void wultfw_finish(const struct wultfw_dp *dp, u64 ldist, u64 arm_seq)
{
	struct wultfw_stats *st = &wfw.stats;
	struct wultfw_record *rec;
	u64 *reason = NULL;

	if (dp->event_cpu != wfw.cpu)
		reason = &st->discard_cpu;
	else if (!dp->tbi || !dp->tai)
		reason = &st->discard_noidle;
	else if (!(dp->tbi < dp->ltime && dp->ltime < dp->tai &&
		   dp->ltime < dp->tintr))
		reason = &st->discard_order;
	else if (dp->changed)
		reason = &st->discard_changed;

	spin_lock(&wfw.ring_lock);
	if (reason) {
		(*reason)++;
		st->discarded++;
		spin_unlock(&wfw.ring_lock);
		return;
	}
	rec = &wfw.ring[wfw.head % WULTFW_RING_LEN];
	rec->seq = st->published;
	rec->ldist_ns = ldist;
	rec->ltime = dp->ltime;
	rec->tbi = dp->tbi;
	rec->tai = dp->tai;
	rec->tintr = dp->tintr;
	rec->discarded = st->discarded;
	rec->arm_seq = arm_seq;
	rec->tai_pre_ns = dp->tai_pre_ns;
	rec->tintr_pre_ns = dp->tintr_pre_ns;
	rec->ai_overhead_ns = wultfw_cyc_to_ns(dp->ai_cyc);
	rec->intr_overhead_ns = wultfw_cyc_to_ns(dp->intr_cyc);
	memcpy(rec->dev_data, dp->dev_data, sizeof(rec->dev_data));
	memcpy(rec->ctr_bi, dp->ctr_bi, sizeof(rec->ctr_bi));
	memcpy(rec->ctr_ai, dp->ctr_ai, sizeof(rec->ctr_ai));
	rec->ctr_present = wfw.ctrs.present;
	rec->tunit = wfw.dev->tunit;
	rec->cpu = wfw.cpu;
	rec->req_cstate = dp->req_cstate;
	st->published++;
	WRITE_ONCE(wfw.head, wfw.head + 1);
	spin_unlock(&wfw.ring_lock);
	wake_up_interruptible(&wfw.read_wq);
}

static int wultfw_armer(void *unused)
{
	struct wultfw_device *dev = wfw.dev;
	struct wultfw_dp *dp = &wfw.dp;
	struct wultfw_dp copy;
	unsigned long timeout;
	u64 ldist = 0, ltime, arm_seq = 0;
	bool retry = false;
	int err;

	wfw.read_cost_ns = wultfw_measure_read_cost(dev);
	spin_lock(&wfw.ring_lock);
	wfw.stats.read_cost_ns = wfw.read_cost_ns;
	spin_unlock(&wfw.ring_lock);
	while (!kthread_should_stop()) {
		/* Unplugging the CPU moves us elsewhere: nothing valid left. */
		if (raw_smp_processor_id() != wfw.cpu) {
			pr_err("CPU %u went offline; run stopped\n", wfw.cpu);
			break;
		}
		if (wultfw_ring_full()) {
			wfw.stats.ring_waits++;
			wait_event_interruptible(wfw.space_wq,
						 !wultfw_ring_full() ||
						 kthread_should_stop());
			continue;
		}

		/* A retried arm keeps its ldist: the sequence stays the seed's. */
		if (!retry)
			ldist = wultfw_pick_ldist();
		retry = false;
		local_irq_disable();
		memset(dp, 0, sizeof(*dp));
		dp->event_cpu = -1;
		err = dev->arm(dev, ldist, &ltime);
		if (!err) {
			dp->ltime = ltime;
			WRITE_ONCE(dp->armed, true);
		}
		local_irq_enable();
		if (err == -EAGAIN) {
			dev->cancel(dev);
			wfw.stats.rearm++;
			retry = true;
			continue;
		}
		if (err) {
			pr_err("device '%s' failed to arm: %d; run stopped\n",
			       dev->name, err);
			break;
		}
		wfw.stats.armed++;
		arm_seq++;

		timeout = nsecs_to_jiffies(ldist) + HZ;
		wait_event_timeout(wfw.event_wq, READ_ONCE(dp->fired) ||
				   kthread_should_stop(), timeout);
		if (!READ_ONCE(dp->fired)) {
			dev->cancel(dev);
			WRITE_ONCE(dp->armed, false);
			if (!kthread_should_stop())
				wfw.stats.timeouts++;
			continue;
		}
		local_irq_disable();
		WRITE_ONCE(dp->armed, false);
		copy = *dp;
		local_irq_enable();
		wultfw_finish(&copy, ldist, arm_seq - 1);
	}

	/* Nothing may fire after the run; then wait for kthread_stop(). */
	dev->cancel(dev);
	WRITE_ONCE(dp->armed, false);
	WRITE_ONCE(wfw.running, false);
	wake_up_interruptible(&wfw.read_wq);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* ---- run control (wfw.lock held) ---- */

static int wultfw_start(void)
{
	struct task_struct *t;
	int err;

	if (!wfw.dev)
		return -EINVAL;
	if (wfw.armer)
		return -EBUSY;
	if (!cpu_online(wfw.cpu))
		return -ENODEV;

	spin_lock(&wfw.ring_lock);
	wfw.head = 0;
	wfw.tail = 0;
	memset(&wfw.stats, 0, sizeof(wfw.stats));
	spin_unlock(&wfw.ring_lock);
	memset(&wfw.dp, 0, sizeof(wfw.dp));
	wfw.rng = wfw.seed;
	wfw.read_cost_ns = 0;

	err = register_trace_cpu_idle(wultfw_idle_probe, NULL);
	if (err)
		return err;
	t = kthread_create_on_cpu(wultfw_armer, NULL, wfw.cpu,
				  "wultfw_armer/%u");
	if (IS_ERR(t)) {
		unregister_trace_cpu_idle(wultfw_idle_probe, NULL);
		tracepoint_synchronize_unregister();
		return PTR_ERR(t);
	}
	get_task_struct(t);
	sched_set_fifo(t);
	wfw.armer = t;
	WRITE_ONCE(wfw.running, true);
	wake_up_process(t);
	pr_info("run started: device '%s', CPU %u, ldist %llu-%llu ns, seed %llu\n",
		wfw.dev->name, wfw.cpu, wfw.ldist_from, wfw.ldist_to, wfw.seed);
	return 0;
}

static void wultfw_stop(void)
{
	if (!wfw.armer)
		return;
	kthread_stop(wfw.armer);	/* the armer cancels its event */
	put_task_struct(wfw.armer);
	wfw.armer = NULL;
	unregister_trace_cpu_idle(wultfw_idle_probe, NULL);
	tracepoint_synchronize_unregister();
	WRITE_ONCE(wfw.running, false);
	wake_up_interruptible(&wfw.read_wq);
	pr_info("run stopped: %llu published, %llu discarded\n",
		wfw.stats.published, wfw.stats.discarded);
}

static void wultfw_unconfigure(void)
{
	struct wultfw_device *dev = wfw.dev;

	if (!dev)
		return;
	WRITE_ONCE(wfw.dev, NULL);
	if (dev->release)
		dev->release(dev);
	module_put(dev->owner);
}

/* Validate @cfg and make it current; on failure say why in cfg->why. */
static int wultfw_configure(struct wultfw_config *cfg)
{
	struct wultfw_device *dev;
	int err, i;

	if (wfw.armer) {
		snprintf(cfg->why, sizeof(cfg->why), "a run is active: stop it first");
		return -EBUSY;
	}
	if (cfg->reserved) {
		snprintf(cfg->why, sizeof(cfg->why), "reserved field is not 0");
		return -EINVAL;
	}
	if (strnlen(cfg->device, sizeof(cfg->device)) == sizeof(cfg->device)) {
		snprintf(cfg->why, sizeof(cfg->why), "device name is not NUL-terminated");
		return -EINVAL;
	}
	if (cfg->cpu >= nr_cpu_ids) {
		snprintf(cfg->why, sizeof(cfg->why), "CPU %u does not exist (nr_cpu_ids %u)",
			 cfg->cpu, nr_cpu_ids);
		return -EINVAL;
	}
	if (!cpu_online(cfg->cpu)) {
		snprintf(cfg->why, sizeof(cfg->why), "CPU %u is offline", cfg->cpu);
		return -ENODEV;
	}
	dev = wultfw_find_device(cfg->device);
	if (!dev || !try_module_get(dev->owner)) {
		snprintf(cfg->why, sizeof(cfg->why),
			 "unknown device '%s': load its module (wultfw_%s.ko)",
			 cfg->device, cfg->device);
		return -ENOENT;
	}
	if (!cfg->ldist_from_ns || cfg->ldist_from_ns > cfg->ldist_to_ns) {
		snprintf(cfg->why, sizeof(cfg->why),
			 "bad ldist range %llu-%llu ns: need 0 < from <= to",
			 cfg->ldist_from_ns, cfg->ldist_to_ns);
		err = -EINVAL;
		goto put;
	}
	if (cfg->ldist_from_ns < dev->ldist_min_ns ||
	    cfg->ldist_to_ns > dev->ldist_max_ns) {
		snprintf(cfg->why, sizeof(cfg->why),
			 "ldist %llu-%llu ns outside device '%s' range %llu-%llu ns",
			 cfg->ldist_from_ns, cfg->ldist_to_ns, dev->name,
			 dev->ldist_min_ns, dev->ldist_max_ns);
		err = -ERANGE;
		goto put;
	}

	wultfw_unconfigure();
	err = dev->prepare(dev, cfg->cpu, cfg->why, sizeof(cfg->why));
	if (err)
		goto put;

	wfw.cpu = cfg->cpu;
	wfw.ldist_from = cfg->ldist_from_ns;
	wfw.ldist_to = cfg->ldist_to_ns;
	wfw.seed = cfg->seed;
	wultfw_ctrs_probe(&wfw.ctrs, cfg->cpu);
	WRITE_ONCE(wfw.dev, dev);

	cfg->resolution_ns = dev->resolution_ns;
	cfg->ldist_min_ns = dev->ldist_min_ns;
	cfg->ldist_max_ns = dev->ldist_max_ns;
	cfg->tunit = dev->tunit;
	cfg->ctr_present = wfw.ctrs.present;
	memset(cfg->dev_data_names, 0, sizeof(cfg->dev_data_names));
	for (i = 0; i < WULTFW_DEV_DATA; i++)
		if (dev->dev_data_names[i])
			strscpy(cfg->dev_data_names[i], dev->dev_data_names[i],
				sizeof(cfg->dev_data_names[i]));
	return 0;
put:
	module_put(dev->owner);
	return err;
}

/* ---- character device ---- */

static int wultfw_open(struct inode *inode, struct file *file)
{
	int err = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&wfw.lock);
	if (wfw.open) {
		err = -EBUSY;
		goto out;
	}
	wfw.ring = kvcalloc(WULTFW_RING_LEN, sizeof(*wfw.ring), GFP_KERNEL);
	wfw.bounce = kcalloc(WULTFW_READ_BATCH, sizeof(*wfw.bounce), GFP_KERNEL);
	if (!wfw.ring || !wfw.bounce) {
		kvfree(wfw.ring);
		kfree(wfw.bounce);
		wfw.ring = NULL;
		wfw.bounce = NULL;
		err = -ENOMEM;
		goto out;
	}
	wfw.head = 0;
	wfw.tail = 0;
	wfw.open = true;
out:
	mutex_unlock(&wfw.lock);
	return err ? err : nonseekable_open(inode, file);
}

/* The reader went away: stop the run and forget the configuration. */
static int wultfw_release(struct inode *inode, struct file *file)
{
	mutex_lock(&wfw.lock);
	wultfw_stop();
	wultfw_unconfigure();
	kvfree(wfw.ring);
	kfree(wfw.bounce);
	wfw.ring = NULL;
	wfw.bounce = NULL;
	wfw.open = false;
	mutex_unlock(&wfw.lock);
	return 0;
}

static ssize_t wultfw_read(struct file *file, char __user *buf, size_t len,
			   loff_t *off)
{
	size_t want = len / sizeof(struct wultfw_record);
	size_t done = 0, n, i;
	ssize_t ret;

	if (!want)
		return -EINVAL;
	if (mutex_lock_interruptible(&wfw.read_lock))
		return -ERESTARTSYS;
	for (;;) {
		spin_lock(&wfw.ring_lock);
		n = min_t(size_t, wfw.head - wfw.tail, WULTFW_READ_BATCH);
		n = min(n, want - done);
		for (i = 0; i < n; i++)
			wfw.bounce[i] = wfw.ring[(wfw.tail + i) % WULTFW_RING_LEN];
		spin_unlock(&wfw.ring_lock);

		if (n) {
			if (copy_to_user(buf + done * sizeof(*wfw.bounce),
					 wfw.bounce, n * sizeof(*wfw.bounce))) {
				ret = done ? 0 : -EFAULT;
				break;
			}
			spin_lock(&wfw.ring_lock);
			WRITE_ONCE(wfw.tail, wfw.tail + n);
			spin_unlock(&wfw.ring_lock);
			wake_up_interruptible(&wfw.space_wq);
			done += n;
			if (done < want)
				continue;
		}
		if (done) {
			ret = 0;
			break;
		}
		if (!READ_ONCE(wfw.running)) {
			ret = 0;	/* end of file: no run, nothing left */
			break;
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (wait_event_interruptible(wfw.read_wq,
					     READ_ONCE(wfw.head) != READ_ONCE(wfw.tail) ||
					     !READ_ONCE(wfw.running))) {
			ret = -ERESTARTSYS;
			break;
		}
	}
	mutex_unlock(&wfw.read_lock);
	return done ? done * sizeof(struct wultfw_record) : ret;
}

static __poll_t wultfw_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &wfw.read_wq, wait);
	if (READ_ONCE(wfw.head) != READ_ONCE(wfw.tail))
		return EPOLLIN | EPOLLRDNORM;
	if (!READ_ONCE(wfw.running))
		return EPOLLIN | EPOLLHUP;	/* read() returns 0 */
	return 0;
}

static long wultfw_ioctl_config(void __user *arg)
{
	struct wultfw_config *cfg;
	long err;

	cfg = memdup_user(arg, sizeof(*cfg));
	if (IS_ERR(cfg))
		return PTR_ERR(cfg);
	if (cfg->size != sizeof(*cfg)) {
		kfree(cfg);
		return -EINVAL;
	}
	memset(cfg->why, 0, sizeof(cfg->why));
	mutex_lock(&wfw.lock);
	err = wultfw_configure(cfg);
	mutex_unlock(&wfw.lock);
	if (err)
		pr_info_ratelimited("config refused: %s\n", cfg->why);
	if (copy_to_user(arg, cfg, sizeof(*cfg)) && !err)
		err = -EFAULT;
	kfree(cfg);
	return err;
}

static long wultfw_ioctl_stats(void __user *arg)
{
	struct wultfw_stats st;
	u32 size;

	if (get_user(size, (u32 __user *)arg))
		return -EFAULT;
	if (size != sizeof(st))
		return -EINVAL;
	spin_lock(&wfw.ring_lock);
	st = wfw.stats;
	spin_unlock(&wfw.ring_lock);
	st.size = sizeof(st);
	st.running = READ_ONCE(wfw.running);
	return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
}

static long wultfw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	long err;

	switch (cmd) {
	case WULTFW_IOC_CONFIG:
		return wultfw_ioctl_config(uarg);
	case WULTFW_IOC_START:
		mutex_lock(&wfw.lock);
		err = wultfw_start();
		mutex_unlock(&wfw.lock);
		return err;
	case WULTFW_IOC_STOP:
		mutex_lock(&wfw.lock);
		wultfw_stop();
		mutex_unlock(&wfw.lock);
		return 0;
	case WULTFW_IOC_GET_STATS:
		return wultfw_ioctl_stats(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations wultfw_fops = {
	.owner = THIS_MODULE,
	.open = wultfw_open,
	.release = wultfw_release,
	.read = wultfw_read,
	.poll = wultfw_poll,
	.unlocked_ioctl = wultfw_ioctl,
	.llseek = no_llseek,
};

static struct miscdevice wultfw_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = WULTFW_DEVNAME,
	.fops = &wultfw_fops,
	.mode = 0600,
};

static int __init wultfw_init(void)
{
	mutex_init(&wfw.lock);
	mutex_init(&wfw.read_lock);
	spin_lock_init(&wfw.ring_lock);
	INIT_LIST_HEAD(&wfw.devices);
	init_waitqueue_head(&wfw.event_wq);
	init_waitqueue_head(&wfw.read_wq);
	init_waitqueue_head(&wfw.space_wq);
	return misc_register(&wultfw_misc);
}

/* Cannot run with the file open (fops.owner) or a device loaded (symbols). */
static void __exit wultfw_exit(void)
{
	misc_deregister(&wultfw_misc);
}

module_init(wultfw_init);
module_exit(wultfw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wultfw: wake latency framework, delayed-event devices register here");
