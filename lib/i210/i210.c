// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/*
 * I210 register programming shared by the kernel device and the tests; see
 * i210.h. No libc and no kernel API here: only the io callbacks.
 */
#include "i210.h"

static inline uint32_t rd(struct wfw_i210 *nic, uint32_t reg)
{
	return nic->io.read32(nic->io.priv, reg);
}

static inline void wr(struct wfw_i210 *nic, uint32_t reg, uint32_t val)
{
	nic->io.write32(nic->io.priv, reg, val);
}

void wfw_i210_init(struct wfw_i210 *nic, const struct wfw_i210_io *io)
{
	unsigned int i;

	nic->io = *io;
	nic->failed_step = WFW_I210_STEP_OK;
	nic->failed_reg = 0;
	nic->failed_val = 0;
	for (i = 0; i < I210_NR_TXQ; i++)
		nic->txdctl_saved[i] = 0;
	nic->txdctl_valid = false;
	nic->spurious = 0;
}

const char *wfw_i210_step_str(enum wfw_i210_step step)
{
	switch (step) {
	case WFW_I210_STEP_OK:
		return "ok";
	case WFW_I210_STEP_DEAD:
		return "registers read 0xffffffff: the NIC does not answer (powered down, removed, or BAR0 not enabled)";
	case WFW_I210_STEP_MASTER:
		return "STATUS.GIO_MASTER_ENABLE stayed set after CTRL.GIO_MASTER_DISABLE: DMA did not stop";
	case WFW_I210_STEP_RST:
		return "software reset did not finish (CTRL.RST set or STATUS.PF_RST_DONE clear)";
	case WFW_I210_STEP_AUTO_RD:
		return "EEC.AUTO_RD never set: NVM auto-read did not finish";
	case WFW_I210_STEP_CFG_DONE:
		return "EEMNGCTL.CFG_DONE never set: configuration cycle did not finish";
	case WFW_I210_STEP_FW_ERROR:
		return "firmware reports an error in FWSM (external, PCIe configuration or PHY/SerDes error indication)";
	}
	return "unknown step";
}

static int fail(struct wfw_i210 *nic, enum wfw_i210_step step, uint32_t reg,
		uint32_t val, int err)
{
	nic->failed_step = step;
	nic->failed_reg = reg;
	nic->failed_val = val;
	return err;
}

/*
 * Poll @reg until (value & mask) == want, for at most @timeout_us. A read
 * of all ones means the device is gone, not that the bits are set.
 */
static int poll_reg(struct wfw_i210 *nic, uint32_t reg, uint32_t mask,
		    uint32_t want, unsigned int timeout_us,
		    enum wfw_i210_step step)
{
	unsigned int waited = 0;
	uint32_t val;

	for (;;) {
		val = rd(nic, reg);
		if (val == 0xffffffffu)
			return fail(nic, WFW_I210_STEP_DEAD, reg, val, -ENODEV);
		if ((val & mask) == want)
			return 0;
		if (waited >= timeout_us)
			return fail(nic, step, reg, val, -ETIMEDOUT);
		nic->io.delay_us(nic->io.priv, WFW_I210_POLL_US);
		waited += WFW_I210_POLL_US;
	}
}

