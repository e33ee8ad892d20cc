/* SPDX-License-Identifier: MIT */
/*
 * Loader of attrib.bpf.c (attrib_trace.h): checks that it can run, loads
 * the programs for one CPU, leaving out those whose tracepoint this
 * kernel lacks, and hands the ring buffer's records on in time order.
 *
 * Order: the programs timestamp after claiming their slot (attrib.bpf.c),
 * so a record out of time order in the ring comes in the same pass as
 * the ones it belongs between; each pass is sorted (insertion sort: only
 * nested contexts move a record, and only a little) and handed on. A
 * record older than one already handed on can only follow a pass cut
 * short because our buffer was full; it becomes an ATTRIB_LOST record.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "sysstate/cpus.h"
#include "attrib_bpf.h"
#include "attrib_order.h"
#include "attrib_trace.h"
#include "attrib.skel.h"

#define ATTRIB_BTF_FILE		"/sys/kernel/btf/vmlinux"
/* Waiting for programs still running at detach: this long at most. */
#define ATTRIB_DRAIN_NS		200000000ULL

struct attrib_trace {
	struct attrib_bpf *skel;
	const struct attrib_slot *ring;	/* the map, mmap'ed read-only */
	uint64_t nslots, next;		/* next: the record to read next */
	int cpu, smi_fd;
	bool attached, was_attached, cost;
	char missing[512];
	/* Records consumed, not yet handed on: ev[head..n), sorted. */
	struct attrib_event *ev;
	size_t head, n, cap, max;
	bool cut;			/* the last pass stopped at max */
	uint64_t last_ts;		/* of the last record handed on */
	struct attrib_trace_stats st;
};

static void why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* ---- libbpf's messages: the last line is the verifier's verdict ---- */

static char attrib_log_last[256];

static int attrib_libbpf_print(enum libbpf_print_level level,
			       const char *fmt, va_list ap)
{
	char msg[4096];
	char *end, *start;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* Keep the last line that is not libbpf's framing. */
	for (end = msg + strlen(msg); end > msg; end = start) {
		while (end > msg && end[-1] == '\n')
			end--;
		start = end;
		while (start > msg && start[-1] != '\n')
			start--;
		if (end == start || !strncmp(start, "-- END", 6) ||
		    !strncmp(start, "processed ", 10) ||
		    !strncmp(start, "verification time", 17) ||
		    !strncmp(start, "stack depth", 11))
			continue;
		snprintf(attrib_log_last, sizeof(attrib_log_last), "%.*s",
			 (int)(end - start), start);
		break;
	}
	return 0;
}

/* ---- what this kernel has ---- */

/* "tp_btf/NAME" -> NAME, or NULL. */
static const char *attrib_tp_name(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	return strncmp(sec, "tp_btf/", 7) ? NULL : sec + 7;
}

/* Is tp in the space-separated list? */
static bool attrib_listed(const char *list, const char *tp)
{
	size_t l = strlen(tp);

	while (list && *list) {
		list += strspn(list, " ");
		if (!strncmp(list, tp, l) && (list[l] == ' ' || !list[l]))
			return true;
		list += strcspn(list, " ");
	}
	return false;
}

static bool attrib_btf_has_tp(const struct btf *btf, const char *tp)
{
	char name[128];

	/* Tests play a kernel without some (an arch without x86's vectors). */
	if (attrib_listed(getenv(ATTRIB_HIDE_TP_ENV), tp))
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) >= 0;
}

/*
 * Leave out the programs whose tracepoint btf lacks, naming them in
 * missing[]; returns how many are left.
 */
static int attrib_select(struct bpf_object *obj, const struct btf *btf,
			 char *missing, size_t len)
{
	struct bpf_program *prog;
	size_t used = 0;
	int left = 0;

	missing[0] = '\0';
	bpf_object__for_each_program(prog, obj) {
		const char *tp = attrib_tp_name(prog);

		if (tp && attrib_btf_has_tp(btf, tp)) {
			left++;
			continue;
		}
		bpf_program__set_autoload(prog, false);
		if (used < len)
			used += (size_t)snprintf(missing + used, len - used,
					"%s%s", used ? " " : "", tp ? tp : "?");
	}
	return left;
}

