/* SPDX-License-Identifier: MIT */
/*
 * The one shell script a SUT's run is: checked, started and watched in a
 * single ssh session, so a SUT costs one round trip where it cost one per
 * step. It reads the experiment file on its stdin and answers in lines
 * the controller reads as they come (remote_run.c):
 *
 *   X WHAT TEXT   refused before starting: nowfw, verfail, version, busy,
 *                 mkdir, start (nothing runs)
 *   V TEXT        the SUT's `wultfw --version`
 *   S PID         the run started, detached
 *   P N           every half second: N experiments begun
 *   R RC          the run ended with exit status RC (255: lost, no status)
 *   E TEXT        its first "error:" line, when RC is not 0
 *   L             then to the end: RUNDIR/dest, a \001 line, `ls out`
 *
 * Only builtins run in the watching loop but for sleep: it must not
 * disturb the measurement it watches.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"

/* The SUT-side command line of the run itself, run by sh in RUNDIR. */
static char *inner_script(const struct wfw_sut_job *j)
{
	char *w = wfw_shq(wfw_sut_wultfw(j->sut.o)), *only = NULL, *s;

	if (j->ro->only) {
		char *q = wfw_shq(j->ro->only);

		if (asprintf(&only, " --only %s", q) < 0)
			abort();
		free(q);
	}
	if (asprintf(&s, "%s --local%s -o out --no-progress%s%s >log 2>&1 & "
		     "echo $! >pid; wait $!; echo $? >rc.tmp; mv rc.tmp rc",
		     w, j->ro->config_file ? " -c exp.cfg" : "",
		     only ? only : "", j->ro->settings ? j->ro->settings : "") < 0)
		abort();
	free(w);
	free(only);
	return s;
}

/* printf '%s\n' 'NAME<TAB>OUTDIR' ... >dest: where results go back to. */
static char *dest_lines(const struct wfw_sut_job *j)
{
	char *cmd = strdup("printf '%s\\n'"), *line, *next;
	size_t i;

	for (i = 0; i < j->plan->n; i++) {
		if (asprintf(&line, "%s\t%s", j->plan->exps[i].name,
			     j->plan->exps[i].outdir) < 0)
			abort();
		cmd = wfw_shq_append(cmd, line);
		free(line);
	}
	if (asprintf(&next, "%s >dest", cmd) < 0)
		abort();
	free(cmd);
	return next;
}

/* The SUT's wultfw answers and has the controller's major version. */
static const char check_version[] =
	"v=$(\"$W\" --version 2>&1 </dev/null); s=$?; "
	"case $s in 0) ;; 126|127) echo \"X nowfw $(echo \"$v\" | tail -n 1)\"; exit 0;; "
	"*) echo \"X verfail $s $(echo \"$v\" | tail -n 1)\"; exit 0;; esac; "
	"v=$(echo \"$v\" | head -n 1); echo \"V $v\"; m=; "
	"for w in $v; do case $w in [0-9]*) m=${w%%[!0-9]*}; break;; esac; done; "
	"[ \"$m\" = \"$M\" ] || { echo \"X version $v\"; exit 0; }; ";

/* No run of this host still going on: two would disturb each other. */
static const char check_idle[] =
	"(cd \"$T\" 2>/dev/null || exit 0; for d in run-*-\"$H\"; do [ -d \"$d\" ] || continue; "
	"[ -f \"$d/rc\" ] && continue; "
	"kill -0 \"$(cat \"$d/pid\" 2>/dev/null)\" 2>/dev/null && "
	"{ echo \"X busy $PWD/$d\"; exit 3; }; done; exit 0) || exit 0; ";

/* RUNDIR made, the file saved, the run detached (setsid -f: nobody's
 * child here, it survives this session and a killed sshd). */
static const char start[] =
	"e=$(mkdir -p -- \"$D\" 2>&1 && cd \"$D\" && cat >exp.cfg 2>&1 && %s 2>&1) || "
	"{ echo \"X mkdir $e\" | head -n 1; exit 0; }; cd \"$D\" || exit 0; "
	"WULTFW_HOST=%s setsid -f nohup sh -c %s </dev/null >/dev/null 2>&1; "
	"i=0; while [ ! -s pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
	"[ -s pid ] || { echo 'X start no process id'; exit 0; }; echo \"S $(cat pid)\"; ";

/*
 * Progress until rc appears; "lost" when neither rc nor the process is
 * (rc comes a moment after the process ends: waited for up to 5 s).
 */
static const char watch[] =
	"p=$(cat pid); while [ ! -f rc ]; do "
	"if ! kill -0 \"$p\" 2>/dev/null; then i=0; "
	"while [ ! -f rc ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; "
	"[ -f rc ] && break; echo 'R 255'; r=255; break; fi; "
	"set -- out/*; [ -e \"$1\" ] || set --; echo \"P $#\"; sleep 0.5; done; "
	"[ -f rc ] && { r=$(cat rc); echo \"R $r\"; }; "
	"[ \"$r\" = 0 ] || echo \"E $(grep -m1 -e 'error:' log 2>/dev/null)\"; "
	"echo L; cat dest 2>/dev/null; printf '\\001\\n'; ls out 2>/dev/null; true";

char *wfw_run_script(const struct wfw_sut_job *j)
{
	char host_dir[WFW_HOST_MAX + 1], *qw, *qd, *qt, *qh, *qhost, *inner;
	char *qinner, *dest, *s, *st;
	int major = atoi(PACKAGE_VERSION);

	wfw_host_dir(j->sut.host, host_dir, sizeof(host_dir));
	qw = wfw_shq(wfw_sut_wultfw(j->sut.o));
	qd = wfw_shq(j->rundir);
	qt = wfw_shq(wfw_sut_dir(j->sut.o));
	qh = wfw_shq(host_dir);
	qhost = wfw_shq(j->sut.host);
	inner = inner_script(j);
	qinner = wfw_shq(inner);
	dest = dest_lines(j);
	if (asprintf(&st, start, dest, qhost, qinner) < 0 ||
	    asprintf(&s, "W=%s; D=%s; T=%s; H=%s; M=%d; %s%s%s%s",
		     qw, qd, qt, qh, major, check_version, check_idle, st,
		     watch) < 0)
		abort();
	free(st);
	free(dest);
	free(qinner);
	free(inner);
	free(qhost);
	free(qh);
	free(qt);
	free(qd);
	free(qw);
	return s;
}
