/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tele_cpus.h"

#include <stdio.h>

int tele_sysfs_cpus(const struct tele_env *env, int *cpus, int max)
{
	char dir[PATH_MAX], **names;
	int n, i, k = 0;

	snprintf(dir, sizeof(dir), "%s/devices/system/cpu", env->sys);
	n = tele_list_dir(dir, &names);
	if (n < 0)
		return n;
	for (i = 0; i < n && k < max; i++) {
		int cpu, len;

		if (sscanf(names[i], "cpu%d%n", &cpu, &len) == 1 &&
		    !names[i][len])
			cpus[k++] = cpu;
	}
	tele_free_names(names, n);
	return k;
}
