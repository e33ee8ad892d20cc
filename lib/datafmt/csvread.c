/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader (rules in reader.h). The file is mapped and read once:
 * column types are learned from the first rows (from every row when the
 * caller did not ask for one pass), then each row is converted as it is
 * read, with a fused scan-and-convert fast path per column type. Mapped
 * pages behind the read position are given back as it moves on. Each
 * call that reads the map guards it (mapguard.h): a file cut shorter
 * meanwhile fails the reader with a message instead of killing the
 * process with SIGBUS; so does its caller's reading of row texts, through
 * wfw_reader_use_texts().
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/csvnum.h"
#include "datafmt/csvtok.h"
#include "datafmt/csvwin.h"
#include "datafmt/enumtab.h"
#include "datafmt/le.h"
#include "datafmt/mapguard.h"
#include "datafmt/percpu.h"
#include "datafmt/reader_impl.h"
#include "units/wultunits.h"

#define rfail wfw_reader_fail

/* Rows one-pass readers learn types from before the first batch. */
#define LEARN_ROWS	1000
/* Give mapped pages back every this many bytes: keeps RSS flat. */
#define DROP_CHUNK	(4u << 20)
/* parse_row(): the row needs a column's type changed first. */
#define RETYPE		1

enum col_kind { K_UNDECIDED, K_NUMERIC, K_ENUM };

struct colstate {
	enum col_kind kind;
	int int_ok;		/* NUMERIC: every value canonical with `dec` */
	int dec;
	bool saw_int;		/* a value written as an integer: "5" */
	bool saw_frac;		/* a value with a fraction, or nan/inf */
	uint64_t first_text;	/* ENUM: line of its first value */
	bool names;		/* ENUM whatever it holds: WFW_CPU_COL */
	struct wfw_enum_tab et;
	int want_type;		/* RETYPE: the type it becomes */
	int want_dec;
};

struct csv_reader {
	struct wfw_reader base;
	struct wfw_csvtok tok;	/* map, position, line, fields */
	size_t stop;		/* rows starting here or later are not ours */
	size_t dropped;		/* map bytes already given back */
	size_t page;
	struct wincol *plan;	/* the window path's view of the columns */
	bool pairs;		/* some plan[c].pair is set */
	const struct wfw_win_rows *rows;	/* the SIMD level (csvwin.h) */
	uintptr_t row_win_end;	/* a window path row starts at or below this */
	struct wultfw_column *cols;
	struct colstate *cs;
	char **colnames;
	char (*shown)[WFW_CSV_SHOWN];	/* names as error messages show them */
	int retype_col;		/* column parse_row() wants retyped, or -1 */
	struct wfw_row_text *texts;	/* per batch row; NULL: not asked */
	size_t tcap;
	size_t keep;		/* texts: pages from here on stay mapped */
	bool odd;		/* the row has a field printed otherwise */
	size_t data, from;	/* where the rows start, and this part's */
	size_t mapped;		/* the map's length when tok.size was cut */
	size_t maplen;		/* the map's length, guarded (mapguard.h) */
	int gone;		/* a read raised SIGBUS: each one fails so */
	bool *want;		/* read_cols: the columns it fills; NULL: all */
	bool numbers;		/* read_cols: INT cells as doubles */
	union wultfw_cell *junk;	/* read_cols: text columns not asked for */
	size_t jcap;
};

static struct csv_reader *to_csv(struct wfw_reader *r)
{
	return (struct csv_reader *)r;	/* base is the first member */
}

static int nomem(struct csv_reader *r)
{
	return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
}

/* ---- learning column types ---- */

static int not_a_number(struct csv_reader *r, size_t c, const char *s,
			size_t n, uint64_t line)
{
	char v[WFW_CSV_SHOWN];

	wfw_csv_show(v, sizeof(v), s, n);
	return rfail(&r->base, -EINVAL, "%s:%llu: column %s: '%s' is not a number",
		     r->base.path, (unsigned long long)line, r->shown[c], v);
}

/* A text column meets a number: the file mixes them. */
static int text_and_number(struct csv_reader *r, size_t c, const char *s,
			   size_t n, uint64_t line)
{
	struct colstate *cs = &r->cs[c];
	char first[WFW_CSV_SHOWN], v[WFW_CSV_SHOWN];

	wfw_csv_show(first, sizeof(first), cs->et.names[0], cs->et.lens[0]);
	wfw_csv_show(v, sizeof(v), s, n);
	return rfail(&r->base, -EINVAL, "%s:%llu: column %s: '%s' is not a number (line %llu holds the number '%s')",
		     r->base.path, (unsigned long long)cs->first_text, r->shown[c],
		     first, (unsigned long long)line, v);
}

static int add_name(struct csv_reader *r, size_t c, const char *s, size_t n,
		    uint64_t line)
{
	struct wultfw_column *col = &r->cols[c];
	long i;

	if (memchr(s, '\0', n))
		return rfail(&r->base, -EINVAL, "%s:%llu: column %s: a NUL byte in a text field (binary data, not CSV)",
			     r->base.path, (unsigned long long)line, r->shown[c]);
	i = wfw_enum_add(&r->cs[c].et, s, n);
	if (i < 0)
		return nomem(r);
	col->enum_names = (const char *const *)r->cs[c].et.names;
	col->n_enum = r->cs[c].et.n;
	return 0;
}

