/* SPDX-License-Identifier: MIT */
/* ndl qdiscs over rtnetlink; see ndl_qdisc.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "ndl_qdisc.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

#define NDL_NLBUF 16384

struct ndl_nlmsg {
	struct nlmsghdr nh;
	struct tcmsg tc;
	char attrs[NDL_QDISC_OPTS_MAX + 256];
};

int ndl_mqprio_plan(unsigned int ntxq, unsigned int queue, unsigned int prio,
		    struct ndl_mqprio_plan *p)
{
	unsigned int other, i;

	if (ntxq < 2 || ntxq > NDL_TC_MAX || queue >= ntxq ||
	    prio > TC_PRIO_MAX)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	if (queue > 0) {
		p->count[p->num_tc] = (uint16_t)queue;
		p->offset[p->num_tc] = 0;
		p->num_tc++;
	}
	p->queue_tc = p->num_tc;
	p->count[p->num_tc] = 1;
	p->offset[p->num_tc] = (uint16_t)queue;
	p->num_tc++;
	if (queue + 1 < ntxq) {
		p->count[p->num_tc] = (uint16_t)(ntxq - queue - 1);
		p->offset[p->num_tc] = (uint16_t)(queue + 1);
		p->num_tc++;
	}
	/* Everything else: the first tc that is not ours. */
	other = p->queue_tc == 0 ? 1 : 0;
	for (i = 0; i < NDL_TC_MAX; i++)
		p->prio_tc_map[i] = (uint8_t)(i == prio ? p->queue_tc : other);
	return 0;
}

static int nl_open(char *why, size_t len)
{
	int one = 1, fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				 NETLINK_ROUTE);

	if (fd < 0) {
		snprintf(why, len, "netlink socket: %s", strerror(errno));
		return -errno;
	}
	/* The kernel's own words on failures ("Specified qdisc kind is
	 * unknown"); harmless if unsupported. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static void nl_attr(struct nlmsghdr *nh, size_t cap, unsigned short type,
		    const void *data, size_t dlen)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));
	size_t l = RTA_LENGTH(dlen);

	if (NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(l) > cap)
		return;		/* our messages are far smaller than cap */
	rta->rta_type = type;
	rta->rta_len = (unsigned short)l;
	if (dlen)
		memcpy(RTA_DATA(rta), data, dlen);
	nh->nlmsg_len = (uint32_t)(NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(l));
}

/* Kernel's extack message of an error ack, if any. */
static const char *nl_extack(const struct nlmsghdr *nh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	const struct rtattr *rta;
	int rem;
	size_t off;

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	off = sizeof(*e);
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if (NLMSG_HDRLEN + off > nh->nlmsg_len)
		return NULL;
	rta = (const struct rtattr *)((const char *)e + NLMSG_ALIGN(off));
	rem = (int)(nh->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(off));
	for (; RTA_OK(rta, rem); rta = RTA_NEXT(rta, rem))
		if (rta->rta_type == 1 /* NLMSGERR_ATTR_MSG */)
			return RTA_DATA(rta);
	return NULL;
}

/* Send one request and wait for its ack: 0 or -errno, why says what. */
int ndl_nl_request(struct nlmsghdr *nh, const char *what, char *why,
		      size_t len)
{
	static __thread char buf[NDL_NLBUF];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = nl_open(why, len), err = -EIO;
	ssize_t n;

	if (fd < 0)
		return fd;
	nh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = (uint32_t)time(NULL);
	if (sendto(fd, nh, nh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		snprintf(why, len, "%s: netlink send: %s", what, strerror(errno));
		goto out;
	}
	for (;;) {
		struct nlmsghdr *r;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			err = -errno;
			snprintf(why, len, "%s: netlink recv: %s", what,
				 strerror(errno));
			goto out;
		}
		for (r = (struct nlmsghdr *)buf; NLMSG_OK(r, (unsigned int)n);
		     r = NLMSG_NEXT(r, n)) {
			const struct nlmsgerr *e;
			const char *ext;

			if (r->nlmsg_type != NLMSG_ERROR)
				continue;
			e = NLMSG_DATA(r);
			err = e->error;
			if (err) {
				ext = nl_extack(r);
				snprintf(why, len, "%s: %s%s%s", what,
					 strerror(-err), ext ? " (kernel: " : "",
					 ext ? ext : "");
				if (ext)
					snprintf(why + strlen(why),
						 len - strlen(why), ")");
			}
			goto out;
		}
	}
out:
	close(fd);
	return err;
}

