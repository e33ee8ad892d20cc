// SPDX-License-Identifier: GPL-2.0
/*
 * wultfw_ndl: the NIC side of the ndl method on an Intel I210/I211 that
 * igb keeps driving. It reads RR2DCDELAY (the longest DMA read round trip,
 * 16 ns units, cleared on read) on request and turns off TX descriptor
 * write-back coalescing (TXDCTL(q).WTHRESH = 0) of one queue while
 * attached. User space (plugins/ndl) sends the launch-time packets.
 *
 * Why mapping BAR0 of a device igb owns is sound here:
 *   - pci_iomap() only creates a second uncached kernel mapping of the
 *     same MMIO range (the memory type matches igb's own pci_iomap, so no
 *     PAT conflict); it claims no resource and changes no device state.
 *   - RR2DCDELAY: igb never reads it, so our read-to-clear takes nothing
 *     from igb.
 *   - TXDCTL(q): igb writes it only when it (re)configures the ring (open,
 *     reset, ETF offload changes), under RTNL or in its reset task. Our
 *     read-modify-write runs under RTNL too (attach, detach, the netdev
 *     notifier), so it cannot interleave with igb's open/close/setup_tc
 *     paths; a reset-task rewrite is detected at the next RTD read (WTHRESH
 *     non-zero again: flagged and cleared again). Restoring touches only
 *     the WTHRESH field.
 *   - Lifetime: a netdev notifier detaches (restore, unmap, drop the
 *     device reference) when the interface goes down or is unregistered,
 *     i.e. before igb disables the device or unmaps its BAR.
 * The device is found with the interface's parent device, and must be an
 * I210/I211 (8086:1533..157C) whose driver is "igb".
 *
 * Register code: lib/i210/i210.c, linked in as in wultfw_i210.ko.
 * Not run on real hardware yet (no I210 on the development machines).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/io.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include "uapi/wultfw/wultfw_ndl.h"
#include "i210.h"

struct ndl_nic {
	struct net_device *netdev;	/* tracked, not held: see the notifier */
	struct pci_dev *pdev;		/* held */
	void __iomem *regs;
	struct wfw_i210 hw;
	unsigned int queue;
	u32 txdctl_saved;
	u64 rereset;			/* WTHRESH found non-zero again */
};

/*
 * One attachment at a time, owned by the one open file. Lock order:
 * rtnl_lock, then ndl_lock. RTD reads take ndl_lock only.
 */
static DEFINE_MUTEX(ndl_lock);
static struct ndl_nic *ndl_nic;
static bool ndl_open;

static const u16 ndl_ids[] = { 0x1533, 0x1536, 0x1537, 0x1538, 0x1539,
			       0x157b, 0x157c };

static u32 ndl_mmio_read(void *priv, u32 reg)
{
	return readl(((struct ndl_nic *)priv)->regs + reg);
}

static void ndl_mmio_write(void *priv, u32 reg, u32 val)
{
	writel(val, ((struct ndl_nic *)priv)->regs + reg);
}

static void ndl_no_delay(void *priv, unsigned int us)
{
}

static bool ndl_is_i210(struct pci_dev *pdev)
{
	unsigned int i;

	if (pdev->vendor != PCI_VENDOR_ID_INTEL)
		return false;
	for (i = 0; i < ARRAY_SIZE(ndl_ids); i++)
		if (pdev->device == ndl_ids[i])
			return true;
	return false;
}

/* Restore WTHRESH and let go of the NIC. Caller holds rtnl and ndl_lock. */
static void ndl_detach_locked(const char *why)
{
	struct ndl_nic *nic = ndl_nic;

	if (!nic)
		return;
	ndl_nic = NULL;
	wfw_i210_txq_wthresh_restore(&nic->hw, nic->queue, nic->txdctl_saved);
	pr_info("%s: TXDCTL(%u).WTHRESH restored to %u (%s)%s\n",
		netdev_name(nic->netdev), nic->queue,
		(nic->txdctl_saved & I210_TXDCTL_WTHRESH_MASK) >>
		I210_TXDCTL_WTHRESH_SHIFT, why,
		nic->rereset ? "; igb had reset it during the run" : "");
	pci_iounmap(nic->pdev, nic->regs);
	pci_dev_put(nic->pdev);
	kfree(nic);
}

