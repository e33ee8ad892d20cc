/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "ethtool": the driver's own statistics of a network
 * interface, as `ethtool -S IFACE` shows them, named ethtool:IFACE:STAT.
 * The SIOCETHTOOL ioctl: ETHTOOL_GSSET_INFO for how many there are,
 * ETHTOOL_GSTRINGS for their names (once, at open), ETHTOOL_GSTATS for
 * every value (each read). What a driver counts, and whether a value is a
 * counter at all, is the driver's business (veth, for one, also reports
 * its peer's ifindex).
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* More than any driver reports; bounds what one read allocates. */
#define TELE_ETHTOOL_MAX 65536

static int tele_ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/* How many ETH_SS_STATS strings the driver has: >= 0, or -errno. */
static int tele_ethtool_count(int fd, const char *ifname)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_STATS } };
	int ret = tele_ethtool_ioctl(fd, ifname, &info);

	if (ret)
		return ret;
	if (!(info.hdr.sset_mask & (1ULL << ETH_SS_STATS)))
		return 0;
	return info.len > TELE_ETHTOOL_MAX ? -E2BIG : (int)info.len;
}

/* The n names, ETH_GSTRING_LEN bytes each; free() it. NULL on error. */
static struct ethtool_gstrings *tele_ethtool_names(int fd, const char *ifname,
						   int n)
{
	struct ethtool_gstrings *gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);

	if (!gs)
		return NULL;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)n;
	if (tele_ethtool_ioctl(fd, ifname, gs) || gs->len != (uint32_t)n) {
		free(gs);
		return NULL;
	}
	return gs;
}

static const char *tele_ethtool_name(const struct ethtool_gstrings *gs, int i)
{
	return (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;
}

static void tele_ethtool_list_if(int fd, const char *ifname, tele_add_fn add,
				 void *arg)
{
	char name[TELE_NAME_LEN];
	struct ethtool_gstrings *gs;
	int n = tele_ethtool_count(fd, ifname);

	if (n <= 0 || !(gs = tele_ethtool_names(fd, ifname, n)))
		return;
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ethtool:%s:%.*s", ifname,
			 ETH_GSTRING_LEN, tele_ethtool_name(gs, i));
		add(arg, name);
	}
	free(gs);
}

static int tele_ethtool_list(const struct tele_env *env, tele_add_fn add,
			     void *arg, char *why, size_t len)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	(void)env;
	if (!ifs || fd < 0) {
		snprintf(why, len, "cannot list network interfaces: %s", strerror(errno));
		if (ifs)
			if_freenameindex(ifs);
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	for (i = ifs; i->if_index; i++)
		tele_ethtool_list_if(fd, i->if_name, add, arg);
	if_freenameindex(ifs);
	close(fd);
	return 0;
}

/* Index of stat in the driver's list, -ENOENT, or another -errno. */
static int tele_ethtool_find(int fd, const char *ifname, const char *stat,
			     int *count)
{
	struct ethtool_gstrings *gs;
	int n = tele_ethtool_count(fd, ifname), found = -ENOENT;

	if (n <= 0)
		return n ? n : -EOPNOTSUPP;
	gs = tele_ethtool_names(fd, ifname, n);
	if (!gs)
		return -EIO;
	for (int i = 0; i < n && found < 0; i++)
		if (!strncmp(tele_ethtool_name(gs, i), stat, ETH_GSTRING_LEN))
			found = i;
	free(gs);
	*count = n;
	return found;
}

static int tele_ethtool_open(const struct tele_env *env, const char *id,
			     struct tele_counter *c, char *why, size_t len)
{
	const char *stat = strchr(id, ':');
	int n = 0, idx;

	(void)env;
	if (!stat || stat == id || (size_t)(stat - id) >= IF_NAMESIZE ||
	    strlen(stat + 1) >= ETH_GSTRING_LEN) {
		snprintf(why, len, "'%s' is not IFACE:STAT", id);
		return -EINVAL;
	}
	snprintf(c->key, sizeof(c->key), "%.*s", (int)(stat - id), id);
	c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		snprintf(why, len, "cannot open a socket for SIOCETHTOOL: %s", strerror(errno));
		return -errno;
	}
	idx = tele_ethtool_find(c->fd, c->key, stat + 1, &n);
	if (idx < 0) {
		snprintf(why, len, idx == -ENOENT ? "driver of %s has no statistic '%s' (see ethtool -S %s)"
			 : "driver of %s reports no ethtool statistics (%s: %s)",
			 c->key, idx == -ENOENT ? stat + 1 : "ETHTOOL_GSSET_INFO",
			 idx == -ENOENT ? c->key : strerror(-idx));
		close(c->fd);
		c->fd = -1;
		return idx == -ENOENT ? -ENOENT : idx;
	}
	c->col = idx;
	c->aux = (uint32_t)n;
	c->unit = strstr(stat, "bytes") ? "bytes" : strstr(stat, "packets") ? "packets" : "count";
	c->bits = 64;
	return 0;
}

static int tele_ethtool_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	/* GSTATS writes as many values as the driver has now, whatever
	 * n_stats says: check the count first so the buffer holds them. */
	int n = tele_ethtool_count(c->fd, c->key), ret;
	struct ethtool_stats *st;

	(void)gen;
	if (n < 0)
		return n;
	if ((uint32_t)n != c->aux)
		return -ENODEV;	/* a different driver or set: not our counter */
	st = malloc(sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = c->aux;
	ret = tele_ethtool_ioctl(c->fd, c->key, st);
	if (!ret && st->n_stats != c->aux)
		ret = -ENODEV;	/* a different driver or set: not our counter */
	if (!ret)
		*raw = st->data[c->col];
	free(st);
	return ret;
}

static void tele_ethtool_close(struct tele_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

const struct tele_provider tele_ethtool = {
	.name = "ethtool",
	.ids = "IFACE:STAT (the driver's statistics, as ethtool -S IFACE names them)",
	.list = tele_ethtool_list,
	.open = tele_ethtool_open,
	.read = tele_ethtool_read,
	.close = tele_ethtool_close,
};
