/* SPDX-License-Identifier: MIT */
/*
 * Launch-time packets: an AF_PACKET socket bound to the interface, with
 * SO_PRIORITY (mqprio steers it to the ETF queue) and SO_TXTIME on
 * CLOCK_TAI with error reports, so ETF says when it dropped a packet
 * (launch time missed or invalid) instead of the run silently waiting.
 */
#ifndef NDL_TX_H
#define NDL_TX_H

#include <stdint.h>

/* IEEE 802 "local experimental" Ethertype: no protocol stack takes it. */
#define NDL_ETHERTYPE	0x88B5
#define NDL_PAYLOAD	64

struct ndl_tx {
	int fd;
	int ifindex;
	uint8_t dst[6];
	uint32_t seq;
};

/* Open and configure the socket: 0 or -errno with why. */
int ndl_tx_open(struct ndl_tx *t, int ifindex, const uint8_t dst[6],
		unsigned int prio, char *why, size_t len);
/* Queue one packet to leave at txtime_ns (CLOCK_TAI). 0 or -errno. */
int ndl_tx_send(struct ndl_tx *t, uint64_t txtime_ns, char *why, size_t len);
/*
 * Drain the error queue without waiting: the number of packets ETF
 * dropped; *last_code is the last SO_EE_CODE_TXTIME_* seen.
 */
int ndl_tx_drops(struct ndl_tx *t, int *last_code);
void ndl_tx_close(struct ndl_tx *t);

/* What an SO_EE_CODE_TXTIME_* code means. */
const char *ndl_tx_code_str(int code);

#endif
