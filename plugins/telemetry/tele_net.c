/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "net": a network interface's counters, as
 * SYS/class/net/IFACE/statistics/FIELD names them (rx_packets, tx_bytes,
 * rx_dropped, ...). The kernel keeps them in 64 bits.
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int tele_net_list(const struct tele_env *env, tele_add_fn add,
			 void *arg, char *why, size_t len)
{
	char dir[PATH_MAX], name[TELE_NAME_LEN], **ifs, **fields;
	int nif, nf, i, k;

	snprintf(dir, sizeof(dir), "%s/class/net", env->sys);
	nif = tele_list_dir(dir, &ifs);
	if (nif < 0) {
		snprintf(why, len, "cannot list %s: %s", dir, strerror(-nif));
		return nif;
	}
	for (i = 0; i < nif; i++) {
		snprintf(dir, sizeof(dir), "%s/class/net/%s/statistics", env->sys, ifs[i]);
		nf = tele_list_dir(dir, &fields);
		for (k = 0; k < nf; k++) {
			snprintf(name, sizeof(name), "net:%s:%s", ifs[i], fields[k]);
			add(arg, name);
		}
		if (nf > 0)
			tele_free_names(fields, nf);
	}
	tele_free_names(ifs, nif);
	return 0;
}

static int tele_net_open(const struct tele_env *env, const char *id,
			 struct tele_counter *c, char *why, size_t len)
{
	const char *field = strchr(id, ':');

	if (!field || field == id || strchr(field + 1, ':') || strchr(id, '/')) {
		snprintf(why, len, "'%s' is not IFACE:FIELD", id);
		return -EINVAL;
	}
	c->unit = strstr(field, "bytes") ? "bytes"
		: strstr(field, "packets") ? "packets" : "count";
	c->bits = 64;
	return tele_set_path(c, "%s/class/net/%.*s/statistics/%s", env->sys,
			     (int)(field - id), id, field + 1);
}

const struct tele_provider tele_net = {
	.name = "net",
	.ids = "IFACE:FIELD (FIELD as in /sys/class/net/IFACE/statistics: rx_packets, tx_bytes, ...)",
	.list = tele_net_list,
	.open = tele_net_open,
	.read = tele_read_path_counter,
	.close = tele_close_nothing,
};
