/* SPDX-License-Identifier: MIT */
/*
 * What an ndl run does to an interface before it is killed, for the QEMU
 * test (tests/vm/ndl.sh): without an I210 the ndl source cannot run, so
 * this does its qdisc part with ndl's own code and the core's state file
 * code -- the record (ndl_keep), remembered in /run/wultfw/PID.state
 * (fsynced) before mqprio + etf go on -- then waits to be killed with
 * kill -9. The real `wultfw restore` and the next `wultfw` run must then
 * load the ndl plugin and put the qdiscs back.
 *
 *   vmtest_ndl_kill veth NAME PEER NQUEUES
 *   vmtest_ndl_kill hold IFNAME QUEUE user|default
 *
 * veth makes a pair with NQUEUES TX queues, up. hold changes the qdiscs
 * and waits; "user" first puts a root pfifo 5: (limit 77) on IFNAME, a
 * configuration of someone's own that the restore must set up again.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <net/if.h>

#include "ndl_keep.h"
#include "ndl_qdisc.h"
#include "restore.h"
#include "restore_plugin.h"
#include "veth.h"

static struct ndl_qdiscs saved;
static struct ndl_keep keep;

/* Only undo calls it, and this process is killed before any undo. */
int wfw_restore_plugin_change(const struct wfw_change *c, const char *tool)
{
	(void)c;
	(void)tool;
	return -ENOSYS;
}

static int user_root(int ifindex, char *why, size_t len)
{
	struct tc_fifo_qopt o = { .limit = 77 };
	struct ndl_qdisc q = { .handle = 0x50000, .parent = TC_H_ROOT,
			       .kind = "pfifo", .optlen = sizeof(o) };

	memcpy(q.opts, &o, sizeof(o));
	return ndl_qdisc_add(ifindex, &q, why, len);
}

/* ndl_start()'s order: remembered (fsynced), then changed. */
static int remember_then_install(int ifindex, const struct ndl_etf_cfg *cfg,
				 const char *ifname)
{
	char data[WULTFW_RESTORE_DATA_MAX], what[180], msg[200], why[512];
	int err;

	err = ndl_qdisc_dump(ifindex, &saved, why, sizeof(why));
	if (err)
		return fprintf(stderr, "dump: %s\n", why), err;
	ndl_keep_init(&keep, ifindex, ifname, cfg->ntxq, cfg->queue, &saved);
	err = ndl_keep_encode(&keep, data, sizeof(data), why, sizeof(why));
	if (err)
		return fprintf(stderr, "record: %s\n", why), err;
	ndl_keep_what(&keep, what, sizeof(what));
	snprintf(msg, sizeof(msg), "ndl: %s", what);	/* as the core says it */
	err = wfw_restore_remember_plugin("ndl", msg, data, why, sizeof(why));
	if (err < 0)
		return fprintf(stderr, "remember: %s\n", why), err;
	err = ndl_qdisc_install(ifindex, cfg, why, sizeof(why));
	if (err)
		fprintf(stderr, "install: %s\n", why);
	return err;
}

static unsigned int txqueues(const char *ifname)
{
	char path[128];
	unsigned int n = 0;

	for (;; n++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/tx-%u", ifname, n);
		if (access(path, F_OK))
			return n;
	}
}

static int veth(const char *name, const char *peer, unsigned int nq)
{
	char why[512];

	if (ndl_test_veth(name, peer, nq, why, sizeof(why)) ||
	    ndl_test_link_up((int)if_nametoindex(name), why, sizeof(why)) ||
	    ndl_test_link_up((int)if_nametoindex(peer), why, sizeof(why)))
		return fprintf(stderr, "veth %s: %s\n", name, why), 1;
	return 0;
}

static int hold(const char *ifname, const char *queue, bool user)
{
	struct ndl_etf_cfg cfg = { .prio = 6, .delta_ns = 5000000ULL };
	int ifindex = (int)if_nametoindex(ifname);
	char why[512];

	if (!ifindex)
		return fprintf(stderr, "%s: no such interface\n", ifname), 1;
	cfg.ntxq = txqueues(ifname);
	cfg.queue = (unsigned int)atoi(queue);
	if (user && user_root(ifindex, why, sizeof(why)))
		return fprintf(stderr, "pfifo root: %s\n", why), 1;
	if (remember_then_install(ifindex, &cfg, ifname))
		return 1;
	printf("held: %u TX queues, qdiscs changed, waiting for kill -9\n", cfg.ntxq);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "veth"))
		return veth(argv[2], argv[3], (unsigned int)atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "hold") &&
	    (!strcmp(argv[4], "user") || !strcmp(argv[4], "default")))
		return hold(argv[2], argv[3], !strcmp(argv[4], "user"));
	fprintf(stderr, "usage: vmtest_ndl_kill veth NAME PEER NQUEUES\n"
		"       vmtest_ndl_kill hold IFNAME QUEUE user|default\n");
	return 2;
}
