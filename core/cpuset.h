/* SPDX-License-Identifier: MIT */
/*
 * The `cpu` setting of a source group as a list of CPUs: one number, a
 * list with ranges as the kernel writes them ("1-7,9"), "all" (the online
 * CPUs) or "isolated" (isolcpus=). Each listed CPU must be online.
 */
#ifndef WFW_CPUSET_H
#define WFW_CPUSET_H

#include <stddef.h>

/*
 * `text` into *cpus (malloc'ed, ascending) and *n; 0, or -EINVAL/-ENODEV
 * /-errno with err saying why in words that follow "cpu ": what it is not
 * or which CPU is offline, and where the kernel's list is.
 */
int wfw_cpuset_parse(const char *text, const char *sysfs_root, int **cpus,
		     size_t *n, char *err, size_t errlen);

/* "0, 1, 5" for a YAML flow list or a message; buf is always terminated. */
void wfw_cpuset_format(const int *cpus, size_t n, char *buf, size_t len);

#endif