/*
 * How a numeric value is written, for csv_bare_ints(): an integer
 * ("5"), or a value a FLOAT column prints with a point or as nan/inf.
 */
static void note_form(struct colstate *cs, const char *s, size_t n, int num,
		      int dec)
{
	double v;

	if (num == WFW_NUM_CANON && !dec)
		cs->saw_int = true;
	else if (num == WFW_NUM_CANON)
		cs->saw_frac |= strspn(s + n - dec, "0") < (size_t)dec;
	else if (!wfw_csvnum_parse_double(s, n, &v))
		cs->saw_frac |= !isfinite(v) || v != floor(v);
}

/* Learn from one value of column c. */
static int note_value(struct csv_reader *r, size_t c, const char *s, size_t n,
		      uint64_t line)
{
	struct colstate *cs = &r->cs[c];
	int num, dec = 0;

	if (!n)
		return 0;
	if (cs->kind == K_ENUM && wfw_enum_find(&cs->et, s, n) >= 0)
		return 0;
	num = wfw_csvnum_classify(s, n, &dec);
	if (cs->kind == K_ENUM)
		return num != WFW_NUM_NO && !cs->names ?
			text_and_number(r, c, s, n, line) : add_name(r, c, s, n, line);
	if (cs->kind == K_UNDECIDED) {
		if (num == WFW_NUM_NO) {
			cs->kind = K_ENUM;
			cs->first_text = line;
			return add_name(r, c, s, n, line);
		}
		cs->kind = K_NUMERIC;
		cs->int_ok = 1;
		cs->dec = dec;
	}
	if (num == WFW_NUM_NO)
		return not_a_number(r, c, s, n, line);
	if (num == WFW_NUM_OTHER || cs->dec != dec)
		cs->int_ok = 0;
	note_form(cs, s, n, num, dec);
	return 0;
}

static void set_type(struct wultfw_column *col, int type, int dec)
{
	uint32_t d = 1;

	for (int k = 0; k < dec; k++)
		d *= 10;
	col->type = type;
	col->divisor = type == WULTFW_COL_INT ? d : 0;
	if (type != WULTFW_COL_ENUM) {
		col->enum_names = NULL;
		col->n_enum = 0;
	}
}

/*
 * A text column not asked for is still checked: a number there after the
 * learning rows is an error (the file mixes them). A cell that starts
 * with a letter strtod() cannot start with needs no look-up for that.
 */
static int plan_type(const struct csv_reader *r, size_t c)
{
	if (r->want && !r->want[c])
		return r->cols[c].type == WULTFW_COL_ENUM ? WIN_WORDS : WIN_SKIP;
	if (r->want && r->numbers && r->cols[c].type == WULTFW_COL_INT)
		return WIN_INT_NUM;
	return (int)r->cols[c].type;
}

bool wfw_csv_no_pairs;

/* Cells win_pair() takes: read as doubles, a FLOAT's or an INT's. */
static bool pair_kind(const struct wincol *w)
{
	return w->type == WULTFW_COL_FLOAT || w->type == WIN_INT_NUM;
}

/* Which neighbouring cells win_pair() may take two at a time; any? */
static bool plan_pairs(struct wincol *plan, size_t nc)
{
	bool any = false;

	for (size_t c = 0; c < nc; c++) {
		struct wincol *w = &plan[c];

		w->pair = c + 1 < nc && pair_kind(w) && pair_kind(w + 1);
		w->fx = wfw_fixed(w->dec, w->type == WIN_INT_NUM);
		/* An INT's digits are its value; dec <= 9 for a FLOAT too. */
		w->div = w->fx.canon ? 1.0 : wfw_pow10_exact[w->dec];
		any |= w->pair;
	}
	return any && !wfw_csv_no_pairs;
}

/* The window path's view of the columns, after any change of type. */
static void plan_columns(struct csv_reader *r)
{
	for (size_t c = 0; c < r->base.schema.ncols; c++)
		r->plan[c] = (struct wincol){
			.type = plan_type(r, c),
			.dec = r->cs[c].dec,
			.et = &r->cs[c].et,
			/* read_cols sets its columns' before each batch */
			.off = r->want ? r->plan[c].off : c * sizeof(union wultfw_cell) };
	r->pairs = plan_pairs(r->plan, r->base.schema.ncols);
	r->rows = wfw_win_rows();
}

/* Column types from what the learning rows showed. */
static void fix_types(struct csv_reader *r, uint64_t rows)
{
	for (size_t c = 0; c < r->base.schema.ncols; c++) {
		struct colstate *cs = &r->cs[c];

		if (cs->kind == K_NUMERIC)
			set_type(&r->cols[c], cs->int_ok ? WULTFW_COL_INT : WULTFW_COL_FLOAT,
				 cs->dec);
		else if (cs->kind == K_UNDECIDED && !rows &&
			 !wfw_wult_is_text(r->cols[c].name))
			set_type(&r->cols[c], WULTFW_COL_FLOAT, 0);
		else	/* text, or every value empty so far */
			set_type(&r->cols[c], WULTFW_COL_ENUM, 0);
	}
}

