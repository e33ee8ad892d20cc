/*
 * The ndl plugin's qdisc and SO_TXTIME code against a real kernel, on a
 * veth pair with 4 TX queues in a network namespace of its own (nothing
 * outside the namespace is touched). Root only; plain C so tests/vm can
 * build it statically and run it under Debian's kernel, whose etf and
 * mqprio modules the VM loads.
 *
 * Exit 0: all passed; 1: a check failed; 77: skipped (not root, no
 * namespaces/veth, or the kernel has no etf/mqprio qdisc -- the checks
 * that need no ETF still run first and can fail).
 *
 * Checks: a user's root qdisc (pfifo 5: limit 77) is recorded, replaced by
 * mqprio + etf, and restored exactly; the default root too; a failed
 * install is undone; a packet with the ETF priority leaves no earlier than
 * txtime - delta while one with another priority leaves at once (so the
 * mqprio steering is right); a launch time in the past is reported
 * through the error queue.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>

#include <linux/errqueue.h>

#include "ndl_qdisc.h"
#include "ndl_tx.h"
#include "veth.h"

#define NTXQ 4
#define QUEUE 1
#define PRIO 5
/* Software ETF wakes up by an hrtimer at txtime - delta; under QEMU TCG
 * that timer can be late by more than 200 us, so give it 5 ms. */
#define DELTA_NS 5000000ULL
#define AHEAD_NS 60000000ULL	/* launch 60 ms ahead */

static int failures;

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("ndl-net %s %s", ok ? "PASS" : "FAIL", name);
	if (!ok) {
		failures++;
		printf(": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

static void skip(const char *why)
{
	printf("ndl-net SKIP: %s\n", why);
	exit(failures ? 1 : 77);
}

static uint64_t tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A user's own configuration: root pfifo 5: with limit 77. */
static int set_pfifo_root(int ifindex, char *why, size_t len)
{
	struct ndl_test_msg m;
	struct tcmsg tc = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex,
			    .tcm_parent = TC_H_ROOT, .tcm_handle = 0x50000 };
	struct tc_fifo_qopt o = { .limit = 77 };

	memset(&m, 0, sizeof(m));
	m.nh.nlmsg_len = NLMSG_LENGTH(sizeof(tc));
	m.nh.nlmsg_type = RTM_NEWQDISC;
	m.nh.nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	memcpy(NLMSG_DATA(&m.nh), &tc, sizeof(tc));
	ndl_test_attr(&m.nh, TCA_KIND, "pfifo", 6);
	ndl_test_attr(&m.nh, TCA_OPTIONS, &o, sizeof(o));
	return ndl_nl_request(&m.nh, "root pfifo", why, len);
}

static const struct ndl_qdisc *find_kind(const struct ndl_qdiscs *q,
					 const char *kind)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (!strcmp(q->q[i].kind, kind))
			return &q->q[i];
	return NULL;
}

/* Receive our frame on the peer: its arrival time (TAI ns) or 0. */
static uint64_t receive(int rx, uint32_t want_seq, int timeout_ms)
{
	unsigned char buf[256];
	struct pollfd p = { .fd = rx, .events = POLLIN };
	uint64_t end = tai_ns() + (uint64_t)timeout_ms * 1000000ULL;

	while (tai_ns() < end) {
		uint32_t seq;
		ssize_t n;

		if (poll(&p, 1, 10) <= 0)
			continue;
		n = recv(rx, buf, sizeof(buf), 0);
		if (n < 16 || memcmp(buf, "wultfw-ndl", 10))
			continue;
		memcpy(&seq, buf + 12, sizeof(seq));
		if (ntohl(seq) == want_seq)
			return tai_ns();
	}
	return 0;
}

/*
 * One frame through ETF, launched AHEAD_NS from now: when it arrived, or 0.
 * Software ETF drops a frame whose hrtimer fired after its launch time;
 * an emulated machine under load can be that late, so that counts as a
 * retry (said on stdout), not as a failure of the qdisc setup.
 */
#define ETF_TRIES 5
static uint64_t send_etf(struct ndl_tx *t, int rx, uint64_t *txtime)
{
	char why[256];
	int code = -1;

	for (int i = 0; i < ETF_TRIES; i++) {
		uint64_t got;

		*txtime = tai_ns() + AHEAD_NS;
		check(!ndl_tx_send(t, *txtime, why, sizeof(why)), "send-etf",
		      "%s", why);
		got = receive(rx, 0, 1000);
		if (got)
			return got;
		if (ndl_tx_drops(t, &code))
			printf("ndl-net etf try %d dropped: %s\n", i + 1,
			       ndl_tx_code_str(code));
	}
	return 0;
}