static void ndl_detach(const char *why)
{
	rtnl_lock();
	mutex_lock(&ndl_lock);
	ndl_detach_locked(why);
	mutex_unlock(&ndl_lock);
	rtnl_unlock();
}

#define WHY(...) snprintf(a->why, sizeof(a->why), __VA_ARGS__)

/* Find the netdev named in @a (caller holds rtnl). */
static struct net_device *ndl_find(struct wultfw_ndl_attach *a, int *err)
{
	struct net *net = current->nsproxy->net_ns;
	struct net_device *dev;
	struct pci_dev *pdev;

	if (a->ifname[0]) {
		dev = __dev_get_by_name(net, a->ifname);
		if (!dev) {
			WHY("no network interface '%s'", a->ifname);
			*err = -ENODEV;
		}
		return dev;
	}
	for_each_netdev(net, dev) {
		if (!dev->dev.parent || !dev_is_pci(dev->dev.parent))
			continue;
		pdev = to_pci_dev(dev->dev.parent);
		if (!strcmp(pci_name(pdev), a->pci))
			return dev;
	}
	WHY("no network interface on PCI device %s", a->pci);
	*err = -ENODEV;
	return NULL;
}

/* The request itself: size, reserved fields, strings, queue. */
static int ndl_attach_args(struct wultfw_ndl_attach *a)
{
	if (a->size != sizeof(*a) ||
	    a->reserved[0] || a->reserved[1] || a->reserved[2] || a->reserved[3])
		return -EINVAL;
	if (strnlen(a->ifname, sizeof(a->ifname)) == sizeof(a->ifname) ||
	    strnlen(a->pci, sizeof(a->pci)) == sizeof(a->pci)) {
		WHY("ifname or pci is not NUL-terminated");
		return -EINVAL;
	}
	if (!a->ifname[0] == !a->pci[0]) {
		WHY("give exactly one of ifname and pci");
		return -EINVAL;
	}
	if (a->queue >= I210_NR_TXQ) {
		WHY("queue %u out of range (the I210 has %u TX queues)",
		    a->queue, I210_NR_TXQ);
		return -EINVAL;
	}
	return 0;
}

/* An I210/I211 under igb, up, using the queue (caller holds rtnl). */
static struct net_device *ndl_pick(struct wultfw_ndl_attach *a, int *err)
{
	struct net_device *dev = ndl_find(a, err);
	struct pci_dev *pdev;
	const char *drv;

	if (!dev)
		return NULL;
	*err = -ENODEV;
	if (!dev->dev.parent || !dev_is_pci(dev->dev.parent)) {
		WHY("%s is not a PCI device", netdev_name(dev));
		return NULL;
	}
	pdev = to_pci_dev(dev->dev.parent);
	if (!ndl_is_i210(pdev)) {
		WHY("%s (%s) is not an I210/I211 (it is %04x:%04x)",
		    netdev_name(dev), pci_name(pdev), pdev->vendor, pdev->device);
		return NULL;
	}
	drv = pdev->driver ? pdev->driver->name : NULL;
	if (!drv || strcmp(drv, "igb")) {
		WHY("%s is driven by %s, not igb", pci_name(pdev),
		    drv ? drv : "no driver");
		return NULL;
	}
	*err = -EINVAL;
	if (pdev->device == 0x1539 && a->queue >= 2) {
		WHY("queue %u out of range (the I211 has 2 TX queues)", a->queue);
		return NULL;
	}
	if (!netif_running(dev)) {
		WHY("interface %s is down", netdev_name(dev));
		*err = -ENETDOWN;
		return NULL;
	}
	if (a->queue >= dev->real_num_tx_queues) {
		WHY("%s uses %u TX queues; queue %u is not in use",
		    netdev_name(dev), dev->real_num_tx_queues, a->queue);
		return NULL;
	}
	*err = 0;
	return dev;
}

