/* SPDX-License-Identifier: MIT */
/*
 * What a SUT may be called. The name becomes ssh's destination and a
 * directory name on both sides (OUTDIR/HOST, SUT_DIR/run-...-HOST), so
 * only host names, IP addresses, user@host and ssh aliases made of a
 * plain character set pass: letters, digits, '.', '_' and '-', not first
 * ('-' would be an ssh option, '.' a hidden, current or parent
 * directory); an IPv6 address bare or in brackets, with an optional
 * %zone.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "remote.h"

#define ALLOWED "letters, digits, '.', '_' and '-', not first"

/* The plain characters of host names, aliases, user names and zones. */
static bool plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/* n characters of s: a plain word, not starting with '.' or '-'. */
static bool word(const char *s, size_t n)
{
	size_t i;

	if (!n || s[0] == '.' || s[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!plain(s[i]))
			return false;
	return true;
}

/* n characters of s: an IPv6 address, with an optional %zone. */
static bool ipv6(const char *s, size_t n)
{
	char buf[WFW_HOST_MAX + 1], *zone;
	struct in6_addr a;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	zone = strchr(buf, '%');
	if (zone) {
		if (!word(zone + 1, strlen(zone + 1)))
			return false;
		*zone = '\0';
	}
	return inet_pton(AF_INET6, buf, &a) == 1;
}

/* The first character that no host name has, for the message. */
static void first_bad(const char *s, char *out, size_t len)
{
	for (; *s; s++) {
		if (plain(*s) || *s == '@' || *s == ':' || *s == '[' || *s == ']')
			continue;
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f)
			snprintf(out, len, "a space, control or non-ASCII character");
		else
			snprintf(out, len, "'%c'", *s);
		return;
	}
	snprintf(out, len, "'?'");	/* not reached: word() failed on one */
}

static int refuse(char *why, size_t len, const char *host, const char *what)
{
	snprintf(why, len, "'%s': %s", host, what);
	return -1;
}

int wfw_host_check(const char *host, char *why, size_t len)
{
	const char *at = strchr(host, '@'), *name = at ? at + 1 : host;
	size_t n = strlen(name);
	char bad[64], what[256];

	if (!*host)
		return refuse(why, len, host, "an empty host name");
	if (strlen(host) > WFW_HOST_MAX)
		return refuse(why, len, host, "longer than " WFW_HOST_MAX_TEXT
			      " characters: give the SUT a shorter alias in your ssh configuration");
	if (*host == '-')
		return refuse(why, len, host, "a host name cannot start with '-' (ssh would take it as an option)");
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return refuse(why, len, host, "'.' and '..' are directories, not host names");
	if (strchr(host, '/'))
		return refuse(why, len, host, "a host name cannot contain '/' (it names a directory of results)");
	if (!*name)
		return refuse(why, len, host, "no host after '@'");
	if (*name == '.' || *name == '-')
		return refuse(why, len, host, "a host name cannot start with '.' or '-'");
	if (at && (strchr(name, '@') || !word(host, (size_t)(at - host))))
		return refuse(why, len, host, "the user in USER@HOST is made of " ALLOWED);
	if (name[0] == '[' && n > 2 && name[n - 1] == ']' && ipv6(name + 1, n - 2))
		return 0;
	if (strchr(name, ':') || name[0] == '[') {
		if (ipv6(name, n))
			return 0;
		return refuse(why, len, host, "not an IPv6 address (give it as ::1 or [::1], a zone as fe80::1%eth0)");
	}
	if (word(name, n))
		return 0;
	first_bad(name, bad, sizeof(bad));
	snprintf(what, sizeof(what),
		 "%s cannot be in a host name: a host name, IP address, user@host or ssh alias is made of " ALLOWED,
		 bad);
	return refuse(why, len, host, what);
}

void wfw_host_ssh_dest(const char *host, char *buf, size_t len)
{
	const char *at = strchr(host, '@'), *name = at ? at + 1 : host;
	size_t n = strlen(name), user = (size_t)(name - host);

	/* ssh takes an IPv6 address without brackets ([::1] does not resolve). */
	if (name[0] == '[' && n > 2 && name[n - 1] == ']')
		snprintf(buf, len, "%.*s%.*s", (int)user, host, (int)(n - 2), name + 1);
	else
		snprintf(buf, len, "%s", host);
}
