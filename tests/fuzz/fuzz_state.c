// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the state file of settings to restore
 * (core/restore_file.c), the text a later wultfw running as root reads:
 * parse it, check what it would write back below a root (O_PATH opens
 * only: nothing is ever written), and write what parsed as text again,
 * which must parse back to the same changes.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/wultfw-fuzz-state-XXXXXX";

static void remove_root(void)
{
	char p[sizeof(dir) + 16];

	snprintf(p, sizeof(p), "%s/knob", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/out", dir);
	unlink(p);
	rmdir(dir);
}

/* A root with a file and a link out of it, made once. */
static const char *root(void)
{
	static int made;
	char p[sizeof(dir) + 16];
	FILE *f;

	if (made)
		return dir;
	made = 1;
	if (!mkdtemp(dir))
		abort();
	atexit(remove_root);
	snprintf(p, sizeof(p), "%s/knob", dir);
	f = fopen(p, "w");
	if (f)
		fclose(f);
	snprintf(p, sizeof(p), "%s/out", dir);
	if (symlink("/", p))
		abort();
	return dir;
}

static int same_change(const struct wfw_change *a, const struct wfw_change *b)
{
	if (a->kind != b->kind || a->nsteps != b->nsteps ||
	    strcmp(a->what, b->what) || strcmp(a->plugin, b->plugin) ||
	    strcmp(a->data, b->data))
		return 0;
	for (size_t k = 0; k < a->nsteps; k++)
		if (strcmp(a->steps[k].path, b->steps[k].path) ||
		    strcmp(a->steps[k].value, b->steps[k].value))
			return 0;
	return 1;
}

/* format(st) parses back to st. */
static void round_trip(const struct wfw_state *st)
{
	struct wfw_state back;
	char err[512], *text = wfw_state_format(st);

	if (!text)
		abort();
	if (wfw_state_parse(text, &back, err, sizeof(err)) || back.pid != st->pid ||
	    back.pid_start != st->pid_start || strcmp(back.boot_id, st->boot_id) ||
	    back.nchanges != st->nchanges) {
		fprintf(stderr, "round trip: %s\n%s", err, text);
		abort();
	}
	for (size_t i = 0; i < st->nchanges; i++)
		if (!same_change(&st->changes[i], &back.changes[i])) {
			fprintf(stderr, "round trip: change %zu differs\n%s", i, text);
			abort();
		}
	free(back.changes);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[1024];
	struct wfw_state st;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!wfw_state_parse(text, &st, err, sizeof(err))) {
		wfw_state_confined(&st, root(), err, sizeof(err));
		round_trip(&st);
	}
	free(st.changes);
	free(text);
	return 0;
}