/* BAR0 mapped, WTHRESH of the queue cleared (saved): the NIC, or NULL. */
static struct ndl_nic *ndl_nic_new(struct wultfw_ndl_attach *a,
				   struct net_device *dev, int *err)
{
	struct pci_dev *pdev = to_pci_dev(dev->dev.parent);
	struct ndl_nic *nic = kzalloc(sizeof(*nic), GFP_KERNEL);

	*err = -ENOMEM;
	if (!nic)
		return NULL;
	*err = -EIO;
	nic->regs = pci_iomap(pdev, 0, I210_REGS_SPAN);
	if (!nic->regs) {
		WHY("cannot map BAR0 of %s", pci_name(pdev));
		kfree(nic);
		return NULL;
	}
	nic->pdev = pci_dev_get(pdev);
	nic->netdev = dev;
	nic->queue = a->queue;
	wfw_i210_init(&nic->hw, &(struct wfw_i210_io){
		.read32 = ndl_mmio_read, .write32 = ndl_mmio_write,
		.delay_us = ndl_no_delay, .priv = nic });
	nic->txdctl_saved = wfw_i210_txq_wthresh_clear(&nic->hw, a->queue);
	if (nic->txdctl_saved == 0xffffffff) {
		WHY("%s does not answer (registers read all ones)",
		    pci_name(pdev));
		pci_iounmap(pdev, nic->regs);
		pci_dev_put(pdev);
		kfree(nic);
		return NULL;
	}
	*err = 0;
	return nic;
}

static long ndl_attach(struct wultfw_ndl_attach *a)
{
	struct net_device *dev;
	struct ndl_nic *nic;
	int err = ndl_attach_args(a);

	if (err)
		return err;
	rtnl_lock();
	mutex_lock(&ndl_lock);
	if (ndl_nic) {
		WHY("already attached to %s", netdev_name(ndl_nic->netdev));
		err = -EBUSY;
		goto out;
	}
	dev = ndl_pick(a, &err);
	nic = dev ? ndl_nic_new(a, dev, &err) : NULL;
	if (!nic)
		goto out;
	wfw_i210_rtd_raw(&nic->hw);	/* start from a cleared maximum */
	ndl_nic = nic;
	strscpy(a->ifname_out, netdev_name(dev), sizeof(a->ifname_out));
	strscpy(a->pci_out, pci_name(nic->pdev), sizeof(a->pci_out));
	a->device = nic->pdev->device;
	a->txdctl_saved = nic->txdctl_saved;
	pr_info("%s (%s): attached, TXDCTL(%u) 0x%08x, WTHRESH cleared\n",
		netdev_name(dev), pci_name(nic->pdev), a->queue, nic->txdctl_saved);
out:
	mutex_unlock(&ndl_lock);
	rtnl_unlock();
	return err;
}

static long ndl_rtd(struct wultfw_ndl_rtd *r)
{
	struct ndl_nic *nic;
	long err = 0;

	if (r->size != sizeof(*r))
		return -EINVAL;
	mutex_lock(&ndl_lock);
	nic = ndl_nic;
	if (!nic) {
		err = -ENOTCONN;	/* not attached, or detached by a notifier */
		goto out;
	}
	r->flags = 0;
	r->reserved = 0;
	r->raw = wfw_i210_rtd_raw(&nic->hw);
	if (r->raw == 0xffffffff) {
		err = -EIO;
		goto out;
	}
	r->rtd_ns = wfw_i210_rtd_raw_to_ns(r->raw);
	if (wfw_i210_txq_wthresh(&nic->hw, nic->queue)) {
		wfw_i210_txq_wthresh_clear(&nic->hw, nic->queue);
		r->flags |= WULTFW_NDL_RTD_WTHRESH_RESET;
		nic->rereset++;
	}
out:
	mutex_unlock(&ndl_lock);
	return err;
}

