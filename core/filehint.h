/* SPDX-License-Identifier: MIT */
/* "did you mean" for a file name that names no file. */
#ifndef WFW_FILEHINT_H
#define WFW_FILEHINT_H

#include <stddef.h>

/*
 * The closest name of a file in path's directory (path itself missing),
 * with that directory, into buf: buf, or NULL when none is close.
 */
const char *wfw_file_hint(const char *path, char *buf, size_t len);

/*
 * The quoted name of the @include on line `line` of file into buf: buf, or
 * NULL when that line holds none.
 */
const char *wfw_include_name(const char *file, int line, char *buf, size_t len);

#endif