static int field_count(struct csv_reader *r, long nf, uint64_t line)
{
	return rfail(&r->base, -EINVAL, "%s:%llu: %ld fields, the header has %zu columns",
		     r->base.path, (unsigned long long)line, nf,
		     r->base.schema.ncols);
}

/* Tokenise up to `limit` rows from the read position, then rewind. */
static int learn(struct csv_reader *r, uint64_t limit)
{
	struct wfw_csvtok save = r->tok;
	uint64_t rows = 0;
	int ret = 0;

	while (!ret && rows < limit && wfw_csvtok_next_row(&r->tok, r->stop)) {
		uint64_t line = r->tok.line;
		long nf = wfw_csvtok_record(&r->tok, &r->base);

		if (nf < 0)
			return (int)nf;
		if ((size_t)nf != r->base.schema.ncols)
			return field_count(r, nf, line);
		for (size_t c = 0; c < (size_t)nf && !ret; c++)
			ret = note_value(r, c, r->tok.f[c].s, r->tok.f[c].n, line);
		/* A whole file's pass takes seconds: stop on request. */
		if (!(++rows & 4095) && wfw_reader_stop_now(&r->base))
			return rfail(&r->base, -EINTR, "%s: reading stopped", r->base.path);
	}
	if (!r->base.opts.one_pass)
		r->base.rows = rows;
	fix_types(r, rows);
	plan_columns(r);
	save.f = r->tok.f;	/* buffers may have moved */
	save.fcap = r->tok.fcap;
	save.scratch = r->tok.scratch;
	save.scap = r->tok.scap;
	r->tok = save;
	return ret;
}

/* ---- converting rows ---- */

/* A new name of text column c: the cell gets its number. */
static int new_name(struct csv_reader *r, size_t c, const char *s, size_t n,
		    uint64_t line, union wultfw_cell *cell)
{
	int ret = add_name(r, c, s, n, line);

	if (!ret)
		cell->i = (int64_t)r->cs[c].et.n - 1;
	return ret;
}

/* A value that does not fit column c's type: change it, or fail. */
static int disagree(struct csv_reader *r, size_t c, const char *s, size_t n,
		    uint64_t line, union wultfw_cell *cell)
{
	struct colstate *cs = &r->cs[c];
	int dec = 0, num = wfw_csvnum_classify(s, n, &dec);
	int type = r->cols[c].type;

	if (num == WFW_NUM_NO || cs->names)
		return type == WULTFW_COL_ENUM ? new_name(r, c, s, n, line, cell)
					       : not_a_number(r, c, s, n, line);
	if (type == WULTFW_COL_ENUM && cs->et.n)
		return text_and_number(r, c, s, n, line);
	if (!r->base.opts.one_pass)	/* the file changed since we learned */
		return rfail(&r->base, -EINVAL, "%s:%llu: column %s: the file changed while being read",
			     r->base.path, (unsigned long long)line, r->shown[c]);
	cs->want_type = type == WULTFW_COL_ENUM && num == WFW_NUM_CANON ?
		WULTFW_COL_INT : WULTFW_COL_FLOAT;
	cs->want_dec = dec;
	r->retype_col = (int)c;
	return RETYPE;
}

static void empty_cell(const struct wultfw_column *col, union wultfw_cell *cell)
{
	if (col->type == WULTFW_COL_FLOAT)
		cell->i = WULTFW_FLOAT_EMPTY_BITS;
	else if (col->type == WULTFW_COL_INT)
		cell->i = WULTFW_CELL_EMPTY;
	else
		cell->i = -1;
}

/* The general conversion of field s[0..n) of column c. */
static int convert(struct csv_reader *r, size_t c, const char *s, size_t n,
		   union wultfw_cell *cell)
{
	const struct wultfw_column *col = &r->cols[c];
	long i;

	if (!n) {
		empty_cell(col, cell);
		return 0;
	}
	switch (col->type) {
	case WULTFW_COL_INT:
		if (wfw_csvnum_scan_canon(s, s + n, r->cs[c].dec, &cell->i) == s + n)
			return 0;
		break;
	case WULTFW_COL_FLOAT:
		if (!wfw_csvnum_parse_double(s, n, &cell->f))
			return 0;
		break;
	default:
		i = wfw_enum_find(&r->cs[c].et, s, n);
		cell->i = i;
		if (i >= 0)
			return 0;
		break;
	}
	return disagree(r, c, s, n, r->tok.line, cell);
}

static void apply_retype(struct csv_reader *r)
{
	struct colstate *cs = &r->cs[r->retype_col];
	const struct wultfw_column *col = &r->cols[r->retype_col];

	/* Integers so far: the formatter goes on printing them so. */
	if (col->type == WULTFW_COL_INT && col->divisor == 1 &&
	    cs->want_type == WULTFW_COL_FLOAT)
		cs->saw_int = cs->saw_frac = true;
	cs->kind = K_NUMERIC;
	cs->dec = cs->want_dec;
	set_type(&r->cols[r->retype_col], cs->want_type, cs->want_dec);
	plan_columns(r);
	r->retype_col = -1;
	r->base.schema_gen++;
}

