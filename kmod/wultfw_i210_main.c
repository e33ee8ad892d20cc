// SPDX-License-Identifier: GPL-2.0
/*
 * wultfw 'i210' device: the target-time interrupt (TT0) of an Intel
 * I210/I211 NIC. The NIC's own clock (SYSTIM, ns) is the time base: LTime
 * is the TT0 target, TBI/TAI are NIC time read in the idle path, TIntr is
 * NIC time latched first thing in the interrupt handler. Because the event
 * comes from a PCIe device, the CPU cannot anticipate it the way it can a
 * local timer.
 *
 * A PCI driver without an ID table: nothing binds to it by itself. User
 * space (plugins/i210) unbinds the NIC from igb and binds it here through
 * driver_override, and back afterwards. The NIC is reset on probe. The
 * register programming is lib/i210/i210.c, shared with the unit tests that
 * drive it against a model; Kbuild links it in as an object of its own
 * (kmod/modules.list).
 *
 * Not run on real hardware yet (no I210 on the development machines).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <asm/tsc.h>

#include "uapi/wultfw/wultfw_ioctl.h"
#include "wultfw_dev.h"
#include "i210.h"

#define I210_DRV_NAME	"wultfw_i210"

struct i210_nic {
	struct pci_dev *pdev;
	void __iomem *regs;
	struct wfw_i210 hw;
	int irq;
	bool present;		/* cleared first on remove */
	unsigned int cpu;
	/* Read overheads of read_time() in TSC cycles (measured CPU only). */
	u64 warmup_sum, latch_sum, warmup_max, latch_max, nreads;
	u64 warmup_last, latch_last;	/* of the latest read_time() */
};

static DEFINE_MUTEX(i210_lock);		/* probe/remove vs prepare/release */
static struct i210_nic *i210_nic;	/* the one NIC we drive */
static struct wultfw_device i210_dev;

static u32 i210_mmio_read(void *priv, u32 reg)
{
	return readl(((struct i210_nic *)priv)->regs + reg);
}

static void i210_mmio_write(void *priv, u32 reg, u32 val)
{
	writel(val, ((struct i210_nic *)priv)->regs + reg);
}

/* Only the reset polls; it runs in process context. */
static void i210_sleep_us(void *priv, unsigned int us)
{
	usleep_range(us, us + us / 2);
}

/* Spinning variant for the contexts that must not sleep. */
static void i210_spin_us(void *priv, unsigned int us)
{
	udelay(us);
}

/*
 * NIC time for TBI/TAI. The first read after idle may wait for the PCIe
 * link to leave L1 (WarmupDelay); the SYSTIMR read is the moment the time
 * is taken (LatchDelay is its cost). Both are measured with the TSC.
 */
static u64 i210_read_time(struct wultfw_device *dev)
{
	struct i210_nic *nic = READ_ONCE(i210_nic);
	u64 t0, t1, t2, ns;

	if (!nic || !READ_ONCE(nic->present))
		return 0;
	t0 = rdtsc_ordered();
	wfw_i210_warmup(&nic->hw);
	t1 = rdtsc_ordered();
	wfw_i210_latch(&nic->hw);
	t2 = rdtsc_ordered();
	ns = wfw_i210_read_latched(&nic->hw);
	nic->warmup_last = t1 - t0;
	nic->latch_last = t2 - t1;
	nic->warmup_sum += t1 - t0;
	nic->latch_sum += t2 - t1;
	nic->warmup_max = max(nic->warmup_max, t1 - t0);
	nic->latch_max = max(nic->latch_max, t2 - t1);
	nic->nreads++;
	return ns;
}

/*
 * Right after the TAI read: publish its WarmupDelay and LatchDelay. The NIC
 * samples SYSTIM when the SYSTIMR read reaches it, taken as half way through
 * the read, so WakeLatency includes WarmupDelay + LatchDelay / 2 of our own
 * making; the interrupt handler latches first thing, so IntrLatency
 * includes about LatchDelay / 2 (the last one measured stands in for it).
 */
static void i210_read_overhead(struct wultfw_device *dev, u64 *tai_pre_ns,
			       u64 *tintr_pre_ns, u64 *data)
{
	struct i210_nic *nic = READ_ONCE(i210_nic);
	u64 warmup, latch;

	if (!nic || !READ_ONCE(nic->present) || !tsc_khz)
		return;
	warmup = div_u64(nic->warmup_last * 1000000ULL, tsc_khz);
	latch = div_u64(nic->latch_last * 1000000ULL, tsc_khz);
	data[0] = warmup;
	data[1] = latch;
	*tai_pre_ns = warmup + latch / 2;
	*tintr_pre_ns = latch / 2;
}

