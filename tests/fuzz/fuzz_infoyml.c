// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for info.yml as calc, report and filter read it (lib/
 * datafmt/infoyml.c, runstate.c, likeness.c): the input is a result's
 * info.yml, written beside a data file in a directory of the target's
 * own, then
 *   - parsed from memory and read from the file: the same keys and values
 *     (or the same refusal), within the bounds (WFW_INFOYML_MAX_KEYS, no
 *     newline in a key);
 *   - every value unquoted by index and by name (the first key of a name);
 *   - written as report's page does, a JSON string each: no raw control
 *     byte, every quote escaped;
 *   - judged as calc and report judge a run (status, pid, pid_start,
 *     boot_id, sut_hostname: wfw_run_end()), and compared with another
 *     result as calc and report compare results (wfw_likeness_warn()).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/infoyml.h"
#include "datafmt/likeness.h"
#include "datafmt/runstate.h"
#include "stats/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_infoyml.XXXXXX", other[] = "/tmp/fuzz_infoyml.XXXXXX";
static char data_path[64], info_path[64], other_data[64];

static void broken(const char *what, size_t i)
{
	fprintf(stderr, "fuzz_infoyml: %s (key %zu)\n", what, i);
	abort();
}

/* At exit: the two directories go. */
static void cleanup(void)
{
	char p[64];

	snprintf(p, sizeof(p), "%s/info.yml", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/info.yml", other);
	unlink(p);
	rmdir(dir);
	rmdir(other);
}

static void setup(void)
{
	FILE *f;

	if (!mkdtemp(dir) || !mkdtemp(other))
		abort();
	atexit(cleanup);
	snprintf(data_path, sizeof(data_path), "%s/datapoints.csv", dir);
	snprintf(info_path, sizeof(info_path), "%s/info.yml", dir);
	snprintf(other_data, sizeof(other_data), "%s/datapoints.csv", other);
	snprintf(info_path, sizeof(info_path), "%s/info.yml", other);
	f = fopen(info_path, "w");
	if (!f)
		abort();
	fputs("toolname: wultfw\nsource: 'timer'\nldist_from: '50us'\nldist_to: '1ms'\n"
	      "cpu: 1\nstatus: 'complete'\n", f);
	fclose(f);
	snprintf(info_path, sizeof(info_path), "%s/info.yml", dir);
}

/* The same keys and values, in order. */
static void same(const struct wfw_infoyml *a, const struct wfw_infoyml *b)
{
	if (a->n != b->n)
		broken("file and memory give other key counts", a->n);
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->keys[i], b->keys[i]) || strcmp(a->vals[i], b->vals[i]))
			broken("file and memory differ", i);
}

/* Report's page: a JSON string per value, nothing raw in it. */
static void as_json(const struct wfw_infoyml *y)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < y->n; i++) {
		char *v = wfw_infoyml_value(y, i);

		if (!v)
			abort();
		wfw_json_string(f, y->keys[i]);
		fputc(':', f);
		wfw_json_string(f, v);
		fputc('\n', f);
		free(v);
	}
	fclose(f);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 && text[i] != '\n')
			broken("a raw control byte in a JSON string", i);
	free(text);
}

static void check(const struct wfw_infoyml *y)
{
	if (y->n > WFW_INFOYML_MAX_KEYS)
		broken("more keys than the bound", y->n);
	for (size_t i = 0; i < y->n; i++) {
		char *v = wfw_infoyml_value(y, i), *g = wfw_infoyml_get(y, y->keys[i]);
		size_t first = 0;

		if (strchr(y->keys[i], '\n') || !v || !g)
			broken("a key with a newline, or no value", i);
		while (strcmp(y->keys[first], y->keys[i]))
			first++;
		if (first == i && strcmp(v, g))
			broken("a value by name differs from its value by index", i);
		free(v);
		free(g);
	}
	as_json(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *files[2] = { data_path, other_data }, *names[2] = { "a", "b" };
	struct wfw_infoyml mem, file;
	int rm, rf;
	char why[700], *out = NULL;
	size_t len = 0;
	FILE *f;

	static bool ready;

	if (!ready)
		setup();
	ready = true;
	rm = wfw_infoyml_parse(&mem, (const char *)data, size);
	f = fopen(info_path, "w");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	rf = wfw_infoyml_read(&file, data_path);
	if (rm != rf)
		broken("file and memory: another outcome", (size_t)-rf);
	if (!rm) {
		same(&mem, &file);
		check(&mem);
	}
	wfw_infoyml_free(&mem);
	wfw_infoyml_free(&file);
	wfw_run_end(data_path, why, sizeof(why));
	f = open_memstream(&out, &len);
	wfw_likeness_warn(f, "calc", files, names, 2);
	fclose(f);
	free(out);
	return 0;
}