/*
 * Would the formatter print field p[0..q) (f as the tokeniser split it)
 * as these bytes? Empty, or an unquoted name that needs no quotes. INT
 * and FLOAT values the fast scans took never get here (float_plain()
 * judges those); others may print otherwise ("+1", "1e3", "nan").
 */
static bool plain_field(int type, const char *p, const char *q,
			const struct wfw_csv_field *f)
{
	if (f->s != p || f->n != (size_t)(q - p))
		return false;	/* quoted */
	if (!f->n)
		return true;
	return type == WULTFW_COL_ENUM && !memchr(f->s, '"', f->n);
}

/*
 * Does the FLOAT field at s (up to a field end) print as itself? Empty,
 * or [-]W.F with W "0" or without a leading zero, F of 1 to 9 digits not
 * ending in 0, at most 15 digits in all and at least 1e-4: csvfmt.h
 * prints the double nearest such a decimal as that decimal (15 digits
 * read back; %.15g drops only trailing zeros and has no exponent from
 * 1e-4 to 1e15). Returns the field's end, or NULL.
 */
static const char *float_plain(const char *s, const char *end)
{
	const char *p = s + (s < end && *s == '-'), *w = p, *f;

	if (wfw_field_end(s, end))
		return s;
	while (p < end && wfw_is_digit(*p))
		p++;
	if (!wfw_canon_whole(w, p) || p == end || *p != '.')
		return NULL;
	f = ++p;
	while (p < end && wfw_is_digit(*p))
		p++;
	if (!wfw_field_end(p, end) || p == f || p - f > 9 || p[-1] == '0' ||
	    p - w - 1 > 15)
		return NULL;
	if (*w != '0')
		return p;
	for (const char *z = f; z < f + 4; z++)	/* 0.000d at the least */
		if (*z != '0')
			return p;
	return NULL;
}

/* One field at p into *cell; returns the position after it or NULL. */
static const char *field(struct csv_reader *r, size_t c, const char *p,
			 union wultfw_cell *cell, int *ret)
{
	struct wfw_csvtok *t = &r->tok;
	const char *end = t->map + t->size, *q;
	struct wfw_csv_field f;

	if (r->plan[c].type == WIN_SKIP) {	/* delimited, not converted */
		q = wfw_csvtok_field(t, &r->base, p, &f);
		*ret = q ? 0 : t->err;
		return q;
	}
	if (r->cols[c].type == WULTFW_COL_INT &&
	    (q = wfw_csvnum_scan_canon(p, end, r->cs[c].dec, &cell->i)))
		return q;
	if (r->cols[c].type == WULTFW_COL_FLOAT &&
	    (q = wfw_csvnum_scan_double(p, end, &cell->f))) {
		if (r->texts && float_plain(p, end) != q)
			r->odd = true;
		return q;
	}
	q = wfw_csvtok_field(t, &r->base, p, &f);
	if (!q) {
		*ret = t->err;
		return NULL;
	}
	if (r->texts && !plain_field(r->cols[c].type, p, q, &f))
		r->odd = true;
	*ret = convert(r, c, f.s, f.n, cell);
	return *ret ? NULL : q;
}

/*
 * The window path (csvwin_row.h) at the reader's SIMD level, noting odd
 * FLOAT fields only when row texts are wanted (each FLOAT judged: one at a
 * time then), two cells at a time where the plan has neighbours
 * win_pair() takes.
 */
static inline size_t win_cells(struct csv_reader *r, size_t c, const char **pp,
			       uintptr_t at)
{
	size_t nc = r->base.schema.ncols;

	if (r->texts)
		return r->rows->odd(r->plan, c, nc, pp, at, &r->odd);
	if (r->pairs)
		return r->rows->pairs(r->plan, c, nc, pp, at, NULL);
	return r->rows->fast(r->plan, c, nc, pp, at, NULL);
}

/* field() for a cell the window path did not take, with the line bound. */
static const char *slow_field(struct csv_reader *r, size_t c, const char *p,
			      const char *start, uint64_t line,
			      union wultfw_cell *cell, int *ret)
{
	const char *q = field(r, c, p, cell, ret);

	if (q && (size_t)(q - start) > WFW_CSV_MAX_LINE) {
		*ret = wfw_csvtok_too_long(&r->tok, &r->base, line);
		return NULL;
	}
	if (q && r->plan[c].type == WIN_INT_NUM)
		cell->f = cell->i == WULTFW_CELL_EMPTY
			  ? (union wultfw_cell){ .i = WULTFW_FLOAT_EMPTY_BITS }.f
			  : (double)cell->i;
	return q;
}

/*
 * Cells c.. of the row that starts at `start`, cell c at p: each cell the
 * window path does not take through field(), then the window path again.
 * Returns the row's end or NULL.
 */