int attrib_trace_check(char *why, size_t len)
{
	libbpf_print_fn_t old;
	struct attrib_bpf *skel;
	struct btf *btf;
	char missing[512];
	int left, err = 0;

	if (geteuid() != 0) {
		why_set(why, len, "the attribution loads an eBPF program and "
			"needs root: run as root");
		return -EPERM;
	}
	if (access(ATTRIB_BTF_FILE, R_OK)) {
		why_set(why, len, "the kernel has no BTF (%s missing): the "
			"attribution needs a kernel built with "
			"CONFIG_DEBUG_INFO_BTF=y", ATTRIB_BTF_FILE);
		return -ENOENT;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		why_set(why, len, "cannot parse %s: %s", ATTRIB_BTF_FILE,
			strerror(errno));
		return err;
	}
	old = libbpf_set_print(attrib_libbpf_print);
	skel = attrib_bpf__open();
	libbpf_set_print(old);
	if (!skel) {
		err = -errno;
		why_set(why, len, "cannot open the attribution's eBPF object: "
			"%s", strerror(errno));
	} else if ((left = attrib_select(skel->obj, btf, missing,
					 sizeof(missing))) == 0) {
		why_set(why, len, "the kernel's BTF has none of the "
			"tracepoints the attribution uses (%s)", missing);
		err = -EOPNOTSUPP;
	}
	attrib_bpf__destroy(skel);
	btf__free(btf);
	return err;
}

/* ---- open, attach ---- */

static int attrib_check_opts(const struct attrib_trace_opts *o, char *why,
			     size_t len)
{
	int on;

	if (o->cpu < 0 || o->cpu >= libbpf_num_possible_cpus()) {
		why_set(why, len, "cpu %d: no such CPU (this machine has "
			"0-%d)", o->cpu, libbpf_num_possible_cpus() - 1);
		return -EINVAL;
	}
	on = wfw_cpu_online(o->cpu, NULL);
	if (on == 0) {
		why_set(why, len, "cpu %d is offline: nothing would run there "
			"to trace", o->cpu);
		return -EINVAL;
	}
	if (o->ring_events && (o->ring_events < 64 ||
			       (o->ring_events & (o->ring_events - 1)) ||
			       o->ring_events > (1u << 24))) {
		why_set(why, len, "a ring of %u events: give a power of two "
			"from 64 to 16777216", o->ring_events);
		return -EINVAL;
	}
	return 0;
}

/* The SMI counter into the programs' perf event array. */
static int attrib_put_smi(struct attrib_trace *t, char *why, size_t len)
{
	__u32 key = 0, fd = (__u32)t->smi_fd;
	int err;

	if (bpf_map_update_elem(bpf_map__fd(t->skel->maps.attrib_smi), &key,
				&fd, BPF_ANY) == 0)
		return 0;
	err = -errno;
	why_set(why, len, "the kernel refused the SMI counter's perf event "
		"in the eBPF programs' map: %s", strerror(-err));
	return err;
}

/* Open the object, leave out what the kernel lacks, set it up, load. */
static int attrib_load(struct attrib_trace *t, char *why, size_t len)
{
	struct btf *btf;
	int err;

	attrib_log_last[0] = '\0';
	t->skel = attrib_bpf__open();
	if (!t->skel) {
		err = -errno;
		why_set(why, len, "cannot open the attribution's eBPF object: "
			"%s", strerror(errno));
		return err;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		why_set(why, len, "cannot parse %s: %s", ATTRIB_BTF_FILE,
			strerror(errno));
		return err;
	}
	attrib_select(t->skel->obj, btf, t->missing, sizeof(t->missing));
	btf__free(btf);
	t->skel->rodata->target_cpu = (__u32)t->cpu;
	t->skel->rodata->cost_on = t->cost;
	t->skel->rodata->smi_on = t->smi_fd >= 0;
	t->skel->rodata->ring_mask = (__u32)(t->nslots - 1);
	err = bpf_map__set_max_entries(t->skel->maps.attrib_ring,
				       (__u32)t->nslots);
	if (err) {
		why_set(why, len, "cannot size the ring to %llu events: %s",
			(unsigned long long)t->nslots, strerror(-err));
		return err;
	}
	err = attrib_bpf__load(t->skel);
	if (err) {
		why_set(why, len, "the kernel rejected the attribution's eBPF "
			"programs (%s): %s; they need Linux >= 5.12 (BPF "
			"atomics)", strerror(-err), attrib_log_last[0] ?
			attrib_log_last : "no verifier message");
		return err;
	}
	return t->smi_fd >= 0 ? attrib_put_smi(t, why, len) : 0;
}

