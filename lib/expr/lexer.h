/* SPDX-License-Identifier: MIT */
/* Tokens of a selection expression (see expr.h), internal to lib/expr. */
#ifndef WFW_EXPR_LEXER_H
#define WFW_EXPR_LEXER_H

#include <stddef.h>

enum tok_kind {
	TOK_END, TOK_NAME, TOK_NUM, TOK_STR, TOK_LPAREN, TOK_RPAREN,
	TOK_AND, TOK_OR, TOK_NOT,
	TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE,
	TOK_BAD,	/* text is the reason */
};

#define TOK_TEXT_MAX 128

struct tok {
	enum tok_kind kind;
	size_t pos;			/* offset in the expression */
	char text[TOK_TEXT_MAX];	/* NAME, STR, NUM's unit, BAD's reason,
					   an operator's spelling */
	double num;			/* NUM */
};

/* The token starting at or after text[*pos]; advances *pos past it. */
void expr_lex(const char *text, size_t *pos, struct tok *t);

#endif
