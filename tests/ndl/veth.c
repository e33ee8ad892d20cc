/* SPDX-License-Identifier: MIT */
/*
 * A veth pair and its links up, over rtnetlink: what the ndl tests put
 * their qdiscs on (tests/ndl/test_ndl_net.c, tests/vm/vmtest_ndl_kill.c).
 */
#include <string.h>

#include <linux/if_link.h>
#include <linux/veth.h>
#include <net/if.h>

#include "ndl_qdisc.h"
#include "veth.h"

struct rtattr *ndl_test_attr(struct nlmsghdr *nh, unsigned short type,
			     const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void nest_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)nh + nh->nlmsg_len - (char *)nest);
}

/* One end's name and queue counts. */
static void veth_end(struct nlmsghdr *nh, const char *name, unsigned int nq)
{
	ndl_test_attr(nh, IFLA_IFNAME, name, strlen(name) + 1);
	ndl_test_attr(nh, IFLA_NUM_TX_QUEUES, &nq, sizeof(nq));
	ndl_test_attr(nh, IFLA_NUM_RX_QUEUES, &nq, sizeof(nq));
}

int ndl_test_veth(const char *name, const char *peer, unsigned int nq,
		  char *why, size_t len)
{
	struct ndl_test_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *li, *data, *p;

	memset(&m, 0, sizeof(m));
	m.nh.nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
	m.nh.nlmsg_type = RTM_NEWLINK;
	m.nh.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	memcpy(NLMSG_DATA(&m.nh), &ifi, sizeof(ifi));
	veth_end(&m.nh, name, nq);
	li = ndl_test_attr(&m.nh, IFLA_LINKINFO, NULL, 0);
	ndl_test_attr(&m.nh, IFLA_INFO_KIND, "veth", 5);
	data = ndl_test_attr(&m.nh, IFLA_INFO_DATA, NULL, 0);
	p = ndl_test_attr(&m.nh, VETH_INFO_PEER, NULL, 0);
	/* The peer's ifinfomsg, then its attributes. */
	memcpy((char *)&m.nh + m.nh.nlmsg_len, &ifi, sizeof(ifi));
	m.nh.nlmsg_len += NLMSG_ALIGN(sizeof(ifi));
	veth_end(&m.nh, peer, nq);
	nest_end(&m.nh, p);
	nest_end(&m.nh, data);
	nest_end(&m.nh, li);
	return ndl_nl_request(&m.nh, "create veth", why, len);
}

int ndl_test_link_up(int ifindex, char *why, size_t len)
{
	struct ndl_test_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex,
				 .ifi_flags = IFF_UP, .ifi_change = IFF_UP };

	memset(&m, 0, sizeof(m));
	m.nh.nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
	m.nh.nlmsg_type = RTM_NEWLINK;
	memcpy(NLMSG_DATA(&m.nh), &ifi, sizeof(ifi));
	return ndl_nl_request(&m.nh, "link up", why, len);
}
