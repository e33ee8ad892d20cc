/* SPDX-License-Identifier: MIT */
/*
 * lib/i210 against the register-file model (tests/model/i210_model.c):
 * reset, firmware errors, NIC time, TT0 arming, interrupts, RTD, WTHRESH.
 * The same lib/i210 code runs in the kernel device on real hardware.
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "i210/i210.h"
#include "i210_model.h"
#include "testutil.h"

static struct i210_model m;
static struct wfw_i210 nic;

static void setup(uint64_t start_ns)
{
	struct wfw_i210_io io;

	i210_model_init(&m, start_ns);
	io = i210_model_io_for(&m);
	wfw_i210_init(&nic, &io);
}

static uint32_t reg(uint32_t off)
{
	return m.regs[off / 4];
}

/* ---- reset ---- */

static void test_reset_ok(void)
{
	int mdis, poll, rst, fwsm;

	setup(1000);
	CU_ASSERT_EQUAL_FATAL(wfw_i210_reset(&nic), 0);
	CU_ASSERT_EQUAL(nic.failed_step, WFW_I210_STEP_OK);
	CU_ASSERT_EQUAL(m.resets, 1);
	/* Master disable, then wait for GIO_MASTER_ENABLE, then reset. */
	mdis = i210_model_find(&m, true, I210_CTRL, 0);
	CU_ASSERT_FATAL(mdis >= 0);
	CU_ASSERT(m.log[mdis].val & I210_CTRL_GIO_MASTER_DISABLE);
	CU_ASSERT_FALSE(m.log[mdis].val & I210_CTRL_RST);
	poll = i210_model_find(&m, false, I210_STATUS, mdis);
	rst = i210_model_find(&m, true, I210_CTRL, mdis + 1);
	CU_ASSERT(poll > mdis && rst > poll);
	CU_ASSERT_FATAL(rst >= 0);
	CU_ASSERT(m.log[rst].val & I210_CTRL_RST);
	/* The last STATUS poll before the reset saw master enable clear. */
	for (int i = rst - 1; i > mdis; i--)
		if (!m.log[i].write && m.log[i].reg == I210_STATUS) {
			CU_ASSERT_FALSE(m.log[i].val & I210_STATUS_GIO_MASTER_ENABLE);
			break;
		}
	/* FWSM checked after config done; nothing left enabled. */
	fwsm = i210_model_find(&m, false, I210_FWSM, rst);
	CU_ASSERT(fwsm > i210_model_find(&m, false, I210_EEMNGCTL, rst));
	CU_ASSERT_EQUAL(reg(I210_IMS), 0);
	CU_ASSERT_EQUAL(reg(I210_EIMS), 0);
	CU_ASSERT_EQUAL(reg(I210_CTRL) & I210_CTRL_RST, 0);
}

static void check_timeout(enum wfw_i210_step step, uint32_t reg_off)
{
	CU_ASSERT_EQUAL(wfw_i210_reset(&nic), -ETIMEDOUT);
	CU_ASSERT_EQUAL(nic.failed_step, step);
	CU_ASSERT_EQUAL(nic.failed_reg, reg_off);
	CU_ASSERT_STRING_NOT_EQUAL(wfw_i210_step_str(step), "unknown step");
}

static void test_reset_timeouts(void)
{
	setup(0);
	m.master_ns = -1;
	check_timeout(WFW_I210_STEP_MASTER, I210_STATUS);
	/* Never reset a NIC that still does DMA. */
	CU_ASSERT_EQUAL(m.resets, 0);
	for (unsigned int i = 0; i < m.nlog; i++)
		CU_ASSERT_FALSE(m.log[i].write && m.log[i].reg == I210_CTRL &&
				(m.log[i].val & I210_CTRL_RST));
	/* It gave up after the datasheet's limit, not at once. */
	CU_ASSERT(m.now_ns >= WFW_I210_MASTER_TIMEOUT_US * 1000ull);

	setup(0);
	m.rst_ns = -1;
	check_timeout(WFW_I210_STEP_RST, I210_CTRL);
	setup(0);
	m.autord_ns = -1;
	check_timeout(WFW_I210_STEP_AUTO_RD, I210_EEC);
	setup(0);
	m.cfgdone_ns = -1;
	check_timeout(WFW_I210_STEP_CFG_DONE, I210_EEMNGCTL);
}

static void test_reset_slow_but_ok(void)
{
	/* Just inside the limits: must not time out early. */
	setup(0);
	m.master_ns = (WFW_I210_MASTER_TIMEOUT_US - 200) * 1000ll;
	m.cfgdone_ns = (WFW_I210_RST_TIMEOUT_US / 2) * 1000ll;
	CU_ASSERT_EQUAL(wfw_i210_reset(&nic), 0);
}

