/* SPDX-License-Identifier: MIT */
/*
 * Moving a PCI device between drivers through sysfs: driver_override,
 * unbind from the current driver, bind to ours; and back. Every step is
 * checked by reading the device's driver link again.
 *
 * The sysfs root is a parameter and every write is reported to an optional
 * hook, so tests run the whole dance against a fake sysfs tree whose hook
 * plays the kernel's part (moves the driver link).
 */
#ifndef I210_BIND_H
#define I210_BIND_H

#include <stdbool.h>
#include <stddef.h>

struct i210_bind {
	const char *sysfs;		/* "/sys" */
	char addr[16];			/* "0000:01:00.0" */
	char orig[64];			/* driver before us, "" none */
	bool moved;			/* we changed the binding */
	/* Tests: called after each write, may fake the kernel's reaction. */
	void (*hook)(void *arg, const char *path, const char *val);
	void *hook_arg;
};

void i210_bind_init(struct i210_bind *b, const char *sysfs, const char *addr);
/* Name of the driver bound to the device now ("" none). 0 or -errno. */
int i210_bind_current(const struct i210_bind *b, char *drv, size_t len);
/* Move the device to driver @ours. 0, or -errno with why (nothing left changed). */
int i210_bind_take(struct i210_bind *b, const char *ours, char *why, size_t len);
/* Give the device back to its original driver. 0, or -errno with why. */
int i210_bind_restore(struct i210_bind *b, const char *ours, char *why, size_t len);
/*
 * The same from whatever state a killed run left it in, knowing only
 * b->orig: bound to @ours -> unbound; our driver_override -> cleared; no
 * driver -> bound to b->orig; then it must be bound to b->orig. A device
 * that is gone, or that someone bound to another driver since, has
 * nothing of ours to give back (0). 0, or -errno with why.
 */
int i210_bind_giveback(struct i210_bind *b, const char *ours, char *why,
		       size_t len);

#endif
