/* SPDX-License-Identifier: MIT */
/*
 * The transport to a SUT: the system's OpenSSH client, one multiplexed
 * master connection per SUT (its socket in a private directory), batch
 * mode so ssh never asks for a password. Every remote argument is quoted
 * by wfw_shq(); nothing the user typed reaches a shell unquoted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "remote.h"

extern char **environ;

int wfw_ssh_opts_init(struct wfw_ssh_opts *o)
{
	/* Socket paths must stay short (108 bytes): /tmp, not $TMPDIR. */
	snprintf(o->ctl_dir, sizeof(o->ctl_dir), "/tmp/wultfw-ssh-XXXXXX");
	if (!mkdtemp(o->ctl_dir))
		return -errno;
	return 0;
}

void wfw_ssh_opts_cleanup(struct wfw_ssh_opts *o)
{
	const char *argv[] = { "rm", "-rf", "--", o->ctl_dir, NULL };

	if (o->ctl_dir[0])
		wfw_spawn_wait(wfw_spawn(argv, -1, -1, -1));
}

const char *wfw_sut_wultfw(const struct wfw_ssh_opts *o)
{
	return o->sut_wultfw ? o->sut_wultfw : "wultfw";
}

const char *wfw_sut_dir(const struct wfw_ssh_opts *o)
{
	return o->sut_dir ? o->sut_dir : WFW_SUT_DIR_DEFAULT;
}

void wfw_sut_init(struct wfw_sut *s, const char *host, int idx,
		  const struct wfw_ssh_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->host = host;
	wfw_host_ssh_dest(host, s->dest, sizeof(s->dest));
	s->o = o;
	snprintf(s->ctl_path, sizeof(s->ctl_path), "%s/%d", o->ctl_dir, idx);
	snprintf(s->ctl_opt, sizeof(s->ctl_opt), "ControlPath=%s", s->ctl_path);
	snprintf(s->err_path, sizeof(s->err_path), "%s/%d.err", o->ctl_dir, idx);
}

