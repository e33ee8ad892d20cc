/* SPDX-License-Identifier: MIT */
/*
 * Ansible inventories (INI and YAML), host patterns and host files: what a
 * lab writes, and what a hostile file does (loops, aliases, depth, size,
 * NUL bytes, variables wultfw must not silently drop).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/inventory.h"
#include "remote/remote.h"
#include "testutil.h"

static char why[1024];

static int parse(struct wfw_inventory *inv, const char *text)
{
	why[0] = '\0';
	return wfw_inv_parse(inv, "inv", text, strlen(text), why, sizeof(why));
}

/* The hosts pattern selects, space-separated, or "ERR: why". */
static const char *sel(const struct wfw_inventory *inv, const char *pattern)
{
	static char out[1024];
	size_t *v, i;
	long n = wfw_inv_select(inv, pattern, &v, why, sizeof(why));

	if (n < 0) {
		snprintf(out, sizeof(out), "ERR: %s", why);
		return out;
	}
	out[0] = '\0';
	for (i = 0; i < (size_t)n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 i ? " " : "", inv->h[v[i]].name);
	free(v);
	return out;
}

/* A host's ssh options, space-separated. */
static const char *opts(const struct wfw_inventory *inv, const char *host)
{
	static char out[1024];
	const struct wfw_inv_host *h = wfw_inv_find(inv, host);
	size_t i;

	out[0] = '\0';
	for (i = 0; h && i < h->nopts; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 i ? " " : "", h->opts[i]);
	return out;
}

static const char ini[] =
	"# the lab\n"
	"loose1 ansible_host=10.0.0.9\n"
	"[web]\n"
	"web1 ansible_host=10.0.0.1 ansible_user=lab\n"
	"web2:2222  # a port after the name\n"
	"[db]\n"
	"db[1:3]\n"
	"::1\n"
	"[db:vars]\n"
	"ansible_user = dbadmin\n"
	"ansible_ssh_common_args='-o StrictHostKeyChecking=accept-new -J jump'\n"
	"[prod:children]\n"
	"web\n"
	"db\n"
	"[prod:vars]\n"
	"ansible_user=produser\n"
	"ansible_python_interpreter=/usr/bin/python3\n"
	"[all:vars]\n"
	"ansible_port=22\n";

static void test_ini(void)
{
	struct wfw_inventory inv;

	if (parse(&inv, ini))
		printf("%s\n", why);
	CU_ASSERT_EQUAL_FATAL(why[0], 0);
	CU_ASSERT_STRING_EQUAL(sel(&inv, "all"), "loose1 web1 web2 db1 db2 db3 ::1");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "*"), "loose1 web1 web2 db1 db2 db3 ::1");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "db,!::1"), "db1 db2 db3");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "ungrouped"), "loose1");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "prod"), "web1 web2 db1 db2 db3 ::1");
	/* host vars beat the child group's, which beat the parent's */
	CU_ASSERT_STRING_EQUAL(opts(&inv, "web1"), "HostName=10.0.0.1 User=lab Port=22");
	CU_ASSERT_STRING_EQUAL(opts(&inv, "web2"), "User=produser Port=2222");
	CU_ASSERT_STRING_EQUAL(opts(&inv, "db2"),
			       "User=dbadmin Port=22 StrictHostKeyChecking=accept-new ProxyJump=jump");
	wfw_inv_free(&inv);
}

static const char yaml[] =
	"all:\n"
	"  hosts:\n"
	"    solo:\n"
	"  vars:\n"
	"    ansible_user: root\n"
	"  children:\n"
	"    lab_a:\n"
	"      hosts:\n"
	"        sut1: { ansible_host: 127.0.0.1, ansible_port: 2201 }\n"
	"        sut2:\n"
	"          ansible_host: 127.0.0.1\n"
	"          ansible_port: 2202\n"
	"          ansible_ssh_private_key_file: /k/id\n"
	"          tags: [a, b]\n"
	"    lab_b:\n"
	"      hosts:\n"
	"        sut[3:4]:\n"
	"        sut1:\n"
	"      vars:\n"
	"        ansible_become: false\n"
	"        extra: { nested: [1, 2] }\n";

