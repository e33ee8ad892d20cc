// SPDX-License-Identifier: MIT
/* I210 register file model for the tests; see i210_model.h. */
#include <string.h>
#include <time.h>

#include "i210_model.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t i210_model_now(struct i210_model *m)
{
	return m->realtime ? mono_ns() - m->rt_base : m->now_ns;
}

static uint32_t *reg(struct i210_model *m, uint32_t off)
{
	return &m->regs[(off % I210_REGS_SPAN) / 4];
}

static void log_access(struct i210_model *m, bool write, uint32_t r, uint32_t v)
{
	if (m->nlog < I210_MODEL_LOG) {
		m->log[m->nlog].write = write;
		m->log[m->nlog].reg = r;
		m->log[m->nlog].val = v;
		m->nlog++;
	}
}

static bool due(struct i210_model *m, int64_t at, int64_t delay)
{
	return at >= 0 && delay >= 0 &&
	       (int64_t)i210_model_now(m) >= at + delay;
}

/* Reset completion: model: the register file returns to power-on values. */
static void finish_reset(struct i210_model *m)
{
	uint64_t now = i210_model_now(m);

	memset(m->regs, 0, sizeof(m->regs));
	m->latched_ns = 0;
	m->rr2dc_max = 0;
	/* model: SYSTIM keeps running through the reset. */
	(void)now;
	m->resets++;
}

/* Bring the derived state (reset progress, TT0, ICR, line) up to now. */
static void update(struct i210_model *m)
{
	uint64_t now = i210_model_now(m);
	uint64_t target;

	if (m->mdis_at >= 0 && due(m, m->mdis_at, m->master_ns))
		*reg(m, I210_STATUS) &= ~I210_STATUS_GIO_MASTER_ENABLE;

	if (m->rst_at >= 0) {
		if (*reg(m, I210_CTRL) & I210_CTRL_RST) {
			if (due(m, m->rst_at, m->rst_ns)) {
				finish_reset(m);
				*reg(m, I210_STATUS) |= I210_STATUS_PF_RST_DONE;
				*reg(m, I210_FWSM) = m->fwsm_reset;
				m->mdis_at = -1;
			}
		} else {
			if (due(m, m->rst_at, m->autord_ns))
				*reg(m, I210_EEC) |= I210_EEC_AUTO_RD;
			if (due(m, m->rst_at, m->cfgdone_ns))
				*reg(m, I210_EEMNGCTL) |= I210_EEMNGCTL_CFG_DONE;
		}
	}

	target = (uint64_t)*reg(m, I210_TRGTTIMH0) * 1000000000ull +
		 *reg(m, I210_TRGTTIML0);
	if ((*reg(m, I210_TSAUXC) & I210_TSAUXC_EN_TT0) && now >= target) {
		*reg(m, I210_TSICR) |= I210_TSICR_TT0;
		*reg(m, I210_TSAUXC) &= ~I210_TSAUXC_EN_TT0;
	}
	/* model: ICR.TIME_SYNC is set when a masked-in TSICR cause appears. */
	{
		bool ts = (*reg(m, I210_TSICR) & *reg(m, I210_TSIM)) != 0;

		if (ts && !m->ts_pending)
			*reg(m, I210_ICR) |= I210_ICR_TIME_SYNC;
		m->ts_pending = ts;
	}
	{
		bool line = (*reg(m, I210_ICR) & *reg(m, I210_IMS)) != 0;

		if (line && !m->irq_line)
			m->irqs_raised++;
		m->irq_line = line;
	}
}

static uint32_t model_read(void *priv, uint32_t r)
{
	struct i210_model *m = priv;
	uint32_t v;

	if (!m->realtime)
		m->now_ns += m->access_ns;
	update(m);
	if (m->dead) {
		log_access(m, false, r, 0xffffffffu);
		return 0xffffffffu;
	}
	switch (r) {
	case I210_SYSTIMR:
		m->latched_ns = i210_model_now(m);
		v = 0;	/* model: sub-ns residue, always 0 */
		break;
	case I210_SYSTIML:
		v = (uint32_t)(m->latched_ns % 1000000000ull);
		break;
	case I210_SYSTIMH:
		v = (uint32_t)(m->latched_ns / 1000000000ull);
		break;
	case I210_ICR:
		v = *reg(m, I210_ICR);
		*reg(m, I210_ICR) = 0;	/* read clears */
		m->irq_line = false;
		break;
	case I210_RR2DCDELAY:
		v = m->rr2dc_max;
		m->rr2dc_max = 0;
		break;
	default:
		v = *reg(m, r);
	}
	log_access(m, false, r, v);
	return v;
}

