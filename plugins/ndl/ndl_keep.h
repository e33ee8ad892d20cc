/* SPDX-License-Identifier: MIT */
/*
 * What ndl changes on an interface, kept for a later wultfw: if this one is
 * killed with the ETF qdisc in place, the next run, `wultfw restore` or
 * `wultfw scan` calls ndl's restore op with this record, as one line of
 * text in the core's state file (wultfw_remember_plugin()):
 *
 *   v1 IFINDEX IFNAME ROOT QUEUE N KIND HANDLE PARENT OPTS ...
 *
 * ROOT is "mqprio" (our mqprio 100: at the root, etf under it on TX queue
 * QUEUE) or "etf" (etf itself at the root: a device with one TX queue); then the N
 * qdiscs the device had that someone configured (handle not 0), each
 * KIND, HANDLE and PARENT in hex and OPTS the TCA_OPTIONS bytes in hex
 * ("-" for none). The defaults (handle 0) are not recorded: deleting our
 * root brings them back.
 *
 * Putting back from the record alone: our root, if it is still there and
 * is not one of the recorded qdiscs, is deleted; every recorded qdisc
 * that is missing is created again; then every recorded qdisc must be
 * there and our root gone. An interface that is gone took our qdiscs
 * with it: nothing to do.
 */
#ifndef NDL_KEEP_H
#define NDL_KEEP_H

#include <stdbool.h>
#include <stddef.h>

#include <net/if.h>

#include "ndl_qdisc.h"

struct ndl_keep {
	int ifindex;
	char ifname[IFNAMSIZ];
	bool etf_root;			/* etf at the root, no mqprio */
	unsigned int queue;		/* the TX queue etf is on */
	struct ndl_qdiscs user;		/* configured before: handle != 0 */
};

/* The record of what installing on ifindex (ntxq queues) changes. */
void ndl_keep_init(struct ndl_keep *k, int ifindex, const char *ifname,
		   unsigned int ntxq, unsigned int queue,
		   const struct ndl_qdiscs *saved);
/* As one line; -E2BIG (why says how big) if it does not fit len. */
int ndl_keep_encode(const struct ndl_keep *k, char *buf, size_t len,
		    char *why, size_t whylen);
/* Back from the line; -EINVAL with why naming the field. */
int ndl_keep_decode(const char *line, struct ndl_keep *k, char *why,
		    size_t len);
/* For the user: "qdisc etf on eth1 TX queue 0 under mqprio 100: ...". */
void ndl_keep_what(const struct ndl_keep *k, char *buf, size_t len);
/*
 * Put the interface back as recorded. 0 (done says what was done, or
 * that nothing was left), or -errno with why.
 */
int ndl_keep_restore(const struct ndl_keep *k, char *done, size_t donelen,
		     char *why, size_t len);

#endif