static void test_reset_fw_errors(void)
{
	static const uint32_t bad[] = {
		1u << 19, 1u << 24, I210_FWSM_PCIE_CONFIG_ERR_IND,
		I210_FWSM_PHY_SERDES0_ERR_IND,
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setup(0);
		m.fwsm_reset = bad[i] | (1u << 15);
		CU_ASSERT_EQUAL(wfw_i210_reset(&nic), -EIO);
		CU_ASSERT_EQUAL(nic.failed_step, WFW_I210_STEP_FW_ERROR);
		CU_ASSERT_EQUAL(nic.failed_reg, I210_FWSM);
		CU_ASSERT_EQUAL(nic.failed_val, bad[i] | (1u << 15));
	}
	/* FW_VAL and reset count bits are not errors. */
	setup(0);
	m.fwsm_reset = (1u << 15) | (3u << 16) | (1u << 1);
	CU_ASSERT_EQUAL(wfw_i210_reset(&nic), 0);
}

static void test_reset_dead(void)
{
	setup(0);
	m.dead = true;
	CU_ASSERT_EQUAL(wfw_i210_reset(&nic), -ENODEV);
	CU_ASSERT_EQUAL(nic.failed_step, WFW_I210_STEP_DEAD);
	/* Dies during the reset: all ones is not "bits set". */
	setup(0);
	m.rst_ns = 3000000;
	CU_ASSERT_EQUAL(wfw_i210_reset(&nic) == 0, 1);
	setup(0);
	m.master_ns = -1;
	{
		/* Vanishes while we poll the master enable bit. */
		struct wfw_i210_io io = i210_model_io_for(&m);

		wfw_i210_init(&nic, &io);
		m.regs[I210_STATUS / 4] = 0xffffffffu;
		CU_ASSERT_EQUAL(wfw_i210_reset(&nic), -ENODEV);
		CU_ASSERT_EQUAL(nic.failed_step, WFW_I210_STEP_DEAD);
	}
}

/* ---- NIC time ---- */

static void test_time_latch(void)
{
	uint64_t before, t, after;

	setup(7ull * 1000000000ull + 123456789ull);
	before = i210_model_now(&m);
	t = wfw_i210_time(&nic);
	after = i210_model_now(&m);
	CU_ASSERT(t > before && t <= after);
	/* Latched value is returned until the next latch. */
	i210_model_advance(&m, 5000000);
	CU_ASSERT_EQUAL(wfw_i210_read_latched(&nic), t);
	CU_ASSERT(wfw_i210_time(&nic) >= t + 5000000);
}

static void test_time_seconds_boundary(void)
{
	uint64_t prev = 0;

	/* Start 2 us before a second; each access costs 300 ns. */
	for (uint64_t off = 0; off < 3000; off += 100) {
		uint64_t s = 41ull * 1000000000ull, t, before, after;

		setup(s - 2000 + off);
		m.access_ns = 300;
		before = i210_model_now(&m);
		t = wfw_i210_time(&nic);
		after = i210_model_now(&m);
		CU_ASSERT(t >= before && t <= after);
		CU_ASSERT(t >= prev);
		prev = t;
	}
	/* Without the latch, L and H taken at different times tear. */
	setup(41ull * 1000000000ull - 400);
	m.access_ns = 300;
	wfw_i210_latch(&nic);			/* at -100 ns */
	i210_model_advance(&m, 1000);		/* now past the second */
	CU_ASSERT_EQUAL(wfw_i210_read_latched(&nic), 41ull * 1000000000ull - 100);
}

static void test_time_realtime(void)
{
	struct timespec ts = { 0, 2000000 };
	uint64_t t1, t2;

	setup(0);
	m.realtime = true;
	t1 = wfw_i210_time(&nic);
	nanosleep(&ts, NULL);
	t2 = wfw_i210_time(&nic);
	CU_ASSERT(t2 - t1 >= 2000000);
	CU_ASSERT(t2 - t1 < 1000000000);
}

/* ---- TT0 ---- */

