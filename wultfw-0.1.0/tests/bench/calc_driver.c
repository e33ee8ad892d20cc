/* SPDX-License-Identifier: MIT */
/*
 * `wultfw calc` without the rest of the binary, so the calc benchmark runs
 * before the sub-command is wired into core/main.c: calc_driver ARGS...
 * is wultfw calc ARGS...
 */
#include "config.h"

#include "commands.h"

int main(int argc, char **argv)
{
	argv[0] = "calc";
	return wfw_cmd_calc(argc, argv);
}
