/* SPDX-License-Identifier: MIT */
/* A veth pair for the ndl tests, over rtnetlink (tests/ndl/veth.c). */
#ifndef NDL_TEST_VETH_H
#define NDL_TEST_VETH_H

#include <stddef.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

struct ndl_test_msg {
	struct nlmsghdr nh;
	char buf[4096];
};

/* Append attribute type (len bytes of data) to nh; returns it. */
struct rtattr *ndl_test_attr(struct nlmsghdr *nh, unsigned short type,
			     const void *data, size_t len);
/* veth pair name <-> peer with nq TX and RX queues each: 0 or -errno. */
int ndl_test_veth(const char *name, const char *peer, unsigned int nq,
		  char *why, size_t len);
/* Bring ifindex up: 0 or -errno. */
int ndl_test_link_up(int ifindex, char *why, size_t len);

#endif