static const char *rest_of_row(struct csv_reader *r, size_t c, const char *p,
			       const char *start, uintptr_t at, int *ret)
{
	const char *end = r->tok.map + r->tok.size, *q;
	size_t nc = r->base.schema.ncols;
	uint64_t line = r->tok.line;

	for (;;) {
		q = slow_field(r, c, p, start, line, cell_at(r->plan, at, c), ret);
		if (!q)
			return NULL;
		if (++c == nc)
			return q;
		if (q == end || *q != ',') {
			*ret = field_count(r, (long)c, line);
			return NULL;
		}
		p = q + 1;
		if ((uintptr_t)p <= r->row_win_end) {
			c = win_cells(r, c, &p, at);
			if (c == nc)
				return p;
		}
	}
}

/* Convert the row at the read position into row[]; 0, RETYPE or -errno. */
static int parse_row(struct csv_reader *r, uintptr_t at)
{
	struct wfw_csvtok *t = &r->tok;
	const char *p = t->map + t->pos, *start = p;
	size_t nc = r->base.schema.ncols, c = 0;
	uint64_t line = t->line;
	int ret = 0;

	if ((uintptr_t)p <= r->row_win_end)
		c = win_cells(r, 0, &p, at);
	if (c < nc && !(p = rest_of_row(r, c, p, start, at, &ret)))
		return ret;
	if ((size_t)(p - start) > WFW_CSV_MAX_LINE)
		return wfw_csvtok_too_long(t, &r->base, line);
	if (wfw_csvtok_end_record(t, &p))
		return field_count(r, (long)(nc + wfw_csvtok_count_rest(t, p)), line);
	t->pos = (size_t)(p - t->map);
	return 0;
}

/* Give back mapped pages below the read position (they stay cached). */
static void drop_pages(struct csv_reader *r)
{
	size_t pos = r->texts && r->keep < r->tok.pos ? r->keep : r->tok.pos;
	size_t upto = pos & ~(r->page - 1);

	if (upto - r->dropped < DROP_CHUNK)
		return;
	madvise((void *)(r->tok.map + r->dropped), upto - r->dropped, MADV_DONTNEED);
	r->dropped = upto;
}

/*
 * The row just read, map[from..pos): its line when every field was read
 * as the formatter prints it (INT through the canonical scans, a known
 * name, an empty field, a FLOAT as float_plain() says: r->odd is not set)
 * and it ends in a bare LF.
 */
static void note_text(struct csv_reader *r, size_t i, size_t from)
{
	const char *m = r->tok.map;
	size_t to = r->tok.pos;
	bool plain = !r->odd && m[to - 1] == '\n' && m[to - 2] != '\r';

	r->texts[i] = (struct wfw_row_text){ .s = m + from,
					     .n = plain ? to - from : 0 };
}

static bool csv_bare_ints(const struct wfw_reader *base, size_t c)
{
	const struct csv_reader *r = (const struct csv_reader *)base;

	return r->cols[c].type == WULTFW_COL_FLOAT && r->cs[c].saw_int &&
	       r->cs[c].saw_frac;
}

static const struct wfw_row_text *csv_row_texts(struct wfw_reader *base,
						size_t capacity)
{
	struct csv_reader *r = to_csv(base);

	if (capacity > r->tcap) {
		struct wfw_row_text *t = realloc(r->texts, capacity * sizeof(*t));

		if (!t)
			return NULL;
		r->texts = t;
		r->tcap = capacity;
	}
	return r->texts;
}

/*
 * The next row into row[]: 1, or 0 at the end of the part or before a
 * change of type when the batch has rows (`got`), or -errno. *pos: where
 * the row starts.
 */
static int next_row(struct csv_reader *r, uintptr_t at, long got,
		    size_t *pos)
{
	while (wfw_csvtok_next_row(&r->tok, r->stop)) {
		uint64_t line = r->tok.line;
		int ret;

		*pos = r->tok.pos;
		r->odd = false;
		ret = parse_row(r, at);
		if (ret != RETYPE)
			return ret < 0 ? ret : 1;
		/* Rows of one batch share one schema: retype after it. */
		r->tok.pos = *pos;
		r->tok.line = line;
		if (got)
			return 0;
		apply_retype(r);
	}
	return 0;
}

/* Read all columns again after read_cols asked for some. */
static void want_all(struct csv_reader *r)
{
	if (!r->want)
		return;
	free(r->want);
	r->want = NULL;
	plan_columns(r);
}

/* A read's end: its error, else its rows (one pass: now all are known). */
static long read_end(struct csv_reader *r, long got, int ret)
{
	if (ret < 0)
		return ret;
	if (r->base.opts.one_pass)
		r->base.rows = r->base.rows_done;
	return got;
}

