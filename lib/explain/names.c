/* SPDX-License-Identifier: MIT */
/*
 * Names from the measured system (Cause, a thread's comm) as the words
 * show them, and a cause named (explain.h): bytes that would drive a
 * terminal are escaped, a hostile megabyte of a name is cut.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "explain/explain.h"

size_t wfw_xp_name_len(const char *s)
{
	size_t n = s ? strnlen(s, WFW_XP_NAME_MAX + 1) : 0;

	if (n <= WFW_XP_NAME_MAX)
		return n;
	n = WFW_XP_NAME_MAX;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)	/* not inside a character */
		n--;
	return n;
}

/* s as the page shows it into buf (WFW_XP_LABEL_MAX fits any), cut to fit. */
static void page_name(char *buf, size_t len, const char *s)
{
	size_t n = wfw_xp_name_len(s), at = 0;

	for (const unsigned char *p = (const unsigned char *)s; p && n; p++, n--) {
		char one[5];
		int w = *p < 0x20 || *p == 0x7f ? snprintf(one, sizeof(one), "\\x%02x", *p) :
			snprintf(one, sizeof(one), "%c", *p);

		if (at + (size_t)w >= len)
			break;
		memcpy(buf + at, one, (size_t)w);
		at += (size_t)w;
	}
	if (s && s[wfw_xp_name_len(s)] && at + 3 < len) {
		memcpy(buf + at, "...", 3);
		at += 3;
	}
	if (len)
		buf[at] = '\0';
}

void wfw_xp_put_name(FILE *f, const char *s)
{
	char buf[WFW_XP_LABEL_MAX];

	page_name(buf, sizeof(buf), s);
	fputs(buf, f);
}

void wfw_xp_escape(char *buf, size_t len, const char *s)
{
	size_t at = 0;

	for (; *s && len; s++) {
		unsigned char ch = (unsigned char)*s;
		char one[5];
		int w;

		if (ch == '\\')
			w = snprintf(one, sizeof(one), "\\\\");
		else if (ch >= 0x20 && ch < 0x7f)
			w = snprintf(one, sizeof(one), "%c", ch);
		else
			w = snprintf(one, sizeof(one), "\\x%02x", ch);
		if (at + (size_t)w >= len)
			break;
		memcpy(buf + at, one, (size_t)w);
		at += (size_t)w;
	}
	if (len)
		buf[at] = '\0';
}

static void name(char *buf, size_t len, enum wfw_xp_style st, const char *s)
{
	if (st == WFW_XP_PAGE)
		page_name(buf, len, s);
	else
		wfw_xp_escape(buf, len, s);
}

void wfw_xp_cause_label(char *buf, size_t len, enum wfw_xp_style st,
			const struct wfw_xp_threads *t, const char *cause, int64_t pid)
{
	const char *comm = t && pid >= 0 ? wfw_xp_comm(t, pid) : NULL;
	size_t at;

	if (wfw_xp_cause_cat(cause) != WFW_XP_THREAD) {
		name(buf, len, st, cause ? cause : "-");
	} else if (pid < 0) {
		snprintf(buf, len, "a thread (no CausePID)");
	} else if (!comm) {
		snprintf(buf, len, "pid %lld (not in " WFW_XP_THREADS_FILE ")", (long long)pid);
	} else {
		name(buf, len, st, comm);
		at = strlen(buf);
		snprintf(buf + at, len - at, " (pid %lld)", (long long)pid);
	}
}