static void send_checks(int if0, int if1)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(NDL_ETHERTYPE),
				   .sll_ifindex = if1 };
	struct ndl_tx t, other;
	uint64_t txtime, got;
	char why[256];
	int rx, code = -1, drops = 0, i;

	rx = socket(AF_PACKET, SOCK_DGRAM, htons(NDL_ETHERTYPE));
	check(rx >= 0 && !bind(rx, (struct sockaddr *)&sll, sizeof(sll)),
	      "rx-socket", "%s", strerror(errno));
	check(!ndl_tx_open(&t, if0, bcast, PRIO, why, sizeof(why)), "tx-open",
	      "%s", why);
	check(!ndl_tx_open(&other, if0, bcast, 0, why, sizeof(why)),
	      "tx-open-other-prio", "%s", why);

	/* Through ETF: held until txtime - delta. */
	got = send_etf(&t, rx, &txtime);
	check(got != 0, "etf-arrives", "no frame within 1 s in %d tries",
	      ETF_TRIES);
	check(got >= txtime - DELTA_NS, "etf-held-until-launch",
	      "arrived %.3f ms before txtime - delta",
	      (double)(txtime - DELTA_NS - got) / 1e6);
	check(got < txtime + 50000000ULL, "etf-not-late",
	      "arrived %.3f ms after txtime", (double)(got - txtime) / 1e6);

	/* Another priority must not go through the ETF queue. */
	txtime = tai_ns() + AHEAD_NS;
	check(!ndl_tx_send(&other, txtime, why, sizeof(why)), "send-other",
	      "%s", why);
	got = receive(rx, 0, 1000);
	check(got && got < txtime - AHEAD_NS / 2, "other-prio-not-etf",
	      "frame with priority 0 arrived %s",
	      got ? "late: it went through the ETF queue" : "never");

	/* A launch time in the past: ETF refuses it at enqueue (ENOBUFS)
	 * and reports it on the error queue. */
	check(ndl_tx_drops(&t, &code) == 0, "no-drops-yet", "code %d", code);
	check(ndl_tx_send(&t, tai_ns() - 1000000ULL, why, sizeof(why)) ==
	      -ENOBUFS, "send-past-refused", "%s", why);
	for (i = 0; i < 100 && !drops; i++) {
		usleep(10000);
		drops = ndl_tx_drops(&t, &code);
	}
	check(drops == 1 && code == SO_EE_CODE_TXTIME_INVALID_PARAM,
	      "past-txtime-reported", "%d drops reported (code %d)", drops, code);
	check(receive(rx, 1, 100) == 0, "past-txtime-not-sent",
	      "the frame with a past launch time was sent");
	printf("ndl-net past launch time: %s\n", ndl_tx_code_str(code));
	ndl_tx_close(&t);
	ndl_tx_close(&other);
	close(rx);
}

/* Both ends of a veth pair with NTXQ queues, up, in a new namespace. */
static void setup(int *if0, int *if1)
{
	char why[256];

	if (geteuid())
		skip("needs root");
	if (unshare(CLONE_NEWNET))
		skip("unshare(CLONE_NEWNET) failed");
	if (ndl_test_veth("ndlv0", "ndlv1", NTXQ, why, sizeof(why)))
		skip(why);
	*if0 = (int)if_nametoindex("ndlv0");
	*if1 = (int)if_nametoindex("ndlv1");
	check(*if0 > 0 && *if1 > 0, "veth", "no ndlv0/ndlv1");
	check(!ndl_test_link_up(*if0, why, sizeof(why)) &&
	      !ndl_test_link_up(*if1, why, sizeof(why)), "link-up", "%s", why);
}

/* A failed install (no ETF or mqprio here) must be undone; then skip. */
static void install_failed(int if0, const struct ndl_qdiscs *saved,
			   const char *err)
{
	struct ndl_qdiscs now;
	char why[256], diff[128];

	printf("ndl-net install: %s\n", err);
	check(strstr(err, "mqprio") || strstr(err, "etf"),
	      "install-error-names-qdisc", "%s", err);
	check(!ndl_qdisc_restore(if0, saved, why, sizeof(why)),
	      "restore-after-failed-install", "%s", why);
	check(!ndl_qdisc_dump(if0, &now, why, sizeof(why)) &&
	      ndl_qdisc_equal(saved, &now, diff, sizeof(diff)),
	      "unchanged-after-failed-install", "%s", diff);
	skip("no etf/mqprio qdisc in this kernel (CONFIG_NET_SCH_ETF, "
	     "CONFIG_NET_SCH_MQPRIO); the VM test runs the rest");
}