static void test_arm_and_fire(void)
{
	uint64_t ltime = 0, now;
	int tl, th, st, aux;

	setup(3ull * 1000000000ull + 500);
	CU_ASSERT_EQUAL_FATAL(wfw_i210_reset(&nic), 0);
	wfw_i210_tt0_setup(&nic);
	CU_ASSERT_EQUAL(reg(I210_IMS), I210_ICR_TIME_SYNC);
	CU_ASSERT_EQUAL(reg(I210_TSIM), I210_TSICR_TT0);

	m.nlog = 0;
	now = i210_model_now(&m);
	CU_ASSERT_EQUAL_FATAL(wfw_i210_arm(&nic, 100000, &ltime), 0);
	CU_ASSERT(ltime > now + 100000 && ltime < now + 100000 + 5000);
	CU_ASSERT_EQUAL(reg(I210_TRGTTIML0), ltime % 1000000000ull);
	CU_ASSERT_EQUAL(reg(I210_TRGTTIMH0), ltime / 1000000000ull);
	/* Target written, flushed with a STATUS read, then EN_TT0. */
	tl = i210_model_find(&m, true, I210_TRGTTIML0, 0);
	th = i210_model_find(&m, true, I210_TRGTTIMH0, 0);
	st = i210_model_find(&m, false, I210_STATUS, th);
	aux = i210_model_find(&m, true, I210_TSAUXC, 0);
	CU_ASSERT(tl >= 0 && th >= 0 && st > th && aux > st);
	CU_ASSERT(m.log[aux].val & I210_TSAUXC_EN_TT0);

	/* Not before the target... */
	i210_model_advance(&m, ltime - i210_model_now(&m) - 1);
	CU_ASSERT_FALSE(m.irq_line);
	CU_ASSERT_EQUAL(m.irqs_raised, 0);
	/* ...and at it, once. */
	i210_model_advance(&m, 1);
	CU_ASSERT_TRUE(m.irq_line);
	CU_ASSERT_EQUAL(m.irqs_raised, 1);
	CU_ASSERT_EQUAL(reg(I210_TSAUXC) & I210_TSAUXC_EN_TT0, 0);
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_TT0);
	CU_ASSERT_FALSE(m.irq_line);
	CU_ASSERT_EQUAL(reg(I210_TSICR), 0);	/* acknowledged */
	i210_model_advance(&m, 10000000);
	CU_ASSERT_EQUAL(m.irqs_raised, 1);
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_NONE);
	CU_ASSERT_EQUAL(nic.spurious, 0);

	/* And again: arming works repeatedly. */
	CU_ASSERT_EQUAL_FATAL(wfw_i210_arm(&nic, 50000, &ltime), 0);
	i210_model_advance(&m, 60000);
	CU_ASSERT_EQUAL(m.irqs_raised, 2);
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_TT0);
}

static void test_arm_across_second(void)
{
	uint64_t ltime;

	setup(9ull * 1000000000ull - 30000);
	wfw_i210_tt0_setup(&nic);
	CU_ASSERT_EQUAL_FATAL(wfw_i210_arm(&nic, 100000, &ltime), 0);
	CU_ASSERT_EQUAL(reg(I210_TRGTTIMH0), 9);
	CU_ASSERT_EQUAL(reg(I210_TRGTTIML0), ltime - 9ull * 1000000000ull);
	CU_ASSERT(ltime > 9ull * 1000000000ull + 60000);
	i210_model_advance(&m, ltime - i210_model_now(&m) - 1);
	CU_ASSERT_FALSE(m.irq_line);
	i210_model_advance(&m, 1);
	CU_ASSERT_TRUE(m.irq_line);
}

static void test_arm_too_late(void)
{
	uint64_t ltime = 42;

	setup(1000000);
	wfw_i210_tt0_setup(&nic);
	m.access_ns = 20000;	/* a very slow link: arming takes > ldist */
	CU_ASSERT_EQUAL(wfw_i210_arm(&nic, 10000, &ltime), -EAGAIN);
	CU_ASSERT_EQUAL(ltime, 42);
	CU_ASSERT_EQUAL(reg(I210_TSAUXC) & I210_TSAUXC_EN_TT0, 0);
}

static void test_disarm(void)
{
	uint64_t ltime;

	setup(0);
	wfw_i210_tt0_setup(&nic);
	CU_ASSERT_EQUAL_FATAL(wfw_i210_arm(&nic, 100000, &ltime), 0);
	wfw_i210_disarm(&nic);
	i210_model_advance(&m, 1000000);
	CU_ASSERT_EQUAL(m.irqs_raised, 0);
	CU_ASSERT_EQUAL(reg(I210_TSICR), 0);
}

static void test_masks(void)
{
	uint64_t ltime;

	/* TT0 without TSIM: a cause in TSICR but no ICR bit, no interrupt. */
	setup(0);
	wfw_i210_quiesce(&nic);
	wfw_i210_arm_at(&nic, 10000);
	i210_model_advance(&m, 20000);
	CU_ASSERT(reg(I210_TSICR) & I210_TSICR_TT0);
	CU_ASSERT_EQUAL(reg(I210_ICR) & I210_ICR_TIME_SYNC, 0);
	CU_ASSERT_EQUAL(m.irqs_raised, 0);

	/* TSIM but IMS masked: ICR cause, no interrupt. */
	setup(0);
	wfw_i210_tt0_setup(&nic);
	m.regs[I210_IMS / 4] = 0;
	CU_ASSERT_EQUAL_FATAL(wfw_i210_arm(&nic, 10000, &ltime), 0);
	i210_model_advance(&m, 20000);
	CU_ASSERT(reg(I210_ICR) & I210_ICR_TIME_SYNC);
	CU_ASSERT_EQUAL(m.irqs_raised, 0);

	/* quiesce() leaves nothing enabled or pending. */
	wfw_i210_quiesce(&nic);
	CU_ASSERT_EQUAL(reg(I210_IMS), 0);
	CU_ASSERT_EQUAL(reg(I210_TSIM), 0);
	CU_ASSERT_EQUAL(reg(I210_ICR), 0);
	CU_ASSERT_EQUAL(reg(I210_TSICR), 0);
}

