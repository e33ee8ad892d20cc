/* SPDX-License-Identifier: MIT */
/* ndl's qdisc changes as one line for a later wultfw; see ndl_keep.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/pkt_sched.h>

#include "ndl_keep.h"

void ndl_keep_init(struct ndl_keep *k, int ifindex, const char *ifname,
		   unsigned int ntxq, unsigned int queue,
		   const struct ndl_qdiscs *saved)
{
	memset(k, 0, sizeof(*k));
	k->ifindex = ifindex;
	snprintf(k->ifname, sizeof(k->ifname), "%s", ifname);
	k->etf_root = ntxq <= 1;
	k->queue = queue;
	for (size_t i = 0; i < saved->n; i++)
		if (saved->q[i].handle)
			k->user.q[k->user.n++] = saved->q[i];
}

static void put_hex(FILE *f, const unsigned char *b, size_t n)
{
	if (!n)
		fputc('-', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

int ndl_keep_encode(const struct ndl_keep *k, char *buf, size_t len,
		    char *why, size_t whylen)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return -errno;
	fprintf(f, "v1 %d %s %s %u %zu", k->ifindex, k->ifname,
		k->etf_root ? "etf" : "mqprio", k->queue, k->user.n);
	for (size_t i = 0; i < k->user.n; i++) {
		const struct ndl_qdisc *q = &k->user.q[i];

		fprintf(f, " %s %x %x ", q->kind, q->handle, q->parent);
		put_hex(f, q->opts, q->optlen);
	}
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	if (n >= len) {
		snprintf(why, whylen, "the qdiscs configured on %s take %zu bytes to record for restoring after a crash, more than the %zu a state file line holds: remove them for the run (tc qdisc del dev %s root) and set them up again afterwards",
			 k->ifname, n, len - 1, k->ifname);
		free(text);
		return -E2BIG;
	}
	memcpy(buf, text, n + 1);
	free(text);
	return 0;
}

/* The next blank-separated word of *s into w (wlen bytes); false if none. */
static bool word(const char **s, char *w, size_t wlen)
{
	size_t n;

	*s += strspn(*s, " ");
	n = strcspn(*s, " ");
	if (!n || n >= wlen)
		return false;
	memcpy(w, *s, n);
	w[n] = '\0';
	*s += n;
	return true;
}

static bool hex_bytes(const char *h, unsigned char *out, size_t cap,
		      size_t *n)
{
	size_t l = strlen(h);

	*n = 0;
	if (!strcmp(h, "-"))
		return true;
	if (l % 2 || l / 2 > cap || strspn(h, "0123456789abcdef") != l)
		return false;
	for (size_t i = 0; i < l / 2; i++) {
		unsigned int b;

		sscanf(h + 2 * i, "%2x", &b);
		out[i] = (unsigned char)b;
	}
	*n = l / 2;
	return true;
}

static bool decode_qdisc(const char **s, struct ndl_qdisc *q)
{
	static char opts[2 * NDL_QDISC_OPTS_MAX + 2];
	char h[16], p[16];
	char *end1, *end2;

	memset(q, 0, sizeof(*q));
	if (!word(s, q->kind, sizeof(q->kind)) || !word(s, h, sizeof(h)) ||
	    !word(s, p, sizeof(p)) || !word(s, opts, sizeof(opts)))
		return false;
	q->handle = (uint32_t)strtoul(h, &end1, 16);
	q->parent = (uint32_t)strtoul(p, &end2, 16);
	return !*end1 && !*end2 && hex_bytes(opts, q->opts, sizeof(q->opts), &q->optlen);
}

int ndl_keep_decode(const char *line, struct ndl_keep *k, char *why,
		    size_t len)
{
	char v[8], idx[16], root[16], queue[16], n[16];
	const char *s = line;
	size_t count;

	memset(k, 0, sizeof(*k));
	if (!word(&s, v, sizeof(v)) || strcmp(v, "v1") || !word(&s, idx, sizeof(idx)) ||
	    !word(&s, k->ifname, sizeof(k->ifname)) || !word(&s, root, sizeof(root)) ||
	    !word(&s, queue, sizeof(queue)) || !word(&s, n, sizeof(n)) ||
	    (strcmp(root, "etf") && strcmp(root, "mqprio"))) {
		snprintf(why, len, "not an ndl qdisc record (v1 IFINDEX IFNAME etf|mqprio QUEUE N ...): '%.60s'", line);
		return -EINVAL;
	}
	k->ifindex = atoi(idx);
	k->etf_root = !strcmp(root, "etf");
	k->queue = (unsigned int)atoi(queue);
	count = (size_t)strtoul(n, NULL, 10);
	if (k->ifindex <= 0 || count > NDL_QDISC_MAX) {
		snprintf(why, len, "ndl qdisc record: bad interface index '%s' or count '%s'", idx, n);
		return -EINVAL;
	}
	for (k->user.n = 0; k->user.n < count; k->user.n++) {
		if (!decode_qdisc(&s, &k->user.q[k->user.n])) {
			snprintf(why, len, "ndl qdisc record: qdisc %zu of %zu is not KIND HANDLE PARENT OPTS",
				 k->user.n + 1, count);
			return -EINVAL;
		}
	}
	s += strspn(s, " ");
	if (*s) {
		snprintf(why, len, "ndl qdisc record: more than %zu qdiscs", count);
		return -EINVAL;
	}
	return 0;
}