int attrib_trace_open(struct attrib_trace **tp,
		      const struct attrib_trace_opts *o, char *why,
		      size_t len)
{
	libbpf_print_fn_t old;
	struct attrib_trace *t;
	void *ring;
	int err;

	*tp = NULL;
	err = attrib_trace_check(why, len);
	if (!err)
		err = attrib_check_opts(o, why, len);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->cpu = o->cpu;
	t->cost = o->cost;
	t->smi_fd = o->smi ? o->smi_fd : -1;
	t->nslots = o->ring_events ? o->ring_events : ATTRIB_RING_EVENTS;
	/* A pass while tracing: the ring's worth and what came meanwhile. */
	t->max = 2 * (size_t)t->nslots;
	old = libbpf_set_print(attrib_libbpf_print);
	err = attrib_load(t, why, len);
	libbpf_set_print(old);
	if (err)
		goto fail;
	ring = mmap(NULL, t->nslots * sizeof(*t->ring), PROT_READ, MAP_SHARED,
		    bpf_map__fd(t->skel->maps.attrib_ring), 0);
	if (ring == MAP_FAILED) {
		err = -errno;
		why_set(why, len, "cannot map the attribution's ring (%llu "
			"events): %s", (unsigned long long)t->nslots,
			strerror(errno));
		goto fail;
	}
	t->ring = ring;
	*tp = t;
	return 0;
fail:
	attrib_trace_close(t);
	return err;
}

const char *attrib_trace_missing(const struct attrib_trace *t)
{
	return t->missing;
}

int attrib_trace_attach(struct attrib_trace *t, char *why, size_t len)
{
	libbpf_print_fn_t old;
	int err;

	if (t->was_attached) {
		why_set(why, len, "the attribution is attached once per open");
		return -EINVAL;
	}
	old = libbpf_set_print(attrib_libbpf_print);
	attrib_log_last[0] = '\0';
	err = attrib_bpf__attach(t->skel);
	libbpf_set_print(old);
	if (err) {
		why_set(why, len, "cannot attach the attribution's tp_btf "
			"programs: %s (%s)", strerror(-err),
			attrib_log_last[0] ? attrib_log_last : "no message");
		attrib_bpf__detach(t->skel);
		return err;
	}
	t->attached = t->was_attached = true;
	__atomic_store_n(&t->skel->bss->run, 1, __ATOMIC_RELEASE);
	return 0;
}

/* ---- records in time order ---- */

/* Room for one more record in ev[]: 0 or -ENOMEM. */
static int attrib_room(struct attrib_trace *t)
{
	struct attrib_event *e;
	size_t cap;

	if (t->n < t->cap)
		return 0;
	if (t->head) {		/* room at the front first */
		memmove(t->ev, t->ev + t->head, (t->n - t->head) * sizeof(*e));
		t->n -= t->head;
		t->head = 0;
		return 0;
	}
	cap = t->cap ? 2 * t->cap : 4096;
	e = reallocarray(t->ev, cap, sizeof(*e));
	if (!e)
		return -ENOMEM;
	t->ev = e;
	t->cap = cap;
	return 0;
}

/*
 * Read the committed slots from t->next on into ev[] and hand them back
 * to the programs (tail). While they run, a pass stops at max records
 * (a storm could keep it going); after the detach it takes all.
 */
static int attrib_consume(struct attrib_trace *t)
{
	const struct attrib_slot *s;
	int err = 0;

	t->cut = false;
	for (;;) {
		s = &t->ring[t->next & (t->nslots - 1)];
		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != t->next + 1)
			break;
		if (t->attached && t->n - t->head >= t->max) {
			t->cut = true;
			break;
		}
		err = attrib_room(t);
		if (err)
			break;
		t->ev[t->n++] = s->ev;
		t->next++;
	}
	__atomic_store_n(&t->skel->bss->tail, t->next, __ATOMIC_RELEASE);
	return err;
}

/* Consume what the ring holds into ev[] and sort it. */
static int attrib_fill(struct attrib_trace *t, char *why, size_t len)
{
	int err;

	if (!t->ring)
		return 0;
	err = attrib_consume(t);
	if (err) {
		why_set(why, len, "reading the attribution's ring: %s",
			strerror(-err));
		return err;
	}
	t->st.reordered += attrib_order_sort(t->ev + t->head, t->n - t->head);
	return 0;
}

/*
 * The next k <= max records to hand on, at ev[head]; a record older than
 * the last one handed on becomes an ATTRIB_LOST covering the difference.
 */
