/* SPDX-License-Identifier: MIT */
/*
 * What `wultfw` runs without -c: a measurement that works on any Linux
 * machine, as any user, in about ten seconds.
 */
#include "config.h"

#include "default_experiment.h"

const char wfw_default_experiment[] =
	"# The embedded default experiment ('wultfw' without -c).\n"
	"outdir = \"wultfw-results\";\n"
	"experiments = (\n"
	"  { name = \"timer\";\n"
	"    source = { plugin = \"timer\"; ldist = [ \"50us\", \"1ms\" ]; };\n"
	"    limits = { datapoints = 10000; time = \"30s\"; };\n"
	"    sinks = ( { plugin = \"csv\"; } );\n"
	"  }\n"
	");\n";