static __attribute__((noinline)) long
read_rows(struct wfw_reader *base, struct wultfw_batch *b)
{
	struct csv_reader *r = to_csv(base);
	long got = 0;
	size_t pos;
	int ret = 0;

	want_all(r);
	/* The batch's lines stay mapped until the next read: no fault again. */
	if (!b->rows)
		r->keep = r->tok.pos;
	while (b->rows < b->capacity &&
	       (ret = next_row(r, (uintptr_t)wultfw_row(b, b->rows), got, &pos)) > 0) {
		if (r->texts && b->rows < r->tcap)
			note_text(r, b->rows, pos);
		b->rows++;
		got++;
		base->rows_done++;
		drop_pages(r);
	}
	return read_end(r, got, ret);
}

/* Convert only the columns b has arrays for, straight into them. */
static int want_cols(struct csv_reader *r, const struct wfw_col_batch *b)
{
	size_t nc = r->base.schema.ncols;
	bool same = r->want != NULL && r->numbers == b->numbers;

	if (!r->want && !(r->want = calloc(nc, sizeof(*r->want))))
		return -1;
	if (b->capacity > r->jcap) {
		free(r->junk);
		r->jcap = 0;
		if (!(r->junk = malloc(b->capacity * sizeof(*r->junk))))
			return -1;
		r->jcap = b->capacity;
	}
	for (size_t c = 0; c < nc; c++) {
		same &= r->want[c] == (b->col[c] != NULL);
		r->want[c] = b->col[c] != NULL;
		r->plan[c].off = (uintptr_t)(b->col[c] ? b->col[c] : r->junk);
	}
	r->numbers = b->numbers;
	if (!same)
		plan_columns(r);
	return 0;
}

/*
 * read_cols: rows straight into column arrays, calc's way of reading. The
 * numeric columns without an array are split (the field count and quotes
 * are checked) but not converted; text ones as plan_type() says.
 */
static __attribute__((noinline)) long
read_cols(struct wfw_reader *base, struct wfw_col_batch *b)
{
	struct csv_reader *r = to_csv(base);
	size_t pos;
	long got = 0;
	int ret = 0;

	if (want_cols(r, b))
		return nomem(r);
	while (b->rows < b->capacity &&
	       (ret = next_row(r, b->rows * sizeof(union wultfw_cell), got, &pos)) > 0) {
		b->rows++;
		got++;
		base->rows_done++;
		drop_pages(r);
	}
	for (size_t c = 0; got && c < b->ncols; c++)
		b->may_nan[c] = true;	/* not looked at (true is always safe) */
	return read_end(r, got, ret);
}

/* Row texts are kept by read() alone. */
static bool csv_direct_cols(const struct wfw_reader *base)
{
	return !((const struct csv_reader *)base)->texts;
}

/* ---- opening ---- */

static int read_header(struct csv_reader *r)
{
	uint64_t line;
	long nf;

	if (!wfw_csvtok_next_row(&r->tok, r->tok.size))
		return rfail(&r->base, -EINVAL, "%s: empty file: expected a header line of column names",
			     r->base.path);
	line = r->tok.line;
	nf = wfw_csvtok_header(&r->tok, &r->base);
	if (nf < 0)
		return (int)nf;
	r->base.schema.ncols = (size_t)nf;
	r->cols = calloc((size_t)nf, sizeof(*r->cols));
	r->cs = calloc((size_t)nf, sizeof(*r->cs));
	r->colnames = calloc((size_t)nf, sizeof(char *));
	r->shown = calloc((size_t)nf, sizeof(*r->shown));
	r->plan = calloc((size_t)nf, sizeof(*r->plan));
	if (!r->cols || !r->cs || !r->colnames || !r->shown || !r->plan)
		return nomem(r);
	for (long c = 0; c < nf; c++) {
		const struct wfw_csv_field *f = &r->tok.f[c];

		if (!f->n)
			return rfail(&r->base, -EINVAL, "%s:%llu: column %ld of the header has no name",
				     r->base.path, (unsigned long long)line, c + 1);
		r->colnames[c] = strndup(f->s, f->n);
		if (!r->colnames[c])
			return nomem(r);
		wfw_csv_show(r->shown[c], sizeof(r->shown[c]), f->s, f->n);
		r->cols[c].name = r->colnames[c];
		r->cols[c].unit = wfw_wult_unit(r->colnames[c]);
		if (!strcmp(r->colnames[c], WFW_CPU_COL)) {
			r->cs[c].kind = K_ENUM;
			r->cs[c].names = true;
		}
	}
	r->base.schema.cols = r->cols;
	return 0;
}

/*
 * Rows of part k of n start after the first newline at or after its
 * share, found within a line's limit: past it the line is too long
 * anyway, so a part never touches more of a 100 MB line than the whole
 * reader would (which then says where it is). -E2BIG: no such newline.
 */
static int part_start(const struct csv_reader *r, unsigned k, unsigned n,
		      size_t *start)
{
	size_t data = r->data, len = r->tok.size - data;
	size_t at = data + (size_t)((unsigned __int128)len * k / n);
	size_t room = r->tok.size - (at - 1), look = WFW_CSV_MAX_LINE + 2;
	const char *nl;

	*start = data;
	if (!k)
		return 0;
	nl = memchr(r->tok.map + at - 1, '\n', room < look ? room : look);
	if (nl)
		*start = (size_t)(nl - r->tok.map) + 1;
	else if (room <= look)
		*start = r->tok.size;
	else
		return -E2BIG;
	return 0;
}