static long ndl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	long err;

	switch (cmd) {
	case WULTFW_NDL_IOC_ATTACH: {
		struct wultfw_ndl_attach *a = kzalloc(sizeof(*a), GFP_KERNEL);

		if (!a)
			return -ENOMEM;
		if (copy_from_user(a, uarg, sizeof(*a))) {
			kfree(a);
			return -EFAULT;
		}
		memset(a->why, 0, sizeof(a->why));
		err = ndl_attach(a);
		if (copy_to_user(uarg, a, sizeof(*a)))
			err = -EFAULT;
		kfree(a);
		return err;
	}
	case WULTFW_NDL_IOC_RTD: {
		struct wultfw_ndl_rtd r;

		if (copy_from_user(&r, uarg, sizeof(r)))
			return -EFAULT;
		err = ndl_rtd(&r);
		if (!err && copy_to_user(uarg, &r, sizeof(r)))
			err = -EFAULT;
		return err;
	}
	case WULTFW_NDL_IOC_DETACH:
		if (arg)
			return -EINVAL;
		mutex_lock(&ndl_lock);
		err = ndl_nic ? 0 : -ENOTCONN;
		mutex_unlock(&ndl_lock);
		if (!err)
			ndl_detach("detach");
		return err;
	default:
		return -ENOTTY;
	}
}

static int ndl_fopen(struct inode *inode, struct file *file)
{
	int err = 0;

	if (!capable(CAP_NET_ADMIN) || !capable(CAP_SYS_RAWIO))
		return -EPERM;
	mutex_lock(&ndl_lock);
	if (ndl_open)
		err = -EBUSY;
	else
		ndl_open = true;
	mutex_unlock(&ndl_lock);
	return err;
}

static int ndl_release(struct inode *inode, struct file *file)
{
	ndl_detach("file closed");
	mutex_lock(&ndl_lock);
	ndl_open = false;
	mutex_unlock(&ndl_lock);
	return 0;
}

/* The interface goes down or away: igb is about to stop or unmap it. */
static int ndl_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event != NETDEV_GOING_DOWN && event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	mutex_lock(&ndl_lock);	/* rtnl is held by the caller */
	if (ndl_nic && ndl_nic->netdev == dev)
		ndl_detach_locked(event == NETDEV_UNREGISTER ?
				  "interface unregistered" : "interface down");
	mutex_unlock(&ndl_lock);
	return NOTIFY_DONE;
}

static struct notifier_block ndl_nb = {
	.notifier_call = ndl_netdev_event,
};

static const struct file_operations ndl_fops = {
	.owner = THIS_MODULE,
	.open = ndl_fopen,
	.release = ndl_release,
	.unlocked_ioctl = ndl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice ndl_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = WULTFW_NDL_DEVNAME,
	.fops = &ndl_fops,
	.mode = 0600,
};

static int __init ndl_init(void)
{
	int err = register_netdevice_notifier(&ndl_nb);

	if (err)
		return err;
	err = misc_register(&ndl_misc);
	if (err)
		unregister_netdevice_notifier(&ndl_nb);
	return err;
}

static void __exit ndl_exit(void)
{
	misc_deregister(&ndl_misc);
	/*
	 * An open file pins the module, so this finds nothing attached;
	 * kept so no path can leave WTHRESH cleared.
	 */
	ndl_detach("module unload");
	unregister_netdevice_notifier(&ndl_nb);
}

module_init(ndl_init);
module_exit(ndl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wultfw ndl: I210 DMA read round-trip delay (RR2DCDELAY) under igb");