void ndl_keep_what(const struct ndl_keep *k, char *buf, size_t len)
{
	char before[256];

	if (k->user.n)
		ndl_qdisc_describe(&k->user, before, sizeof(before));
	else
		snprintf(before, sizeof(before), "the defaults");
	if (k->etf_root)
		snprintf(buf, len, "qdisc etf as the root of %s (before: %s)",
			 k->ifname, before);
	else
		snprintf(buf, len, "qdisc etf on %s TX queue %u under a root mqprio %x: (before: %s)",
			 k->ifname, k->queue, NDL_MQPRIO_HANDLE >> 16, before);
}

/* Is the root now the one ndl installs, and not one recorded as the user's? */
static bool root_is_ours(const struct ndl_keep *k, const struct ndl_qdiscs *now)
{
	const struct ndl_qdisc *r = ndl_qdisc_root(now);

	if (!r || ndl_qdisc_has(&k->user, r))
		return false;
	if (k->etf_root)
		return !strcmp(r->kind, "etf");
	return !strcmp(r->kind, "mqprio") && r->handle == NDL_MQPRIO_HANDLE;
}

/* Every recorded qdisc there, our root gone? why names what is not. */
static bool as_recorded(const struct ndl_keep *k, const struct ndl_qdiscs *now,
			char *why, size_t len)
{
	char s[64];

	for (size_t i = 0; i < k->user.n; i++) {
		if (!ndl_qdisc_has(now, &k->user.q[i])) {
			ndl_qdisc_str(&k->user.q[i], s, sizeof(s));
			snprintf(why, len, "%s: %s is missing or has other options", k->ifname, s);
			return false;
		}
	}
	if (root_is_ours(k, now)) {
		snprintf(why, len, "%s: ndl's root qdisc is still there", k->ifname);
		return false;
	}
	return true;
}

/* ndl_keep_restore() with now, a dump's room. */
static int keep_restore(const struct ndl_keep *k, struct ndl_qdiscs *now,
			char *done, size_t donelen, char *why, size_t len)
{
	char name[IF_NAMESIZE];
	bool ours;
	int err;

	if (!if_indextoname((unsigned int)k->ifindex, name)) {
		snprintf(done, donelen, "%s (interface %d) is gone, and its qdiscs with it",
			 k->ifname, k->ifindex);
		return 0;
	}
	err = ndl_qdisc_dump(k->ifindex, now, why, len);
	if (err)
		return err;
	if (as_recorded(k, now, why, len)) {
		snprintf(done, donelen, "%s: the qdiscs are as before the run already", name);
		return 0;
	}
	ours = root_is_ours(k, now);
	if (ours && (err = ndl_qdisc_del_root(k->ifindex, why, len)))
		return err;
	for (size_t i = 0; i < k->user.n; i++)
		if (!ndl_qdisc_has(now, &k->user.q[i]) &&
		    (err = ndl_qdisc_add(k->ifindex, &k->user.q[i], why, len)))
			return err;
	err = ndl_qdisc_dump(k->ifindex, now, why, len);
	if (err)
		return err;
	if (!as_recorded(k, now, why, len))
		return -EIO;
	snprintf(done, donelen, "%s: %s%s", name,
		 ours ? "ndl's qdiscs removed" : "ndl's qdiscs were gone",
		 k->user.n ? ", the recorded ones set up again" : ", the defaults are back");
	return 0;
}

int ndl_keep_restore(const struct ndl_keep *k, char *done, size_t donelen,
		     char *why, size_t len)
{
	struct ndl_qdiscs *now = malloc(sizeof(*now));	/* big */
	int err;

	if (!now) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	err = keep_restore(k, now, done, donelen, why, len);
	free(now);
	return err;
}
