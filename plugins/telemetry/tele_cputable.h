/* SPDX-License-Identifier: MIT */
/*
 * telemetry: the per-CPU tables of /proc/interrupts and /proc/softirqs (a
 * "CPU0 CPU1 ..." header, then "KEY: count count ... text" rows), shared
 * by their two providers. A counter is KEY:cpuN, or KEY alone for a row
 * with one count (ERR, MIS).
 */
#ifndef TELE_CPUTABLE_H
#define TELE_CPUTABLE_H

#include "tele_provider.h"

int tele_cputable_list(const char *path, const char *prov, tele_add_fn add,
		       void *arg, char *why, size_t len);
int tele_cputable_open(const char *path, const char *id,
		       struct tele_counter *c, char *why, size_t len);
int tele_cputable_read(struct tele_counter *c, uint64_t gen, uint64_t *raw);

/*
 * A provider reading the table `file` below the procfs root: its list()
 * and open() pass the path on; read() is tele_cputable_read().
 */
#define TELE_CPUTABLE_PROVIDER(var, prov, file, idhelp)			\
static int var##_list(const struct tele_env *env, tele_add_fn add,	\
		      void *arg, char *why, size_t len)			\
{									\
	char path[PATH_MAX];						\
									\
	snprintf(path, sizeof(path), "%s/" file, env->proc);		\
	return tele_cputable_list(path, prov, add, arg, why, len);	\
}									\
static int var##_open(const struct tele_env *env, const char *id,	\
		      struct tele_counter *c, char *why, size_t len)	\
{									\
	char path[PATH_MAX];						\
									\
	snprintf(path, sizeof(path), "%s/" file, env->proc);		\
	return tele_cputable_open(path, id, c, why, len);		\
}									\
const struct tele_provider var = {					\
	.name = prov, .ids = idhelp,					\
	.list = var##_list, .open = var##_open,				\
	.read = tele_cputable_read, .close = tele_close_nothing,	\
}

#endif