/* 'arg' for a POSIX shell: single quotes, each ' as '\''. */
char *wfw_shq(const char *arg)
{
	size_t n = 3;
	const char *p;
	char *q, *r;

	for (p = arg; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = r = malloc(n);
	if (!q)
		abort();
	*r++ = '\'';
	for (p = arg; *p; p++) {
		if (*p == '\'') {
			memcpy(r, "'\\''", 4);
			r += 4;
		} else {
			*r++ = *p;
		}
	}
	*r++ = '\'';
	*r = '\0';
	return q;
}

char *wfw_shq_append(char *cmd, const char *arg)
{
	char *q = wfw_shq(arg), *next;

	if (asprintf(&next, "%s %s", cmd, q) < 0)
		abort();
	free(q);
	free(cmd);
	return next;
}

/* Start argv with the given fds (-1: inherit) in its own process group. */
int wfw_spawn(const char *const *argv, int in_fd, int out_fd, int err_fd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	pid_t pid;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* Ctrl-C on the terminal is the controller's to handle, not ssh's. */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (err_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	ret = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return ret ? -ret : pid;
}

/* Exit status of pid; 128+N when killed by signal N; -1 on error. */
int wfw_spawn_wait(int pid)
{
	int st;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

/* ssh [options] HOST [CMD] in argv (WFW_SSH_ARGV_MAX entries). */
enum ssh_mode { SSH_CMD, SSH_MASTER, SSH_EXIT };

static void ssh_argv(const struct wfw_sut *s, const char **argv,
		     enum ssh_mode mode, const char *cmd)
{
	static const char *const common[] = {
		"-o", "BatchMode=yes", "-o", "ConnectTimeout=20",
		"-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=4",
		"-o", "LogLevel=ERROR",
	};
	size_t n = 0, i;

	argv[n++] = "ssh";
	wfw_hosts_ssh_opts(s->o, s->host, argv, &n);
	if (s->o->config) {
		argv[n++] = "-F";
		argv[n++] = s->o->config;
	}
	if (s->o->user) {
		argv[n++] = "-l";
		argv[n++] = s->o->user;
	}
	if (s->o->key) {
		argv[n++] = "-i";
		argv[n++] = s->o->key;
	}
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		argv[n++] = common[i];
	argv[n++] = "-o";
	argv[n++] = s->ctl_opt;
	argv[n++] = "-o";
	if (mode == SSH_MASTER) {
		/* The master goes to the background once authenticated and
		 * outlives a controller that dies by at most 30 idle seconds. */
		argv[n++] = "ControlMaster=yes";
		argv[n++] = "-o";
		argv[n++] = "ControlPersist=30";
		argv[n++] = "-fN";
	} else {
		argv[n++] = "ControlMaster=no";
	}
	if (mode == SSH_EXIT) {
		argv[n++] = "-O";
		argv[n++] = "exit";
	}
	argv[n++] = "--";
	argv[n++] = s->dest;
	if (cmd)
		argv[n++] = cmd;
	argv[n] = NULL;
}

/* The last line ssh wrote on stderr that says something. */
static void read_err(struct wfw_sut *s)
{
	char line[512];
	FILE *f = fopen(s->err_path, "r");

	s->err[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strstr(line, "IDENTIFICATION HAS CHANGED")) {
			snprintf(s->err, sizeof(s->err), "%s", line);
			break;
		}
		if (line[0] && strncmp(line, "@@@", 3))
			snprintf(s->err, sizeof(s->err), "%s", line);
	}
	fclose(f);
}

int wfw_ssh_spawn(struct wfw_sut *s, const char *cmd, int in_fd, int out_fd,
		  int *pid)
{
	const char *argv[WFW_SSH_ARGV_MAX];
	int err_fd = open(s->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ssh_argv(s, argv, SSH_CMD, cmd);
	*pid = wfw_spawn(argv, in_fd, out_fd, err_fd);
	if (err_fd >= 0)
		close(err_fd);
	return *pid < 0 ? *pid : 0;
}

int wfw_ssh_wait(struct wfw_sut *s, int pid)
{
	int st = wfw_spawn_wait(pid);

	read_err(s);
	return st;
}

int wfw_ssh_run(struct wfw_sut *s, const char *cmd, int in_fd, int out_fd)
{
	int pid;

	if (wfw_ssh_spawn(s, cmd, in_fd, out_fd, &pid))
		return -1;
	return wfw_ssh_wait(s, pid);
}

/* Run cmd, its stdout in *out (NUL-terminated); returns the exit status. */
int wfw_ssh_capture(struct wfw_sut *s, const char *cmd, char **out)
{
	size_t len = 0, cap = 4096;
	int fds[2], pid, st;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf || pipe2(fds, O_CLOEXEC)) {
		free(buf);
		return -1;
	}
	if (wfw_ssh_spawn(s, cmd, -1, fds[1], &pid)) {
		close(fds[0]);
		close(fds[1]);
		free(buf);
		return -1;
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + len, cap - len - 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)r;
		if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
	}
	close(fds[0]);
	buf[len] = '\0';
	st = wfw_spawn_wait(pid);
	read_err(s);
	*out = buf;
	return st;
}

/* What to do about the way ssh failed, for a one-line error. */
static const char *ssh_advice(const char *err)
{
	if (strstr(err, "Permission denied"))
		return "authentication failed: give the key with -K KEYFILE (or load it into ssh-agent), the user with -U USER, and check the SUT's authorized_keys";
	if (strstr(err, "Host key verification failed") ||
	    strstr(err, "IDENTIFICATION HAS CHANGED") ||
	    strstr(err, "host key"))
		return "the SUT's host key is not trusted: check it and add it to known_hosts (connect once with ssh)";
	if (strstr(err, "Could not resolve"))
		return "unknown host: check the name or add it to your ssh config";
	return "check that the SUT is up and 'ssh HOST true' works";
}

int wfw_ssh_connect(struct wfw_sut *s, char *why, size_t len)
{
	const char *argv[WFW_SSH_ARGV_MAX];
	int err_fd, st;

	err_fd = open(s->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssh_argv(s, argv, SSH_MASTER, NULL);
	st = wfw_spawn_wait(wfw_spawn(argv, -1, -1, err_fd));
	if (err_fd >= 0)
		close(err_fd);
	read_err(s);
	if (st == 0) {
		s->connected = true;
		return 0;
	}
	snprintf(why, len, "cannot connect (%s): %s",
		 s->err[0] ? s->err : "ssh failed without a message",
		 ssh_advice(s->err));
	return -1;
}

void wfw_ssh_disconnect(struct wfw_sut *s)
{
	const char *argv[WFW_SSH_ARGV_MAX];
	int null_fd;

	if (!s->connected)
		return;
	ssh_argv(s, argv, SSH_EXIT, NULL);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	wfw_spawn_wait(wfw_spawn(argv, -1, -1, null_fd));
	if (null_fd >= 0)
		close(null_fd);
	s->connected = false;
}

/* Leading number of the first word that starts with a digit. */
static int major_of(const char *text)
{
	const char *p = text;

	while (*p && *p != '\n') {
		if ((p == text || p[-1] == ' ') && *p >= '0' && *p <= '9')
			return atoi(p);
		p++;
	}
	return -1;
}

int wfw_sut_check_version(struct wfw_sut *s, char *why, size_t len)
{
	const char *cmd_name = wfw_sut_wultfw(s->o);
	char *q = wfw_shq(cmd_name), *cmd, *out = NULL;
	int st, major;

	if (asprintf(&cmd, "%s --version", q) < 0)
		abort();
	free(q);
	st = wfw_ssh_capture(s, cmd, &out);
	free(cmd);
	if (st == 126 || st == 127) {
		snprintf(why, len,
			 "no usable '%s' on the SUT (%s): install wultfw %s there, or name it with --sut-wultfw PATH",
			 cmd_name, s->err[0] ? s->err : "not found", PACKAGE_VERSION);
		free(out);
		return -1;
	}
	if (st != 0) {
		snprintf(why, len, "'%s --version' failed on the SUT (exit status %d%s%s)",
			 cmd_name, st, s->err[0] ? ": " : "", s->err);
		free(out);
		return -1;
	}
	major = major_of(out);
	out[strcspn(out, "\n")] = '\0';
	if (major != atoi(PACKAGE_VERSION)) {
		snprintf(why, len,
			 "the SUT has '%s' (%s), this controller %s: install the same major version on both",
			 out, cmd_name, PACKAGE_STRING);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}
