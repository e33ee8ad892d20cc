/* SPDX-License-Identifier: MIT */
/*
 * The egress qdiscs ndl needs and the ones it found, over rtnetlink:
 * record what a device has, put an ETF qdisc on one TX queue (under an
 * mqprio root that sends socket priority `prio` to that queue alone when
 * the device has several queues), and put the recorded qdiscs back.
 *
 * Restoring: our root is deleted (the kernel attaches the device's default
 * qdiscs again), then every recorded qdisc with a non-zero handle (the ones
 * someone configured; defaults have handle 0) is created again with its
 * recorded kind, parent, handle and options, and the result is compared
 * with the record. Classes of classful qdiscs (htb, ...) are not recorded,
 * so a device using them is refused before anything changes.
 */
#ifndef NDL_QDISC_H
#define NDL_QDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NDL_QDISC_MAX		64
#define NDL_QDISC_OPTS_MAX	2048
#define NDL_TC_MAX		16
/* Our mqprio root's handle (100:). */
#define NDL_MQPRIO_HANDLE	0x01000000u

struct ndl_qdisc {
	uint32_t handle, parent;
	char kind[16];
	size_t optlen;
	unsigned char opts[NDL_QDISC_OPTS_MAX];	/* TCA_OPTIONS payload */
};

struct ndl_qdiscs {
	size_t n;
	struct ndl_qdisc q[NDL_QDISC_MAX];
};

/* How mqprio maps priorities to queue ranges so only `prio` reaches `queue`. */
struct ndl_mqprio_plan {
	unsigned int num_tc;
	uint8_t prio_tc_map[NDL_TC_MAX];
	uint16_t count[NDL_TC_MAX], offset[NDL_TC_MAX];
	unsigned int queue_tc;		/* the tc that is `queue` alone */
};

/*
 * Traffic classes in queue order (mqprio wants ranges that do not
 * overlap, in increasing order): [0, queue), [queue], (queue, ntxq).
 * Every priority but `prio` goes to the other queues. -EINVAL when the
 * arguments make no sense.
 */
int ndl_mqprio_plan(unsigned int ntxq, unsigned int queue, unsigned int prio,
		    struct ndl_mqprio_plan *p);

/* Egress qdiscs of ifindex (ingress/clsact are left out). 0 or -errno. */
int ndl_qdisc_dump(int ifindex, struct ndl_qdiscs *out, char *why, size_t len);

/* A configuration ndl cannot restore (explicit classes): 0 or -EBUSY. */
int ndl_qdisc_check_restorable(const struct ndl_qdiscs *q, char *why,
			       size_t len);

struct ndl_etf_cfg {
	unsigned int ntxq;	/* TX queues of the device in use */
	unsigned int queue;	/* the queue the packets leave through */
	unsigned int prio;	/* socket priority steered to it */
	uint64_t delta_ns;	/* ETF hands packets over this early */
	bool offload;		/* ETF offload: the NIC launches at txtime */
};

/*
 * Root mqprio + ETF on queue (ntxq > 1), or ETF as the root (ntxq == 1).
 * On failure the caller restores (the root may already be replaced).
 */
int ndl_qdisc_install(int ifindex, const struct ndl_etf_cfg *cfg, char *why,
		      size_t len);

/* Put back what ndl_qdisc_dump() recorded; -EIO if the result differs. */
int ndl_qdisc_restore(int ifindex, const struct ndl_qdiscs *saved, char *why,
		      size_t len);

/* Delete the root qdisc (the kernel puts the defaults back). 0 or -errno. */
int ndl_qdisc_del_root(int ifindex, char *why, size_t len);
/* Create (or replace) q on ifindex. 0 or -errno. */
int ndl_qdisc_add(int ifindex, const struct ndl_qdisc *q, char *why,
		  size_t len);

/* Same kind, handle, parent and options? */
bool ndl_qdisc_same(const struct ndl_qdisc *a, const struct ndl_qdisc *b);
/* Is q (all of it) among qs? */
bool ndl_qdisc_has(const struct ndl_qdiscs *qs, const struct ndl_qdisc *q);
/* The root qdisc of qs, or NULL. */
const struct ndl_qdisc *ndl_qdisc_root(const struct ndl_qdiscs *qs);

/* Same qdiscs (kind, handle, parent, options)? The first difference in diff. */
bool ndl_qdisc_equal(const struct ndl_qdiscs *a, const struct ndl_qdiscs *b,
		     char *diff, size_t len);

/* "fq_codel 0: parent 0:1" */
void ndl_qdisc_str(const struct ndl_qdisc *q, char *buf, size_t len);
/* "mq 0: root; fq_codel 0: parent :1; ..." for logs and info.yml. */
void ndl_qdisc_describe(const struct ndl_qdiscs *q, char *buf, size_t len);

struct nlmsghdr;
/* Send one rtnetlink request, wait for the ack: 0 or -errno with why
 * (including the kernel's extended ack message). */
int ndl_nl_request(struct nlmsghdr *nh, const char *what, char *why,
		   size_t len);

#endif
