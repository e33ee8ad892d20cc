/* SPDX-License-Identifier: MIT */
/*
 * Remote SUTs over OpenSSH. The controller validates the experiment file,
 * then for every SUT: one multiplexed ssh connection (remote_ssh.c), a
 * detached run on the SUT under SUT_DIR/RUN-ID/ (remote_run.c), and the
 * results copied back to OUTDIR/HOST/NAME/ (remote_fetch.c).
 */
#ifndef WFW_REMOTE_H
#define WFW_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define WFW_SUT_DIR_DEFAULT "/var/tmp/wultfw-sut"

struct wfw_inventory;

/* How to reach SUTs: what the user gave on the command line. */
struct wfw_ssh_opts {
	const char *user;		/* -U */
	const char *key;		/* -K */
	const char *config;		/* --ssh-config (ssh -F) */
	const char *sut_wultfw;		/* --sut-wultfw; NULL: "wultfw" */
	const char *sut_dir;		/* --sut-dir; NULL: WFW_SUT_DIR_DEFAULT */
	char ctl_dir[64];		/* private directory for control sockets */
	const struct wfw_inventory *inv;	/* -i: hosts' own ssh options */
};

/* Room for one ssh command line: ours and an inventory host's options. */
#define WFW_SSH_ARGV_MAX 64

/* A SUT's name, as -H or hosts = [...] give it: at most this long. */
#define WFW_HOST_MAX 128
#define WFW_HOST_MAX_TEXT "128"

/* One SUT's connection. */
struct wfw_sut {
	const char *host;		/* as the user wrote it */
	char dest[WFW_HOST_MAX + 1];	/* ssh's destination: wfw_host_ssh_dest() */
	const struct wfw_ssh_opts *o;
	char ctl_path[128];
	char ctl_opt[160];		/* "ControlPath=..." for ssh -o */
	char err_path[128];		/* ssh's stderr of the last command */
	char err[512];			/* its last meaningful line */
	bool connected;
};

/* remote_ssh.c: the transport */
int wfw_ssh_opts_init(struct wfw_ssh_opts *o);
void wfw_ssh_opts_cleanup(struct wfw_ssh_opts *o);
void wfw_sut_init(struct wfw_sut *s, const char *host, int idx,
		  const struct wfw_ssh_opts *o);
char *wfw_shq(const char *arg);
/* cmd + " " + wfw_shq(arg); frees cmd, returns the new string. */
char *wfw_shq_append(char *cmd, const char *arg);
int wfw_ssh_connect(struct wfw_sut *s, char *why, size_t len);
void wfw_ssh_disconnect(struct wfw_sut *s);
int wfw_ssh_run(struct wfw_sut *s, const char *cmd, int in_fd, int out_fd);
int wfw_ssh_capture(struct wfw_sut *s, const char *cmd, char **out);
int wfw_ssh_spawn(struct wfw_sut *s, const char *cmd, int in_fd, int out_fd,
		  int *pid);
/* Exit status of an ssh from wfw_ssh_spawn(); s->err its last message. */
int wfw_ssh_wait(struct wfw_sut *s, int pid);
int wfw_spawn_wait(int pid);
int wfw_spawn(const char *const *argv, int in_fd, int out_fd, int err_fd);
const char *wfw_sut_wultfw(const struct wfw_ssh_opts *o);
const char *wfw_sut_dir(const struct wfw_ssh_opts *o);
int wfw_sut_check_version(struct wfw_sut *s, char *why, size_t len);

/* remote_untar.c */
/*
 * Unpack archive (from the SUT) into the private directory dir, after
 * tar's own listing of it showed only plain files and directories inside
 * names[], without '..' or set-id bits (else nothing is unpacked and why
 * names the member); files end 0644 and directories 0755, owned by this
 * user. err_path takes tar's messages. 0, or -1 with why.
 */
int wfw_untar(const char *archive, const char *dir, char **names, size_t n,
	      const char *err_path, char *why, size_t len);
/* One line of `tar -tvP --quoting-style=c`: 0, or -1 with why naming it. */
int wfw_untar_check_line(const char *line, char **names, size_t n,
			 char *why, size_t len);

/* remote_fetch.c: copy finished results back */
int wfw_remote_fetch(struct wfw_sut *s, const char *rundir,
		     const char *dest_root, char **names, size_t n,
		     bool force, char *why, size_t len);

/*
 * Bring back a finished run's results (RUNDIR/out/NAME for every NAME, or
 * only those in `only`) to OUTDIR/HOST_DIR/NAME, OUTDIR as recorded at the
 * start (RUNDIR/dest) unless `outdir` is given; then remove them on the
 * SUT. `got` lists what arrived. Returns 0, or -1 with why.
 */
int wfw_remote_collect(struct wfw_sut *s, const char *rundir,
		       const char *outdir, char **only, size_t nonly,
		       bool force, char *got, size_t gotlen, char *why,
		       size_t len);
/*
 * The same for a run whose listing is known already: RUNDIR/dest, a line
 * "\001", then out/'s entries one a line (modified in place). Results
 * going to one directory come in one archive.
 */
int wfw_remote_collect_listed(struct wfw_sut *s, const char *rundir,
			      const char *outdir, char *listing, char **only,
			      size_t nonly, bool force, char *got,
			      size_t gotlen, char *why, size_t len);
/*
 * This host's runs on the SUT, one line each: "done|running|lost RUNDIR
 * NAME NAME...", lost meaning no exit status and no process. *st is ssh's
 * exit status.
 */