static int pick_part(struct csv_reader *r)
{
	unsigned k = r->base.opts.part, n = r->base.opts.nparts;
	size_t start;

	r->stop = r->tok.size;
	r->data = r->from = r->tok.pos;
	if (n < 2)
		return 0;
	if (part_start(r, k, n, &start) ||
	    (k + 1 < n && part_start(r, k + 1, n, &r->stop)))
		return rfail(&r->base, -E2BIG, "%s: part %u of %u: no line end within %u bytes: a line longer than the limit",
			     r->base.path, k + 1, n, WFW_CSV_MAX_LINE);
	r->tok.pos = r->from = start;
	/* A part after the first cannot tell a quoted newline from a row end. */
	r->tok.no_quotes = k > 0;
	r->tok.line = 0;	/* unknown: errors name the byte offset */
	return 0;
}

/*
 * Rows in map bytes [p, end), which start a line: lines that start with
 * neither a newline nor "\r\n" (blank lines are no rows, as
 * wfw_csvtok_next_row() skips them). -EAGAIN at a quote: a quoted field
 * may hold a newline.
 */
static int64_t count_rows(const char *p, const char *end)
{
	int64_t rows = 0;

	if (memchr(p, '"', (size_t)(end - p)))
		return -EAGAIN;
	while (p < end) {
		const char *nl;

		rows += *p != '\n' && !(*p == '\r' && p + 1 < end && p[1] == '\n');
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		p = nl + 1;
	}
	return rows;
}

/* The rows before this part. */
static int first_row(struct wfw_reader *base, uint64_t *first)
{
	struct csv_reader *r = to_csv(base);
	int64_t n = count_rows(r->tok.map + r->data, r->tok.map + r->from);

	if (n < 0)
		return (int)n;
	*first = (uint64_t)n;
	return 0;
}

/* Each part's first row, of n parts, in one pass over the file. */
static int part_firsts(struct wfw_reader *base, unsigned n, uint64_t *first)
{
	struct csv_reader *r = to_csv(base);
	size_t from = r->data, to;
	uint64_t rows = 0;

	for (unsigned k = 0; k < n; k++) {
		int64_t got;

		if (part_start(r, k, n, &to))
			return -EAGAIN;
		got = count_rows(r->tok.map + from, r->tok.map + to);
		if (got < 0)
			return (int)got;
		rows += (uint64_t)got;
		first[k] = rows;
		from = to;
	}
	return 0;
}

/*
 * A last line without its newline and with fewer fields than the header
 * is a row cut short (kill -9, a full disk): left out, counted in
 * ignored, rather than failing the file. One with a quote is left to the
 * parser: a quoted field may hold newlines.
 */
static void cut_tail(struct csv_reader *r)
{
	const char *m = r->tok.map, *nl;
	size_t end = r->tok.size, from = r->tok.pos ? r->tok.pos - 1 : 0;
	size_t start, fields = 1;

	if (end <= r->tok.pos || m[end - 1] == '\n')
		return;
	/* Within a line's limit: a longer last line is the parser's error. */
	if (end - from > WFW_CSV_MAX_LINE + 1)
		from = end - WFW_CSV_MAX_LINE - 1;
	nl = memrchr(m + from, '\n', end - from);
	if (!nl)
		return;	/* the header line is the last, or too long a line */
	start = (size_t)(nl - m) + 1;
	for (size_t i = start; i < end; i++) {
		if (m[i] == '"')
			return;
		fields += m[i] == ',';
	}
	if (fields >= r->base.schema.ncols)
		return;
	r->mapped = end;
	r->tok.size = start;
	r->base.ignored = end - start;
}

/* Where the window path may start a row: far enough from the end. */
static void win_ends(struct csv_reader *r, uint64_t size)
{
	size_t row = WIN_CELL_MAX * r->base.schema.ncols + WIN_ROW_SLACK;

	r->row_win_end = size >= row ? (uintptr_t)(r->tok.map + size - row) : 0;
}

static struct wfw_reader *csv_alloc(void)
{
	struct csv_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->retype_col = -1;
	return &r->base;
}

/* Everything csv_open() reads of the map, with the map guarded. */
static int open_mapped(struct csv_reader *r)
{
	struct wfw_reader *base = &r->base;
	int ret;

	r->page = (size_t)sysconf(_SC_PAGESIZE);
	/* No window fast path in a file shorter than a window. */
	ret = read_header(r);
	if (ret)
		return ret;
	cut_tail(r);
	win_ends(r, r->tok.size);
	ret = pick_part(r);
	if (ret)
		return ret;
	return learn(r, base->opts.one_pass ? LEARN_ROWS : UINT64_MAX);
}

/* ---- the map guarded: a file cut shorter while read (mapguard.h) ---- */

/* The file is `now` bytes, no longer the `had` it was: final. */
static int cut_said(struct csv_reader *r, long long now, unsigned long long had)
{
	r->gone = WFW_E_CUT;
	return rfail(&r->base, WFW_E_CUT, "%s: the file was cut to %lld bytes while being read (it had %llu): read it again once nothing writes to it",
		     r->base.path, now, had);
}