static void test_yaml(void)
{
	struct wfw_inventory inv;

	CU_ASSERT_EQUAL_FATAL(parse(&inv, yaml), 0);
	CU_ASSERT_STRING_EQUAL(sel(&inv, "all"), "solo sut1 sut2 sut3 sut4");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a"), "sut1 sut2");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "ungrouped"), "solo");
	CU_ASSERT_STRING_EQUAL(opts(&inv, "sut2"),
			       "HostName=127.0.0.1 User=root Port=2202 IdentityFile=/k/id");
	CU_ASSERT_STRING_EQUAL(opts(&inv, "sut3"), "User=root");
	wfw_inv_free(&inv);
}

static void test_patterns(void)
{
	struct wfw_inventory inv;

	CU_ASSERT_EQUAL_FATAL(parse(&inv, yaml), 0);
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a:lab_b"), "sut1 sut2 sut3 sut4");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a,lab_b"), "sut1 sut2 sut3 sut4");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a:&lab_b"), "sut1");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_b:!sut1"), "sut3 sut4");
	/* exclusions come last whatever their place, as in Ansible */
	CU_ASSERT_STRING_EQUAL(sel(&inv, "!sut1:lab_b"), "sut3 sut4");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "!lab_b"), "solo sut2");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "sut[34]"), "ERR: 'sut[34]': regular expressions (~) and subscripts ([0]) are not read: name groups or hosts, or use '*'");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "sut*:!sut2"), "sut1 sut3 sut4");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "sut2"), "sut2");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_c"), "ERR: no group or host 'lab_c' in inv (did you mean 'lab_a'?)");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "sutt1"), "ERR: no group or host 'sutt1' in inv (did you mean 'sut1'?)");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a:!nosuch"), "ERR: no group or host 'nosuch' in inv");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a:&solo"), "ERR: 'lab_a:&solo' selects no host of inv");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a::lab_b"), "ERR: 'lab_a::lab_b': an empty name in the pattern (write a:b, a:!b, a:&b or a,b)");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "lab_a:!"), "ERR: 'lab_a:!': an empty name in the pattern (write a:b, a:!b, a:&b or a,b)");
	CU_ASSERT_STRING_EQUAL(sel(&inv, "~sut.*"), "ERR: '~sut.*': regular expressions (~) and subscripts ([0]) are not read: name groups or hosts, or use '*'");
	wfw_inv_free(&inv);
}

/* text must be refused with a message containing `want`. */
static void refused(const char *text, const char *want)
{
	struct wfw_inventory inv;

	CU_ASSERT_EQUAL(parse(&inv, text), -1);
	CU_ASSERT(tu_contains(why, want));
	CU_ASSERT_PTR_NULL(strchr(why, '\n'));
	wfw_inv_free(&inv);
}

