/* SPDX-License-Identifier: MIT */
/* Row formatting for datapoints.csv (see csvfmt.h for the rules). */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvfmt.h"
#include "datafmt/decimal.h"

#define INT_MAX_TEXT	24	/* "-" + 20 digits + "." + slack */
#define FLOAT_MAX_TEXT	32

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v, written backwards ending at `end`; returns start. */
static inline char *utoa_back(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned i = (unsigned)(v % 100) * 2;

		v /= 100;
		end -= 2;
		memcpy(end, digit_pairs + i, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + v * 2, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* Number of decimal digits of v. */
static inline unsigned ndigits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/*
 * One body per decimal count so the divisions are by constants (multiplies),
 * digits two at a time from a table, written in place: the length is
 * known before the first digit.
 */
#define FMT_FIXED(NAME, D, DIV)					\
	static size_t fmt_fixed_##NAME(char *buf, uint64_t mag, int neg) \
	{								\
		uint64_t ip = mag / (DIV), fr = mag % (DIV);		\
		size_t n = (size_t)neg + ndigits(ip) + ((D) ? (D) + 1 : 0); \
		char *p = buf + n;					\
									\
		for (int d = (D); d >= 2; d -= 2, fr /= 100) {		\
			p -= 2;						\
			memcpy(p, digit_pairs + (fr % 100) * 2, 2);	\
		}							\
		if ((D) & 1)						\
			*--p = (char)('0' + fr);			\
		if (D)							\
			*--p = '.';					\
		p = utoa_back(p, ip);					\
		if (neg)						\
			p[-1] = '-';					\
		return n;						\
	}
FMT_FIXED(0, 0, 1ULL)
FMT_FIXED(1, 1, 10ULL)
FMT_FIXED(2, 2, 100ULL)
FMT_FIXED(3_any, 3, 1000ULL)
FMT_FIXED(4, 4, 10000ULL)
FMT_FIXED(5, 5, 100000ULL)
FMT_FIXED(6, 6, 1000000ULL)
FMT_FIXED(7, 7, 10000000ULL)
FMT_FIXED(8, 8, 100000000ULL)
FMT_FIXED(9, 9, 1000000000ULL)

/*
 * Three decimals with an integral part below 10^4 (latencies in us from
 * ns, percentages): no branch on the length, which varies from cell to
 * cell and so defeats branch prediction. The integral part's four digits
 * are shifted right past its leading zeros and stored at once, then
 * ".ddd" as one 4-byte store right after them.
 */
static size_t fmt_fixed_3(char *buf, uint64_t mag, int neg)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t ip = mag / 1000;
	unsigned fr = (unsigned)(mag % 1000), hi, lo, nd;
	uint16_t h2, l2, f2;
	uint32_t w, f;

	if (ip >= 10000)
		return fmt_fixed_3_any(buf, mag, neg);
	hi = (unsigned)ip / 100;
	lo = (unsigned)ip % 100;
	nd = 1 + (ip >= 10) + (ip >= 100) + (ip >= 1000);
	memcpy(&h2, digit_pairs + hi * 2, 2);
	memcpy(&l2, digit_pairs + lo * 2, 2);
	memcpy(&f2, digit_pairs + (fr % 100) * 2, 2);
	w = ((uint32_t)h2 | (uint32_t)l2 << 16) >> (8 * (4 - nd));
	f = '.' | (uint32_t)('0' + fr / 100) << 8 | (uint32_t)f2 << 16;
	buf[0] = '-';	/* overwritten by the digits when not negative */
	memcpy(buf + neg, &w, 4);
	memcpy(buf + neg + nd, &f, 4);
	return (size_t)neg + nd + 4;
#else
	return fmt_fixed_3_any(buf, mag, neg);
#endif
}

typedef size_t (*fmt_fixed_fn)(char *buf, uint64_t mag, int neg);

static const fmt_fixed_fn fmt_fixed[10] = {
	fmt_fixed_0, fmt_fixed_1, fmt_fixed_2, fmt_fixed_3, fmt_fixed_4,
	fmt_fixed_5, fmt_fixed_6, fmt_fixed_7, fmt_fixed_8, fmt_fixed_9,
};

static inline size_t fmt_int(char *buf, int64_t raw, unsigned decimals)
{
	int neg = raw < 0;
	/* Magnitude in unsigned arithmetic: INT64_MIN has no positive twin. */
	uint64_t mag = neg ? (uint64_t)0 - (uint64_t)raw : (uint64_t)raw;

	switch (decimals) {
	case 0: return fmt_fixed_0(buf, mag, neg);
	case 3: return fmt_fixed_3(buf, mag, neg);	/* us from ns */
	default: return fmt_fixed[decimals > 9 ? 9 : decimals](buf, mag, neg);
	}
}

size_t wfw_csv_fmt_int(char *buf, int64_t raw, uint64_t divisor,
		       unsigned decimals)
{
	(void)divisor;	/* implied by decimals; kept for readability */
	return fmt_int(buf, raw, decimals);
}

/*
 * Fast path for 1e-4 <= |v| < 1e15, where %g prints plain decimals: v is
 * mant * 2^e2 with -66 <= e2 <= -3, so its first 18 significant digits
 * come exactly from one 128-bit product, as one integer. Rounding that to
 * 15, 16 or 17 digits gives what "%.15g" etc. give, and whether they read
 * back is decided exactly in integers too. Returns 0 outside the range.
 */

/* The first 18 significant digits of a; *x: the exponent of the first. */
struct sig18 {
	uint64_t d;	/* 10^17 <= d < 10^18 */
	int x;
	bool sticky;	/* nonzero digits follow */
};

static struct sig18 float_digits(double a)
{
	uint64_t bits, mant, ip;
	unsigned __int128 p;
	struct sig18 s;
	int sh;

	memcpy(&bits, &a, sizeof(bits));
	mant = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	sh = 1075 - (int)(bits >> 52);		/* 3 .. 66 */
	ip = sh >= 64 ? 0 : mant >> sh;
	if (ip) {	/* a >= 1, so sh <= 52 */
		unsigned k = ndigits(ip);
		uint64_t scale = wfw_pow10_int[18 - k];

		p = (unsigned __int128)(mant & ((1ULL << sh) - 1)) * scale;
		s.d = ip * scale + (uint64_t)(p >> sh);
		s.x = (int)k - 1;
	} else {	/* 1e-4 <= a < 1: at most three more digits */
		p = (unsigned __int128)mant * wfw_pow10_int[18];
		for (s.x = -1; (uint64_t)(p >> sh) < wfw_pow10_int[17]; s.x--)
			p *= 10;
		s.d = (uint64_t)(p >> sh);
	}
	s.sticky = (p & (((unsigned __int128)1 << sh) - 1)) != 0;
	return s;
}

/* s.d rounded to nearest-even at prec digits (15..17); carries into *x. */
static uint64_t round_digits(struct sig18 s, int prec, int *x)
{
	uint64_t div, m, r;

	switch (prec) {	/* divisions by constants: multiplies */
	case 15: div = 1000; m = s.d / 1000; break;
	case 16: div = 100; m = s.d / 100; break;
	default: div = 10; m = s.d / 10; break;
	}
	r = s.d - m * div;
	if (r > div / 2 || (r == div / 2 && (s.sticky || (m & 1))))
		m++;
	*x = s.x;
	if (m == wfw_pow10_int[prec]) {	/* 999.. -> 1000.. */
		m = wfw_pow10_int[prec - 1];
		(*x)++;
	}
	return m;
}

/*
 * Does m * 10^e10 (e10 <= 0) read back as a (1e-4 <= a < 1e15, so a =
 * mant * 2^e2 with -66 <= e2 <= -3)? strtod rounds to the nearest double,
 * ties to an even mantissa, so: is it within half a gap of a? Both sides
 * times 10^-e10 * 2^(2 - e2) are integers below 2^126: compared exactly,
 * without formatting and reparsing.
 */
static int reads_back(uint64_t m, int e10, double a)
{
	unsigned __int128 dec, bin, half_up, half_down, diff;
	uint64_t bits, mant;
	int e2, k = -e10;
	char t[40];

	memcpy(&bits, &a, sizeof(bits));
	mant = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	e2 = (int)(bits >> 52) - 1075;
	if (k > 19 || e2 < -66 || e2 > -3) {	/* outside the exact range */
		snprintf(t, sizeof(t), "%llue%d", (unsigned long long)m, e10);
		return strtod(t, NULL) == a;
	}
	dec = (unsigned __int128)m << (2 - e2);
	bin = (unsigned __int128)mant * wfw_pow10_int[k] * 4;
	half_up = (unsigned __int128)wfw_pow10_int[k] * 2;
	/* Below a power of two the next double down is half as far. */
	half_down = mant == (1ULL << 52) ? half_up / 2 : half_up;
	if (dec >= bin) {
		diff = dec - bin;
		return diff < half_up || (diff == half_up && !(mant & 1));
	}
	diff = bin - dec;
	return diff < half_down || (diff == half_down && !(mant & 1));
}

/*
 * The shortest of 15, 16, 17 digits that reads back as a, trailing zeros
 * stripped: *m, *prec and its exponent *x. False when the rounding reaches
 * 1e15 (where %g would use an exponent).
 */
static bool shortest(double a, uint64_t *m, int *prec, int *x)
{
	struct sig18 s = float_digits(a);
	int p;

	for (p = 15; p <= 17; p++) {
		*m = round_digits(s, p, x);
		if (*x >= 15)
			return false;
		/* 17 digits always read back; -19 <= e10 <= 0 */
		if (p == 17 || reads_back(*m, *x - (p - 1), a))
			break;
	}
	while (p > 1 && *m % 10 == 0) {
		*m /= 10;
		p--;
	}
	*prec = p;
	return true;
}

/* Digits of m (p of them, 9 to 17) into d: two independent halves. */
static void digits_9_17(char *d, uint64_t m, int p)
{
	uint32_t lo = (uint32_t)(m % 100000000);

	utoa_back(d + p - 8, m / 100000000);
	memcpy(d + p - 8, digit_pairs + lo / 1000000 * 2, 2);
	memcpy(d + p - 6, digit_pairs + lo / 10000 % 100 * 2, 2);
	memcpy(d + p - 4, digit_pairs + lo / 100 % 100 * 2, 2);
	memcpy(d + p - 2, digit_pairs + lo % 100 * 2, 2);
}

/* The p digits of m with exponent x as %g prints them without one. */
static size_t emit_plain(char *buf, bool neg, uint64_t m, int p, int x)
{
	char dig[24], *d = dig, *o = buf + neg;

	if (p >= 9)
		digits_9_17(dig, m, p);
	else
		d = utoa_back(dig + sizeof(dig), m);

	buf[0] = '-';
	if (x < 0) {	/* "0." and -x - 1 zeros: x >= -4 */
		memcpy(o, "0.000", (size_t)(1 - x));
		o += 1 - x;
		memcpy(o, d, (size_t)p);
		return (size_t)(o + p - buf);
	}
	if (p <= x + 1) {	/* integral: "100.0" like Python */
		memcpy(o, d, (size_t)p);
		memset(o + p, '0', (size_t)(x + 1 - p));
		o += x + 1;
		memcpy(o, ".0", 2);
		return (size_t)(o + 2 - buf);
	}
	memcpy(o, d, (size_t)x + 1);
	o += x + 1;
	*o++ = '.';
	memcpy(o, d + x + 1, (size_t)(p - x - 1));
	return (size_t)(o + p - x - 1 - buf);
}

static size_t fmt_float_fast(char *buf, double v)
{
	double a = fabs(v);
	uint64_t m;
	int p, x;

	if (!(a >= 1e-4 && a < 1e15) || !shortest(a, &m, &p, &x))
		return 0;
	return emit_plain(buf, v < 0, m, p, x);
}

/*
 * Short decimals (what a CSV with a few decimals held, e.g. 12.345): when v
 * is the double nearest k / 10^s for some s <= 9 and k < 10^15, "%.15g"
 * prints exactly that decimal (15 digits always read back), and the
 * digits come from the integer k. Two decimals of at most 15 digits never
 * round to the same double, so k / 10^s found at any s is that decimal:
 * its trailing zeros stripped give the shortest. *hint is the scale that
 * worked last (a column's values tend to share one); it is tried first.
 * Returns 0 for any other v.
 */
static size_t fmt_short_decimal(char *buf, double v, unsigned *hint)
{
	double a = fabs(v);
	int64_t k;
	unsigned s = *hint;
	size_t n;

	if (!(a >= 1e-4 && a < 1e15))
		return 0;
	if (!(a * wfw_pow10_exact[s] < 1e15 && wfw_dec_exact(a, s, &k))) {
		for (s = 0; s <= WFW_DEC_MAX_SCALE; s++) {
			if (a * wfw_pow10_exact[s] >= 1e15)
				return 0;
			if (wfw_dec_exact(a, s, &k))
				break;
		}
		if (s > WFW_DEC_MAX_SCALE)
			return 0;
		*hint = s;
	}
	for (; s && k % 10 == 0; s--)
		k /= 10;
	n = fmt_fixed[s](buf, (uint64_t)k, v < 0);
	if (!s) {	/* integral: "100.0" like Python */
		buf[n++] = '.';
		buf[n++] = '0';
	}
	return n;
}

/*
 * A column whose last value was no short decimal (a ratio, a mean) most
 * likely holds none: its next value skips the scan over the scales. Both
 * paths print the same text, so this only saves time; a value that turns
 * out short again brings the scan back.
 */
#define HINT_NOT_SHORT (WFW_DEC_MAX_SCALE + 1)

static inline size_t fmt_float(char *buf, double v, unsigned *hint)
{
	size_t fast = 0;

	if (*hint != HINT_NOT_SHORT)
		fast = fmt_short_decimal(buf, v, hint);
	if (!fast) {
		fast = fmt_float_fast(buf, v);
		*hint = fast && fast < 12 ? 0 : HINT_NOT_SHORT;
	}
	return fast ? fast : wfw_csv_fmt_float_slow(buf, v);
}

size_t wfw_csv_fmt_float(char *buf, double v)
{
	unsigned hint = 0;

	return fmt_float(buf, v, &hint);
}

size_t wfw_csv_fmt_float_slow(char *buf, double v)
{
	int n;

	if (isnan(v)) {
		memcpy(buf, "nan", 3);
		return 3;
	}
	if (isinf(v)) {
		if (v < 0) {
			memcpy(buf, "-inf", 4);
			return 4;
		}
		memcpy(buf, "inf", 3);
		return 3;
	}
	/* Shortest precision that reads back to the same double. */
	n = snprintf(buf, FLOAT_MAX_TEXT, "%.15g", v);
	if (strtod(buf, NULL) != v) {
		n = snprintf(buf, FLOAT_MAX_TEXT, "%.16g", v);
		if (strtod(buf, NULL) != v)
			n = snprintf(buf, FLOAT_MAX_TEXT, "%.17g", v);
	}
	if (!memchr(buf, '.', (size_t)n) && !memchr(buf, 'e', (size_t)n)) {
		buf[n++] = '.';	/* integral: "0.0" as wult/Python shows it */
		buf[n++] = '0';
	}
	return (size_t)n;
}

int wfw_csv_needs_quote(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

/* s as one CSV field: libcsv quotes it when needed. */
static char *field_text(const char *s, size_t *len)
{
	size_t n = strlen(s), q;
	char *out;

	if (!wfw_csv_needs_quote(s, n)) {
		*len = n;
		return strdup(s);
	}
	q = csv_write(NULL, 0, s, n);
	out = malloc(q + 1);
	if (!out)
		return NULL;
	csv_write(out, q, s, n);
	out[q] = '\0';
	*len = q;
	return out;
}

/* Enum names of column c as fields; each text has ENUM_COPY readable bytes. */
#define ENUM_COPY	16

static void free_names(struct wfw_csvfmt_col *fc)
{
	for (size_t i = 0; fc->text && i < fc->n_enum; i++)
		free(fc->text[i]);
	free(fc->text);
	free(fc->len);
	fc->text = NULL;
	fc->len = NULL;
	fc->n_enum = 0;
}

static int enum_setup(struct wfw_csvfmt_col *fc, const struct wultfw_column *col)
{
	size_t longest = ENUM_COPY;

	fc->text = calloc(col->n_enum + 1, sizeof(char *));
	fc->len = calloc(col->n_enum + 1, sizeof(size_t));
	if (!fc->text || !fc->len)
		return -ENOMEM;
	for (size_t i = 0; i < col->n_enum; i++) {
		const char *name = col->enum_names[i] ? col->enum_names[i] : "";
		size_t n;
		char *t = field_text(name, &n);

		fc->n_enum = i + 1;
		if (!t)
			return -ENOMEM;
		if (n < ENUM_COPY) {	/* room for a fixed-size copy */
			char *big = calloc(1, ENUM_COPY);

			if (big)
				memcpy(big, t, n);
			free(t);
			t = big;
		}
		fc->text[i] = t;
		if (!t)
			return -ENOMEM;
		fc->len[i] = n;
		longest = n > longest ? n : longest;
	}
	fc->max = longest;
	return 0;
}

/* Column c's formatting from its schema entry (again after a change). */
static int col_setup(struct wfw_csvfmt *f, size_t c, char *err, size_t errlen)
{
	const struct wultfw_column *col = &f->schema->cols[c];
	struct wfw_csvfmt_col *fc = &f->col[c];
	uint64_t d = col->divisor ? col->divisor : 1;

	free_names(fc);
	fc->type = (int)col->type;
	fc->divisor = col->divisor;
	fc->decimals = 0;
	switch (col->type) {
	case WULTFW_COL_INT:
		for (; d % 10 == 0; d /= 10)
			fc->decimals++;
		if (d != 1 || fc->decimals > 9) {
			snprintf(err, errlen, "column %s: divisor %u is not a power of ten up to 10^9",
				 col->name, (unsigned)col->divisor);
			return -EINVAL;
		}
		fc->max = INT_MAX_TEXT;
		return 0;
	case WULTFW_COL_FLOAT:
		fc->max = FLOAT_MAX_TEXT;
		return 0;
	case WULTFW_COL_ENUM:
		if (enum_setup(fc, col)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		return 0;
	default:
		snprintf(err, errlen, "column %s: unknown type %d", col->name, (int)col->type);
		return -EINVAL;
	}
}

/* The header line: the column names as fields. */
static int build_header(struct wfw_csvfmt *f)
{
	const struct wultfw_schema *s = f->schema;
	size_t hlen = 0, hcap = 64;

	f->header = malloc(hcap);
	for (size_t c = 0; c < s->ncols && f->header; c++) {
		size_t nlen;
		char *name = field_text(s->cols[c].name ? s->cols[c].name : "", &nlen);

		if (name && hlen + nlen + 2 > hcap) {
			char *nh = realloc(f->header, hcap = (hlen + nlen + 2) * 2);

			if (!nh)
				free(f->header);
			f->header = nh;
		}
		if (!name || !f->header) {
			free(name);
			return -ENOMEM;
		}
		memcpy(f->header + hlen, name, nlen);
		hlen += nlen;
		f->header[hlen++] = c + 1 < s->ncols ? ',' : '\n';
		free(name);
	}
	f->header_len = hlen;
	return f->header ? 0 : -ENOMEM;
}

void wfw_csvfmt_free(struct wfw_csvfmt *f)
{
	for (size_t c = 0; f->col && c < f->schema->ncols; c++)
		free_names(&f->col[c]);
	free(f->col);
	free(f->header);
	memset(f, 0, sizeof(*f));
}

static void sum_row_max(struct wfw_csvfmt *f)
{
	f->row_max = f->schema->ncols;	/* commas and the newline */
	for (size_t c = 0; c < f->schema->ncols; c++)
		f->row_max += f->col[c].max;
}

int wfw_csvfmt_init(struct wfw_csvfmt *f, const struct wultfw_schema *s,
		    char *err, size_t errlen)
{
	int ret = 0;

	memset(f, 0, sizeof(*f));
	f->schema = s;
	if (!s->ncols) {
		snprintf(err, errlen, "the schema has no columns");
		return -EINVAL;
	}
	f->col = calloc(s->ncols, sizeof(*f->col));
	if (!f->col || build_header(f)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	for (size_t c = 0; c < s->ncols && !ret; c++)
		ret = col_setup(f, c, err, errlen);
	if (ret) {
		wfw_csvfmt_free(f);
		return ret;
	}
	sum_row_max(f);
	return 0;
}

int wfw_csvfmt_sync(struct wfw_csvfmt *f, char *err, size_t errlen)
{
	const struct wultfw_column *cols = f->schema->cols;
	bool changed = false;

	for (size_t c = 0; c < f->schema->ncols; c++) {
		const struct wfw_csvfmt_col *fc = &f->col[c];
		bool was_int = fc->type == WULTFW_COL_INT && fc->decimals == 0;
		int ret;

		if (fc->type == (int)cols[c].type && fc->divisor == cols[c].divisor &&
		    (fc->type != WULTFW_COL_ENUM || fc->n_enum == cols[c].n_enum))
			continue;
		ret = col_setup(f, c, err, errlen);
		if (ret)
			return ret;
		/* Integers printed so far: the later ones look the same. */
		if (was_int && cols[c].type == WULTFW_COL_FLOAT)
			f->col[c].bare = true;
		changed = true;
	}
	if (changed)
		sum_row_max(f);
	return 0;
}

void wfw_csvfmt_set_bare(struct wfw_csvfmt *f, size_t c, bool bare)
{
	f->col[c].bare = bare;
}

/* An integral value's ".0" cut in a bare column: "5", "-3", "0". */
static inline size_t cut_point_zero(const struct wfw_csvfmt_col *fc,
				    const char *p, size_t n)
{
	return fc->bare && n > 2 && p[n - 2] == '.' && p[n - 1] == '0' ? n - 2 : n;
}

static inline char *fmt_enum(char *p, const struct wfw_csvfmt_col *fc, int64_t i)
{
	size_t n;

	if (i < 0 || (uint64_t)i >= fc->n_enum)
		return p;
	n = fc->len[i];
	if (n <= ENUM_COPY)
		memcpy(p, fc->text[i], ENUM_COPY);	/* fc->max leaves room */
	else
		memcpy(p, fc->text[i], n);
	return p + n;
}

static inline char *fmt_cell(struct wfw_csvfmt_col *fc, char *p,
			     union wultfw_cell v)
{
	if (fc->type == WULTFW_COL_INT) {
		if (v.i != WULTFW_CELL_EMPTY)
			p += fmt_int(p, v.i, fc->decimals);
	} else if (fc->type == WULTFW_COL_FLOAT) {
		if (v.i != WULTFW_FLOAT_EMPTY_BITS)
			p += cut_point_zero(fc, p, fmt_float(p, v.f, &fc->hint));
	} else {
		p = fmt_enum(p, fc, v.i);
	}
	return p;
}

char *wfw_csvfmt_cell(struct wfw_csvfmt_col *fc, char *p, union wultfw_cell v)
{
	return fmt_cell(fc, p, v);
}

size_t wfw_csvfmt_row(const struct wfw_csvfmt *f, char *buf,
		      const union wultfw_cell *row)
{
	struct wfw_csvfmt_col *fc = f->col;
	size_t ncols = f->schema->ncols;
	char *p = buf;

	for (size_t c = 0; c < ncols; c++, fc++) {
		p = fmt_cell(fc, p, row[c]);
		*p++ = ',';
	}
	p[-1] = '\n';
	return (size_t)(p - buf);
}

size_t wfw_csvfmt_rows(const struct wfw_csvfmt *f, char *buf,
		       const union wultfw_cell *cells, size_t rows)
{
	size_t ncols = f->schema->ncols;
	char *p = buf;

	for (size_t r = 0; r < rows; r++, cells += ncols)
		p += wfw_csvfmt_row(f, p, cells);
	return (size_t)(p - buf);
}