static size_t attrib_next(struct attrib_trace *t, size_t max)
{
	size_t k = t->n - t->head < max ? t->n - t->head : max;

	t->st.late += attrib_order_late(t->ev + t->head, k, &t->last_ts);
	return k;
}

/* Mark k records handed on. */
static void attrib_done(struct attrib_trace *t, size_t k)
{
	t->head += k;
	t->st.delivered += k;
	if (t->head == t->n)
		t->head = t->n = 0;
}

ssize_t attrib_trace_poll(struct attrib_trace *t, attrib_trace_fn fn,
			  void *arg, char *why, size_t len)
{
	ssize_t total = 0;
	int err, rounds = 0;

	do {
		size_t k;

		err = attrib_fill(t, why, len);
		if (err)
			return err;
		k = attrib_next(t, SIZE_MAX);
		if (!k)
			break;
		err = fn(arg, t->ev + t->head, k);
		attrib_done(t, k);
		total += (ssize_t)k;
		if (err)
			return err;
	} while (t->cut && ++rounds < 64);
	return total;
}

ssize_t attrib_trace_read(struct attrib_trace *t, struct attrib_event *buf,
			  size_t cap, char *why, size_t len)
{
	size_t k;
	int err;

	if (t->head == t->n) {
		err = attrib_fill(t, why, len);
		if (err)
			return err;
	}
	k = attrib_next(t, cap);
	memcpy(buf, t->ev + t->head, k * sizeof(*buf));
	attrib_done(t, k);
	return (ssize_t)k;
}

void attrib_trace_stats(const struct attrib_trace *t,
			struct attrib_trace_stats *st)
{
	const struct attrib_bpf_stats *b = &t->skel->bss->stats;
	int i;

	*st = t->st;
	st->lost = __atomic_load_n(&b->lost, __ATOMIC_RELAXED);
	/* Every record claimed a slot; markers are not events. */
	st->seen = __atomic_load_n(&t->skel->bss->head, __ATOMIC_RELAXED) -
		   __atomic_load_n(&b->markers, __ATOMIC_RELAXED) + st->lost;
	st->cost_ns = st->cost_cnt = 0;
	for (i = 0; t->cost && i < ATTRIB_NCOST; i++) {
		st->cost_ns += b->cost_ns[i];
		st->cost_cnt += b->cost_cnt[i];
	}
}

static uint64_t attrib_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Events lost after the last record the programs stored have no marker
 * in the stream (none came to carry it): add it, ending now.
 */
static void attrib_last_marker(struct attrib_trace *t)
{
	uint64_t n = t->skel->bss->lost_pending, from = t->skel->bss->lost_from;
	uint64_t now = attrib_now();
	struct attrib_event *e;

	if (!n || attrib_room(t))
		return;
	e = &t->ev[t->n++];
	memset(e, 0, sizeof(*e));
	e->ts = now;
	e->dur = from && from <= now ? now - from : now;
	e->kind = ATTRIB_LOST;
	e->id = n > UINT32_MAX ? 0 : (uint32_t)n;
	t->skel->bss->lost_pending = 0;
}

void attrib_trace_detach(struct attrib_trace *t)
{
	uint64_t end;

	if (!t || !t->attached)
		return;
	__atomic_store_n(&t->skel->bss->run, 0, __ATOMIC_RELEASE);
	attrib_bpf__detach(t->skel);
	t->attached = false;
	/*
	 * A program that began before the detach may commit its record
	 * after it: wait until every claimed slot is in ev[] (handed on by
	 * poll/read later), or the bound.
	 */
	end = attrib_now() + ATTRIB_DRAIN_NS;
	while (!attrib_fill(t, NULL, 0) &&
	       t->next < __atomic_load_n(&t->skel->bss->head, __ATOMIC_ACQUIRE) &&
	       attrib_now() < end)
		usleep(1000);
	attrib_last_marker(t);
}

int attrib_trace_runtime(const struct attrib_trace *t, uint64_t *ns,
			 uint64_t *cnt)
{
	struct bpf_program *prog;

	*ns = *cnt = 0;
	bpf_object__for_each_program(prog, t->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0)
			continue;	/* left out: its tracepoint is missing */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			return -errno;
		*ns += info.run_time_ns;
		*cnt += info.run_cnt;
	}
	return 0;
}

void attrib_trace_close(struct attrib_trace *t)
{
	if (!t)
		return;
	attrib_trace_detach(t);
	if (t->ring)
		munmap((void *)t->ring, t->nslots * sizeof(*t->ring));
	attrib_bpf__destroy(t->skel);
	free(t->ev);
	free(t);
}
