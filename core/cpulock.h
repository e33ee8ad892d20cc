/* SPDX-License-Identifier: MIT */
/*
 * Which wultfw measures which CPU: a lock file per CPU in the state
 * directory (core/restore.h), held for the run (gone with the process,
 * even after kill -9), naming its pid. Two runs on one CPU disturb each
 * other's wake-ups; the second is told who else is there.
 */
#ifndef WFW_CPULOCK_H
#define WFW_CPULOCK_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Take CPU cpu's lock, STATE_DIR/cpuN.lock: its fd (>= 0) to hand to
 * wfw_cpulock_release(), or -EBUSY with *other the pid measuring it (0 if
 * it did not say), or -EPERM with err saying why the directory or file is
 * refused (statedir.h: not trusted, a symbolic link, a hard link), or
 * another -errno when there is no lock to take (no state directory).
 * Nothing is written to the file before it is checked and locked.
 */
int wfw_cpulock_take(int cpu, pid_t *other, char *err, size_t errlen);
void wfw_cpulock_release(int fd);

#endif
