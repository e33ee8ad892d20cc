/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "rtnl": a network interface's 64-bit counters as the
 * kernel hands them over rtnetlink (RTM_GETLINK, IFLA_STATS64), named
 * rtnl:IFACE:FIELD with the fields of struct rtnl_link_stats64. Unlike the
 * sysfs files of provider "net", one request returns every field of an
 * interface at once, and an interface removed and re-created under the
 * same name is seen as gone (the counter keeps the ifindex it opened).
 * It reads the caller's network namespace; fake sysfs trees do not apply.
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct tele_rtnl_field {
	const char *name;
	size_t off;
};

#define F(x) { #x, offsetof(struct rtnl_link_stats64, x) }
static const struct tele_rtnl_field tele_rtnl_fields[] = {
	F(rx_packets), F(tx_packets), F(rx_bytes), F(tx_bytes),
	F(rx_errors), F(tx_errors), F(rx_dropped), F(tx_dropped),
	F(multicast), F(collisions), F(rx_length_errors), F(rx_over_errors),
	F(rx_crc_errors), F(rx_frame_errors), F(rx_fifo_errors),
	F(rx_missed_errors), F(tx_aborted_errors), F(tx_carrier_errors),
	F(tx_fifo_errors), F(tx_heartbeat_errors), F(tx_window_errors),
	F(rx_compressed), F(tx_compressed), F(rx_nohandler),
};
#undef F
#define TELE_RTNL_NFIELDS (sizeof(tele_rtnl_fields) / sizeof(tele_rtnl_fields[0]))

/* Large enough for one RTM_NEWLINK of an ordinary interface. */
#define TELE_RTNL_BUF 32768

static int tele_rtnl_list(const struct tele_env *env, tele_add_fn add,
			  void *arg, char *why, size_t len)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	char name[TELE_NAME_LEN];

	(void)env;
	if (!ifs) {
		snprintf(why, len, "cannot list network interfaces: %s", strerror(errno));
		return -errno;
	}
	for (i = ifs; i->if_index; i++)
		for (size_t k = 0; k < TELE_RTNL_NFIELDS; k++) {
			snprintf(name, sizeof(name), "rtnl:%s:%s", i->if_name,
				 tele_rtnl_fields[k].name);
			add(arg, name);
		}
	if_freenameindex(ifs);
	return 0;
}

static const struct tele_rtnl_field *tele_rtnl_field(const char *name)
{
	for (size_t k = 0; k < TELE_RTNL_NFIELDS; k++)
		if (!strcmp(tele_rtnl_fields[k].name, name))
			return &tele_rtnl_fields[k];
	return NULL;
}

static int tele_rtnl_open(const struct tele_env *env, const char *id,
			  struct tele_counter *c, char *why, size_t len)
{
	const char *field = strchr(id, ':');
	const struct tele_rtnl_field *f;
	char ifname[IF_NAMESIZE];
	unsigned idx;

	(void)env;
	if (!field || field == id || (size_t)(field - id) >= IF_NAMESIZE) {
		snprintf(why, len, "'%s' is not IFACE:FIELD", id);
		return -EINVAL;
	}
	f = tele_rtnl_field(field + 1);
	if (!f) {
		snprintf(why, len, "'%s' is not a field of rtnl_link_stats64 (rx_packets, tx_bytes, rx_dropped, ...)",
			 field + 1);
		return -EINVAL;
	}
	snprintf(ifname, sizeof(ifname), "%.*s", (int)(field - id), id);
	idx = if_nametoindex(ifname);
	if (!idx) {
		snprintf(why, len, "no network interface '%s' here", ifname);
		return -ENODEV;
	}
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (c->fd < 0) {
		snprintf(why, len, "cannot open a NETLINK_ROUTE socket: %s", strerror(errno));
		return -errno;
	}
	c->col = (int)idx;
	c->aux = (uint32_t)f->off;
	c->unit = strstr(f->name, "bytes") ? "bytes"
		: strstr(f->name, "packets") ? "packets" : "count";
	c->bits = 64;
	return 0;
}

/* IFLA_STATS64 of the RTM_NEWLINK in buf, or -errno from an NLMSG_ERROR. */
static int tele_rtnl_parse(const char *buf, ssize_t n, struct rtnl_link_stats64 *st)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;

	for (; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
		const struct ifinfomsg *ifi = NLMSG_DATA(nh);
		const struct rtattr *a = IFLA_RTA(ifi);
		int alen = (int)IFLA_PAYLOAD(nh);

		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			return e->error ? e->error : -EIO;
		}
		if (nh->nlmsg_type != RTM_NEWLINK)
			continue;
		for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen))
			if (a->rta_type == IFLA_STATS64 && RTA_PAYLOAD(a) >= sizeof(*st)) {
				memcpy(st, RTA_DATA(a), sizeof(*st));
				return 0;
			}
		return -EPROTO;
	}
	return -EPROTO;
}

static int tele_rtnl_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req = {
		.nh = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
			.nlmsg_type = RTM_GETLINK, .nlmsg_flags = NLM_F_REQUEST,
			.nlmsg_seq = (uint32_t)gen },
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = c->col },
	};
	struct rtnl_link_stats64 st;
	static __thread char buf[TELE_RTNL_BUF];
	ssize_t n;
	int ret;

	if (send(c->fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(c->fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	ret = tele_rtnl_parse(buf, n, &st);
	if (ret)
		return ret == -ENODEV || ret == -ENOENT ? -ENODEV : ret;
	memcpy(raw, (const char *)&st + c->aux, sizeof(*raw));
	return 0;
}

static void tele_rtnl_close(struct tele_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

const struct tele_provider tele_rtnl = {
	.name = "rtnl",
	.ids = "IFACE:FIELD (rtnetlink IFLA_STATS64: rx_packets, tx_bytes, rx_dropped, ...)",
	.list = tele_rtnl_list,
	.open = tele_rtnl_open,
	.read = tele_rtnl_read,
	.close = tele_rtnl_close,
};