static irqreturn_t i210_irq(int irq, void *data)
{
	struct i210_nic *nic = data;
	u64 tintr;

	/* Latch first: the closest we get to the interrupt's arrival. */
	wfw_i210_latch(&nic->hw);
	switch (wfw_i210_irq(&nic->hw)) {
	case WFW_I210_IRQ_TT0:
		tintr = wfw_i210_read_latched(&nic->hw);
		wultfw_event(&i210_dev, tintr);
		return IRQ_HANDLED;
	case WFW_I210_IRQ_SPURIOUS:
		return IRQ_HANDLED;	/* ours, acknowledged, counted */
	default:
		return IRQ_NONE;
	}
}

static int i210_prepare(struct wultfw_device *dev, unsigned int cpu,
			char *why, size_t whylen)
{
	struct i210_nic *nic;
	int err;

	mutex_lock(&i210_lock);
	nic = i210_nic;
	if (!nic || !nic->present) {
		snprintf(why, whylen,
			 "no I210/I211 bound to %s: bind one through /sys/bus/pci/devices/ADDR/driver_override",
			 I210_DRV_NAME);
		err = -ENODEV;
		goto out;
	}
	if (!tsc_khz) {
		snprintf(why, whylen, "TSC frequency unknown (tsc_khz is 0)");
		err = -EOPNOTSUPP;
		goto out;
	}
	err = irq_set_affinity(nic->irq, cpumask_of(cpu));
	if (err) {
		snprintf(why, whylen, "cannot route IRQ %d of %s to CPU %u: error %d",
			 nic->irq, pci_name(nic->pdev), cpu, err);
		goto out;
	}
	nic->cpu = cpu;
	nic->warmup_sum = nic->latch_sum = 0;
	nic->warmup_max = nic->latch_max = nic->nreads = 0;
	nic->hw.spurious = 0;
	wfw_i210_tt0_setup(&nic->hw);
	err = 0;
out:
	mutex_unlock(&i210_lock);
	return err;
}

static void i210_release(struct wultfw_device *dev)
{
	struct i210_nic *nic;
	u64 n;

	mutex_lock(&i210_lock);
	nic = i210_nic;
	if (nic && nic->present) {
		wfw_i210_quiesce(&nic->hw);
		n = max_t(u64, nic->nreads, 1);
		pr_info("%s: %llu time reads: WarmupDelay avg %llu max %llu ns, LatchDelay avg %llu max %llu ns; %llu spurious interrupts\n",
			pci_name(nic->pdev), nic->nreads,
			div64_u64(nic->warmup_sum * 1000000, n * tsc_khz),
			div64_u64(nic->warmup_max * 1000000, tsc_khz),
			div64_u64(nic->latch_sum * 1000000, n * tsc_khz),
			div64_u64(nic->latch_max * 1000000, tsc_khz),
			nic->hw.spurious);
	}
	mutex_unlock(&i210_lock);
}

/* Measured CPU, interrupts off: no sleeping, no mutex. */
static int i210_arm(struct wultfw_device *dev, u64 ldist_ns, u64 *ltime)
{
	struct i210_nic *nic = READ_ONCE(i210_nic);

	if (!nic || !READ_ONCE(nic->present))
		return -ENODEV;	/* unbound mid-run: the run stops */
	return wfw_i210_arm(&nic->hw, ldist_ns, ltime);
}

static void i210_cancel(struct wultfw_device *dev)
{
	struct i210_nic *nic = READ_ONCE(i210_nic);

	if (nic && READ_ONCE(nic->present))
		wfw_i210_disarm(&nic->hw);
}

static struct wultfw_device i210_dev = {
	.name = "i210",
	.owner = THIS_MODULE,
	.tunit = WULTFW_TUNIT_NS,	/* NIC SYSTIM ns, not CLOCK_MONOTONIC */
	.resolution_ns = 8,		/* SYSTIM counts 8 ns steps */
	.ldist_min_ns = 10000,		/* arming takes a few MMIO reads */
	.ldist_max_ns = NSEC_PER_SEC,
	.dev_data_names = { "WarmupDelay", "LatchDelay" },
	.prepare = i210_prepare,
	.release = i210_release,
	.read_time = i210_read_time,
	.arm = i210_arm,
	.cancel = i210_cancel,
	.read_overhead = i210_read_overhead,
};

