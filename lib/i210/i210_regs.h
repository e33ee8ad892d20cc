/* SPDX-License-Identifier: (GPL-2.0 OR MIT) */
/*
 * Intel I210/I211 registers used by wultfw, from the datasheet register map
 * (offsets in BAR0, 32-bit registers). Shared by the kernel device
 * (kmod/wultfw_i210_main.c), the user-space model (tests/model/) and the tests.
 */
#ifndef WFW_I210_REGS_H
#define WFW_I210_REGS_H

#define WFW_I210_BIT(n)			(1u << (n))

#define I210_CTRL			0x0000
#define I210_CTRL_GIO_MASTER_DISABLE	WFW_I210_BIT(2)
#define I210_CTRL_RST			WFW_I210_BIT(26)

#define I210_STATUS			0x0008
#define I210_STATUS_GIO_MASTER_ENABLE	WFW_I210_BIT(19)
#define I210_STATUS_PF_RST_DONE		WFW_I210_BIT(21)

/* Interrupt cause (read clears), set, mask set, mask clear. */
#define I210_ICR			0x1500
#define I210_ICS			0x1504
#define I210_IMS			0x1508
#define I210_IMC			0x150C
#define I210_ICR_TIME_SYNC		WFW_I210_BIT(19)

/* Extended (MSI-X) interrupt registers: only masked off by us. */
#define I210_EICS			0x1520
#define I210_EIMS			0x1524
#define I210_EIMC			0x1528
#define I210_EICR			0x1580
#define I210_EICR_OTHER			WFW_I210_BIT(31)

/* Time sync: SYSTIM in time-of-day format (L: ns 0..999999999, H: s). */
#define I210_SYSTIML			0xB600
#define I210_SYSTIMH			0xB604
#define I210_SYSTIMR			0xB6F8	/* read first: latches L and H */
#define I210_TSAUXC			0xB640
#define I210_TSAUXC_EN_TT0		WFW_I210_BIT(0)	/* HW clears it on the event */
#define I210_TRGTTIML0			0xB644
#define I210_TRGTTIMH0			0xB648
#define I210_TSICR			0xB66C	/* time sync interrupt cause */
#define I210_TSIM			0xB674	/* time sync interrupt mask */
#define I210_TSICR_TT0			WFW_I210_BIT(3)

/* Firmware semaphore: error indications after a reset. */
#define I210_FWSM			0x5B54
#define I210_FWSM_EXT_ERR_IND		0x01F80000u	/* bits 24:19 */
#define I210_FWSM_PCIE_CONFIG_ERR_IND	WFW_I210_BIT(25)
#define I210_FWSM_PHY_SERDES0_ERR_IND	WFW_I210_BIT(26)
#define I210_FWSM_ERRORS		(I210_FWSM_EXT_ERR_IND | \
					 I210_FWSM_PCIE_CONFIG_ERR_IND | \
					 I210_FWSM_PHY_SERDES0_ERR_IND)

#define I210_EEC			0x12010
#define I210_EEC_AUTO_RD		WFW_I210_BIT(9)
#define I210_EEMNGCTL			0x12030
#define I210_EEMNGCTL_CFG_DONE		WFW_I210_BIT(18)

/* Longest DMA read round trip, units of 16 ns, cleared on read. */
#define I210_RR2DCDELAY			0x5BF4
#define I210_RR2DCDELAY_UNIT_NS		16

/* Transmit descriptor control of queue n; WTHRESH is bits 20:16. */
#define I210_TXDCTL(n)			(0xE028 + 0x40 * (n))
#define I210_TXDCTL_WTHRESH_SHIFT	16
#define I210_TXDCTL_WTHRESH_MASK	(0x1Fu << I210_TXDCTL_WTHRESH_SHIFT)
#define I210_NR_TXQ			4

/* Size of BAR0 the registers above live in (the model allocates this). */
#define I210_REGS_SPAN			0x20000

/* PCI IDs (vendor 0x8086). */
#define I210_PCI_VENDOR			0x8086

#endif /* WFW_I210_REGS_H */
