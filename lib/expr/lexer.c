/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "expr/lexer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column names: wult's include '%' (CC1%), never first. */
static int name_char(char c, int first)
{
	return isalpha((unsigned char)c) || c == '_' ||
	       (!first && (isdigit((unsigned char)c) || c == '%'));
}

static void bad(struct tok *t, const char *why)
{
	t->kind = TOK_BAD;
	snprintf(t->text, sizeof(t->text), "%s", why);
}

/* Copy text[from, to) into t->text, or mark the token as too long. */
static void take(struct tok *t, const char *text, size_t from, size_t to)
{
	if (to - from >= sizeof(t->text)) {
		bad(t, "name or string too long");
		return;
	}
	memcpy(t->text, text + from, to - from);
	t->text[to - from] = '\0';
}

static void lex_number(const char *text, size_t *pos, struct tok *t)
{
	const char *start = text + *pos;
	char *end;
	size_t u;

	/* strtod would also take hex, "inf" and "nan": decimals only. */
	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X')) {
		bad(t, "only decimal numbers");
		return;
	}
	t->kind = TOK_NUM;
	t->num = strtod(start, &end);
	*pos = (size_t)(end - text);
	for (u = *pos; name_char(text[u], u == *pos) || text[u] == '%'; u++)
		;
	take(t, text, *pos, u);	/* the unit, "" if none */
	*pos = u;
}

static void lex_string(const char *text, size_t *pos, struct tok *t)
{
	char quote = text[*pos];
	const char *close = strchr(text + *pos + 1, quote);

	if (!close) {
		bad(t, "string never closed");
		*pos += strlen(text + *pos);
		return;
	}
	t->kind = TOK_STR;
	take(t, text, *pos + 1, (size_t)(close - text));
	*pos = (size_t)(close - text) + 1;
}

static const struct {
	const char *text;
	enum tok_kind kind;
} ops[] = {
	/* Two-character operators first. */
	{ "&&", TOK_AND }, { "||", TOK_OR }, { "==", TOK_EQ }, { "!=", TOK_NE },
	{ "<=", TOK_LE }, { ">=", TOK_GE }, { "<", TOK_LT }, { ">", TOK_GT },
	{ "!", TOK_NOT }, { "(", TOK_LPAREN }, { ")", TOK_RPAREN },
	/* pandas' spelling, as wult's --include takes it (see expr.h). */
	{ "&", TOK_AND }, { "|", TOK_OR }, { "~", TOK_NOT },
};

/* pandas' query words, as wult's --include takes them. */
static const struct {
	const char *text;
	enum tok_kind kind;
} words[] = {
	{ "and", TOK_AND }, { "or", TOK_OR }, { "not", TOK_NOT },
};

static void lex_name(const char *text, size_t *pos, struct tok *t)
{
	size_t end = *pos;

	while (name_char(text[end], end == *pos))
		end++;
	t->kind = TOK_NAME;
	take(t, text, *pos, end);
	*pos = end;
	for (size_t i = 0; t->kind == TOK_NAME && i < 3; i++)
		if (!strcmp(t->text, words[i].text))
			t->kind = words[i].kind;
}

void expr_lex(const char *text, size_t *pos, struct tok *t)
{
	const char *p;

	while (isspace((unsigned char)text[*pos]))
		(*pos)++;
	p = text + *pos;
	memset(t, 0, sizeof(*t));
	t->pos = *pos;
	if (!*p) {
		t->kind = TOK_END;
		return;
	}
	if (isdigit((unsigned char)*p) ||
	    (*p == '.' && isdigit((unsigned char)p[1]))) {
		lex_number(text, pos, t);
		return;
	}
	if (*p == '"' || *p == '\'') {
		lex_string(text, pos, t);
		return;
	}
	if (name_char(*p, 1)) {
		lex_name(text, pos, t);
		return;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].text);

		if (!strncmp(p, ops[i].text, n)) {
			t->kind = ops[i].kind;
			strcpy(t->text, ops[i].text);	/* which spelling: '~' */
			*pos += n;
			return;
		}
	}
	bad(t, *p == '=' ? "'=' is not a comparison: use '=='" :
	       "unexpected character");
	(*pos)++;
}