/* Restore `saved`, check it is exactly back; `name` prefixes the checks. */
static void restore_checked(int if0, const struct ndl_qdiscs *saved,
			    const char *name)
{
	struct ndl_qdiscs now;
	char why[256], diff[128], label[64];

	snprintf(label, sizeof(label), "%s-restore", name);
	check(!ndl_qdisc_restore(if0, saved, why, sizeof(why)), label, "%s", why);
	snprintf(label, sizeof(label), "%s-restored-exactly", name);
	check(!ndl_qdisc_dump(if0, &now, why, sizeof(why)) &&
	      ndl_qdisc_equal(saved, &now, diff, sizeof(diff)), label, "%s", diff);
}

/* 1. A user's root qdisc (pfifo 5:) survives a run. */
static void user_root_case(int if0, int if1, const struct ndl_etf_cfg *cfg)
{
	struct ndl_qdiscs saved, now;
	const struct ndl_qdisc *q;
	char why[256], desc[512];

	check(!set_pfifo_root(if0, why, sizeof(why)), "user-root", "%s", why);
	check(!ndl_qdisc_dump(if0, &saved, why, sizeof(why)), "dump", "%s", why);
	q = find_kind(&saved, "pfifo");
	check(q && q->handle == 0x50000 && q->parent == TC_H_ROOT,
	      "dump-sees-pfifo", "pfifo 5: root not in the dump");
	ndl_qdisc_describe(&saved, desc, sizeof(desc));
	printf("ndl-net before: %s\n", desc);
	if (ndl_qdisc_install(if0, cfg, why, sizeof(why)))
		install_failed(if0, &saved, why);
	check(1, "install", "");
	check(!ndl_qdisc_dump(if0, &now, why, sizeof(why)), "dump-after", "%s", why);
	ndl_qdisc_describe(&now, desc, sizeof(desc));
	printf("ndl-net during: %s\n", desc);
	q = find_kind(&now, "mqprio");
	check(q && q->handle == NDL_MQPRIO_HANDLE && q->parent == TC_H_ROOT,
	      "mqprio-root", "%s", desc);
	q = find_kind(&now, "etf");
	check(q && q->parent == (NDL_MQPRIO_HANDLE | (QUEUE + 1)),
	      "etf-on-queue", "%s", desc);

	send_checks(if0, if1);

	restore_checked(if0, &saved, "user");
	/* Restoring twice changes nothing (close() after a failed stop). */
	check(!ndl_qdisc_restore(if0, &saved, why, sizeof(why)),
	      "restore-idempotent", "%s", why);
}

/* Remove the root qdisc, leaving the device's default (noqueue on veth). */
static void delete_root(int if0)
{
	struct ndl_test_msg m;
	struct tcmsg tc = { .tcm_family = AF_UNSPEC, .tcm_ifindex = if0,
			    .tcm_parent = TC_H_ROOT };
	char why[256];

	memset(&m, 0, sizeof(m));
	m.nh.nlmsg_len = NLMSG_LENGTH(sizeof(tc));
	m.nh.nlmsg_type = RTM_DELQDISC;
	memcpy(NLMSG_DATA(&m.nh), &tc, sizeof(tc));
	check(!ndl_nl_request(&m.nh, "delete root", why, sizeof(why)),
	      "default-root", "%s", why);
}

/* 2. From the default root, on queue 0. */
static void default_root_case(int if0, struct ndl_etf_cfg *cfg)
{
	struct ndl_qdiscs saved;
	char why[256], desc[512];

	delete_root(if0);
	check(!ndl_qdisc_dump(if0, &saved, why, sizeof(why)), "dump-default",
	      "%s", why);
	ndl_qdisc_describe(&saved, desc, sizeof(desc));
	printf("ndl-net default: %s\n", desc);
	check(!find_kind(&saved, "pfifo"), "pfifo-gone", "%s", desc);
	cfg->queue = 0;
	check(!ndl_qdisc_install(if0, cfg, why, sizeof(why)), "install-q0",
	      "%s", why);
	restore_checked(if0, &saved, "default");
}

int main(void)
{
	struct ndl_etf_cfg cfg = { .ntxq = NTXQ, .queue = QUEUE, .prio = PRIO,
				   .delta_ns = DELTA_NS, .offload = false };
	int if0, if1;

	setup(&if0, &if1);
	user_root_case(if0, if1, &cfg);
	default_root_case(if0, &cfg);
	printf("ndl-net %s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
