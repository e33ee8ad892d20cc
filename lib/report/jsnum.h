/* SPDX-License-Identifier: MIT */
/*
 * Numbers for a report's data.js, fast: its plots' arrays hold hundreds
 * of thousands of them, and glibc's printf takes some 2 500 instructions
 * for one "%.7g". The values plotted are floats, and a float's "%.7g" is
 * computed exactly here in integers, byte for byte what printf prints;
 * other doubles still go through snprintf.
 */
#ifndef WFW_REPORT_JSNUM_H
#define WFW_REPORT_JSNUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Room a number's text needs. */
#define WFW_JS_NUM_MAX 32

/* v as printf("%.7g") prints it, or "null" when not finite; its length. */
size_t wfw_js_g7(char *buf, double v);
/* v in decimal; its length. */
size_t wfw_js_u64(char *buf, uint64_t v);

/* Text for a FILE gathered into large writes. */
struct wfw_jsout {
	FILE *f;
	size_t n;
	char buf[16384];
};

static inline void wfw_jsout_init(struct wfw_jsout *o, FILE *f)
{
	o->f = f;
	o->n = 0;
}

/* Write what is gathered. */
void wfw_jsout_flush(struct wfw_jsout *o);

/* Room for at least WFW_JS_NUM_MAX + 2 bytes at o->buf + o->n. */
static inline char *wfw_jsout_room(struct wfw_jsout *o)
{
	if (o->n > sizeof(o->buf) - WFW_JS_NUM_MAX - 2)
		wfw_jsout_flush(o);
	return o->buf + o->n;
}

/* A separator (or none: 0), then v as wfw_js_g7() prints it. */
static inline void wfw_jsout_g7(struct wfw_jsout *o, char sep, double v)
{
	char *p = wfw_jsout_room(o);

	if (sep)
		*p++ = sep;
	o->n += (size_t)(sep != 0) + wfw_js_g7(p, v);
}

static inline void wfw_jsout_u64(struct wfw_jsout *o, char sep, uint64_t v)
{
	char *p = wfw_jsout_room(o);

	if (sep)
		*p++ = sep;
	o->n += (size_t)(sep != 0) + wfw_js_u64(p, v);
}

#endif
