/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define SHIFT (52 - WFW_HIST_SUB_BITS)

static inline uint64_t dbits(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static inline double bitsd(uint64_t u)
{
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

void wfw_hist_init(struct wfw_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void wfw_hist_free(struct wfw_hist *h)
{
	for (int i = 0; i < WFW_HIST_SLOTS; i++)
		free(h->wide[i]);
	for (unsigned i = 0; i < h->narenas; i++)
		free(h->arenas[i]);
	free(h->win);
	wfw_hist_init(h);
}

static inline uint64_t bucket_count(const struct wfw_hist *h, unsigned s,
				    unsigned i)
{
	return h->wide[s][i] + h->oct[s][i];
}

/*
 * Slow path: the octave of this value has no buckets yet. The 16-bit
 * counters come from arenas of ARENA_OCTAVES octaves, next to each other:
 * a page each would cost the counting a TLB entry per octave.
 */
static int grow(struct wfw_hist *h, unsigned slot)
{
	if (!h->arena_left) {
		if (h->narenas == WFW_HIST_MAX_ARENAS)
			return -ENOMEM;	/* cannot happen: 256 * 16 slots */
		h->arenas[h->narenas] = calloc(WFW_HIST_ARENA_OCTAVES * WFW_HIST_SUBS,
					       sizeof(uint16_t));
		if (!h->arenas[h->narenas])
			return -ENOMEM;
		h->narenas++;
		h->arena_left = WFW_HIST_ARENA_OCTAVES;
	}
	/* A window that could not be had may have left them. */
	if (!h->wide[slot])
		h->wide[slot] = calloc(WFW_HIST_SUBS, sizeof(uint64_t));
	if (!h->wide[slot])
		return -ENOMEM;
	h->arena_left--;
	h->oct[slot] = h->arenas[h->narenas - 1] + h->arena_left * WFW_HIST_SUBS;
	h->used[h->noct++] = (uint16_t)slot;
	return 0;
}

/* Whether one of the 32 16-bit counters at o is at 2^15 or more. */
static inline bool any_top(const uint16_t *o)
{
#ifdef __SSE2__
	const __m128i *p = (const __m128i *)o;
	__m128i x = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
				 _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));

	return _mm_movemask_epi8(x) & 0xAAAA;	/* the high bytes' top bits */
#else
	uint64_t any = 0;

	for (unsigned i = 0; i < 32; i += 4) {
		uint64_t four;

		memcpy(&four, o + i, sizeof(four));
		any |= four;
	}
	return any & 0x8000800080008000ull;
#endif
}

/*
 * Move the 16-bit counters at 2^15 or more into the 64-bit ones: the rest
 * take WFW_HIST_FOLD_EVERY more values without overflow. Few counters ever
 * get there, so the 64-bit ones stay out of the cache; the 16-bit ones are
 * tested 32 at a time.
 */
static void fold(struct wfw_hist *h)
{
	for (size_t j = 0; j < h->noct; j++) {
		uint16_t *o = h->oct[h->used[j]];
		uint64_t *w = h->wide[h->used[j]];

		for (unsigned i = 0; i < WFW_HIST_SUBS; i += 32) {
			if (!any_top(o + i))
				continue;
			for (unsigned k = i; k < i + 32; k++) {
				if (o[k] & 0x8000u) {
					w[k] += o[k];
					o[k] = 0;
				}
			}
		}
	}
	h->unfolded = 0;
}

/* Count `n` values of key `k` (sign, exponent, top mantissa bits). */
static inline int add_key(struct wfw_hist *h, uint64_t k, uint64_t n)
{
	unsigned slot = (unsigned)(k >> WFW_HIST_SUB_BITS);

	if (__builtin_expect(!h->oct[slot], 0) && grow(h, slot))
		return -ENOMEM;
	h->wide[slot][k & (WFW_HIST_SUBS - 1)] += n;
	return 0;
}

int wfw_hist_add(struct wfw_hist *h, double v)
{
	int ret = add_key(h, dbits(v) >> SHIFT, 1);

	if (!ret)
		h->count++;
	return ret;
}

/* All n values in one bucket (a constant counter): counted at once. */
static bool one_bucket(const double *v, size_t n)
{
	uint64_t first = dbits(v[0]) >> SHIFT;
	size_t i;

	for (i = 1; i < n && dbits(v[i]) >> SHIFT == first; i++)
		;
	return i == n;
}

/*
 * Branch free but for a missing octave. n values at a time of at most
 * WFW_HIST_FOLD_EVERY, so no 16-bit counter overflows.
 */
/* The 16-bit counters of the octave of key k, grown if need be; NULL: no memory. */
static uint16_t *octave(struct wfw_hist *h, uint64_t k)
{
	unsigned slot = (unsigned)(k >> WFW_HIST_SUB_BITS);

	if (!h->oct[slot] && grow(h, slot))
		return NULL;
	return h->oct[slot];
}

static int add_narrow(struct wfw_hist *h, const double *v, size_t n)
{
	size_t i = 0;

	if (h->unfolded + n > WFW_HIST_FOLD_EVERY)
		fold(h);
	/* Two values a step: one test of both octaves, half the loop's overhead. */
	for (; i + 2 <= n; i += 2) {
		uint64_t k0 = dbits(v[i]) >> SHIFT, k1 = dbits(v[i + 1]) >> SHIFT;
		uint16_t *o0 = h->oct[k0 >> WFW_HIST_SUB_BITS];
		uint16_t *o1 = h->oct[k1 >> WFW_HIST_SUB_BITS];

		if (__builtin_expect(!o0 || !o1, 0)) {
			o0 = octave(h, k0);
			o1 = octave(h, k1);
			if (!o0 || !o1)
				return -ENOMEM;
		}
		o0[k0 & (WFW_HIST_SUBS - 1)]++;
		o1[k1 & (WFW_HIST_SUBS - 1)]++;
	}
	for (; i < n; i++) {
		uint64_t k = dbits(v[i]) >> SHIFT;
		uint16_t *o = octave(h, k);

		if (!o)
			return -ENOMEM;
		o[k & (WFW_HIST_SUBS - 1)]++;
	}
	h->unfolded += (uint32_t)n;
	return 0;
}

int wfw_hist_add_many(struct wfw_hist *h, const double *v, size_t n)
{
	for (size_t done = 0; done < n; done += WFW_HIST_FOLD_EVERY) {
		size_t k = n - done < WFW_HIST_FOLD_EVERY ? n - done : WFW_HIST_FOLD_EVERY;
		int ret;

		/* Back-to-back increments of one counter would wait for each other. */
		if (one_bucket(v + done, k))
			ret = add_key(h, dbits(v[done]) >> SHIFT, k);
		else
			ret = add_narrow(h, v + done, k);
		if (ret)
			return ret;
	}
	h->count += n;
	return 0;
}

#define KNOWN_SPAN 64	/* octaves a block may span to be counted with no test */

/*
 * The slots of the octaves of [lo, hi], if every value in it is nonzero
 * and of one sign (no -0.0 hides behind a min of +0.0), *a the first, *b
 * the last; false if not so.
 */
static bool slot_range(double lo, double hi, unsigned *a, unsigned *b)
{
	if (lo > 0) {
		*a = (unsigned)(dbits(lo) >> 52);
		*b = (unsigned)(dbits(hi) >> 52);
	} else if (hi < 0) {	/* the most negative has the top exponent */
		*a = (unsigned)(dbits(hi) >> 52);
		*b = (unsigned)(dbits(lo) >> 52);
	} else {
		return false;
	}
	return *b - *a < KNOWN_SPAN;
}

/* Octaves lo..hi into one new window, the counters they have moved in. */
static int widen(struct wfw_hist *h, unsigned lo, unsigned hi)
{
	unsigned n = hi - lo + 1;
	uint16_t *w = calloc((size_t)n * WFW_HIST_SUBS, sizeof(uint16_t));

	if (!w)
		return -ENOMEM;
	for (unsigned s = lo; s <= hi; s++) {
		if (!h->wide[s])
			h->wide[s] = calloc(WFW_HIST_SUBS, sizeof(uint64_t));
		if (!h->wide[s]) {
			free(w);
			return -ENOMEM;
		}
	}
	for (unsigned s = lo; s <= hi; s++) {
		uint16_t *o = w + (size_t)(s - lo) * WFW_HIST_SUBS;

		if (h->oct[s])
			memcpy(o, h->oct[s], WFW_HIST_SUBS * sizeof(uint16_t));
		else
			h->used[h->noct++] = (uint16_t)s;
		h->oct[s] = o;
	}
	free(h->win);	/* its octaves were all in lo..hi */
	h->win = w;
	h->wlo = lo;
	h->wn = n;
	return 0;
}

/*
 * 1 when octaves a..b are in the window, widened to them if it spans at
 * most KNOWN_SPAN octaves so; 0 when it would span more; -ENOMEM.
 */
static int in_window(struct wfw_hist *h, unsigned a, unsigned b)
{
	unsigned lo = a, hi = b;

	if (h->win) {
		if (a >= h->wlo && b < h->wlo + h->wn)
			return 1;
		lo = a < h->wlo ? a : h->wlo;
		hi = b > h->wlo + h->wn - 1 ? b : h->wlo + h->wn - 1;
	}
	if (hi - lo >= KNOWN_SPAN)
		return 0;
	return widen(h, lo, hi) ? -ENOMEM : 1;
}

/* Octaves a..b all have their counters (outside the window too). */
static bool known_octaves(const struct wfw_hist *h, unsigned a, unsigned b)
{
	for (unsigned i = a; i <= b; i++)
		if (!h->oct[i])
			return false;
	return true;
}

/* tab[j]: octave s0 + j's counters less j octaves (see count_at()). */
static void biased_octaves(const struct wfw_hist *h, unsigned s0, unsigned ns,
			   uintptr_t *tab)
{
	for (unsigned j = 0; j < ns; j++)
		tab[j] = (uintptr_t)h->oct[s0 + j] - j * WFW_HIST_SUBS * sizeof(uint16_t);
}

/*
 * Count v with no test: in the window (tab NULL) its counter is at base
 * plus twice its key; else tab[j] is octave j of the key less off, so that
 * the key less off times 2 bytes addresses the counter with no masking.
 */
static inline __attribute__((always_inline)) void
count_at(const uintptr_t *tab, uintptr_t base, uint64_t off, double v)
{
	uint64_t k = (dbits(v) - off) >> SHIFT;

	if (tab)
		base = tab[k >> WFW_HIST_SUB_BITS];
	(*(uint16_t *)(base + 2 * k))++;
}

/* Where count_at() finds the counters of values in [lo, hi]. */
struct spot {
	const uintptr_t *tab;	/* NULL: the window */
	uintptr_t base;
	uint64_t off;
};

#ifdef __SSE2__
/*
 * Counting and sq->m2 on the way: the sum of squared deviations in the
 * order and grouping of wfw_sum_sq_dev() (moments.c), so it rounds the
 * same; the values are read once for both.
 */
static inline __attribute__((always_inline)) void
count_sq(const double *v, size_t n, const uintptr_t *tab, uintptr_t base,
	 uint64_t off, struct wfw_hist_sq *sq)
{
	__m128d m = _mm_set1_pd(sq->mean), q0 = _mm_setzero_pd(), q1 = q0;
	double q[2], sum;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		__m128d a = _mm_sub_pd(_mm_loadu_pd(v + i), m);
		__m128d b = _mm_sub_pd(_mm_loadu_pd(v + i + 2), m);

		q0 = _mm_add_pd(q0, _mm_mul_pd(a, a));
		q1 = _mm_add_pd(q1, _mm_mul_pd(b, b));
		count_at(tab, base, off, v[i]);
		count_at(tab, base, off, v[i + 1]);
		count_at(tab, base, off, v[i + 2]);
		count_at(tab, base, off, v[i + 3]);
	}
	_mm_storeu_pd(q, _mm_add_pd(q0, q1));
	sum = q[0] + q[1];
	for (; i < n; i++) {
		sum += (v[i] - sq->mean) * (v[i] - sq->mean);
		count_at(tab, base, off, v[i]);
	}
	sq->m2 = sum;
	sq->done = true;
}

