/* SPDX-License-Identifier: MIT */
/* A command's --help from its option table (clihelp.c). */
#ifndef WFW_CLIHELP_H
#define WFW_CLIHELP_H

#include "clitable.h"

/* The command's --help, generated from its table. */
void wfw_cli_help(const struct wfw_cli *cli, FILE *f);
/*
 * The values an option allows, as its --help and its errors say them:
 * "1 to 256", "0 or more", "csv or binary"; "" without limits.
 */
void wfw_cli_range(const struct wfw_cli_opt *o, char *buf, size_t len);

#endif