/* A read of the map raised SIGBUS: the file is shorter than the map. */
static int cut_short(struct csv_reader *r)
{
	struct stat st;
	long long now = fstat(r->base.fd, &st) ? -1 : (long long)st.st_size;

	if (now >= 0 && (unsigned long long)now >= r->maplen) {
		r->gone = -EIO;
		return rfail(&r->base, -EIO, "%s: an I/O error reading the mapped file (SIGBUS): see the kernel log (dmesg)",
			     r->base.path);
	}
	return cut_said(r, now, r->maplen);
}

/*
 * ret = call, with the map guarded; a SIGBUS in it makes ret cut_short(),
 * and every later call fails so at once. A macro, not a function
 * taking a callback: sigsetjmp() must run in a frame that stays live
 * while call reads the map, and the calls take different arguments. A
 * function that calls sigsetjmp() keeps its variables out of registers,
 * so the row loops (noinline) run in frames of their own.
 */
#define GUARDED(r, ret, call)						\
	do {								\
		struct csv_reader *r_ = (r);				\
		struct wfw_map_guard g_;				\
									\
		if (r_->gone) {						\
			(ret) = r_->gone;				\
			break;						\
		}							\
		wfw_map_guard_arm(&g_, r_->tok.map, r_->maplen);	\
		if (sigsetjmp(g_.jb, 0)) {				\
			(ret) = cut_short(r_);				\
			break;						\
		}							\
		(ret) = (call);						\
		wfw_map_guard_disarm();					\
	} while (0)

/*
 * A part reads the file as it was when the parts were planned: each part
 * of a file that changed between two parts' opens would cut its ranges
 * from another size (rows read twice or not at all).
 */
static int part_size(struct csv_reader *r, uint64_t *size)
{
	uint64_t was = r->base.opts.part_size;

	if (r->base.opts.nparts < 2 || !was || *size == was)
		return 0;
	if (*size > was) {
		*size = was;	/* grown: the rows there when planned */
		return 0;
	}
	return cut_said(r, (long long)*size, was);
}

static int csv_open(struct wfw_reader *base, uint64_t size)
{
	struct csv_reader *r = to_csv(base);
	int ret = part_size(r, &size);

	if (ret)
		return ret;
	if (!size)
		return rfail(base, -EINVAL, "%s: empty file: expected a header line of column names",
			     base->path);
	ret = wfw_map_guard_init();
	if (ret)
		return rfail(base, ret, "%s: cannot catch SIGBUS: %s", base->path,
			     strerror(-ret));
	ret = wfw_csvtok_map(&r->tok, base, size);
	if (ret)
		return ret;
	r->maplen = r->tok.size;
	GUARDED(r, ret, open_mapped(r));
	return ret;
}

static long csv_read(struct wfw_reader *base, struct wultfw_batch *b)
{
	long got;

	GUARDED(to_csv(base), got, read_rows(base, b));
	return got;
}

static long csv_read_cols(struct wfw_reader *base, struct wfw_col_batch *b)
{
	long got;

	GUARDED(to_csv(base), got, read_cols(base, b));
	return got;
}

static int csv_first_row(struct wfw_reader *base, uint64_t *first)
{
	int ret;

	GUARDED(to_csv(base), ret, first_row(base, first));
	return ret;
}

static int csv_part_firsts(struct wfw_reader *base, unsigned n, uint64_t *first)
{
	int ret;

	GUARDED(to_csv(base), ret, part_firsts(base, n, first));
	return ret;
}

/* The row texts point into the map: their reader, guarded like a read. */
static int csv_use_texts(struct wfw_reader *base, int (*use)(void *arg),
			 void *arg)
{
	int ret;

	GUARDED(to_csv(base), ret, use(arg));
	return ret;
}

static void csv_free(struct wfw_reader *base)
{
	struct csv_reader *r = to_csv(base);

	if (r->mapped)
		r->tok.size = r->mapped;	/* unmap all of it */
	wfw_csvtok_free(&r->tok);
	if (r->cs)
		for (size_t c = 0; c < base->schema.ncols; c++)
			wfw_enum_free(&r->cs[c].et);
	if (r->colnames)
		for (size_t c = 0; c < base->schema.ncols; c++)
			free(r->colnames[c]);
	free(r->colnames);
	free(r->shown);
	free(r->plan);
	free(r->texts);
	free(r->want);
	free(r->junk);
	free(r->cs);
	free(r->cols);
	free(r);
}

const struct wfw_reader_ops wfw_csv_reader_ops = {
	.fmt = WFW_FMT_CSV,
	.parts = true,
	.alloc = csv_alloc,
	.open = csv_open,
	.read = csv_read,
	.read_cols = csv_read_cols,
	.direct_cols = csv_direct_cols,
	.bare_ints = csv_bare_ints,
	.row_texts = csv_row_texts,
	.use_texts = csv_use_texts,
	.first_row = csv_first_row,
	.part_firsts = csv_part_firsts,
	.free = csv_free,
};
