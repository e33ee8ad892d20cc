/* SPDX-License-Identifier: MIT */
/* PHC offset and steps; see ndl_phc.h. */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "ndl_phc.h"

int ndl_phc_index(const char *ifname, char *why, size_t len)
{
	struct ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return -errno;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		err = -errno;
		snprintf(why, len, "%s: ETHTOOL_GET_TS_INFO: %s", ifname,
			 strerror(errno));
		close(fd);
		return err;
	}
	close(fd);
	if (info.phc_index < 0) {
		snprintf(why, len, "%s has no PTP hardware clock (ethtool -T %s)",
			 ifname, ifname);
		return -ENODEV;
	}
	return info.phc_index;
}

clockid_t ndl_phc_clockid(int fd)
{
	return (clockid_t)((~(unsigned int)fd << 3) | 3);
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

int ndl_clock_offset(clockid_t clk, clockid_t ref, int64_t *off_ns,
		     int64_t *gap_ns)
{
	int64_t best = INT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		struct timespec a, c, b;
		int64_t gap;

		if (clock_gettime(ref, &a) || clock_gettime(clk, &c) ||
		    clock_gettime(ref, &b))
			return -errno;
		gap = ts_ns(&b) - ts_ns(&a);
		if (gap < best) {
			best = gap;
			*off_ns = ts_ns(&c) - (ts_ns(&a) + gap / 2);
		}
	}
	*gap_ns = best;
	return 0;
}

int ndl_clock_step(clockid_t clk, int64_t off_ns)
{
	struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO };
	int64_t d = -off_ns;

	tx.time.tv_sec = d / 1000000000LL;
	tx.time.tv_usec = d % 1000000000LL;	/* ns with ADJ_NANO */
	if (tx.time.tv_usec < 0) {
		tx.time.tv_sec -= 1;
		tx.time.tv_usec += 1000000000LL;
	}
	return clock_adjtime(clk, &tx) < 0 ? -errno : 0;
}