static void test_hostile(void)
{
	static char big[16384];
	struct wfw_inventory inv;
	char *p = big;
	int i;

	refused("[a:children]\nb\n[b:children]\na\n", "contains itself");
	refused("[a:children]\na\n", "inv:1: group 'a' contains itself");
	refused("all:\n  children:\n    a:\n      children:\n        a:\n", "group 'a' contains itself");
	refused("[a:children]\nall\n", "contains itself");
	refused("a: &x\n  hosts:\n    h1:\nb: *x\n", "inv:4: an alias (*name)");
	refused("all:\n  hosts:\n    h1:\n  bogus: 1\n", "inv:4: a group has only 'hosts', 'vars' and 'children'");
	refused("all:\n  hosts: [a, b]\n", "'hosts' is a mapping");
	refused("all:\n  hosts:\n    h1: {ansible_port: 70000}\n", "inv:3: ansible_port: '70000': a port number");
	/* A plain scalar over two lines (found by fuzz_inventory): the error stays one line. */
	refused("all:\n  hosts:\n    h1: { ansible_port: 2201 |\n \n  x }\n",
		"ansible_port: '2201 |?x': a port number");
	refused("all:\n  hosts:\n    h1: {ansible_host: [a]}\n", "takes one value");
	refused("all:\n  hosts:\n    '-oProxyCommand=x':\n", "host '-oProxyCommand=x'");
	refused("[web]\nh1 ansible_host=a@b\n", "inv:2: ansible_host: an address, without user@");
	refused("[web]\nh1 ansible_ssh_common_args='-F /tmp/x'\n", "'-F' is not applied");
	refused("[web]\nh1 junk\n", "inv:2: 'junk': write a host's variables as key=value");
	refused("[web:hosts]\n", "only :vars and :children sections exist");
	refused("[web\n", "a section header ends with ']'");
	refused("[bad group]\n", "group name 'bad group'");
	refused("all:\n  hosts:\n    h[1:99999999]:\n", "more than 4096 hosts");
	CU_ASSERT_EQUAL(wfw_inv_parse(&inv, "inv", "a\0b", 3, why, sizeof(why)), -1);
	CU_ASSERT(tu_contains(why, "inv: a NUL byte"));
	wfw_inv_free(&inv);
	refused("all:\n\tbad\n", "inv:2: not YAML");
	refused("all:\n---\nall:\n", "a second YAML document");
	/* nesting: children in children, deeper than the limit */
	p += sprintf(p, "all:\n");
	for (i = 0; i < WFW_INV_MAX_DEPTH + 2; i++)
		p += sprintf(p, "%*schildren:\n%*sc%d:\n", 4 * i + 2, "",
			     4 * i + 4, "", i);
	refused(big, "groups nested deeper than 32 levels");
	refused("all:\n  vars:\n    x: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
		"nested deeper than 32 levels");
	/* empty inventories are inventories without hosts */
	CU_ASSERT_EQUAL(parse(&inv, ""), 0);
	CU_ASSERT(tu_contains(sel(&inv, "all"), "selects no host"));
	wfw_inv_free(&inv);
	CU_ASSERT_EQUAL(parse(&inv, "---\n"), 0);
	wfw_inv_free(&inv);
}

/*
 * 4096 hosts in two groups, the most there may be: every one kept, in
 * order (fuzz_inventory timed out on such a file, the arrays grown by one
 * element at a time; its input is seed-inventory/slow-4096-hosts.ini).
 */
static void test_many_hosts(void)
{
	struct wfw_inventory inv;
	size_t *v;
	long n;

	CU_ASSERT_EQUAL_FATAL(parse(&inv, "[a]\nh[0001:4096]\n[b]\nh[0001:4096]\n[c:children]\na\nb\n"), 0);
	CU_ASSERT_EQUAL(inv.nh, WFW_INV_MAX_HOSTS);
	CU_ASSERT_STRING_EQUAL(inv.h[0].name, "h0001");
	CU_ASSERT_STRING_EQUAL(inv.h[1024].name, "h1025");
	CU_ASSERT_STRING_EQUAL(inv.h[4095].name, "h4096");
	n = wfw_inv_select(&inv, "a:&b", &v, why, sizeof(why));
	CU_ASSERT_EQUAL(n, WFW_INV_MAX_HOSTS);
	if (n > 0)
		free(v);
	/* By name through the index: each host, none twice in a group. */
	CU_ASSERT_PTR_EQUAL(wfw_inv_find(&inv, "h0001"), &inv.h[0]);
	CU_ASSERT_PTR_EQUAL(wfw_inv_find(&inv, "h4096"), &inv.h[4095]);
	CU_ASSERT_PTR_NULL(wfw_inv_find(&inv, "h4097"));
	CU_ASSERT_PTR_NULL(wfw_inv_find(&inv, "h001"));
	CU_ASSERT_EQUAL(inv.g[wfw_inv_group(&inv, "a", 0, false, why, sizeof(why))].nhosts, 4096);
	CU_ASSERT_EQUAL(wfw_inv_group(&inv, "d", 0, false, why, sizeof(why)), -1);
	wfw_inv_free(&inv);
	CU_ASSERT_EQUAL_FATAL(parse(&inv, "[a]\nh[1:3]\nh2\nh1\n[b]\nh3\n[a:children]\nb\nb\n"), 0);
	CU_ASSERT_EQUAL(inv.nh, 3);
	CU_ASSERT_EQUAL(inv.g[wfw_inv_group(&inv, "a", 0, false, why, sizeof(why))].nhosts, 3);
	CU_ASSERT_EQUAL(inv.g[wfw_inv_group(&inv, "a", 0, false, why, sizeof(why))].nkids, 1);
	CU_ASSERT_PTR_EQUAL(wfw_inv_find(&inv, "h3"), &inv.h[2]);
	wfw_inv_free(&inv);
	refused("[a]\nT[01:031904]\n", "inv:2: more than 4096 hosts");
}