static void parse_qdisc(const struct nlmsghdr *nh, int ifindex,
			struct ndl_qdiscs *out)
{
	const struct tcmsg *tc = NLMSG_DATA(nh);
	const struct rtattr *rta = (const struct rtattr *)((const char *)tc +
						NLMSG_ALIGN(sizeof(*tc)));
	int rem = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tc)));
	struct ndl_qdisc *q;

	if (tc->tcm_ifindex != ifindex || out->n >= NDL_QDISC_MAX)
		return;
	/* Ingress and clsact hang off ffff:fff1; ndl never touches them. */
	if (tc->tcm_parent == TC_H_INGRESS)
		return;
	q = &out->q[out->n++];
	memset(q, 0, sizeof(*q));
	q->handle = tc->tcm_handle;
	q->parent = tc->tcm_parent;
	for (; RTA_OK(rta, rem); rta = RTA_NEXT(rta, rem)) {
		size_t l = RTA_PAYLOAD(rta);

		if (rta->rta_type == TCA_KIND)
			snprintf(q->kind, sizeof(q->kind), "%.*s", (int)l,
				 (const char *)RTA_DATA(rta));
		else if (rta->rta_type == TCA_OPTIONS && l <= sizeof(q->opts)) {
			memcpy(q->opts, RTA_DATA(rta), l);
			q->optlen = l;
		}
	}
}

int ndl_qdisc_dump(int ifindex, struct ndl_qdiscs *out, char *why, size_t len)
{
	static __thread char buf[NDL_NLBUF * 2];
	struct ndl_nlmsg req;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = nl_open(why, len), err = 0;
	ssize_t n;

	if (fd < 0)
		return fd;
	memset(out, 0, sizeof(*out));
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = ifindex;
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		snprintf(why, len, "qdisc dump: %s", strerror(errno));
		goto out;
	}
	for (;;) {
		struct nlmsghdr *r;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			err = -errno;
			snprintf(why, len, "qdisc dump: %s", strerror(errno));
			goto out;
		}
		for (r = (struct nlmsghdr *)buf; NLMSG_OK(r, (unsigned int)n);
		     r = NLMSG_NEXT(r, n)) {
			if (r->nlmsg_type == NLMSG_DONE)
				goto out;
			if (r->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(r))->error;
				snprintf(why, len, "qdisc dump: %s", strerror(-err));
				goto out;
			}
			if (r->nlmsg_type == RTM_NEWQDISC)
				parse_qdisc(r, ifindex, out);
		}
	}
out:
	close(fd);
	return err;
}

int ndl_qdisc_check_restorable(const struct ndl_qdiscs *q, char *why,
			       size_t len)
{
	static const char *const classful[] = { "htb", "hfsc", "drr", "qfq",
		"cbq", "atm", "ets", NULL };
	size_t i, k;

	for (i = 0; i < q->n; i++)
		for (k = 0; classful[k]; k++)
			if (!strcmp(q->q[i].kind, classful[k])) {
				snprintf(why, len, "the device has a %s qdisc "
					 "(handle %x:) whose classes ndl cannot "
					 "record and restore: remove it for the "
					 "run (tc qdisc del ... root) and set it "
					 "up again afterwards", q->q[i].kind,
					 q->q[i].handle >> 16);
				return -EBUSY;
			}
	return 0;
}