int wfw_i210_reset(struct wfw_i210 *nic)
{
	uint32_t ctrl, fwsm;
	int err;

	nic->failed_step = WFW_I210_STEP_OK;
	ctrl = rd(nic, I210_CTRL);
	if (ctrl == 0xffffffffu)
		return fail(nic, WFW_I210_STEP_DEAD, I210_CTRL, ctrl, -ENODEV);

	/* Nothing may interrupt us while the NIC is reset. */
	wr(nic, I210_IMC, 0xffffffffu);
	wr(nic, I210_EIMC, 0xffffffffu);

	/* Stop DMA first, so the reset never cuts a PCIe transaction. */
	wr(nic, I210_CTRL, ctrl | I210_CTRL_GIO_MASTER_DISABLE);
	err = poll_reg(nic, I210_STATUS, I210_STATUS_GIO_MASTER_ENABLE, 0,
		       WFW_I210_MASTER_TIMEOUT_US, WFW_I210_STEP_MASTER);
	if (err)
		return err;

	wr(nic, I210_CTRL, ctrl | I210_CTRL_GIO_MASTER_DISABLE | I210_CTRL_RST);
	/* The device does not answer reliably right after the reset bit. */
	nic->io.delay_us(nic->io.priv, WFW_I210_RST_SETTLE_US);
	err = poll_reg(nic, I210_CTRL, I210_CTRL_RST, 0,
		       WFW_I210_RST_TIMEOUT_US, WFW_I210_STEP_RST);
	if (!err)
		err = poll_reg(nic, I210_STATUS, I210_STATUS_PF_RST_DONE,
			       I210_STATUS_PF_RST_DONE, WFW_I210_RST_TIMEOUT_US,
			       WFW_I210_STEP_RST);
	if (!err)
		err = poll_reg(nic, I210_EEC, I210_EEC_AUTO_RD,
			       I210_EEC_AUTO_RD, WFW_I210_RST_TIMEOUT_US,
			       WFW_I210_STEP_AUTO_RD);
	if (!err)
		err = poll_reg(nic, I210_EEMNGCTL, I210_EEMNGCTL_CFG_DONE,
			       I210_EEMNGCTL_CFG_DONE, WFW_I210_RST_TIMEOUT_US,
			       WFW_I210_STEP_CFG_DONE);
	if (err)
		return err;

	fwsm = rd(nic, I210_FWSM);
	if (fwsm & I210_FWSM_ERRORS)
		return fail(nic, WFW_I210_STEP_FW_ERROR, I210_FWSM, fwsm, -EIO);

	/* The reset masked everything; make sure nothing is pending. */
	wfw_i210_quiesce(nic);
	return 0;
}

void wfw_i210_quiesce(struct wfw_i210 *nic)
{
	wr(nic, I210_IMC, 0xffffffffu);
	wr(nic, I210_EIMC, 0xffffffffu);
	wr(nic, I210_TSIM, 0);
	wfw_i210_disarm(nic);
	(void)rd(nic, I210_ICR);			/* read clears */
	wr(nic, I210_TSICR, rd(nic, I210_TSICR));	/* write 1 clears */
}

void wfw_i210_tt0_setup(struct wfw_i210 *nic)
{
	wfw_i210_quiesce(nic);
	wr(nic, I210_TSIM, I210_TSICR_TT0);
	wr(nic, I210_IMS, I210_ICR_TIME_SYNC);
}

void wfw_i210_warmup(struct wfw_i210 *nic)
{
	(void)rd(nic, I210_STATUS);
}

void wfw_i210_latch(struct wfw_i210 *nic)
{
	(void)rd(nic, I210_SYSTIMR);
}

uint64_t wfw_i210_read_latched(struct wfw_i210 *nic)
{
	uint64_t ns = rd(nic, I210_SYSTIML);
	uint64_t s = rd(nic, I210_SYSTIMH);

	return s * 1000000000ull + ns;
}

uint64_t wfw_i210_time(struct wfw_i210 *nic)
{
	wfw_i210_latch(nic);
	return wfw_i210_read_latched(nic);
}

void wfw_i210_arm_at(struct wfw_i210 *nic, uint64_t when_ns)
{
	uint32_t s = (uint32_t)(when_ns / 1000000000ull);
	uint32_t ns = (uint32_t)(when_ns - (uint64_t)s * 1000000000ull);

	wr(nic, I210_TRGTTIML0, ns);
	wr(nic, I210_TRGTTIMH0, s);
	/* Posted writes: make sure the target is in before enabling it. */
	(void)rd(nic, I210_STATUS);
	wr(nic, I210_TSAUXC, rd(nic, I210_TSAUXC) | I210_TSAUXC_EN_TT0);
}