static void model_write(void *priv, uint32_t r, uint32_t v)
{
	struct i210_model *m = priv;

	if (!m->realtime)
		m->now_ns += m->access_ns;
	update(m);
	log_access(m, true, r, v);
	if (m->dead)
		return;
	switch (r) {
	case I210_CTRL:
		if ((v & I210_CTRL_GIO_MASTER_DISABLE) && m->mdis_at < 0)
			m->mdis_at = (int64_t)i210_model_now(m);
		if ((v & I210_CTRL_RST) && !(*reg(m, I210_CTRL) & I210_CTRL_RST)) {
			m->rst_at = (int64_t)i210_model_now(m);
			*reg(m, I210_STATUS) &= ~I210_STATUS_PF_RST_DONE;
			*reg(m, I210_EEC) &= ~I210_EEC_AUTO_RD;
			*reg(m, I210_EEMNGCTL) &= ~I210_EEMNGCTL_CFG_DONE;
		}
		*reg(m, I210_CTRL) = v;
		break;
	case I210_IMS:
		*reg(m, I210_IMS) |= v;
		break;
	case I210_IMC:
		*reg(m, I210_IMS) &= ~v;
		break;
	case I210_ICS:
		*reg(m, I210_ICR) |= v;
		break;
	case I210_EIMS:
		*reg(m, I210_EIMS) |= v;
		break;
	case I210_EIMC:
		*reg(m, I210_EIMS) &= ~v;
		break;
	case I210_TSICR:
		*reg(m, I210_TSICR) &= ~v;	/* write one clears */
		break;
	case I210_SYSTIMR: case I210_SYSTIML: case I210_SYSTIMH:
	case I210_RR2DCDELAY: case I210_STATUS:
		break;	/* model: read-only here */
	default:
		*reg(m, r) = v;
	}
	update(m);
}

static void model_udelay(void *priv, unsigned int us)
{
	struct i210_model *m = priv;

	if (m->realtime) {
		uint64_t end = mono_ns() + us * 1000ull;

		while (mono_ns() < end)
			;
	} else {
		m->now_ns += us * 1000ull;
	}
	update(m);
}

const struct wfw_i210_io i210_model_io = {
	.read32 = model_read,
	.write32 = model_write,
	.delay_us = model_udelay,
};

struct wfw_i210_io i210_model_io_for(struct i210_model *m)
{
	struct wfw_i210_io io = i210_model_io;

	io.priv = m;
	return io;
}

void i210_model_init(struct i210_model *m, uint64_t start_ns)
{
	memset(m, 0, sizeof(*m));
	m->now_ns = start_ns;
	m->rt_base = mono_ns() - start_ns;
	m->access_ns = 500;	/* a PCIe MMIO read is about 0.5-1 us */
	m->master_ns = 20000;
	m->rst_ns = 1500000;
	m->autord_ns = 2000000;
	m->cfgdone_ns = 2500000;
	m->mdis_at = -1;
	m->rst_at = -1;
	/* Powered on, driven by igb: DMA active, reset done long ago. */
	m->regs[I210_STATUS / 4] = I210_STATUS_GIO_MASTER_ENABLE |
				   I210_STATUS_PF_RST_DONE;
	m->regs[I210_EEC / 4] = I210_EEC_AUTO_RD;
	m->regs[I210_EEMNGCTL / 4] = I210_EEMNGCTL_CFG_DONE;
	m->regs[I210_IMS / 4] = 0x157d;	/* igb-like causes enabled */
	for (int q = 0; q < I210_NR_TXQ; q++)
		m->regs[I210_TXDCTL(q) / 4] = (1u << 25) | (1u << 16) | 8;
}

void i210_model_advance(struct i210_model *m, uint64_t ns)
{
	if (!m->realtime)
		m->now_ns += ns;
	update(m);
}

void i210_model_dma(struct i210_model *m, uint64_t ns)
{
	uint32_t units = (uint32_t)(ns / I210_RR2DCDELAY_UNIT_NS);

	if (units > m->rr2dc_max)
		m->rr2dc_max = units;
}

int i210_model_find(const struct i210_model *m, bool write, uint32_t r,
		    int from)
{
	for (int i = from < 0 ? 0 : from; i < (int)m->nlog; i++)
		if (m->log[i].write == write && m->log[i].reg == r)
			return i;
	return -1;
}