static void qdisc_msg(struct ndl_nlmsg *m, int type, unsigned short flags,
		      int ifindex, uint32_t parent, uint32_t handle,
		      const char *kind)
{
	memset(m, 0, sizeof(*m));
	m->nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	m->nh.nlmsg_type = (unsigned short)type;
	m->nh.nlmsg_flags = flags;
	m->tc.tcm_family = AF_UNSPEC;
	m->tc.tcm_ifindex = ifindex;
	m->tc.tcm_parent = parent;
	m->tc.tcm_handle = handle;
	if (kind)
		nl_attr(&m->nh, sizeof(*m), TCA_KIND, kind, strlen(kind) + 1);
}

int ndl_qdisc_install(int ifindex, const struct ndl_etf_cfg *cfg, char *why,
		      size_t len)
{
	struct tc_etf_qopt etf = { 0 };
	struct ndl_nlmsg m;
	uint32_t parent = TC_H_ROOT;
	char what[64];
	int err;

	if (cfg->ntxq > 1) {
		struct tc_mqprio_qopt mq = { 0 };
		struct ndl_mqprio_plan p;
		unsigned int i;

		err = ndl_mqprio_plan(cfg->ntxq, cfg->queue, cfg->prio, &p);
		if (err) {
			snprintf(why, len, "no mqprio layout for queue %u of %u, "
				 "priority %u", cfg->queue, cfg->ntxq, cfg->prio);
			return err;
		}
		mq.num_tc = (uint8_t)p.num_tc;
		memcpy(mq.prio_tc_map, p.prio_tc_map, sizeof(mq.prio_tc_map));
		mq.hw = 0;
		for (i = 0; i < p.num_tc; i++) {
			mq.count[i] = p.count[i];
			mq.offset[i] = p.offset[i];
		}
		qdisc_msg(&m, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, TC_H_ROOT, NDL_MQPRIO_HANDLE, "mqprio");
		nl_attr(&m.nh, sizeof(m), TCA_OPTIONS, &mq, sizeof(mq));
		err = ndl_nl_request(&m.nh, "mqprio root", why, len);
		if (err)
			return err;
		parent = NDL_MQPRIO_HANDLE | (cfg->queue + 1);
	}
	etf.delta = (int32_t)cfg->delta_ns;
	etf.clockid = CLOCK_TAI;
	etf.flags = cfg->offload ? TC_ETF_OFFLOAD_ON : 0;
	qdisc_msg(&m, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE, ifindex,
		  parent, 0, "etf");
	{
		/* TCA_OPTIONS { TCA_ETF_PARMS } */
		struct rtattr *nest = (struct rtattr *)((char *)&m.nh +
						NLMSG_ALIGN(m.nh.nlmsg_len));

		nl_attr(&m.nh, sizeof(m), TCA_OPTIONS, NULL, 0);
		nl_attr(&m.nh, sizeof(m), TCA_ETF_PARMS, &etf, sizeof(etf));
		nest->rta_len = (unsigned short)((char *)&m.nh +
				m.nh.nlmsg_len - (char *)nest);
	}
	snprintf(what, sizeof(what), "etf%s on TX queue %u",
		 cfg->offload ? " offload" : "", cfg->queue);
	return ndl_nl_request(&m.nh, what, why, len);
}

bool ndl_qdisc_same(const struct ndl_qdisc *a, const struct ndl_qdisc *b)
{
	return a->handle == b->handle && a->parent == b->parent &&
	       !strcmp(a->kind, b->kind) && a->optlen == b->optlen &&
	       !memcmp(a->opts, b->opts, a->optlen);
}

bool ndl_qdisc_has(const struct ndl_qdiscs *qs, const struct ndl_qdisc *q)
{
	for (size_t i = 0; i < qs->n; i++)
		if (ndl_qdisc_same(&qs->q[i], q))
			return true;
	return false;
}

const struct ndl_qdisc *ndl_qdisc_root(const struct ndl_qdiscs *qs)
{
	for (size_t i = 0; i < qs->n; i++)
		if (qs->q[i].parent == TC_H_ROOT)
			return &qs->q[i];
	return NULL;
}

