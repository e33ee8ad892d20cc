/* SPDX-License-Identifier: MIT */
/* Remote SUTs: shell quoting (checked by a real /bin/sh) and host lists. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/remote.h"
#include "testutil.h"

/* What /bin/sh makes of printf %s QUOTED: must be the original bytes. */
static void check_roundtrip(const char *arg)
{
	char *q = wfw_shq(arg), *cmd, out[512];
	size_t n;
	FILE *p;

	CU_ASSERT_FATAL(asprintf(&cmd, "printf %%s %s", q) > 0);
	p = popen(cmd, "r");
	CU_ASSERT_FATAL(p != NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	CU_ASSERT_EQUAL(pclose(p), 0);
	CU_ASSERT_STRING_EQUAL(out, arg);
	free(cmd);
	free(q);
}

static void test_shq(void)
{
	char *q = wfw_shq("it's");

	CU_ASSERT_STRING_EQUAL(q, "'it'\\''s'");
	free(q);
	check_roundtrip("plain");
	check_roundtrip("");
	check_roundtrip("two words");
	check_roundtrip("$(touch /tmp/wultfw-shq-pwned) `id` $HOME");
	check_roundtrip("'; rm -rf /nonexistent; echo '");
	check_roundtrip("a\nb\tc\\d\"e'f'");
	check_roundtrip("*?[a]~");
}

static void test_hosts_cli(void)
{
	struct wfw_hosts h = { 0 };
	char why[256];

	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "sut1,root@sut2,sut1,,lab-3", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(h.n, 3);	/* duplicates and empty items dropped */
	CU_ASSERT_STRING_EQUAL(h.v[1], "root@sut2");
	wfw_hosts_free(&h);
	/* ssh would take these as options or break the quoting */
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "-oProxyCommand=x", why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "cannot start with '-'");
	wfw_hosts_free(&h);
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "a b", why, sizeof(why)), -1);
	wfw_hosts_free(&h);
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, ",", why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "no host given");
	wfw_hosts_free(&h);
}

static int plan_hosts(const char *text, struct wfw_hosts *h,
		      const char **sut_wultfw, struct wfw_cfgerr *errs)
{
	static struct wfw_plan plan;
	int ret;

	config_init(&plan.cfg);
	CU_ASSERT_FATAL(config_read_string(&plan.cfg, text) == CONFIG_TRUE);
	ret = wfw_hosts_from_plan(h, &plan, sut_wultfw, errs);
	/* sut_wultfw points into the configuration: copy before destroying */
	if (*sut_wultfw)
		*sut_wultfw = strdup(*sut_wultfw);
	config_destroy(&plan.cfg);
	return ret;
}

static void test_hosts_file(void)
{
	struct wfw_hosts h = { 0 };
	struct wfw_cfgerr errs = { 0 };
	const char *w = NULL;

	CU_ASSERT_EQUAL(plan_hosts("hosts = [ \"a\", \"b\" ];\nsut_wultfw = \"/opt/w\";",
				   &h, &w, &errs), 0);
	CU_ASSERT_EQUAL(h.n, 2);
	CU_ASSERT_STRING_EQUAL(w, "/opt/w");
	free((char *)w);
	wfw_hosts_free(&h);

	w = NULL;
	CU_ASSERT_EQUAL(plan_hosts("hosts = ( \"a\",\n 7, \"-x\" );", &h, &w, &errs), -1);
	CU_ASSERT_EQUAL(errs.n, 2);
	if (errs.n == 2) {
		TU_ASSERT_CONTAINS(errs.msgs[0], ":2: hosts[1]: expected a host name in quotes");
		TU_ASSERT_CONTAINS(errs.msgs[1], "hosts[2]: a host name cannot start with '-'");
	}
	wfw_cfgerr_free(&errs);
	wfw_hosts_free(&h);

	CU_ASSERT_EQUAL(plan_hosts("hosts = \"a\";", &h, &w, &errs), -1);
	CU_ASSERT_EQUAL(errs.n, 1);
	if (errs.n)
		TU_ASSERT_CONTAINS(errs.msgs[0], "expected a list of host names");
	wfw_cfgerr_free(&errs);
	wfw_hosts_free(&h);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("remote", NULL, NULL);
	CU_add_test(s, "shell quoting round trip through /bin/sh", test_shq);
	CU_add_test(s, "-H host lists", test_hosts_cli);
	CU_add_test(s, "hosts and sut_wultfw in the file", test_hosts_file);
	return tu_run();
}