/* Variables that change the connection: refused for the hosts they touch. */
static void test_refused_vars(void)
{
	struct wfw_inventory inv;

	CU_ASSERT_EQUAL_FATAL(parse(&inv, "[web]\nw1\nw2 ansible_connection=ssh\n[db]\nd1 ansible_become=yes\n"
				    "[web:vars]\nansible_become_user=x\n"), 0);
	CU_ASSERT_PTR_NULL(wfw_inv_find(&inv, "w1")->refused);
	CU_ASSERT_PTR_NULL(wfw_inv_find(&inv, "w2")->refused);
	CU_ASSERT(tu_contains(wfw_inv_find(&inv, "d1")->refused,
			      "inv:5: ansible_become (for d1) changes how the SUT is reached"));
	wfw_inv_free(&inv);
	CU_ASSERT_EQUAL_FATAL(parse(&inv, "all:\n  vars:\n    ansible_connection: local\n  hosts:\n    h1:\n"), 0);
	CU_ASSERT(tu_contains(wfw_inv_find(&inv, "h1")->refused, "inv:3: ansible_connection"));
	wfw_inv_free(&inv);
}

static void test_hosts_file(void)
{
	struct wfw_hosts h = { 0 };
	char *dir = tu_tmpdir(), *path, *list;

	path = tu_write(dir, "hosts.txt", "# lab\n\nsut1\n  sut2   # the spare\nsut1\n[::1]\n");
	CU_ASSERT_FATAL(asprintf(&list, "@%s", path) > 0);
	CU_ASSERT_EQUAL(wfw_hosts_parse(&h, list, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL_FATAL(h.n, 3);
	CU_ASSERT_STRING_EQUAL(h.v[0], "sut1");
	CU_ASSERT_STRING_EQUAL(h.v[1], "sut2");
	CU_ASSERT_STRING_EQUAL(h.v[2], "[::1]");
	wfw_hosts_free(&h);
	free(path);
	free(list);
	path = tu_write(dir, "bad.txt", "sut1\nsut2 sut3\n");
	CU_ASSERT_EQUAL(wfw_hosts_read(&h, path, why, sizeof(why)), -1);
	CU_ASSERT(tu_contains(why, "bad.txt:2: "));
	CU_ASSERT(tu_contains(why, "(one host a line)"));
	wfw_hosts_free(&h);
	free(path);
	CU_ASSERT_FATAL(asprintf(&path, "%s/none.txt", dir) > 0);
	CU_ASSERT_EQUAL(wfw_hosts_read(&h, path, why, sizeof(why)), -1);
	CU_ASSERT(tu_contains(why, "none.txt: No such file or directory"));
	free(path);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("inventory", NULL, NULL);
	CU_add_test(s, "INI inventory", test_ini);
	CU_add_test(s, "YAML inventory", test_yaml);
	CU_add_test(s, "host patterns", test_patterns);
	CU_add_test(s, "hostile inventories", test_hostile);
	CU_add_test(s, "4096 hosts", test_many_hosts);
	CU_add_test(s, "variables refused by name", test_refused_vars);
	CU_add_test(s, "-H @FILE", test_hosts_file);
	return tu_run();
}
