/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tele_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <suggest/suggest.h>
#include <wultfw/plugin.h>

uint64_t tele_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- names this machine offers, for did-you-mean ---- */

struct tele_names {
	const char **v;
	size_t n, cap;
};

static void tele_names_add(void *arg, const char *name)
{
	struct tele_names *l = arg;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		const char **nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv)
			return;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n] = strdup(name);
	if (l->v[l->n])
		l->n++;
}

static void tele_names_free(struct tele_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->v[i]);
	free(l->v);
}

/*
 * " (did you mean 'X'?)" for a name `prov` lists here, or "". A provider
 * with no counters here says why, unless open() said it already (`said`).
 */
static void tele_hint(const struct tele_env *env,
		      const struct tele_provider *prov, const char *name,
		      bool said, char *buf, size_t len)
{
	struct tele_names l = { 0 };
	char why[256];
	const char *best;

	buf[0] = '\0';
	if (prov->list(env, tele_names_add, &l, why, sizeof(why)) && !l.n) {
		if (!said)
			snprintf(buf, len, " (this machine has no %s counters: %s)", prov->name, why);
		return;
	}
	best = wfw_suggest(name, l.v, l.n);
	if (best)
		snprintf(buf, len, " (did you mean '%s'?)", best);
	else
		snprintf(buf, len, "; `wultfw help telemetry` lists the %zu %s counters here",
			 l.n, prov->name);
	tele_names_free(&l);
}

/* "no provider 'x'; providers: interrupts, softirqs, ..." */
static void tele_no_provider(const char *prov, char *why, size_t len)
{
	int at = snprintf(why, len, "no provider '%s'; providers:", prov);

	for (size_t i = 0; i < tele_n_providers && at > 0 && (size_t)at < len; i++)
		at += snprintf(why + at, len - (size_t)at, "%s %s", i ? "," : "",
			       tele_providers[i]->name);
}

static const struct tele_provider *tele_find_provider(const char *name,
						      char *why, size_t len,
						      size_t *idx)
{
	const char *names[TELE_MAX_PROVIDERS], *best;
	const char *colon = strchr(name, ':');
	size_t plen = colon ? (size_t)(colon - name) : strlen(name), i;
	char prov[64];

	for (i = 0; i < tele_n_providers; i++) {
		names[i] = tele_providers[i]->name;
		if (colon && strlen(names[i]) == plen && !strncmp(names[i], name, plen)) {
			*idx = i;
			return tele_providers[i];
		}
	}
	snprintf(prov, sizeof(prov), "%.*s", (int)(plen < 63 ? plen : 63), name);
	best = wfw_suggest(prov, names, tele_n_providers);
	if (!colon)
		snprintf(why, len, "not PROVIDER:ID");
	else if (best)
		snprintf(why, len, "no provider '%s' (did you mean '%s'?)", prov, best);
	else
		tele_no_provider(prov, why, len);
	return NULL;
}

/*
 * Open one counter and read it once. -errno with `why` (after "counter
 * 'NAME': "): -EINVAL when the name itself is wrong, another error when
 * this machine cannot give it.
 */
static int tele_open_one(struct tele_set *set, struct tele_slot *s,
			 const char *name, char *why, size_t len)
{
	char msg[256], hint[256];
	bool said;
	size_t idx;
	int ret;

	s->prov = tele_find_provider(name, why, len, &idx);
	if (!s->prov)
		return -EINVAL;
	snprintf(s->c.name, sizeof(s->c.name), "%s", name);
	s->c.fd = -1;
	s->c.snap = &set->snaps[idx];
	msg[0] = '\0';
	ret = s->prov->open(&set->env, strchr(name, ':') + 1, &s->c, msg, sizeof(msg));
	said = ret && msg[0];
	if (!ret) {
		ret = s->prov->read(&s->c, ++set->gen, &s->prev_raw);
		if (ret == -ENOENT && !s->c.path[0])
			snprintf(msg, sizeof(msg), "no such counter here");
		else if (ret)
			snprintf(msg, sizeof(msg), "cannot read it%s%s: %s",
				 s->c.path[0] ? " from " : "", s->c.path[0] ? s->c.path : "",
				 strerror(-ret));
		if (ret)
			s->prov->close(&s->c);
	}
	if (!ret)
		return 0;
	tele_hint(&set->env, s->prov, name, said, hint, sizeof(hint));
	snprintf(why, len, "%s%s", msg[0] ? msg : strerror(-ret), hint);
	memset(s, 0, sizeof(*s));
	return ret;
}

static int tele_add_missing(struct tele_set *set, const char *name,
			    const char *why)
{
	struct tele_missing *m = realloc(set->missing,
					 (set->nmissing + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	set->missing = m;
	m += set->nmissing++;
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->why, sizeof(m->why), "%s", why);
	return 0;
}

int tele_set_open(struct tele_set *set, const struct tele_env *env,
		  const char *const *names, size_t n, bool strict, char *why,
		  size_t len)
{
	char reason[TELE_WHY_LEN];
	int ret, first = 0;

	memset(set, 0, sizeof(*set));
	set->env = *env;
	set->slots = calloc(n ? n : 1, sizeof(*set->slots));
	if (!set->slots) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		ret = tele_open_one(set, &set->slots[set->n], names[i], reason, sizeof(reason));
		if (!ret) {
			set->n++;
			continue;
		}
		/* a wrong name is wrong everywhere; strict: a missing one too */
		if (strict || ret == -EINVAL || ret == -ENOMEM ||
		    tele_add_missing(set, names[i], reason)) {
			snprintf(why, len, "counter '%s': %s", names[i], reason);
			tele_set_close(set);
			return ret;
		}
		first = first ? first : ret;
	}
	if (set->n || !n)
		return 0;
	if (set->nmissing == 1)
		snprintf(why, len, "counter '%s': %s", set->missing[0].name, set->missing[0].why);
	else
		tele_set_missing_text(set, "none of its counters can be read here: ", why, len);
	tele_set_close(set);
	return first;
}

