/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "testopts.h"

char *to_option_errors(const struct wultfw_plugin *p, const char *text)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_optvals v;
	char *all = calloc(1, 4096);
	config_t c;
	size_t i;

	config_init(&c);
	if (!all || config_read_string(&c, text) != CONFIG_TRUE) {
		config_destroy(&c);
		free(all);
		return strdup("(syntax error in the test's text)");
	}
	wfw_options_parse(p->options, p->cfg_size, config_lookup(&c, "source"),
			  NULL, "source", p->name, &v, &errs);
	for (i = 0; i < errs.n; i++)
		snprintf(all + strlen(all), 4096 - strlen(all), "%s\n", errs.msgs[i]);
	wfw_options_free(&v);
	wfw_cfgerr_free(&errs);
	config_destroy(&c);
	return all;
}

int to_option_values(const struct wultfw_plugin *p, const char *text,
		     struct wfw_optvals *v)
{
	struct wfw_cfgerr errs = { 0 };
	config_t c;
	int ret = -EINVAL;

	config_init(&c);
	if (config_read_string(&c, text) == CONFIG_TRUE)
		ret = wfw_options_parse(p->options, p->cfg_size,
					config_lookup(&c, "source"), NULL,
					"source", p->name, v, &errs);
	wfw_cfgerr_print(&errs);
	wfw_cfgerr_free(&errs);
	config_destroy(&c);
	return ret;
}