int wfw_i210_arm(struct wfw_i210 *nic, uint64_t ldist_ns, uint64_t *ltime)
{
	uint64_t when = wfw_i210_time(nic) + ldist_ns;

	wfw_i210_arm_at(nic, when);
	/*
	 * A target already in the past never fires. If the NIC time passed
	 * it while we armed, the event may or may not have happened: drop it.
	 */
	if (wfw_i210_time(nic) >= when) {
		wfw_i210_disarm(nic);
		return -EAGAIN;
	}
	*ltime = when;
	return 0;
}

void wfw_i210_disarm(struct wfw_i210 *nic)
{
	wr(nic, I210_TSAUXC, rd(nic, I210_TSAUXC) & ~I210_TSAUXC_EN_TT0);
	(void)rd(nic, I210_STATUS);	/* flush */
}

enum wfw_i210_irq wfw_i210_irq(struct wfw_i210 *nic)
{
	uint32_t icr = rd(nic, I210_ICR);	/* read clears */
	uint32_t tsicr;

	if (!icr || icr == 0xffffffffu)
		return WFW_I210_IRQ_NONE;
	if (!(icr & I210_ICR_TIME_SYNC)) {
		nic->spurious++;
		return WFW_I210_IRQ_SPURIOUS;
	}
	tsicr = rd(nic, I210_TSICR);
	wr(nic, I210_TSICR, tsicr);		/* acknowledge what we saw */
	if (!(tsicr & I210_TSICR_TT0)) {
		nic->spurious++;
		return WFW_I210_IRQ_SPURIOUS;
	}
	return WFW_I210_IRQ_TT0;
}

uint64_t wfw_i210_rtd_ns(struct wfw_i210 *nic)
{
	return wfw_i210_rtd_raw_to_ns(wfw_i210_rtd_raw(nic));
}

uint32_t wfw_i210_rtd_raw(struct wfw_i210 *nic)
{
	return rd(nic, I210_RR2DCDELAY);
}

uint32_t wfw_i210_txq_wthresh_clear(struct wfw_i210 *nic, unsigned int q)
{
	uint32_t v = rd(nic, I210_TXDCTL(q));

	if (v & I210_TXDCTL_WTHRESH_MASK)
		wr(nic, I210_TXDCTL(q), v & ~I210_TXDCTL_WTHRESH_MASK);
	return v;
}

uint32_t wfw_i210_txq_wthresh(struct wfw_i210 *nic, unsigned int q)
{
	return (rd(nic, I210_TXDCTL(q)) & I210_TXDCTL_WTHRESH_MASK) >>
	       I210_TXDCTL_WTHRESH_SHIFT;
}

void wfw_i210_txq_wthresh_restore(struct wfw_i210 *nic, unsigned int q,
				  uint32_t saved)
{
	uint32_t v = rd(nic, I210_TXDCTL(q));
	uint32_t want = (v & ~I210_TXDCTL_WTHRESH_MASK) |
			(saved & I210_TXDCTL_WTHRESH_MASK);

	if (want != v)
		wr(nic, I210_TXDCTL(q), want);
}

void wfw_i210_wthresh_clear(struct wfw_i210 *nic)
{
	unsigned int q;

	for (q = 0; q < I210_NR_TXQ; q++) {
		uint32_t v = rd(nic, I210_TXDCTL(q));

		if (!nic->txdctl_valid)
			nic->txdctl_saved[q] = v;
		wr(nic, I210_TXDCTL(q), v & ~I210_TXDCTL_WTHRESH_MASK);
	}
	nic->txdctl_valid = true;
}

void wfw_i210_wthresh_restore(struct wfw_i210 *nic)
{
	unsigned int q;

	if (!nic->txdctl_valid)
		return;
	/* Only WTHRESH is ours; keep whatever else changed meanwhile. */
	for (q = 0; q < I210_NR_TXQ; q++) {
		uint32_t v = rd(nic, I210_TXDCTL(q)) & ~I210_TXDCTL_WTHRESH_MASK;

		wr(nic, I210_TXDCTL(q), v | (nic->txdctl_saved[q] &
					      I210_TXDCTL_WTHRESH_MASK));
	}
	nic->txdctl_valid = false;
}
