/* SPDX-License-Identifier: MIT */
/*
 * A command's --help from its option table (clitable.h): the usage and
 * prose as the command wrote them, one line per option (wrapped), each
 * with its range, choices and default as the parser enforces them.
 */
#include "config.h"

#include "clihelp.h"

#include <string.h>

/* Lines end before this column; option texts start at most here. */
#define LINE_END	79
#define SPEC_MAX	22
/* Between words that stay on one line. */
#define NBSP		'\a'

void wfw_cli_range(const struct wfw_cli_opt *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (o->type == WFW_CLI_CHOICE) {
		for (size_t i = 0; o->choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      !i ? "" : o->choices[i + 1] ? ", " : " or ",
					      o->choices[i]);
	} else if (o->type != WFW_CLI_UINT && o->type != WFW_CLI_SIZE) {
		return;
	} else if (o->min && o->max) {
		snprintf(buf, len, "%s to %s", o->min, o->max);
	} else if (o->min) {
		snprintf(buf, len, "%s or more", o->min);
	} else if (o->max) {
		snprintf(buf, len, "at most %s", o->max);
	} else {
		snprintf(buf, len, "a whole number");
	}
}

/* "-j, --jobs N", "    --only NAME" or "    --explain [PCT]" */
static int spec(const struct wfw_cli_opt *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%c%c%c --%s%s%s%s%s", o->letter ? '-' : ' ',
			o->letter ? o->letter : ' ', o->letter ? ',' : ' ', o->name,
			o->arg ? " " : "", o->optional ? "[" : "", o->arg ? o->arg : "",
			o->optional ? "]" : "");
}

static const struct wfw_cli_opt implicit_help = {
	.name = "help", .letter = 'h', .type = WFW_CLI_HELP, .help = "this help",
};

static bool shown(const struct wfw_cli_opt *o)
{
	return o->name && !o->hidden;
}

/* Where option texts start: past the longest spec up to SPEC_MAX. */
static int text_column(const struct wfw_cli *cli)
{
	char buf[256];
	int w = spec(&implicit_help, buf, sizeof(buf)), n;

	for (const struct wfw_cli_opt *o = cli->opts; o->name || o->section; o++) {
		n = shown(o) ? spec(o, buf, sizeof(buf)) : 0;
		if (n > w && n <= SPEC_MAX)
			w = n;
	}
	return 2 + w + 2;
}

struct word {
	const char *s;
	int len;
};

static size_t split_words(const char *s, const char *end, struct word *w,
			  size_t max)
{
	size_t n = 0;

	while (s < end && n < max) {
		while (s < end && *s == ' ')
			s++;
		w[n].s = s;
		while (s < end && *s != ' ')
			s++;
		w[n].len = (int)(s - w[n].s);
		n += w[n].len > 0;
	}
	return n;
}

/*
 * One line of text (no '\n') from `col` to LINE_END, going on in lines
 * indented to `col`. None starts with '-', which completion (bash's
 * _parse_help) would take for an option.
 */
static void wrap_line(FILE *f, const char *s, size_t len, int col)
{
	struct word w[256];
	size_t n = split_words(s, s + len, w, 256), i, j, k;
	int used;

	if (!n)
		fputc('\n', f);
	for (i = 0; i < n; i = j) {
		used = w[i].len;
		for (j = i + 1; j < n && used + 1 + w[j].len <= LINE_END - col; j++)
			used += 1 + w[j].len;
		while (j < n && w[j].s[0] == '-' && j - i > 1)
			j--;
		fprintf(f, "%*s", i ? col : 0, "");
		for (k = i; k < j; k++) {
			fputs(k > i ? " " : "", f);
			for (int c = 0; c < w[k].len; c++)
				fputc(w[k].s[c] == NBSP ? ' ' : w[k].s[c], f);
		}
		fputc('\n', f);
	}
}

/* The option's help, then "(RANGE; default DEF)" as the table says. */
static void option_text(const struct wfw_cli_opt *o, char *buf, size_t len)
{
	char range[256];
	size_t n;

	wfw_cli_range(o, range, sizeof(range));
	/* "1 to 256" on one line: wrap_line() prints NBSP as a space */
	for (char *c = range; o->type != WFW_CLI_CHOICE && *c; c++)
		if (*c == ' ')
			*c = NBSP;
	n = (size_t)snprintf(buf, len, "%s", o->help ? o->help : "");
	if (!range[0] && !o->def)
		return;
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s(%s%s%s%s)", n ? " " : "",
				      range, range[0] && o->def ? "; " : "",
				      o->def ? "default: " : "", o->def ? o->def : "");
}

static void print_option(FILE *f, const struct wfw_cli_opt *o, int col)
{
	char s[256], text[2048];
	int n = spec(o, s, sizeof(s));
	const char *p, *nl;

	fprintf(f, "  %s", s);
	if (2 + n + 2 > col)
		fprintf(f, "\n%*s", col, "");
	else
		fprintf(f, "%*s", col - 2 - n, "");
	option_text(o, text, sizeof(text));
	for (p = text; ; p = nl + 1) {
		nl = strchr(p, '\n');
		wrap_line(f, p, nl ? (size_t)(nl - p) : strlen(p), col);
		if (!nl)
			break;
		fprintf(f, "%*s", col, "");
	}
}

void wfw_cli_help(const struct wfw_cli *cli, FILE *f)
{
	int col = text_column(cli);
	bool help = false;

	fprintf(f, "%s\n", cli->usage);
	for (const struct wfw_cli_opt *o = cli->opts; o->name || o->section; o++) {
		if (!o->name)
			fprintf(f, "\n%s\n", o->section);
		else if (shown(o))
			print_option(f, o, col);
		help |= o->name && o->type == WFW_CLI_HELP;
	}
	if (!help)
		print_option(f, &implicit_help, col);
	if (cli->epilog)
		fprintf(f, "\n%s", cli->epilog);
	if (cli->more)
		cli->more(f);
}