/*
 * "a, b (REASON); c (REASON)": the counters left out, those with one reason
 * together. What does not fit in len ends in "... (N counters in all)".
 */
void tele_set_missing_text(const struct tele_set *set, const char *head,
			   char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s", head), i, k;
	bool *done = calloc(set->nmissing ? set->nmissing : 1, sizeof(*done));

	for (i = 0; done && i < set->nmissing && at < len; i++) {
		if (done[i])
			continue;
		for (k = i; k < set->nmissing && at < len; k++) {
			if (done[k] || strcmp(set->missing[k].why, set->missing[i].why))
				continue;
			done[k] = true;
			at += (size_t)snprintf(buf + at, len - at, "%s%s", k == i ? (i ? "; " : "") : ", ",
					       set->missing[k].name);
		}
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, " (%s)", set->missing[i].why);
	}
	free(done);
	if (at >= len && len > 40)	/* cut: say how much is not shown */
		snprintf(buf + len - 40, 40, "... (%zu counters in all)", set->nmissing);
}

void tele_set_close(struct tele_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->slots[i].prov)
			set->slots[i].prov->close(&set->slots[i].c);
	for (i = 0; i < TELE_MAX_PROVIDERS; i++)
		free(set->snaps[i].buf);
	free(set->slots);
	free(set->missing);
	memset(set, 0, sizeof(*set));
}

int tele_set_baseline(struct tele_set *set, char *why, size_t len)
{
	uint64_t gen = ++set->gen;
	size_t i;

	for (i = 0; i < set->n; i++) {
		struct tele_slot *s = &set->slots[i];
		int ret = s->prov->read(&s->c, gen, &s->prev_raw);

		if (ret) {
			snprintf(why, len, "counter '%s': cannot read it: %s",
				 s->c.name, strerror(-ret));
			return ret;
		}
		s->total = s->last_total = s->prev_raw;
	}
	return 0;
}

/* Add what the counter counted since the last read, modulo its width. */
static void tele_unwrap(struct tele_slot *s, uint64_t raw)
{
	uint64_t mask = s->c.bits >= 64 ? ~0ULL : (1ULL << s->c.bits) - 1;

	s->total += (raw - s->prev_raw) & mask;
	s->prev_raw = raw;
}

void tele_set_sample(struct tele_set *set, bool sync, bool clear,
		     int64_t *vals, int64_t *times, tele_gone_fn gone,
		     void *arg)
{
	uint64_t gen = ++set->gen, raw;
	size_t i;

	for (i = 0; i < set->n; i++) {
		struct tele_slot *s = &set->slots[i];
		int ret;

		if (times)
			times[i] = s->gone ? WULTFW_CELL_EMPTY : (int64_t)tele_now_ns();
		if (s->gone) {
			vals[i] = WULTFW_CELL_EMPTY;
			continue;
		}
		ret = s->prov->read(&s->c, sync ? gen : ++set->gen, &raw);
		if (ret) {
			s->gone = true;
			vals[i] = WULTFW_CELL_EMPTY;
			if (times)
				times[i] = WULTFW_CELL_EMPTY;
			if (gone)
				gone(arg, s, ret);
			continue;
		}
		if (s->c.gauge) {
			vals[i] = (int64_t)raw;
			continue;
		}
		tele_unwrap(s, raw);
		vals[i] = (int64_t)(clear ? s->total - s->last_total : s->total);
		s->last_total = s->total;
	}
}

char *tele_set_kinds_text(const struct tele_set *set, bool clear)
{
	char *text = malloc(set->n * sizeof("increase ") + 1), *p = text;

	if (!text)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < set->n; i++)
		p += sprintf(p, "%s%s", i ? " " : "", set->slots[i].c.gauge ? "level" :
			     clear ? "increase" : "total");
	return text;
}

uint64_t tele_set_read_cost(struct tele_set *set, bool sync)
{
	uint64_t gen = ++set->gen, raw, t0 = tele_now_ns();

	for (size_t i = 0; i < set->n; i++) {
		struct tele_slot *s = &set->slots[i];

		if (!s->gone)
			s->prov->read(&s->c, sync ? gen : ++set->gen, &raw);
	}
	return tele_now_ns() - t0;
}

void tele_set_offered(const struct tele_env *env, tele_add_fn add,
		      void (*missing)(void *arg, const char *prov,
				      const char *why),
		      void *arg)
{
	struct tele_names l;
	char why[256];
	size_t i, k;

	for (i = 0; i < tele_n_providers; i++) {
		memset(&l, 0, sizeof(l));
		why[0] = '\0';
		if (tele_providers[i]->list(env, tele_names_add, &l, why, sizeof(why)) || !l.n)
			missing(arg, tele_providers[i]->name, why[0] ? why : "none offered here");
		for (k = 0; k < l.n; k++)
			add(arg, l.v[k]);
		tele_names_free(&l);
	}
}
