/* SPDX-License-Identifier: MIT */
/* Opening a file again only when it is a regular one. */
#ifndef WFW_OPENREG_H
#define WFW_OPENREG_H

#include <stdio.h>

/*
 * path opened read-only if it is a regular file: its descriptor, else -1.
 * For the experiment file read a second time (hints, checks): a FIFO was
 * read once already, and opening it again would wait for a new writer.
 */
int wfw_open_regular(const char *path);

/* The same as a stdio stream, or NULL. */
FILE *wfw_fopen_regular(const char *path);

#endif
