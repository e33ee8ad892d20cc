/* SPDX-License-Identifier: MIT */
/*
 * Annotators: plugins that add columns to every datapoint of the main
 * source from what they saw during its interval (the latency attribution
 * of plugins/attrib). Declared as `annotate = ( { plugin = "attrib"; } );`
 * in an experiment or at the top level. They run in the core's reading
 * thread: after each read() the source's rows are copied into a wider
 * batch whose last columns the annotators fill; sinks and the selection
 * see only the wide one. An annotator that cannot run fails the run (the
 * user asked for its columns).
 */
#ifndef WFW_ANNOTATE_H
#define WFW_ANNOTATE_H

#include <libconfig.h>

#include "cfgerr.h"
#include "pluginst.h"

/* An experiment's annotators, as its file lists them. */
struct wfw_annot_list {
	struct wfw_plugin_inst *pi;	/* loaded, options parsed */
	size_t n;
};

/* Parse the `annotate` list at `list` (key: its path) into al. */
void wfw_annot_parse(struct wfw_annot_list *al, const config_setting_t *list,
		     const char *key, struct wfw_cfgerr *errs);
void wfw_annot_free(struct wfw_annot_list *al);

/* The running set, from open to close. */
struct wfw_annotators {
	struct wfw_annot_list *al;
	size_t nopen;			/* opened, in order: closed in reverse */
	size_t nstarted;
	struct wultfw_schema schema;	/* the source's columns, then theirs */
	struct wultfw_column *cols;
	size_t src_ncols;
	int c_start, c_latency;		/* the interval's columns in the source's */
	size_t *first;			/* each one's first column in the wide */
	int64_t *start, *latency;	/* one batch's intervals */
	struct wultfw_batch wide;	/* what sinks get */
	struct wultfw_batch out;	/* one annotator's columns, scratch */
};

/*
 * Open every annotator of al for the run ri (ri->schema: the source's;
 * each pi's ctx set up by the caller), batches of `capacity` rows. 0, or
 * a negative errno after saying why (an annotator that cannot run here, a
 * source that names no interval).
 */
int wfw_annot_open(struct wfw_annotators *as, struct wfw_annot_list *al,
		   const struct wultfw_run_info *ri, size_t capacity);
/* Start them (the result directory exists); 0 or the first failure. */
int wfw_annot_start(struct wfw_annotators *as);
/*
 * The source's batch b, annotated: a batch of the wide schema holding
 * its rows (valid until the next call). NULL after saying why an
 * annotator failed.
 */
struct wultfw_batch *wfw_annot_batch(struct wfw_annotators *as,
				     const struct wultfw_batch *b);
/* Stop those started; the first failure is said and returned. */
int wfw_annot_stop(struct wfw_annotators *as);
/* Close those opened, free the rest (also after a failed open). */
void wfw_annot_close(struct wfw_annotators *as);

#endif