/* One loop for the window, one for the table, each with no test inside. */
static void count_known_sq(const double *v, size_t n, const struct spot *p,
			   struct wfw_hist_sq *sq)
{
	if (p->tab)
		count_sq(v, n, p->tab, 0, p->off, sq);
	else
		count_sq(v, n, NULL, p->base, 0, sq);
}
#endif

static inline __attribute__((always_inline)) void
count_plain(const double *v, size_t n, const uintptr_t *tab, uintptr_t base,
	    uint64_t off)
{
	size_t i;

	for (i = 0; i + 2 <= n; i += 2) {
		count_at(tab, base, off, v[i]);
		count_at(tab, base, off, v[i + 1]);
	}
	for (; i < n; i++)
		count_at(tab, base, off, v[i]);
}

static void count_known(const double *v, size_t n, const struct spot *p)
{
	if (p->tab)
		count_plain(v, n, p->tab, 0, p->off);
	else
		count_plain(v, n, NULL, p->base, 0);
}

/*
 * Where the values of octaves a..b are counted with no test per value:
 * the window, or else octaves that happen to exist already (through tab).
 * 1 found, 0 not, -ENOMEM.
 */
static int find_spot(struct wfw_hist *h, unsigned a, unsigned b,
		     uintptr_t *tab, struct spot *p)
{
	int ret = in_window(h, a, b);

	if (ret > 0) {
		*p = (struct spot){ .base = (uintptr_t)h->win -
			(uintptr_t)h->wlo * WFW_HIST_SUBS * sizeof(uint16_t) };
		return 1;
	}
	if (ret < 0 || !known_octaves(h, a, b))
		return ret;
	biased_octaves(h, a, b - a + 1, tab);
	*p = (struct spot){ .tab = tab, .off = (uint64_t)a << 52 };
	return 1;
}

