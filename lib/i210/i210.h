/* SPDX-License-Identifier: (GPL-2.0 OR MIT) */
/*
 * Register programming of an Intel I210/I211 for wultfw, written once and
 * used twice: by the kernel device (kmod/wultfw_i210_main.c, through MMIO on
 * BAR0) and by the unit tests (through a simulated register file). All
 * register access goes through struct wfw_i210_io, so this code has no
 * kernel or libc dependency: plain C, fixed-width types, errors as
 * negative errno values.
 *
 * Sequence of a measurement:
 *   wfw_i210_reset()        master disable, CTRL.RST, wait auto-read and
 *                           config done, check FWSM error bits
 *   wfw_i210_tt0_setup()    TT0 -> TSICR -> ICR.TIME_SYNC -> the vector
 *   wfw_i210_arm()          TRGTTIM0 = NIC time + ldist, EN_TT0
 *   wfw_i210_irq()          in the handler: was it our TT0?
 *   wfw_i210_quiesce()      everything masked and disarmed
 */
#ifndef WFW_I210_H
#define WFW_I210_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#endif

#include "i210_regs.h"

/* How the code reaches the registers (MMIO, or a model in tests). */
struct wfw_i210_io {
	uint32_t (*read32)(void *priv, uint32_t reg);
	void (*write32)(void *priv, uint32_t reg, uint32_t val);
	/* Busy-wait (kernel: udelay) or advance the model's clock. */
	void (*delay_us)(void *priv, unsigned int us);
	void *priv;
};

/* Which step of the reset failed (wfw_i210_reset()). */
enum wfw_i210_step {
	WFW_I210_STEP_OK = 0,
	WFW_I210_STEP_DEAD,		/* registers read all ones */
	WFW_I210_STEP_MASTER,		/* GIO_MASTER_ENABLE stayed set */
	WFW_I210_STEP_RST,		/* CTRL.RST / PF_RST_DONE not done */
	WFW_I210_STEP_AUTO_RD,		/* EEC.AUTO_RD never set */
	WFW_I210_STEP_CFG_DONE,		/* EEMNGCTL.CFG_DONE never set */
	WFW_I210_STEP_FW_ERROR,		/* FWSM error indication bits set */
};

/* Polling limits of the reset (microseconds). */
#define WFW_I210_MASTER_TIMEOUT_US	80000	/* 800 polls of 100 us */
#define WFW_I210_RST_SETTLE_US		1000	/* before the first poll */
#define WFW_I210_RST_TIMEOUT_US		100000
#define WFW_I210_POLL_US		100

/* What the interrupt handler found. */
enum wfw_i210_irq {
	WFW_I210_IRQ_NONE = 0,		/* no cause: not ours (shared line) */
	WFW_I210_IRQ_TT0,		/* target time 0 reached */
	WFW_I210_IRQ_SPURIOUS,		/* a cause, but not TT0 */
};

struct wfw_i210 {
	struct wfw_i210_io io;
	/* Set by wfw_i210_reset() on failure. */
	enum wfw_i210_step failed_step;
	uint32_t failed_reg;		/* register that showed the failure */
	uint32_t failed_val;		/* and its value */
	/* TXDCTL values before wfw_i210_wthresh_clear(). */
	uint32_t txdctl_saved[I210_NR_TXQ];
	bool txdctl_valid;
	uint64_t spurious;		/* interrupts with no TT0 cause */
};

void wfw_i210_init(struct wfw_i210 *nic, const struct wfw_i210_io *io);

/*
 * Software reset per the datasheet. 0, -ENODEV (all ones), -ETIMEDOUT
 * (a bit never changed) or -EIO (firmware error bits); nic->failed_step,
 * failed_reg and failed_val say what exactly.
 */
int wfw_i210_reset(struct wfw_i210 *nic);
const char *wfw_i210_step_str(enum wfw_i210_step step);

/* Mask every interrupt, disarm TT0, clear pending causes. */
void wfw_i210_quiesce(struct wfw_i210 *nic);
/* Route TT0 to the interrupt: TSIM.TT0 and IMS.TIME_SYNC, nothing else. */
void wfw_i210_tt0_setup(struct wfw_i210 *nic);

/*
 * NIC time in ns. Reading SYSTIMR latches SYSTIML/SYSTIMH, so the pair
 * is consistent across a seconds boundary. Split in two so the kernel
 * can time the latch read alone (LatchDelay).
 */
void wfw_i210_latch(struct wfw_i210 *nic);
uint64_t wfw_i210_read_latched(struct wfw_i210 *nic);
uint64_t wfw_i210_time(struct wfw_i210 *nic);
/* A harmless read that wakes the PCIe link up (WarmupDelay). */
void wfw_i210_warmup(struct wfw_i210 *nic);

/* Program TT0 for NIC time @when_ns and enable it. */
void wfw_i210_arm_at(struct wfw_i210 *nic, uint64_t when_ns);
/*
 * Arm TT0 @ldist_ns after the current NIC time; *ltime is the target.
 * -EAGAIN when the NIC time had already passed the target once armed
 * (the event is lost: disarmed; the caller retries).
 */
int wfw_i210_arm(struct wfw_i210 *nic, uint64_t ldist_ns, uint64_t *ltime);
void wfw_i210_disarm(struct wfw_i210 *nic);

/* Interrupt handler part: read and acknowledge the causes. */
enum wfw_i210_irq wfw_i210_irq(struct wfw_i210 *nic);

/* Longest DMA read round trip since the last call, in ns (clears it). */
uint64_t wfw_i210_rtd_ns(struct wfw_i210 *nic);

/* ndl: RR2DCDELAY as read (16 ns units; the read clears it), and in ns. */
uint32_t wfw_i210_rtd_raw(struct wfw_i210 *nic);
static inline uint64_t wfw_i210_rtd_raw_to_ns(uint32_t raw)
{
	return (uint64_t)raw * I210_RR2DCDELAY_UNIT_NS;
}

/*
 * ndl, one queue of a NIC another driver (igb) owns: clear WTHRESH of
 * TXDCTL(q) and return TXDCTL as it was; the current WTHRESH; put the
 * WTHRESH of @saved back, keeping every other field as it is now.
 */
uint32_t wfw_i210_txq_wthresh_clear(struct wfw_i210 *nic, unsigned int q);
uint32_t wfw_i210_txq_wthresh(struct wfw_i210 *nic, unsigned int q);
void wfw_i210_txq_wthresh_restore(struct wfw_i210 *nic, unsigned int q,
				  uint32_t saved);

/* Save TXDCTL of every queue and clear WTHRESH; restore puts them back. */
void wfw_i210_wthresh_clear(struct wfw_i210 *nic);
void wfw_i210_wthresh_restore(struct wfw_i210 *nic);

#endif /* WFW_I210_H */
