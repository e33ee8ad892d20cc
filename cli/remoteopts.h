/* SPDX-License-Identifier: MIT */
/*
 * The options of the commands that reach SUTs over ssh (the run, fetch),
 * as entries of their option tables (cliopts.h), landing in the command's
 * struct wfw_remote_opts (remote/remote.h).
 */
#ifndef WFW_CLI_REMOTEOPTS_H
#define WFW_CLI_REMOTEOPTS_H

#include "cliopts.h"
#include "remote/remote.h"

/* -H LIST into the struct wfw_remote_opts at field. */
enum wfw_cli_next wfw_cli_hosts(void *ro, const char *list);
/* -i FILE: an Ansible inventory, for -H patterns and hosts' ssh options. */
enum wfw_cli_next wfw_cli_inventory(void *ro, const char *path);
/* --complete-hosts: print the groups and hosts of -i's inventory, done. */
enum wfw_cli_next wfw_cli_complete_hosts(void *unused, const char *none);
/* --sut-dir DIR, an absolute path, into the struct wfw_remote_opts. */
enum wfw_cli_next wfw_cli_sut_dir(void *ro, const char *dir);
/*
 * -H or -i reached a command main.c runs on SUTs (scan, deploy) without
 * being seen there: only an abbreviation of --host or --inventory does.
 */
enum wfw_cli_next wfw_cli_on_suts(void *unused, const char *value);

/* The remote options, in the struct wfw_remote_opts at `type`'s `m`. */
#define WFW_CLI_REMOTE(type, m) \
	{ "host", 'H', WFW_CLI_CALL, "HOST[,HOST...]", "run on these SUTs over ssh (overrides 'hosts'): host names, IP addresses, user@host or ssh aliases of letters, digits, '.', '_', '-' (not first); IPv6 as ::1 or [::1]; @FILE: one host a line; with -i a host pattern: all, GROUP, GROUP:!HOST, A:B, A:&B", \
	  .off = offsetof(type, m), .set = wfw_cli_hosts }, \
	{ "inventory", 'i', WFW_CLI_CALL, "FILE", "an Ansible inventory (INI or YAML): -H names its groups and hosts, its ansible_host, _user, _port, _ssh_private_key_file and _ssh_common_args say how to reach them", \
	  .off = offsetof(type, m), .set = wfw_cli_inventory }, \
	{ "complete-hosts", 0, WFW_CLI_CALL, NULL, "the groups and hosts of -i's inventory (bash completion)", \
	  .set = wfw_cli_complete_hosts, .hidden = true }, \
	{ "user", 'U', WFW_CLI_STRING, "USER", "ssh user on the SUTs", \
	  .off = offsetof(type, m.ssh.user) }, \
	{ "key", 'K', WFW_CLI_STRING, "KEYFILE", "ssh private key (ssh -i)", \
	  .off = offsetof(type, m.ssh.key) }, \
	{ "ssh-config", 0, WFW_CLI_STRING, "FILE", "ssh configuration file (ssh -F)", \
	  .off = offsetof(type, m.ssh.config) }, \
	{ "jobs", 0, WFW_CLI_UINT, "N", "at most N SUTs at a time; by default all", \
	  .min = "1", .max = WFW_CLI_TEXT(WFW_REMOTE_JOBS_MAX), .unit = "SUTs", \
	  .off = offsetof(type, m.jobs) }, \
	{ "sut-wultfw", 0, WFW_CLI_STRING, "PATH", "the wultfw command on the SUTs; by default wultfw", \
	  .off = offsetof(type, m.ssh.sut_wultfw) }, \
	{ "sut-dir", 0, WFW_CLI_CALL, "DIR", "where runs live on the SUTs; by default " WFW_SUT_DIR_DEFAULT, \
	  .off = offsetof(type, m), .set = wfw_cli_sut_dir }

/* -H and -i of scan and deploy: `text` says what -H does there. */
#define WFW_CLI_ON_SUTS(text) \
	{ "host", 'H', WFW_CLI_CALL, "HOST[,HOST...]", text " (@FILE, or a pattern of -i's inventory; with -U, -K, --ssh-config, --sut-wultfw as for 'wultfw -H')", \
	  .set = wfw_cli_on_suts }, \
	{ "inventory", 'i', WFW_CLI_CALL, "FILE", "an Ansible inventory (INI or YAML) for -H, as for 'wultfw -i'", \
	  .set = wfw_cli_on_suts }

#endif