/* Values in [lo, hi]: without a test per value when find_spot() allows. */
static int add_spread(struct wfw_hist *h, const double *v, size_t n,
		      double lo, double hi, struct wfw_hist_sq *sq)
{
	uintptr_t tab[KNOWN_SPAN];
	struct spot p;
	unsigned a, b;
	int ret;

	if (!slot_range(lo, hi, &a, &b))
		return wfw_hist_add_many(h, v, n);
	ret = find_spot(h, a, b, tab, &p);
	if (ret <= 0)
		return ret < 0 ? ret : wfw_hist_add_many(h, v, n);
	for (size_t done = 0; done < n; done += WFW_HIST_FOLD_EVERY) {
		size_t k = n - done < WFW_HIST_FOLD_EVERY ? n - done : WFW_HIST_FOLD_EVERY;

		if (h->unfolded + k > WFW_HIST_FOLD_EVERY)
			fold(h);
#ifdef __SSE2__
		if (sq && k == n)
			count_known_sq(v, n, &p, sq);
		else
#endif
			count_known(v + done, k, &p);
		h->unfolded += (uint32_t)k;
	}
	h->count += n;
	return 0;
}

#define SMALL_SPAN 64	/* whole numbers lo .. lo + 63 */
#define LANES 4

/*
 * Few distinct whole numbers (flags, counters): most increments would hit
 * the counter the one before hit, and wait for it. Count them in a small
 * table with LANES independent copies instead, then each number once.
 */
