/* SPDX-License-Identifier: MIT */
/*
 * attrib_trace.h where configure could not build the eBPF part: every
 * call says so, naming what configure lacked.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "attrib_trace.h"

int attrib_trace_check(char *why, size_t len)
{
	if (why && len)
		snprintf(why, len, "this wultfw was built without the eBPF "
			 "attribution: configure lacked%s; install it and "
			 "build again", WFW_BPF_MISSING);
	return -EOPNOTSUPP;
}

int attrib_trace_open(struct attrib_trace **tp,
		      const struct attrib_trace_opts *o, char *why,
		      size_t len)
{
	(void)o;
	*tp = NULL;
	return attrib_trace_check(why, len);
}

const char *attrib_trace_missing(const struct attrib_trace *t)
{
	(void)t;
	return "";
}

int attrib_trace_attach(struct attrib_trace *t, char *why, size_t len)
{
	(void)t;
	return attrib_trace_check(why, len);
}

ssize_t attrib_trace_poll(struct attrib_trace *t, attrib_trace_fn fn,
			  void *arg, char *why, size_t len)
{
	(void)t, (void)fn, (void)arg;
	return attrib_trace_check(why, len);
}

ssize_t attrib_trace_read(struct attrib_trace *t, struct attrib_event *buf,
			  size_t cap, char *why, size_t len)
{
	(void)t, (void)buf, (void)cap;
	return attrib_trace_check(why, len);
}

void attrib_trace_stats(const struct attrib_trace *t,
			struct attrib_trace_stats *st)
{
	(void)t;
	memset(st, 0, sizeof(*st));
}

int attrib_trace_runtime(const struct attrib_trace *t, uint64_t *ns,
			 uint64_t *cnt)
{
	(void)t;
	*ns = *cnt = 0;
	return -EOPNOTSUPP;
}

void attrib_trace_detach(struct attrib_trace *t)
{
	(void)t;
}

void attrib_trace_close(struct attrib_trace *t)
{
	(void)t;
}