static void test_spurious(void)
{
	setup(0);
	wfw_i210_tt0_setup(&nic);
	/* Nothing pending: not ours (a shared legacy line). */
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_NONE);
	CU_ASSERT_EQUAL(nic.spurious, 0);
	/* Another cause (link status change, bit 2). */
	m.regs[I210_ICR / 4] |= 1u << 2;
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_SPURIOUS);
	CU_ASSERT_EQUAL(nic.spurious, 1);
	/* TIME_SYNC for another time sync cause (SYSTIM overflow, bit 0). */
	m.regs[I210_ICR / 4] |= I210_ICR_TIME_SYNC;
	m.regs[I210_TSICR / 4] |= 1u << 0;
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_SPURIOUS);
	CU_ASSERT_EQUAL(nic.spurious, 2);
	CU_ASSERT_EQUAL(reg(I210_TSICR), 0);	/* acknowledged anyway */
	/* A device that vanished reads all ones: not an event. */
	m.dead = true;
	CU_ASSERT_EQUAL(wfw_i210_irq(&nic), WFW_I210_IRQ_NONE);
}

/* ---- ndl helpers ---- */

static void test_rtd_units(void)
{
	setup(0);
	CU_ASSERT_EQUAL(wfw_i210_rtd_ns(&nic), 0);
	i210_model_dma(&m, 1000);
	i210_model_dma(&m, 5000);
	i210_model_dma(&m, 300);
	CU_ASSERT_EQUAL(wfw_i210_rtd_ns(&nic), 5000 / 16 * 16);
	CU_ASSERT_EQUAL(wfw_i210_rtd_ns(&nic), 0);	/* cleared on read */
	i210_model_dma(&m, 16 * 1000);
	CU_ASSERT_EQUAL(wfw_i210_rtd_ns(&nic), 16000);
}

static void test_wthresh(void)
{
	uint32_t orig[I210_NR_TXQ];

	setup(0);
	m.regs[I210_TXDCTL(2) / 4] |= 7u << I210_TXDCTL_WTHRESH_SHIFT;
	for (int q = 0; q < I210_NR_TXQ; q++)
		orig[q] = reg(I210_TXDCTL(q));
	wfw_i210_wthresh_clear(&nic);
	for (int q = 0; q < I210_NR_TXQ; q++)
		CU_ASSERT_EQUAL(reg(I210_TXDCTL(q)),
				orig[q] & ~I210_TXDCTL_WTHRESH_MASK);
	/* Clearing twice must not save the cleared values. */
	wfw_i210_wthresh_clear(&nic);
	/* The queue enable bit changed meanwhile: keep that change. */
	m.regs[I210_TXDCTL(1) / 4] &= ~(1u << 25);
	wfw_i210_wthresh_restore(&nic);
	for (int q = 0; q < I210_NR_TXQ; q++)
		CU_ASSERT_EQUAL(reg(I210_TXDCTL(q)),
				q == 1 ? orig[q] & ~(1u << 25) : orig[q]);
	/* Restore without a save writes nothing. */
	m.nlog = 0;
	wfw_i210_wthresh_restore(&nic);
	CU_ASSERT_EQUAL(m.nlog, 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("i210", NULL, NULL);
	CU_add_test(s, "reset ok", test_reset_ok);
	CU_add_test(s, "reset timeouts", test_reset_timeouts);
	CU_add_test(s, "reset slow but in time", test_reset_slow_but_ok);
	CU_add_test(s, "reset firmware errors", test_reset_fw_errors);
	CU_add_test(s, "reset dead device", test_reset_dead);
	CU_add_test(s, "time latch", test_time_latch);
	CU_add_test(s, "time across seconds", test_time_seconds_boundary);
	CU_add_test(s, "time real clock", test_time_realtime);
	CU_add_test(s, "arm and fire", test_arm_and_fire);
	CU_add_test(s, "arm across a second", test_arm_across_second);
	CU_add_test(s, "arm too late", test_arm_too_late);
	CU_add_test(s, "disarm", test_disarm);
	CU_add_test(s, "interrupt masks", test_masks);
	CU_add_test(s, "spurious interrupts", test_spurious);
	CU_add_test(s, "rtd units", test_rtd_units);
	CU_add_test(s, "wthresh save/clear/restore", test_wthresh);
	return tu_run();
}
