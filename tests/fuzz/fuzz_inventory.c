// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for -i's Ansible inventories (remote/inventory*.c): the
 * input is an inventory, INI or YAML, parsed from memory; when accepted,
 * a few host patterns are resolved against it. Checked:
 *   - a refusal is one line naming the input ("inv:...");
 *   - the bounds hold (WFW_INV_MAX_HOSTS, _GROUPS, _OPTS a host);
 *   - every host is in 'all', every chosen host is a host, in order and
 *     once, and 'all:!all' chooses none.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what)
{
	fprintf(stderr, "fuzz_inventory: %s\n", what);
	abort();
}

static void patterns(const struct wfw_inventory *inv)
{
	static const char *const pats[] = { "all", "*", "ungrouped", "a:b",
		"a:&b", "a:!b", "!a", "h*,g*", "all:!all" };
	char why[512];
	size_t *v, i, k;
	long n;

	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		n = wfw_inv_select(inv, pats[i], &v, why, sizeof(why));
		if (n < 0) {
			if (strchr(why, '\n'))
				broken("a pattern's error has a line break");
			continue;
		}
		if (i == 8)
			broken("'all:!all' chose a host");
		for (k = 0; k < (size_t)n; k++)
			if (v[k] >= inv->nh || (k && v[k] <= v[k - 1]))
				broken("a chosen host out of range or order");
		free(v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wfw_inventory inv;
	char why[1024];
	size_t h;

	if (wfw_inv_parse(&inv, "inv", (const char *)data, size, why, sizeof(why))) {
		if (strncmp(why, "inv", 3) || strchr(why, '\n'))
			broken("a refusal not one line naming the file");
		wfw_inv_free(&inv);
		return 0;
	}
	if (inv.nh > WFW_INV_MAX_HOSTS || inv.ng > WFW_INV_MAX_GROUPS)
		broken("more hosts or groups than the limits");
	for (h = 0; h < inv.nh; h++)
		if (!wfw_inv_in_group(&inv, 0, h) || inv.h[h].nopts > WFW_INV_MAX_OPTS)
			broken("a host not in 'all', or too many ssh options");
	patterns(&inv);
	wfw_inv_free(&inv);
	return 0;
}
