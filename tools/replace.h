/* SPDX-License-Identifier: MIT */
/*
 * An output file a tool may replace (--force): written under a new name
 * beside it and renamed over the old one only once it came out whole, so
 * a failure keeps the old file. Also refuses an output that is the input.
 */
#ifndef WFW_TOOLS_REPLACE_H
#define WFW_TOOLS_REPLACE_H

#include <stdbool.h>

struct wfw_replace {
	const char *final;	/* the name the user gave */
	char *tmp;		/* where it is written, or NULL: final itself */
};

/*
 * Decide where `final` is written. -EINVAL (said on stderr as `tool`) when
 * it is the input file itself; with `force` and an existing final, a
 * partial name beside it.
 */
int wfw_replace_begin(struct wfw_replace *r, const char *tool, const char *in,
		      const char *final, bool force);

/* The path to write now. */
static inline const char *wfw_replace_path(const struct wfw_replace *r)
{
	return r->tmp ? r->tmp : r->final;
}

/* The output came out whole: put it in place. 0 or an error said. */
int wfw_replace_commit(struct wfw_replace *r, const char *tool);

/*
 * The same for a result directory (filter's NEWRESULT): -EINVAL (said in
 * err) when it holds the input file `in`, or when --force would replace
 * something that is no result directory; an existing one with `force` is
 * built beside it. The caller creates wfw_replace_path().
 */
int wfw_replace_begin_dir(struct wfw_replace *r, const char *in,
			  const char *final, bool force, char *err, size_t errlen);

/* The new directory whole: the old one removed, the new one in place. */
int wfw_replace_commit_dir(struct wfw_replace *r, char *err, size_t errlen);

void wfw_replace_free(struct wfw_replace *r);

#endif