static int add_small_ints(struct wfw_hist *h, const double *v, size_t n,
			  double lo, unsigned span)
{
	uint32_t cnt[LANES][SMALL_SPAN];
	size_t i;

	for (unsigned l = 0; l < LANES; l++)
		memset(cnt[l], 0, span * sizeof(cnt[l][0]));
	for (i = 0; i + LANES <= n; i += LANES)
		for (unsigned l = 0; l < LANES; l++)
			cnt[l][(unsigned)(v[i + l] - lo)]++;
	for (; i < n; i++)
		cnt[0][(unsigned)(v[i] - lo)]++;
	for (unsigned d = 0; d < span; d++) {
		uint64_t c = (uint64_t)cnt[0][d] + cnt[1][d] + cnt[2][d] + cnt[3][d];

		if (c && add_key(h, dbits(lo + d) >> SHIFT, c))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Whole numbers lo and lo + 1 only (flags): the sum tells how many of each
 * without a look at them. Exact: every partial sum is below 2^53. False if
 * that is not certain.
 */
static bool add_two_ints(struct wfw_hist *h, size_t n, double lo, double sum,
			 int *ret)
{
	double nhi;

	if (!(fabs(lo) < 0x1p30 && n < (1u << 21) && fabs(sum) < 0x1p52))
		return false;
	nhi = sum - lo * (double)n;
	if (!(nhi >= 1 && nhi < (double)n))
		return false;
	*ret = add_key(h, dbits(lo) >> SHIFT, n - (uint64_t)nhi);
	if (!*ret)
		*ret = add_key(h, dbits(lo + 1) >> SHIFT, (uint64_t)nhi);
	return true;
}

int wfw_hist_add_range(struct wfw_hist *h, const double *v, size_t n,
		       double lo, double hi, double sum, bool integers,
		       struct wfw_hist_sq *sq)
{
	uint64_t klo = dbits(lo) >> SHIFT;
	int ret;

	if (!n)
		return 0;
	if (klo == dbits(hi) >> SHIFT)	/* one bucket: all between them too */
		ret = add_key(h, klo, n);
	else if (integers && hi - lo == 1 && add_two_ints(h, n, lo, sum, &ret))
		;
	else if (integers && hi - lo < SMALL_SPAN && n <= UINT32_MAX)
		ret = add_small_ints(h, v, n, lo, (unsigned)(hi - lo) + 1);
	else
		return add_spread(h, v, n, lo, hi, sq);
	if (!ret)
		h->count += n;
	return ret;
}

int wfw_hist_merge(struct wfw_hist *dst, const struct wfw_hist *src)
{
	for (unsigned s = 0; s < WFW_HIST_SLOTS; s++) {
		if (!src->oct[s])
			continue;
		if (!dst->oct[s] && grow(dst, s))
			return -ENOMEM;
		for (unsigned i = 0; i < WFW_HIST_SUBS; i++)
			dst->wide[s][i] += bucket_count(src, s, i);
	}
	dst->count += src->count;
	return 0;
}

/* Representative value of bucket (e, i) of magnitudes; see hist.h. */
static double bucket_value(unsigned e, unsigned i, bool integers)
{
	uint64_t key = ((uint64_t)e << WFW_HIST_SUB_BITS) | i;
	double lo = bitsd(key << SHIFT);
	double hi = bitsd((key + 1) << SHIFT);

	if (!key)
		return 0.0;	/* zero, and magnitudes below 2^-1031 */
	if (isinf(lo) || isinf(hi))
		return lo;
	if (integers && hi - lo <= 1.0)
		return ceil(lo);
	return lo + (hi - lo) / 2;
}

double wfw_hist_key_value(uint64_t key, bool integers)
{
	return bucket_value((unsigned)(key >> WFW_HIST_SUB_BITS),
			    (unsigned)(key & (WFW_HIST_SUBS - 1)), integers);
}

/* Position of slot s in value order: negative octaves from the largest magnitude. */
static unsigned value_order(unsigned s)
{
	return s >= WFW_HIST_OCTAVES ? WFW_HIST_SLOTS - 1 - s : WFW_HIST_OCTAVES + s;
}

static int cmp_slots(const void *a, const void *b)
{
	unsigned x = value_order(*(const uint16_t *)a);
	unsigned y = value_order(*(const uint16_t *)b);

	return (x > y) - (x < y);
}

static uint64_t octave_total(const struct wfw_hist *h, unsigned s)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < WFW_HIST_SUBS; i++)
		t += bucket_count(h, s, i);
	return t;
}

