/* SPDX-License-Identifier: MIT */
/*
 * A user-space model of the I210 register file, for tests only. It
 * implements what lib/i210 relies on, as the datasheet describes it:
 *   - SYSTIM advances with the model clock (injected: every register access
 *     costs access_ns, udelay() adds its time; or real CLOCK_MONOTONIC time);
 *     reading SYSTIMR latches SYSTIML/SYSTIMH, which return the latched
 *     value until the next latch (so code that forgets the latch sees
 *     stale time);
 *   - TT0: when EN_TT0 is set and SYSTIM >= TRGTTIM0, TSICR.TT0 is set and
 *     EN_TT0 cleared; ICR.TIME_SYNC is set when TSICR & TSIM becomes non-0; the
 *     interrupt line is up while ICR & IMS != 0; ICR is cleared on read,
 *     TSICR is write-one-to-clear;
 *   - RR2DCDELAY holds the largest injected DMA delay (16 ns units), read
 *     clears it;
 *   - reset: GIO_MASTER_ENABLE drops master_ns after GIO_MASTER_DISABLE,
 *     CTRL.RST self-clears and PF_RST_DONE, EEC.AUTO_RD, EEMNGCTL.CFG_DONE
 *     come up after their delays (negative: never); FWSM gets fwsm_reset.
 * Assumptions beyond the datasheet facts are marked "model:" in the code.
 */
#ifndef I210_MODEL_H
#define I210_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "i210/i210.h"

#define I210_MODEL_LOG	1024

struct i210_model {
	uint32_t regs[I210_REGS_SPAN / 4];
	/* Clock. */
	bool realtime;		/* SYSTIM follows CLOCK_MONOTONIC */
	uint64_t now_ns;	/* SYSTIM now (injected mode) */
	uint64_t rt_base;	/* realtime: CLOCK_MONOTONIC at SYSTIM = 0 */
	uint64_t access_ns;	/* cost of one register access */
	uint64_t latched_ns;
	/* Reset behaviour (ns after the triggering write; < 0 never). */
	int64_t master_ns, rst_ns, autord_ns, cfgdone_ns;
	uint32_t fwsm_reset;
	bool dead;		/* every read returns all ones */
	int64_t mdis_at, rst_at;	/* model time of the writes, -1 none */
	/* Injected DMA delays. */
	uint32_t rr2dc_max;
	/* Statistics and an access log for order checks. */
	unsigned int resets, irqs_raised;
	bool irq_line;
	bool ts_pending;	/* TSICR & TSIM was non-zero */
	unsigned int nlog;
	struct { bool write; uint32_t reg, val; } log[I210_MODEL_LOG];
};

/* A freshly powered NIC with sane reset delays and SYSTIM at start_ns. */
void i210_model_init(struct i210_model *m, uint64_t start_ns);
/* io callbacks for wfw_i210_init() with priv = the model. */
extern const struct wfw_i210_io i210_model_io;
struct wfw_i210_io i210_model_io_for(struct i210_model *m);

uint64_t i210_model_now(struct i210_model *m);
void i210_model_advance(struct i210_model *m, uint64_t ns);
/* A DMA read that took @ns (RR2DCDELAY keeps the max, 16 ns units). */
void i210_model_dma(struct i210_model *m, uint64_t ns);
/* Position of the first log entry matching, or -1. */
int i210_model_find(const struct i210_model *m, bool write, uint32_t reg,
		    int from);

#endif
