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

	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "sut1,root@sut2,sut1,lab-3", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(h.n, 3);	/* duplicates dropped */
	CU_ASSERT_STRING_EQUAL(h.v[1], "root@sut2");
	wfw_hosts_free(&h);
	/* an empty item is a mistake, not a shorter list */
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "sut1,,lab-3", why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "-H 'sut1,,lab-3': an empty host name");
	wfw_hosts_free(&h);
	/* ssh would take these as options or break the quoting */
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "-oProxyCommand=x", why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "cannot start with '-'");
	wfw_hosts_free(&h);
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, "a b", why, sizeof(why)), -1);
	wfw_hosts_free(&h);
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, ",", why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "an empty host name");
	wfw_hosts_free(&h);
}

/* What a SUT may be called: accepted, or refused with what is wrong. */
static void test_host_names(void)
{
	static const char *const good[] = {
		"sut1", "lab-sut_3.example.com", "example.com.", "root@sut2",
		"first.last@h", "192.168.1.7", "::1", "[::1]", "root@[::1]",
		"fe80::1%eth0", "[fe80::1%eth0]", "2001:db8::8:800:200c:417a",
		"_alias", NULL,
	};
	static const char *const bad[][2] = {
		{ "", "an empty host name" },
		{ ".", "'.' and '..' are directories" },
		{ "..", "'.' and '..' are directories" },
		{ "root@..", "'.' and '..' are directories" },
		{ "a/b", "cannot contain '/'" },
		{ "../x", "cannot contain '/'" },
		{ "-oProxyCommand=x", "cannot start with '-'" },
		{ "root@-x", "cannot start with '.' or '-'" },
		{ ".hidden", "cannot start with '.' or '-'" },
		{ "root@", "no host after '@'" },
		{ "-u@h", "cannot start with '-'" },
		{ ".u@h", "the user in USER@HOST" },
		{ "a@b@c", "the user in USER@HOST" },
		{ "a b", "a space, control or non-ASCII character cannot be" },
		{ "a\tb", "a space, control or non-ASCII character cannot be" },
		{ "h\xc3\xa9", "a space, control or non-ASCII character cannot be" },
		{ "a;b", "';' cannot be in a host name" },
		{ "$(id)", "'$' cannot be in a host name" },
		{ "a:b", "not an IPv6 address" },
		{ "[zz::1]", "not an IPv6 address" },
		{ "[::1", "not an IPv6 address" },
		{ "[]", "not an IPv6 address" },
		{ "fe80::1%", "not an IPv6 address" },
		{ "fe80::1%e/0", "cannot contain '/'" },
		{ NULL, NULL },
	};
	char why[512], dest[WFW_HOST_MAX + 1], longest[WFW_HOST_MAX + 2];
	size_t i;

	for (i = 0; good[i]; i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wfw_host_check(good[i], why, sizeof(why)), 0);
		if (why[0])
			fprintf(stderr, "refused: %s\n", why);
	}
	for (i = 0; bad[i][0]; i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wfw_host_check(bad[i][0], why, sizeof(why)), -1);
		TU_ASSERT_CONTAINS(why, bad[i][1]);
	}
	memset(longest, 'a', WFW_HOST_MAX);
	longest[WFW_HOST_MAX] = '\0';
	CU_ASSERT_EQUAL(wfw_host_check(longest, why, sizeof(why)), 0);
	longest[WFW_HOST_MAX] = 'a';
	longest[WFW_HOST_MAX + 1] = '\0';
	CU_ASSERT_EQUAL(wfw_host_check(longest, why, sizeof(why)), -1);
	TU_ASSERT_CONTAINS(why, "longer than 128 characters");
	/* ssh does not resolve [::1]: it gets the address without brackets */
	wfw_host_ssh_dest("root@[::1]", dest, sizeof(dest));
	CU_ASSERT_STRING_EQUAL(dest, "root@::1");
	wfw_host_ssh_dest("[fe80::1%eth0]", dest, sizeof(dest));
	CU_ASSERT_STRING_EQUAL(dest, "fe80::1%eth0");
	wfw_host_ssh_dest("sut1", dest, sizeof(dest));
	CU_ASSERT_STRING_EQUAL(dest, "sut1");
}