/*
 * The ranks k[j..] (ascending) that fall into octave s, *seen values
 * before it: their values into out[]. Returns the first rank past it.
 */
static size_t walk_octave(const struct wfw_hist *h, unsigned s,
			  const uint64_t *k, size_t n, size_t j,
			  uint64_t *seen, bool integers, double *out)
{
	bool neg = s >= WFW_HIST_OCTAVES;
	unsigned e = s % WFW_HIST_OCTAVES;

	for (unsigned b = 0; b < WFW_HIST_SUBS && j < n; b++) {
		unsigned i = neg ? WFW_HIST_SUBS - 1 - b : b;
		double v;

		*seen += bucket_count(h, s, i);
		if (*seen <= k[j])
			continue;
		v = bucket_value(e, i, integers);
		for (; j < n && k[j] < *seen; j++)
			out[j] = neg && v != 0 ? -v : v;
	}
	return j;
}

/*
 * One walk for all ranks: the octaves in value order, each skipped whole
 * when no rank asked for is in it (its total tells), so the cost is
 * about the octaves', not the buckets' number per rank.
 */
void wfw_hist_rank_values(const struct wfw_hist *h, const uint64_t *k,
			  size_t n, bool integers, double *out)
{
	uint16_t slots[WFW_HIST_SLOTS];
	uint64_t seen = 0;
	size_t j = 0;

	memcpy(slots, h->used, h->noct * sizeof(slots[0]));
	qsort(slots, h->noct, sizeof(slots[0]), cmp_slots);
	for (size_t o = 0; o < h->noct && j < n; o++) {
		uint64_t t = octave_total(h, slots[o]);

		if (seen + t <= k[j]) {
			seen += t;
			continue;
		}
		j = walk_octave(h, slots[o], k, n, j, &seen, integers, out);
	}
	for (; j < n; j++)
		out[j] = NAN;	/* k >= count: the caller's bug */
}

