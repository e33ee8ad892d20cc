/* SPDX-License-Identifier: MIT */
/*
 * Copy finished result directories from the SUT (RUNDIR/out/NAME) to the
 * controller (DEST/NAME): `ssh HOST tar c` saved into a private temporary
 * directory, checked member by member and unpacked there (remote_untar.c:
 * nothing a hostile SUT sends lands outside it), then renamed into place
 * only when the whole copy succeeded, so a full disk leaves no half result
 * behind, and the SUT keeps its copy until the caller removes it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sysstate/sysfile.h>

#include "remote.h"
#include "resultdir.h"

/* "cd RUNDIR/out && tar cf - -- 'a' 'b'" */
static char *tar_cmd(const char *rundir, char **names, size_t n)
{
	char *out_dir, *q, *cmd;
	size_t i;

	if (asprintf(&out_dir, "%s/out", rundir) < 0)
		abort();
	q = wfw_shq(out_dir);
	free(out_dir);
	if (asprintf(&cmd, "cd %s && tar cf - --", q) < 0)
		abort();
	free(q);
	for (i = 0; i < n; i++)
		cmd = wfw_shq_append(cmd, names[i]);
	return cmd;
}

/*
 * tar reports a full disk as a short write ("Wrote only N of M bytes"), so
 * ask the file system itself: less than 64 KiB left counts as full.
 */