/* An Intel device, and no other NIC driven by us: 0 or -errno. */
static int i210_probe_check(struct pci_dev *pdev)
{
	int err = 0;

	if (pdev->vendor != I210_PCI_VENDOR) {
		dev_err(&pdev->dev, "not an Intel device (vendor %#x)\n",
			pdev->vendor);
		return -ENODEV;
	}
	mutex_lock(&i210_lock);
	if (i210_nic) {
		dev_err(&pdev->dev, "%s already drives %s: one NIC at a time\n",
			I210_DRV_NAME, pci_name(i210_nic->pdev));
		err = -EBUSY;
	}
	mutex_unlock(&i210_lock);
	return err;
}

/* Enabled, BAR0 mapped, bus master, reset: 0 or -errno (devm undoes). */
static int i210_probe_hw(struct pci_dev *pdev, struct i210_nic *nic)
{
	struct wfw_i210_io io = {
		.read32 = i210_mmio_read,
		.write32 = i210_mmio_write,
		.delay_us = i210_sleep_us,
		.priv = nic,
	};
	int err;

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	err = pcim_iomap_regions(pdev, BIT(0), I210_DRV_NAME);
	if (err) {
		dev_err(&pdev->dev, "cannot map BAR0: %d\n", err);
		return err;
	}
	nic->regs = pcim_iomap_table(pdev)[0];
	pci_set_master(pdev);
	wfw_i210_init(&nic->hw, &io);
	err = wfw_i210_reset(&nic->hw);
	if (err) {
		dev_err(&pdev->dev, "reset failed: %s (register %#x = %#x)\n",
			wfw_i210_step_str(nic->hw.failed_step),
			nic->hw.failed_reg, nic->hw.failed_val);
		return err;
	}
	/* From here on only non-sleeping callers use the io callbacks. */
	nic->hw.io.delay_us = i210_spin_us;
	return 0;
}

/* One vector; MSI-X would route TIME_SYNC through EICR.OTHER. */
static int i210_probe_irq(struct pci_dev *pdev, struct i210_nic *nic)
{
	int err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_LEGACY);

	if (err < 0) {
		dev_err(&pdev->dev, "no MSI or legacy interrupt: %d\n", err);
		return err;
	}
	nic->irq = pci_irq_vector(pdev, 0);
	/* Keep irqbalance from moving it away from the measured CPU. */
	err = request_irq(nic->irq, i210_irq,
			  IRQF_NOBALANCING | (pdev->msi_enabled ? 0 : IRQF_SHARED),
			  I210_DRV_NAME, nic);
	if (err)
		pci_free_irq_vectors(pdev);
	return err;
}

static int i210_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct i210_nic *nic;
	int err = i210_probe_check(pdev);

	if (err)
		return err;
	nic = devm_kzalloc(&pdev->dev, sizeof(*nic), GFP_KERNEL);
	if (!nic)
		return -ENOMEM;
	nic->pdev = pdev;
	err = i210_probe_hw(pdev, nic);
	if (!err)
		err = i210_probe_irq(pdev, nic);
	if (err)
		return err;
	nic->present = true;
	pci_set_drvdata(pdev, nic);
	mutex_lock(&i210_lock);
	WRITE_ONCE(i210_nic, nic);
	mutex_unlock(&i210_lock);
	dev_info(&pdev->dev, "%04x:%04x reset done, IRQ %d (%s)\n",
		 pdev->vendor, pdev->device, nic->irq,
		 pdev->msi_enabled ? "MSI" : "legacy");
	return 0;
}

static void i210_remove(struct pci_dev *pdev)
{
	struct i210_nic *nic = pci_get_drvdata(pdev);

	mutex_lock(&i210_lock);
	WRITE_ONCE(nic->present, false);
	WRITE_ONCE(i210_nic, NULL);
	mutex_unlock(&i210_lock);
	/* The idle-path readers run with interrupts off: wait them out. */
	synchronize_rcu();
	wfw_i210_quiesce(&nic->hw);
	free_irq(nic->irq, nic);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
}

static struct pci_driver i210_driver = {
	.name = I210_DRV_NAME,
	.id_table = NULL,	/* bind through driver_override only */
	.probe = i210_probe,
	.remove = i210_remove,
};

static int __init i210_init(void)
{
	int err = wultfw_register_device(&i210_dev);

	if (err)
		return err;
	err = pci_register_driver(&i210_driver);
	if (err)
		wultfw_unregister_device(&i210_dev);
	return err;
}

static void __exit i210_exit(void)
{
	pci_unregister_driver(&i210_driver);
	wultfw_unregister_device(&i210_dev);
}

module_init(i210_init);
module_exit(i210_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wultfw 'i210' device: Intel I210/I211 target-time interrupt delayed event");