char *wfw_remote_list_runs(struct wfw_sut *s, int *st);
/* The host as a directory name: '/' would make it a path. */
void wfw_host_dir(const char *host, char *buf, size_t len);

/* remote_hostname.c */
/*
 * 0 when host is a host name, IP address (IPv6 bare or in brackets),
 * user@host or ssh alias of the allowed characters (letters, digits, '.',
 * '_', '-', not first); else -1 and why: "'HOST': what is wrong".
 */
int wfw_host_check(const char *host, char *why, size_t len);
/* host as ssh takes it: an IPv6 address without its brackets. */
void wfw_host_ssh_dest(const char *host, char *buf, size_t len);

/* Hosts from -H "a,b,c", -H @FILE, -i with -H PATTERN or the file's hosts. */
struct wfw_hosts {
	char **v;
	size_t n;
};

int wfw_hosts_parse(struct wfw_hosts *h, const char *list, char *why,
		    size_t len);
/* Add host unless h has it. */
void wfw_hosts_add(struct wfw_hosts *h, const char *host);
/* remote_hostfile.c: one host a line of path ('#' comments, blank lines): 0 or -1 with why. */
int wfw_hosts_read(struct wfw_hosts *h, const char *path, char *why,
		   size_t len);
/* The groups and hosts of -i's inventory, one a line on stdout (if any). */
void wfw_hosts_print_inventory(void);
/*
 * An inventory host's ssh options (-o KEY=VALUE from ansible_host, _user,
 * _port, _ssh_private_key_file, _ssh_common_args) into argv at *n, first,
 * so they win over -U and -K as Ansible's variables win over its -u.
 */
void wfw_hosts_ssh_opts(const struct wfw_ssh_opts *o, const char *host,
			const char **argv, size_t *n);
int wfw_hosts_from_plan(struct wfw_hosts *h, struct wfw_plan *plan,
			const char **sut_wultfw, struct wfw_cfgerr *errs);
void wfw_hosts_free(struct wfw_hosts *h);

/* What `wultfw -H` was told, beyond the ssh options. */
struct wfw_remote_opts {
	struct wfw_ssh_opts ssh;
	struct wfw_hosts hosts;
	const char *host_arg;		/* -H as given: resolved again after -i */
	char host_err[256];		/* -H needed an inventory that has not come */
	const char *config_file;	/* NULL: the SUT's embedded default */
	const char *only;
	const char *settings;		/* " --cpu '3' ...": wfw_overrides_args() */
	unsigned jobs;			/* 0: all at once */
	char run_id[64];		/* names SUT_DIR/RUN_ID on every SUT */
	bool force, progress;
	bool check;			/* validate only: contact no SUT */
};

/* The remote options' codes for wfw_remote_getopt() (besides 'H', 'U', 'K'). */
enum { WFW_OPT_SSH_CONFIG = 400, WFW_OPT_JOBS, WFW_OPT_SUT_WULTFW,
       WFW_OPT_SUT_DIR, WFW_OPT_INVENTORY };
/* --jobs: at most this many SUTs at a time. */
#define WFW_REMOTE_JOBS_MAX 4096

/*
 * Handle one remote option (-H, -U, -K or a code above) of `wultfw -H`,
 * fetch (cli/remoteopts.h) or scan/deploy -H (remote_passthru.c): 1 if it
 * was one, 0 if not, -1 (message printed) if its value is bad.
 */
int wfw_remote_getopt(struct wfw_remote_opts *ro, int c, const char *arg);

/*
 * After the plan loaded: hosts from -H, else the file's hosts. Returns 1
 * when the run is remote, 0 when local, -1 with errs filled.
 */
int wfw_remote_setup(struct wfw_remote_opts *ro, struct wfw_plan *plan,
		     struct wfw_cfgerr *errs);

/* remote_passthru.c: `wultfw scan|deploy -H HOST ...` on each SUT */
/* " --cpu '3' --ldist '50us,4ms' ..." for a SUT's command line, or "". */
char *wfw_overrides_args(const struct wfw_plan_overrides *ov);
bool wfw_wants_remote(int argc, char **argv);
int wfw_remote_passthru(const char *cmd, int argc, char **argv);

/* remote_ctl.c: run the plan on every SUT; returns the exit status */
int wfw_remote_main(struct wfw_plan *plan, struct wfw_remote_opts *ro);

/* remote_run.c: one SUT's lifecycle */
enum wfw_sut_state { SUT_WAITING, SUT_CONNECTING, SUT_RUNNING, SUT_STOPPING,
		     SUT_FETCHING, SUT_DONE, SUT_FAILED, SUT_INTERRUPTED,
		     SUT_DETACHED, SUT_EMPTY /* ran, measured no datapoint */,
		     SUT_STOPPED /* ended at its stop_above, results kept */ };

struct wfw_sut_job {
	struct wfw_sut sut;
	const struct wfw_remote_opts *ro;
	struct wfw_plan *plan;
	enum wfw_sut_state state;
	char rundir[256];		/* on the SUT */
	char status[256];		/* the progress line's text */
	char reason[1024];		/* why it failed, or where results went */
	size_t started;			/* experiments begun on the SUT */
	long t0;
	char where[1024];		/* the results here, ", " between */
	unsigned long long datapoints;	/* summed over their info.yml */
	bool counted;			/* every info.yml said how many */
};

void wfw_sut_job_run(struct wfw_sut_job *j);
/* remote_script.c: the SUT side of a run's one session. */
char *wfw_run_script(const struct wfw_sut_job *j);
/* Serialises job updates against the progress display (remote_ctl.c). */
void wfw_remote_lock(void);
void wfw_remote_unlock(void);

#endif
