/* SPDX-License-Identifier: MIT */
/*
 * Selection expressions over the rows of a result (`--include`,
 * `--exclude` of calc, convert, filter):
 *
 *	ReqCState == "C6" && WakeLatency > 0.1ms
 *	!(SMICnt > 0) || (LDist >= 100 and LDist < 200)
 *
 * Grammar, loosest binding first:
 *	or   := and { ("||" | "or") and }
 *	and  := not { ("&&" | "and") not }
 *	not  := ("!" | "not") not | cmp
 *	cmp  := "(" or ")" | value OP value     OP: == != < <= > >=
 *	value:= COLUMN | NUMBER[UNIT] | "string" | 'string'
 * `!` negates a whole comparison (like Python's `not`, which wult's
 * pandas queries use): `!LDist > 5` is `!(LDist > 5)`.
 * A number may carry a unit written right after it (0.1ms, 50%): a
 * duration unit (ns, us, ms, s) is converted to the column's duration
 * unit; any other unit must equal the column's. Strings compare only with
 * ==/!= against enum columns (ReqCState); a name the column never holds
 * simply matches no row. Columns are resolved when compiling, so a
 * misspelt column, a string compared with a number column or a unit the
 * column cannot take are errors before any row is read.
 *
 * A one-pass reader (wfw_reader_opts.one_pass) learns the schema as it
 * reads, and wfw_select_batch() follows it: a name first seen at row
 * 5 000 000 matches from there on; an INT column turned FLOAT compares by
 * its new type; a column empty in every row so far (untyped: an ENUM
 * without names) compares as an empty cell (only != holds) until its
 * first value types it, and a comparison that does not fit that type
 * (a string against numbers, a number against names) is an error then.
 */
#ifndef WFW_EXPR_H
#define WFW_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wultfw/plugin.h>

struct wfw_expr;

/*
 * Compile `text` against schema `s` (which must outlive the expression).
 * Returns 0, or -EINVAL with a message in err: what is wrong, then the
 * expression and a caret under the fault on the next two lines. An
 * unknown column names the closest one and lists all.
 */
int wfw_expr_compile(struct wfw_expr **e, const char *text,
		     const struct wultfw_schema *s, char *err, size_t errlen);

/*
 * Only the syntax, for an expression whose columns are not known yet (an
 * experiment file's include/exclude, before the source gives its schema):
 * 0, or -EINVAL with the message and caret in err as above.
 */
int wfw_expr_check_syntax(const char *text, char *err, size_t errlen);

/*
 * The names `text` compares (its columns, as a schema would resolve
 * them), in order, each to fn(name, arg), which returns 0 to go on; for
 * checking against what a source declares before its schema exists.
 * Returns 0, fn's first other value, or -EINVAL for a syntax error (err
 * as above).
 */
int wfw_expr_names(const char *text, int (*fn)(const char *name, void *arg),
		   void *arg, char *err, size_t errlen);

/* Does the row (s->ncols cells) satisfy the expression? */
bool wfw_expr_match(const struct wfw_expr *e, const union wultfw_cell *row);

/* The same for the row numbered `index` (from 0) in its result. */
bool wfw_expr_match_at(const struct wfw_expr *e, const union wultfw_cell *row,
		       uint64_t index);

/*
 * Does e compare `index` (pandas' row number, from 0, of the rows as read
 * from the result, before any selection)? A reader of parts must then
 * give each part's first row number (wfw_select.next_index, the `first`
 * of wfw_select_cols()). NULL: no.
 */
bool wfw_expr_uses_index(const struct wfw_expr *e);

/*
 * The same from the text alone, before a schema (a column named "index"
 * would shadow it: then this says yes where compiling says no). A syntax
 * error: no.
 */
bool wfw_expr_text_uses_index(const char *text);

void wfw_expr_free(struct wfw_expr *e);

/*
 * "unknown column 'X' (did you mean 'Y'?); the columns are: A, B, ..."
 * for a name that is not a column of s.
 */
void wfw_unknown_column(const struct wultfw_schema *s, const char *name,
			char *buf, size_t len);

/*
 * An --include and an --exclude together: a row is kept when it matches
 * include (or there is none) and does not match exclude.
 */
struct wfw_select {
	struct wfw_expr *include;	/* NULL: every row */
	struct wfw_expr *exclude;	/* NULL: no row */
	uint64_t kept, dropped;		/* rows seen by wfw_select_batch() */
	/*
	 * The number (index) of the next row wfw_select_batch() sees; it
	 * adds each batch's rows. A part read on its own starts at its
	 * first row's number.
	 */
	uint64_t next_index;
	char err[1024];			/* why wfw_select_batch() failed */
};

/*
 * Compile either text (NULL: none). err starts with "--include: " or
 * "--exclude: ". Returns 0 or -EINVAL.
 */
int wfw_select_init(struct wfw_select *sel, const char *include,
		    const char *exclude, const struct wultfw_schema *s,
		    char *err, size_t errlen);

/*
 * Drop the rows not selected from b, keeping the order of the rest. The
 * schema is looked at again first (see above): b must be a batch just
 * read, under the reader's schema as it is now. Returns 0, or -EINVAL
 * (and from then on, with every row dropped) when a column's type turned
 * out not to fit the expression: sel->err says which, where, with the
 * expression and a caret, starting with "--include: " or "--exclude: ".
 */
int wfw_select_batch(struct wfw_select *sel, struct wultfw_batch *b);

/* Does either expression compare `index`? */
bool wfw_select_uses_index(const struct wfw_select *sel);

/* Does the selection drop anything at all? */
static inline bool wfw_select_active(const struct wfw_select *sel)
{
	return sel->include || sel->exclude;
}

/*
 * Mark in used[] (the schema's ncols, cleared by the caller) the columns
 * the selection reads: a row's other cells need not be decoded for it.
 */
void wfw_select_columns(const struct wfw_select *sel, bool *used);

/*
 * The rows [0, n) of a batch given column by column (cols[c]: column c's
 * n cells, or NULL for a column the selection does not read), numbered
 * from `first` in their result, that the selection keeps, as
 * wfw_select_batch() would keep them: their indexes into keep[] (n of
 * room), in order. Returns how many, or (size_t)-1 when
 * out of memory. For a schema that no longer changes (a binary file);
 * sel->kept and sel->dropped are left alone, so threads may share sel.
 */
size_t wfw_select_cols(const struct wfw_select *sel,
		       const union wultfw_cell *const *cols, size_t ncols,
		       size_t n, uint64_t first, uint32_t *keep);

/* The names a selection compares with that no row has: expr/seen.h. */

void wfw_select_free(struct wfw_select *sel);

#endif /* WFW_EXPR_H */