static bool nearly_full(const char *dir)
{
	struct statvfs sv;

	return !statvfs(dir, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < 65536;
}

/* Everything from `from` into `to`: 0, or -errno of the first failure. */
static int drain(int from, int to)
{
	char buf[65536];
	ssize_t r, w;

	while ((r = read(from, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		for (char *p = buf; r > 0; p += w, r -= w) {
			w = write(to, p, (size_t)r);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				return -errno;
		}
	}
	return 0;
}

/*
 * ssh HOST 'tar c' into the file archive (a write that fails stops the
 * copy, and ssh with it: its pipe closes); 0 or fills why.
 */
static int save_archive(struct wfw_sut *s, const char *cmd,
			const char *archive, const char *dest, char *why,
			size_t len)
{
	char ssh_err[512];
	int fds[2], fd, pid = -1, st, ret;

	fd = open(archive, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || pipe2(fds, O_CLOEXEC)) {
		snprintf(why, len, "cannot copy results back: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	wfw_ssh_spawn(s, cmd, -1, fds[1], &pid);
	close(fds[1]);
	ret = drain(fds[0], fd);
	close(fds[0]);
	st = wfw_spawn_wait(pid);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		snprintf(why, len, "copying the results into %s failed: %s", dest,
			 strerror(-ret));
		return -1;
	}
	if (st != 0) {
		wfw_read_text_line(s->err_path, ssh_err, sizeof(ssh_err));
		snprintf(why, len, "copying the results from the SUT failed (%s)",
			 ssh_err[0] ? ssh_err : "ssh or tar failed on the SUT");
		return -1;
	}
	return 0;
}

/*
 * The SUT's archive of names[] saved in tmp, checked and unpacked there
 * (remote_untar.c); 0 or fills why.
 */
static int copy_to(struct wfw_sut *s, const char *cmd, const char *tmp,
		   const char *dest, char **names, size_t n, char *why,
		   size_t len)
{
	char archive[4200], err_path[160], reason[1536];

	/* Not a result's name: those never start with '.'. */
	snprintf(archive, sizeof(archive), "%s/.sut.tar", tmp);
	snprintf(err_path, sizeof(err_path), "%s.tar", s->err_path);
	if (save_archive(s, cmd, archive, dest, why, len))
		return -1;
	if (!wfw_untar(archive, tmp, names, n, err_path, reason, sizeof(reason)))
		return 0;
	snprintf(why, len, "%s%s", reason,
		 nearly_full(dest) && !strstr(reason, "No space left") ?
		 ": No space left on device" : "");
	return -1;
}

/* tmp/NAME -> dest/NAME for every name, replacing old ones with force. */
static int move_into_place(const char *tmp, const char *dest, char **names,
			   size_t n, bool force, char *why, size_t len)
{
	char from[4096], to[4096];
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s", tmp, names[i]);
		snprintf(to, sizeof(to), "%s/%s", dest, names[i]);
		if (!stat(to, &st)) {
			if (!force) {
				snprintf(why, len, "%s exists already: move it away or use --force", to);
				return -1;
			}
			wfw_remove_tree(to);
		}
		if (rename(from, to)) {
			snprintf(why, len, "cannot move %s to %s: %s", from, to,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

int wfw_remote_fetch(struct wfw_sut *s, const char *rundir,
		     const char *dest, char **names, size_t n, bool force,
		     char *why, size_t len)
{
	char tmp[4096], reason[2048];
	char *cmd;
	int ret;

	if (!n)
		return 0;
	ret = wfw_mkdir_p(dest);
	snprintf(tmp, sizeof(tmp), "%s/.fetch-XXXXXX", dest);
	if (ret || !mkdtemp(tmp)) {
		snprintf(reason, sizeof(reason), "cannot create %s: %s", dest,
			 strerror(ret ? -ret : errno));
		ret = -1;
	} else {
		cmd = tar_cmd(rundir, names, n);
		ret = copy_to(s, cmd, tmp, dest, names, n, reason,
			      sizeof(reason));
		free(cmd);
		if (!ret)
			ret = move_into_place(tmp, dest, names, n, force, reason,
					      sizeof(reason));
		/* What did not arrive whole is not kept: the SUT has it. */
		wfw_remove_tree(tmp);
	}
	if (ret)
		snprintf(why, len,
			 "%s; the SUT keeps them in %s: fix that, then run 'wultfw fetch -H %s'",
			 reason, rundir, s->host);
	return ret;
}

void wfw_host_dir(const char *host, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%s", host);
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = '_';
}

/* Is name in the list (an empty list holds every name)? */
static bool wanted(const char *name, char **only, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(only[i], name))
			return true;
	return !n;
}

/* The controller's outdir recorded for name in RUNDIR/dest ("NAME\tDIR"). */
static const char *recorded_outdir(char *dest, const char *name)
{
	size_t nl = strlen(name);
	char *line;

	for (line = dest; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncmp(line, name, nl) && line[nl] == '\t')
			return line + nl + 1;
	return ".";
}

/*
 * A result name as the SUT lists it: what an experiment name can be
 * (letters, digits and . _ - +), or it would lead out of OUTDIR/HOST.
 */
static bool result_name(const char *name)
{
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-+", *p)))
			return false;
	return true;
}

/* name for a message: anything but printable ASCII as '?'. */
static void printable(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] > ' ' && name[i] < 0x7f ? name[i] : '?';
	buf[i] = '\0';
}

/* Remove what arrived from the SUT, and the whole run when nothing is left. */
static void remove_on_sut(struct wfw_sut *s, const char *rundir, char **names,
			  size_t n)
{
	char *qdir = wfw_shq(rundir), *cmd, *next;
	size_t i;

	if (asprintf(&cmd, "cd %s && { [ ! -d out ] || (cd out && rm -rf --", qdir) < 0)
		abort();
	for (i = 0; i < n; i++)
		cmd = wfw_shq_append(cmd, names[i]);
	if (asprintf(&next, "%s); } && { rmdir out 2>/dev/null; [ ! -d out ]; } && cd / && rm -rf -- %s",
		     cmd, qdir) < 0)
		abort();
	wfw_ssh_run(s, next, -1, -1);
	free(next);
	free(cmd);
	free(qdir);
}

/* Split a listing ("dest" file, "\001" line, out's entries) in two. */
static int split_listing(char *text, char **names)
{
	*names = strchr(text, '\001');
	if (!*names)
		return -1;
	*(*names)++ = '\0';
	return 0;
}

/* What RUNDIR holds on the SUT, as a listing; NULL with why. */
static char *list_results(struct wfw_sut *s, const char *rundir, char *why,
			  size_t len)
{
	char *q = wfw_shq(rundir), *cmd, *text = NULL;
	int ret;

	if (asprintf(&cmd, "cd %s && cat dest 2>/dev/null; echo '\001'; ls out 2>/dev/null; true", q) < 0)
		abort();
	free(q);
	ret = wfw_ssh_capture(s, cmd, &text);
	free(cmd);
	if (ret) {
		snprintf(why, len, "cannot list the results on the SUT (%s)", s->err);
		free(text);
		return NULL;
	}
	return text;
}

/* OUTDIR/HOST: --outdir, or the controller's outdir recorded for name. */
static void local_dest(char *dest, size_t size, const char *outdir,
		       char *recorded, const char *name, const char *host_dir)
{
	/* recorded_outdir() returns the rest of the line */
	const char *dir = outdir ? outdir : recorded_outdir(recorded, name);

	snprintf(dest, size, "%.*s/%s", (int)strcspn(dir, "\n"), dir, host_dir);
}

#define MAX_RESULTS 256

/* The results to fetch: checked names, each with its destination. */
struct wanted_set {
	char *name[MAX_RESULTS];
	char dest[MAX_RESULTS][1024];
	bool done[MAX_RESULTS];
	size_t n;
};

static int pick(struct wanted_set *w, struct wfw_sut *s, const char *rundir,
		const char *outdir, char *text, char *names, char **only,
		size_t nonly, char *why, size_t len)
{
	char host_dir[256], *name, *save;

	wfw_host_dir(s->host, host_dir, sizeof(host_dir));
	for (name = strtok_r(names, "\n", &save); name;
	     name = strtok_r(NULL, "\n", &save)) {
		if (name[0] == '.' || !wanted(name, only, nonly) ||
		    w->n == MAX_RESULTS)
			continue;
		if (!result_name(name)) {
			char shown[256];

			printable(name, shown, sizeof(shown));
			snprintf(why, len,
				 "the SUT lists a result named '%s' in %s/out, which no experiment can be called (letters, digits and . _ - +): refusing to fetch it",
				 shown, rundir);
			return -1;
		}
		local_dest(w->dest[w->n], sizeof(w->dest[0]), outdir, text,
			   name, host_dir);
		w->name[w->n++] = name;
	}
	return 0;
}

/* Every result of one destination in one archive; the list said what came. */
static int fetch_group(struct wanted_set *w, size_t first, struct wfw_sut *s,
		       const char *rundir, bool force, char *got,
		       size_t gotlen, size_t *used, char *why, size_t len)
{
	char *names[MAX_RESULTS];
	size_t i, k = 0;

	for (i = first; i < w->n; i++)
		if (!strcmp(w->dest[i], w->dest[first]))
			names[k++] = w->name[i];
	if (wfw_remote_fetch(s, rundir, w->dest[first], names, k, force, why, len))
		return -1;
	for (i = first; i < w->n; i++) {
		if (strcmp(w->dest[i], w->dest[first]))
			continue;
		w->done[i] = true;
		*used += (size_t)snprintf(got + *used, *used < gotlen ? gotlen - *used : 0,
					  "%s%s/%s", *used ? ", " : "", w->dest[i], w->name[i]);
	}
	return 0;
}

int wfw_remote_collect_listed(struct wfw_sut *s, const char *rundir,
			      const char *outdir, char *listing, char **only,
			      size_t nonly, bool force, char *got,
			      size_t gotlen, char *why, size_t len)
{
	struct wanted_set *w = calloc(1, sizeof(*w));
	char *names, *done[MAX_RESULTS];
	size_t i, ndone = 0, used = 0;
	int ret = 0;

	if (!w)
		abort();
	got[0] = '\0';
	if (!listing || split_listing(listing, &names)) {
		snprintf(why, len, "unexpected answer from the SUT");
		free(w);
		return -1;
	}
	ret = pick(w, s, rundir, outdir, listing, names, only, nonly, why, len);
	for (i = 0; i < w->n && !ret; i++)
		if (!w->done[i])
			ret = fetch_group(w, i, s, rundir, force, got, gotlen,
					  &used, why, len);
	for (i = 0; i < w->n; i++)
		if (w->done[i])
			done[ndone++] = w->name[i];
	if (!ret && (ndone || !nonly))
		remove_on_sut(s, rundir, done, ndone);
	free(w);
	return ret;
}

int wfw_remote_collect(struct wfw_sut *s, const char *rundir,
		       const char *outdir, char **only, size_t nonly,
		       bool force, char *got, size_t gotlen, char *why,
		       size_t len)
{
	char *text = list_results(s, rundir, why, len);
	int ret;

	if (!text)
		return -1;
	ret = wfw_remote_collect_listed(s, rundir, outdir, text, only, nonly,
					force, got, gotlen, why, len);
	free(text);
	return ret;
}

/* One line per run: "done|running|lost RUNDIR". */
char *wfw_remote_list_runs(struct wfw_sut *s, int *st)
{
	char *q = wfw_shq(wfw_sut_dir(s->o)), *cmd, *out = NULL, host_dir[256];
	char *qhost;

	wfw_host_dir(s->host, host_dir, sizeof(host_dir));
	qhost = wfw_shq(host_dir);
	if (asprintf(&cmd,
		     "cd %s 2>/dev/null || exit 0; for d in run-*-%s; do [ -d \"$d\" ] || continue; "
		     "if [ -f \"$d/rc\" ]; then s=done; elif kill -0 \"$(cat \"$d/pid\" 2>/dev/null)\" 2>/dev/null; then s=running; else s=lost; fi; "
		     "echo \"$s $PWD/$d $(ls \"$d/out\" 2>/dev/null | tr '\\n' ' ')\"; done", q, qhost) < 0)
		abort();
	*st = wfw_ssh_capture(s, cmd, &out);
	free(qhost);
	free(cmd);
	free(q);
	return out;
}
