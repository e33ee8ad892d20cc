/* SPDX-License-Identifier: MIT */
/* Launch-time packets with SO_TXTIME; see ndl_tx.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <sys/socket.h>

#include "ndl_tx.h"

#ifndef SO_TXTIME
#define SO_TXTIME 61
#define SCM_TXTIME SO_TXTIME
#endif
#ifndef SO_EE_ORIGIN_TXTIME
#define SO_EE_ORIGIN_TXTIME 6
#define SO_EE_CODE_TXTIME_INVALID_PARAM 1
#define SO_EE_CODE_TXTIME_MISSED 2
#endif

int ndl_tx_open(struct ndl_tx *t, int ifindex, const uint8_t dst[6],
		unsigned int prio, char *why, size_t len)
{
	struct sock_txtime tx = { .clockid = CLOCK_TAI,
				  .flags = SOF_TXTIME_REPORT_ERRORS };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(NDL_ETHERTYPE),
				   .sll_ifindex = ifindex };
	int p = (int)prio, err;

	t->ifindex = ifindex;
	t->seq = 0;
	memcpy(t->dst, dst, 6);
	t->fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(NDL_ETHERTYPE));
	if (t->fd < 0) {
		err = -errno;
		snprintf(why, len, "packet socket: %s%s", strerror(errno),
			 errno == EPERM ? " (needs CAP_NET_RAW: run as root)" : "");
		return err;
	}
	if (bind(t->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		err = -errno;
		snprintf(why, len, "bind to interface %d: %s", ifindex,
			 strerror(errno));
		goto fail;
	}
	if (setsockopt(t->fd, SOL_SOCKET, SO_PRIORITY, &p, sizeof(p)) < 0) {
		err = -errno;
		snprintf(why, len, "SO_PRIORITY %u: %s", prio, strerror(errno));
		goto fail;
	}
	if (setsockopt(t->fd, SOL_SOCKET, SO_TXTIME, &tx, sizeof(tx)) < 0) {
		err = -errno;
		snprintf(why, len, "SO_TXTIME: %s (kernel older than 4.19?)",
			 strerror(errno));
		goto fail;
	}
	return 0;
fail:
	close(t->fd);
	t->fd = -1;
	return err;
}

int ndl_tx_send(struct ndl_tx *t, uint64_t txtime_ns, char *why, size_t len)
{
	unsigned char payload[NDL_PAYLOAD] = "wultfw-ndl";
	char control[CMSG_SPACE(sizeof(uint64_t))];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(NDL_ETHERTYPE),
				   .sll_ifindex = t->ifindex, .sll_halen = 6 };
	struct iovec iov = { payload, sizeof(payload) };
	struct msghdr msg = { .msg_name = &sll, .msg_namelen = sizeof(sll),
			      .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *c;
	uint32_t seq = htonl(t->seq++);

	memcpy(sll.sll_addr, t->dst, 6);
	memcpy(payload + 12, &seq, sizeof(seq));
	memcpy(payload + 16, &txtime_ns, sizeof(txtime_ns));
	memset(control, 0, sizeof(control));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_TXTIME;
	c->cmsg_len = CMSG_LEN(sizeof(uint64_t));
	memcpy(CMSG_DATA(c), &txtime_ns, sizeof(txtime_ns));
	if (sendmsg(t->fd, &msg, 0) < 0) {
		int err = -errno;

		snprintf(why, len, "sending the launch-time packet: %s",
			 strerror(errno));
		return err;
	}
	return 0;
}

int ndl_tx_drops(struct ndl_tx *t, int *last_code)
{
	int drops = 0;

	for (;;) {
		char control[256], data[128];
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = control,
				      .msg_controllen = sizeof(control) };
		struct cmsghdr *c;

		if (recvmsg(t->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return drops;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			struct sock_extended_err ee;

			if (c->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			if (ee.ee_origin == SO_EE_ORIGIN_TXTIME) {
				drops++;
				if (last_code)
					*last_code = ee.ee_code;
			}
		}
	}
}

void ndl_tx_close(struct ndl_tx *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

const char *ndl_tx_code_str(int code)
{
	switch (code) {
	case SO_EE_CODE_TXTIME_MISSED:
		return "launch time already past when the qdisc dequeued it";
	case SO_EE_CODE_TXTIME_INVALID_PARAM:
		return "launch time invalid (before the previous one or in the past)";
	default:
		return "unknown reason";
	}
}