double wfw_hist_rank_value(const struct wfw_hist *h, uint64_t k,
			   bool integers)
{
	double v;

	wfw_hist_rank_values(h, &k, 1, integers, &v);
	return v;
}

size_t wfw_hist_bytes(const struct wfw_hist *h)
{
	return (h->narenas * WFW_HIST_ARENA_OCTAVES + h->wn) * WFW_HIST_SUBS * sizeof(uint16_t) +
	       h->noct * WFW_HIST_SUBS * sizeof(uint64_t);
}

/*
 * Multiply every counted value by f > 0: each bucket's count moves to the
 * bucket of its middle times f. The estimate then carries up to twice the
 * stated error (once per binning); only a column whose type changed while
 * it was read (INT -> FLOAT) needs this.
 */
int wfw_hist_scale(struct wfw_hist *h, double f)
{
	struct wfw_hist out;

	wfw_hist_init(&out);
	for (unsigned s = 0; s < WFW_HIST_SLOTS; s++) {
		unsigned e = s % WFW_HIST_OCTAVES;

		for (unsigned i = 0; h->oct[s] && i < WFW_HIST_SUBS; i++) {
			double v = bucket_value(e, i, false) * f;

			if (s >= WFW_HIST_OCTAVES)
				v = -v;
			if (bucket_count(h, s, i) &&
			    add_key(&out, dbits(v) >> SHIFT, bucket_count(h, s, i))) {
				wfw_hist_free(&out);
				return -ENOMEM;
			}
		}
	}
	out.count = h->count;
	wfw_hist_free(h);
	*h = out;
	return 0;
}
