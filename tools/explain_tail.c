/* SPDX-License-Identifier: MIT */
/*
 * calc --explain: the attribution's columns and causes (doc/attribution.md),
 * a row's identity, and a tail's sums and causes (explain_impl.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain_impl.h"
#include "explain/words.h"

enum xkind xrow_kind(const struct xrow *r)
{
	int64_t sum = 0;
	bool broken = false;

	for (int c = 0; c < WFW_XP_NCAT; c++)
		if (r->t[c] == XEMPTY)
			return XROW_NONE;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		broken |= r->t[c] < 0 || __builtin_add_overflow(sum, r->t[c], &sum);
	return broken || sum != r->lat ? XROW_BROKEN : XROW_OK;
}

void xtail_init(struct xtail *t, size_t exact_limit)
{
	memset(t, 0, sizeof(*t));
	t->min = INT64_MAX;
	t->max = INT64_MIN;
	t->exact_limit = exact_limit;
}

void xtail_free(struct xtail *t)
{
	for (size_t i = 0; i < t->ncauses; i++)
		wfw_acc_free(&t->causes[i].acc);
	free(t->causes);
	free(t->slot);
	t->causes = NULL;
	t->slot = NULL;
	t->ncauses = t->cap = t->nslot = 0;
}

static size_t hash(uint64_t key, size_t nslot)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (nslot - 1);
}

struct xcause *xtail_find(const struct xtail *t, uint64_t key)
{
	for (size_t h = t->nslot ? hash(key, t->nslot) : 0; t->nslot; h = (h + 1) & (t->nslot - 1)) {
		uint32_t s = t->slot[h];

		if (!s)
			return NULL;
		if (t->causes[s - 1].key == key)
			return &t->causes[s - 1];
	}
	return NULL;
}

/* Slots for twice the causes at least, all of them placed again. */
static int rehash(struct xtail *t)
{
	size_t n = t->nslot ? 2 * t->nslot : 64;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	free(t->slot);
	t->slot = s;
	t->nslot = n;
	for (size_t i = 0; i < t->ncauses; i++) {
		size_t h = hash(t->causes[i].key, n);

		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = (uint32_t)(i + 1);
	}
	return 0;
}

static struct xcause *cause_of(struct xtail *t, uint64_t key, int cat)
{
	struct xcause *c = xtail_find(t, key);
	size_t h;

	if (c)
		return c;
	if (t->ncauses == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 16;
		struct xcause *p = nc < UINT32_MAX ? realloc(t->causes, nc * sizeof(*p)) : NULL;

		if (!p)
			return NULL;
		t->causes = p;
		t->cap = nc;
	}
	if (2 * (t->ncauses + 1) > t->nslot && rehash(t))
		return NULL;
	c = &t->causes[t->ncauses];
	*c = (struct xcause){ .key = key, .cat = cat };
	wfw_acc_init(&c->acc, t->exact_limit, true);
	h = hash(key, t->nslot);
	while (t->slot[h])
		h = (h + 1) & (t->nslot - 1);
	t->slot[h] = (uint32_t)++t->ncauses;
	return c;
}

int xtail_add(struct xtail *t, const struct xrow *r, uint64_t key, int cat)
{
	struct xcause *c;

	t->n++;
	t->min = r->lat < t->min ? r->lat : t->min;
	t->max = r->lat > t->max ? r->lat : t->max;
	if (r->kind != XROW_OK) {
		t->none += r->kind == XROW_NONE;
		t->broken += r->kind == XROW_BROKEN;
		return 0;
	}
	t->nb++;
	t->sum_lat += (double)r->lat;
	for (int k = 0; k < WFW_XP_NCAT; k++)
		t->sum_t[k] += (double)r->t[k];
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		if (r->cnt[k] == XEMPTY || r->cnt[k] == XBAD)
			continue;
		t->sum_cnt[k] += (double)r->cnt[k];
		t->n_cnt[k]++;
	}
	if (key == XKEY_NONE) {
		t->nocause++;
		return 0;
	}
	c = cause_of(t, key, cat);
	if (!c)
		return -ENOMEM;
	c->n++;
	return cat < WFW_XP_NCAT ? wfw_acc_add(&c->acc, (double)r->t[cat]) : 0;
}

int xtail_merge(struct xtail *dst, const struct xtail *src, const size_t *map,
		size_t nmap)
{
	dst->n += src->n;
	dst->none += src->none;
	dst->broken += src->broken;
	dst->nb += src->nb;
	dst->nocause += src->nocause;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	dst->sum_lat += src->sum_lat;
	for (int k = 0; k < WFW_XP_NCAT; k++)
		dst->sum_t[k] += src->sum_t[k];
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		dst->sum_cnt[k] += src->sum_cnt[k];
		dst->n_cnt[k] += src->n_cnt[k];
	}
	for (size_t i = 0; i < src->ncauses; i++) {
		const struct xcause *s = &src->causes[i];
		uint64_t key = s->key;
		struct xcause *d;

		if (!(key & XKEY_THREAD) && map && key - 1 < nmap)
			key = map[key - 1] + 1;
		d = cause_of(dst, key, s->cat);
		if (!d)
			return -ENOMEM;
		d->n += s->n;
		if (wfw_acc_merge(&d->acc, &s->acc))
			return -ENOMEM;
	}
	return 0;
}

int64_t xkey_pid(uint64_t key)
{
	uint32_t pid = (uint32_t)key;

	return !(key & XKEY_THREAD) || pid == XKEY_NOPID ? -1 : (int64_t)pid;
}

struct sorted {
	struct xcause *c;
	const char *name;	/* a name's; NULL: a thread's */
};

/* Most rows first, then names by strcmp(), then threads by pid. */
static int cmp_cause(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;
	int d;

	if (x->c->n != y->c->n)
		return x->c->n > y->c->n ? -1 : 1;
	if (x->name && y->name && (d = strcmp(x->name, y->name)))
		return d;
	return (x->c->key > y->c->key) - (x->c->key < y->c->key);
}

size_t xtail_sorted(const struct xtail *t, char *const *names, int cat,
		    struct xcause ***out)
{
	struct sorted *s = malloc((t->ncauses ? t->ncauses : 1) * sizeof(*s));
	size_t n = 0;

	*out = malloc((t->ncauses ? t->ncauses : 1) * sizeof(**out));
	if (!*out || !s) {
		free(s);
		free(*out);
		*out = NULL;
		return 0;
	}
	for (size_t i = 0; i < t->ncauses; i++) {
		struct xcause *c = &t->causes[i];

		if (c->cat == cat)
			s[n++] = (struct sorted){ c, c->key & XKEY_THREAD ? NULL : names[c->key - 1] };
	}
	if (n > 1)	/* qsort() takes no NULL, even for nothing */
		qsort(s, n, sizeof(*s), cmp_cause);
	for (size_t i = 0; i < n; i++)
		(*out)[i] = s[i].c;
	free(s);
	return n;
}

void xtail_order(const struct xtail *t, int order[WFW_XP_NCAT])
{
	wfw_xp_cat_order(t->sum_t, order);
}
