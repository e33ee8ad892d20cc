/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cfgsyntax.h"
#include "openreg.h"

#define DEPTH_MAX 64
#define SETTING "a setting is `name = value;`"

/* What is open at the end of the file: a string, brackets. */
struct open_at {
	int string_line;		/* 0: none */
	int depth;
	char bracket[DEPTH_MAX];
	int line[DEPTH_MAX];
	int lines;			/* lines in the file */
};

static void push_pop(struct open_at *o, int c, int line)
{
	const char *open = "{([", *close = "})]";

	if (strchr(open, c) && o->depth < DEPTH_MAX) {
		o->bracket[o->depth] = (char)c;
		o->line[o->depth++] = line;
	} else if (strchr(close, c) && o->depth) {
		o->depth--;
	}
}

/* Skip a comment that starts at c; false if c starts none. */
static bool skip_comment(FILE *f, int c, int *line)
{
	int next, prev = 0;

	if (c == '/') {
		next = getc(f);
		if (next != '/' && next != '*') {
			ungetc(next, f);
			return false;
		}
		c = next == '/' ? '#' : '*';
	}
	if (c == '#') {
		while ((c = getc(f)) != EOF && c != '\n')
			;
		if (c == '\n')
			(*line)++;
		return true;
	}
	if (c != '*')
		return false;
	while ((c = getc(f)) != EOF && !(prev == '*' && c == '/')) {
		*line += c == '\n';
		prev = c;
	}
	return true;
}

/* Read the file as libconfig's scanner would, enough to see what stays open. */
static void scan(FILE *f, struct open_at *o)
{
	int c, line = 1;
	bool in_string = false;

	memset(o, 0, sizeof(*o));
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			line++;
		} else if (in_string) {
			if (c == '\\')
				line += getc(f) == '\n';
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
			o->string_line = line;
		} else if (!skip_comment(f, c, &line)) {
			push_pop(o, c, line);
		}
	}
	if (!in_string)
		o->string_line = 0;
	o->lines = line;
}

/* Line `n` of f (1 on), without its newline, cut at len; false past the end. */
static bool read_line(FILE *f, int n, char *buf, size_t len)
{
	int c, at = 1;
	size_t k = 0;

	rewind(f);
	while (at < n && (c = getc(f)) != EOF)
		at += c == '\n';
	if (at < n)
		return false;
	while ((c = getc(f)) != EOF && c != '\n')
		if (k + 1 < len)
			buf[k++] = (char)c;
	buf[k] = '\0';
	return true;
}

static const char *closer(char open)
{
	return open == '{' ? "}" : open == '(' ? ")" : "]";
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("_-*", c));
}

/* A syntax error on one line: the shape of a setting, or of a value. */
static void line_hint(const char *s, char *msg, size_t len)
{
	size_t name = 0, after;

	while (isspace((unsigned char)*s))
		s++;
	while (name_char(s[name]))
		name++;
	after = name + strspn(s + name, " \t");
	if (name && isdigit((unsigned char)*s))
		snprintf(msg, len, "a name starts with a letter or '*': %s", SETTING);
	else if (name && !strpbrk(s, "=:"))
		snprintf(msg, len, "'=' missing after '%.*s': %s", (int)name, s, SETTING);
	else if (name && s[after] != '=' && s[after] != ':')
		snprintf(msg, len, "'%c' in the name '%.*s': a name holds letters, digits, "
			 "'_', '-' and '*'; %s", s[name], (int)name, s, SETTING);
	else
		snprintf(msg, len, "expected a setting `name = value;`, the value a number, "
			 "a \"string\", true, false, an array [ ], a list ( ) or a group { }");
}

void wfw_cfg_syntax_hint(const char *file, int *line, const char *text,
			 char *msg, size_t len)
{
	FILE *f = wfw_fopen_regular(file);	/* not a FIFO: it was read once */
	struct open_at o;
	char buf[512];

	if (text && !strcmp(text, "mismatched element type in array")) {
		snprintf(msg, len, "%s: an array [ ] holds values of one type; "
			 "mixed ones go in a list ( )", text);
	} else if (!text || strcmp(text, "syntax error") || !f) {
		snprintf(msg, len, "%s", text ? text : "syntax error");
	} else {
		scan(f, &o);
		if (o.string_line && *line >= o.lines - 1) {
			*line = o.string_line;
			snprintf(msg, len, "syntax error: a string opened here is never closed: "
				 "end it with '\"'");
		} else if (o.depth && *line >= o.lines - 1) {
			*line = o.line[o.depth - 1];
			snprintf(msg, len, "syntax error: the '%c' opened here is never closed: "
				 "end it with '%s'", o.bracket[o.depth - 1],
				 closer(o.bracket[o.depth - 1]));
		} else {
			size_t at = (size_t)snprintf(msg, len, "syntax error: ");

			line_hint(read_line(f, *line, buf, sizeof(buf)) ? buf : "",
				  msg + at, at < len ? len - at : 0);
		}
	}
	if (f)
		fclose(f);
}