void ndl_qdisc_str(const struct ndl_qdisc *q, char *buf, size_t len)
{
	char parent[24];

	if (q->parent == TC_H_ROOT)
		snprintf(parent, sizeof(parent), "root");
	else
		snprintf(parent, sizeof(parent), "parent %x:%x",
			 q->parent >> 16, q->parent & 0xffff);
	snprintf(buf, len, "%s %x: %s", q->kind, q->handle >> 16, parent);
}

bool ndl_qdisc_equal(const struct ndl_qdiscs *a, const struct ndl_qdiscs *b,
		     char *diff, size_t len)
{
	char s[64];
	size_t i, j;

	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n && !ndl_qdisc_same(&a->q[i], &b->q[j]); j++)
			;
		if (j == b->n) {
			ndl_qdisc_str(&a->q[i], s, sizeof(s));
			snprintf(diff, len, "%s is missing or has other options", s);
			return false;
		}
	}
	if (a->n != b->n) {
		snprintf(diff, len, "%zu qdiscs instead of %zu", b->n, a->n);
		return false;
	}
	return true;
}

void ndl_qdisc_describe(const struct ndl_qdiscs *q, char *buf, size_t len)
{
	char s[64];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < q->n && strlen(buf) + 1 < len; i++) {
		ndl_qdisc_str(&q->q[i], s, sizeof(s));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? "; " : "", s);
	}
}

int ndl_qdisc_del_root(int ifindex, char *why, size_t len)
{
	struct ndl_nlmsg m;
	int err;

	qdisc_msg(&m, RTM_DELQDISC, 0, ifindex, TC_H_ROOT, 0, NULL);
	err = ndl_nl_request(&m.nh, "delete the root qdisc", why, len);
	/* No root of its own (the default): nothing to delete. */
	return err == -ENOENT || err == -EINVAL ? 0 : err;
}

int ndl_qdisc_add(int ifindex, const struct ndl_qdisc *q, char *why,
		  size_t len)
{
	struct ndl_nlmsg m;
	char what[80];

	qdisc_msg(&m, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE, ifindex,
		  q->parent, q->handle, q->kind);
	if (q->optlen)
		nl_attr(&m.nh, sizeof(m), TCA_OPTIONS, q->opts, q->optlen);
	ndl_qdisc_str(q, what, sizeof(what));
	return ndl_nl_request(&m.nh, what, why, len);
}

/* Put back what saved records, into now (a dump's room). */
static int qdisc_restore(int ifindex, const struct ndl_qdiscs *saved,
			 struct ndl_qdiscs *now, char *why, size_t len)
{
	char diff[128];
	size_t i;
	int err;

	err = ndl_qdisc_dump(ifindex, now, why, len);
	if (err)
		return err;
	if (ndl_qdisc_equal(saved, now, diff, sizeof(diff)))
		return 0;	/* nothing was changed (or already restored) */
	/* Our root goes; the kernel attaches the device's defaults. */
	err = ndl_qdisc_del_root(ifindex, why, len);
	if (err)
		return err;
	for (i = 0; i < saved->n; i++) {
		/* Handle 0: a default, came back by itself. */
		if (saved->q[i].handle &&
		    (err = ndl_qdisc_add(ifindex, &saved->q[i], why, len)))
			return err;
	}
	err = ndl_qdisc_dump(ifindex, now, why, len);
	if (err)
		return err;
	if (!ndl_qdisc_equal(saved, now, diff, sizeof(diff))) {
		snprintf(why, len, "qdiscs differ after restoring: %s", diff);
		return -EIO;
	}
	return 0;
}

int ndl_qdisc_restore(int ifindex, const struct ndl_qdiscs *saved, char *why,
		      size_t len)
{
	/* Big: neither on the stack nor in TLS (a static build's threads). */
	struct ndl_qdiscs *now = malloc(sizeof(*now));
	int err;

	if (!now) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	err = qdisc_restore(ifindex, saved, now, why, len);
	free(now);
	return err;
}