/* Lines of tar's listing of a SUT's archive: the member and what is wrong. */
static void test_untar_lines(void)
{
	static const char *const lines[][2] = {
		{ "drwxr-xr-x 0/0 0 2025-01-01 00:00 \"res/\"", NULL },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res\"", NULL },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/a \\\"b\\\"\\n\"", NULL },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/\\303\\251\"", NULL },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/..x/x..\"", NULL },
		{ "-rw-r--r-- 1000/1000 1 2025-01-01 00:00 \"b/logs/x\"", NULL },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/../x\"", "is a path through '..'" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/..\"", "is a path through '..'" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"/res/x\"", "is an absolute path" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"resx/a\"", "is outside the result directories" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"./res/a\"", "is outside the result directories" },
		{ "-rwsr-xr-x 0/0 1 2025-01-01 00:00 \"res/s\"", "is set-user-ID or set-group-ID" },
		{ "-rw-r-Sr-- 0/0 1 2025-01-01 00:00 \"res/s\"", "is set-user-ID or set-group-ID" },
		{ "lrwxrwxrwx 0/0 0 2025-01-01 00:00 \"res/l\" -> \"/etc\"",
		  "member \"res/l\" -> \"/etc\" is a symbolic link" },
		{ "hrw-r--r-- 0/0 0 2025-01-01 00:00 \"res/h\" link to \"/etc/passwd\"", "is a hard link" },
		{ "crw-r--r-- 0/0 1,3 2025-01-01 00:00 \"res/c\"", "is a device file" },
		{ "brw-r--r-- 0/0 8,0 2025-01-01 00:00 \"res/b\"", "is a device file" },
		{ "prw-r--r-- 0/0 0 2025-01-01 00:00 \"res/p\"", "is a FIFO" },
		{ "V--------- 0/0 0 2025-01-01 00:00 \"res\"--Volume Header--", "neither a plain file" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/a/b/c/d/e/f/g/h/i\"", "nested deeper" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/open", "cannot read" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/\\000\"", "cannot read" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 \"res/\\q\"", "cannot read" },
		{ "-rw-r--r-- 0/0 1 2025-01-01 00:00 res/a", "cannot read" },
		{ "-rw", "cannot read" },
		{ NULL, NULL },
	};
	char *names[] = { "res", "b" }, why[1024];
	size_t i;

	for (i = 0; lines[i][0]; i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wfw_untar_check_line(lines[i][0], names, 2, why, sizeof(why)),
				lines[i][1] ? -1 : 0);
		if (lines[i][1]) {
			TU_ASSERT_CONTAINS(why, lines[i][1]);
		} else if (why[0]) {
			fprintf(stderr, "%s: %s\n", lines[i][0], why);
		}
	}
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
	CU_ASSERT_EQUAL(plan_hosts("hosts = ( \"a\",\n 7, \"-x\",\n \"..\", \"\" );", &h, &w, &errs), -1);
	CU_ASSERT_EQUAL(errs.n, 4);
	if (errs.n == 4) {
		TU_ASSERT_CONTAINS(errs.msgs[0], ":2: hosts[1]: expected a host name in quotes");
		TU_ASSERT_CONTAINS(errs.msgs[1], ":2: hosts[2]: '-x': a host name cannot start with '-'");
		TU_ASSERT_CONTAINS(errs.msgs[2], ":3: hosts[3]: '..': '.' and '..' are directories");
		TU_ASSERT_CONTAINS(errs.msgs[3], ":3: hosts[4]: '': an empty host name");
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
	CU_add_test(s, "host names", test_host_names);
	CU_add_test(s, "tar's listing of a SUT's archive", test_untar_lines);
	CU_add_test(s, "hosts and sut_wultfw in the file", test_hosts_file);
	return tu_run();
}
