/* SPDX-License-Identifier: MIT */
/*
 * The NIC's PTP hardware clock (PHC) against CLOCK_TAI. igb programs the
 * I210's launch time from the packet's txtime as NIC time, while ETF
 * schedules it by CLOCK_TAI: the two must agree, so ndl measures the
 * offset before every packet and, in "step" mode, steps the PHC onto
 * CLOCK_TAI when it is off by more than the tolerance.
 */
#ifndef NDL_PHC_H
#define NDL_PHC_H

#include <stdint.h>
#include <time.h>

/* /dev/ptpN index of an interface (ETHTOOL_GET_TS_INFO), or -errno. */
int ndl_phc_index(const char *ifname, char *why, size_t len);

/* Clock id of an open /dev/ptpN descriptor (FD_TO_CLOCKID). */
clockid_t ndl_phc_clockid(int fd);

/*
 * clk - ref in ns: clk read between two ref reads, the pair with the
 * shortest gap out of 5; *gap_ns is that gap (the uncertainty). 0 or -errno.
 */
int ndl_clock_offset(clockid_t clk, clockid_t ref, int64_t *off_ns,
		     int64_t *gap_ns);

/* Move clk by -off_ns (clock_adjtime ADJ_SETOFFSET). 0 or -errno. */
int ndl_clock_step(clockid_t clk, int64_t off_ns);

#endif
