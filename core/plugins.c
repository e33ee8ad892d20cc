/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "plugins.h"
#include "buildtree.h"
#include "plugintrust.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <ltdl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Directories searched: WULTFW_PLUGIN_PATH's, a build tree's, PLUGINDIR. */
#define MAX_DIRS 32

#ifndef PLUGINDIR
#define PLUGINDIR "/usr/local/lib/wultfw"
#endif

#define MAX_PRELOADED 64

/* Plugins linked into a static binary, opened once at init. */
static struct {
	char name[64];
	lt_dlhandle dl;
} preloaded[MAX_PRELOADED];
static int npreloaded;

const char *wfw_kind_name(int kind)
{
	switch (kind) {
	case WULTFW_KIND_SOURCE:
		return "source";
	case WULTFW_KIND_SINK:
		return "sink";
	case WULTFW_KIND_ANNOTATOR:
		return "annotator";
	default:
		return "unknown kind";
	}
}

static int remember_preloaded(lt_dlhandle dl)
{
	const lt_dlinfo *info = lt_dlgetinfo(dl);

	if (!info || !info->name || npreloaded == MAX_PRELOADED)
		return 0;
	snprintf(preloaded[npreloaded].name, sizeof(preloaded[0].name), "%s",
		 info->name);
	preloaded[npreloaded].dl = dl;
	npreloaded++;
	return 0;
}

int wfw_plugins_init(void)
{
	if (lt_dlinit())
		return -ENOMEM;
	/* Returns an error when nothing was preloaded: a shared build. */
	lt_dlpreload_open("@PROGRAM@", remember_preloaded);
	return 0;
}

void wfw_plugins_exit(void)
{
	npreloaded = 0;
	lt_dlexit();
}

/* The search path as a list of directories, in order. */
static size_t search_dirs(char dirs[][PATH_MAX], size_t max)
{
	const char *env = getenv("WULTFW_PLUGIN_PATH");
	size_t n = 0;

	while (env && *env && n < max) {
		size_t len = strcspn(env, ":");

		if (len && len < PATH_MAX) {
			memcpy(dirs[n], env, len);
			dirs[n][len] = '\0';
			n++;
		}
		env += len;
		if (*env == ':')
			env++;
	}
	/* ./wultfw in its build tree: the plugins built with it, first. */
	if (!env)
		n += wfw_build_tree_dirs(dirs + n, max - n);
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%s", PLUGINDIR);
	return n;
}

static bool valid_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > 63)
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return false;
	return true;
}

static size_t value_size(enum wultfw_opt_type type)
{
	switch (type) {
	case WULTFW_OPT_BOOL:
		return sizeof(bool);
	case WULTFW_OPT_STRING_LIST:
		return sizeof(struct wultfw_strs);
	case WULTFW_OPT_FLOAT_LIST:
		return sizeof(struct wultfw_floats);
	default:
		return 8;	/* int64_t, double, pointer, uint64_t */
	}
}

/* A known kind, with every operation that kind needs. */
static bool has_all_ops(const struct wultfw_plugin *d)
{
	const struct wultfw_source_ops *so = d->source;
	const struct wultfw_sink_ops *si = d->sink;
	const struct wultfw_annotator_ops *an = d->annotator;

	if (d->kind == WULTFW_KIND_SOURCE)
		return so && so->open && so->start && so->read && so->stop &&
		       so->close;
	if (d->kind == WULTFW_KIND_SINK)
		return si && si->open && si->write && si->flush && si->close;
	if (d->kind == WULTFW_KIND_ANNOTATOR)
		return an && an->open && an->start && an->annotate && an->stop &&
		       an->close;
	return false;
}

/* A field of `size` bytes at table offset `at` fits inside cfg_size. */
static bool fits(size_t at, size_t size, size_t cfg_size)
{
	return at <= cfg_size && size <= cfg_size - at;
}

/* Every option's fields inside cfg_size; a sane ldist declaration. */
static bool options_fit(const struct wultfw_plugin *d)
{
	const struct wultfw_option *o;

	if (d->ldist.use > WULTFW_LDIST_DELAY ||
	    (d->ldist.max_ns && d->ldist.min_ns > d->ldist.max_ns))
		return false;
	for (o = d->options; o && o->name; o++) {
		if (d->cfg_size && !fits(o->off, value_size(o->type), d->cfg_size))
			return false;
		if (o->set_off && !fits(o->set_off - 1, sizeof(bool), d->cfg_size))
			return false;
	}
	return true;
}

/* Bytes past what this wultfw knows, all zero: nothing it would miss. */
static bool tail_is_zero(const struct wultfw_plugin *d)
{
	const unsigned char *p = (const unsigned char *)d;

	for (size_t i = sizeof(*d); i < d->size; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * The major version, then the size: a descriptor too small for ABI 3, or
 * one built against newer headers that sets what this wultfw lacks, is
 * refused in one line naming the file and the versions.
 */
static int check_version(const char *name, const struct wultfw_plugin *d,
			 const char *file, char *err, size_t errlen)
{
	unsigned int want = WULTFW_PLUGIN_ABI_VERSION;

	if (d->abi_version != want) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) has plugin ABI version %u but this wultfw needs %u: %s",
			 name, file, d->abi_version, want,
			 d->abi_version < want ?
			 "rebuild it against this wultfw's plugin.h (wultfw-plugin(7): moving a plugin to ABI 3)" :
			 "it was built for a newer wultfw; upgrade wultfw, or build the plugin against this one's plugin.h");
		return -ENOEXEC;
	}
	if (d->size < WULTFW_PLUGIN_SIZE_VER0) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) has a %u-byte descriptor, less than ABI %u's smallest (%zu bytes): set .size = sizeof(struct wultfw_plugin) and rebuild it",
			 name, file, d->size, want, (size_t)WULTFW_PLUGIN_SIZE_VER0);
		return -ENOEXEC;
	}
	if (d->size > sizeof(*d) && !tail_is_zero(d)) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) was built against newer ABI %u headers (a %u-byte descriptor, this wultfw knows %zu bytes) and uses what this wultfw lacks: upgrade wultfw, or rebuild the plugin against this one's plugin.h",
			 name, file, want, d->size, sizeof(*d));
		return -ENOEXEC;
	}
	return 0;
}

/*
 * The core's copy of a descriptor: as big as both sides know, zero past
 * the plugin's size, so a field a plugin was built without reads as 0.
 */
static struct wultfw_plugin *copy_descriptor(const struct wultfw_plugin *d)
{
	size_t len = d->size > sizeof(*d) ? d->size : sizeof(*d);
	struct wultfw_plugin *c = calloc(1, len);

	if (c)
		memcpy(c, d, d->size);
	return c;
}

/* "a" or "an" before a kind's name. */
static const char *article(const char *word)
{
	return strchr("aeiou", word[0]) ? "an" : "a";
}

static int check_descriptor(const char *name, int want_kind,
			    struct wfw_plugin_handle *h, char *err,
			    size_t errlen)
{
	const struct wultfw_plugin *sym;
	struct wultfw_plugin *d;
	int ret;

	sym = lt_dlsym((lt_dlhandle)h->dl, WULTFW_PLUGIN_SYMBOL);
	if (!sym) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) has no descriptor: it does not export %s_LTX_%s, so it is not a wultfw plugin",
			 name, h->file, name, WULTFW_PLUGIN_SYMBOL);
		return -ENOEXEC;
	}
	ret = check_version(name, sym, h->file, err, errlen);
	if (ret)
		return ret;
	d = copy_descriptor(sym);
	if (!d) {
		snprintf(err, errlen, "plugin '%s' (%s): out of memory", name, h->file);
		return -ENOMEM;
	}
	h->desc = d;
	if (!options_fit(d)) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) is broken: an option lands outside its %zu-byte config struct, or its ldist declaration is invalid",
			 name, h->file, d->cfg_size);
		return -ENOEXEC;
	}
	if (!d->name || strcmp(d->name, name)) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) calls itself '%s': the file name and the descriptor's name must match",
			 name, h->file, d->name ? d->name : "(null)");
		return -ENOEXEC;
	}
	if (!has_all_ops(d)) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) is broken: kind %u without all the operations that kind needs",
			 name, h->file, d->kind);
		return -ENOEXEC;
	}
	if (want_kind && (int)d->kind != want_kind) {
		snprintf(err, errlen,
			 "plugin '%s' (%s) is %s %s, but %s %s is expected here",
			 name, h->file, article(wfw_kind_name((int)d->kind)),
			 wfw_kind_name((int)d->kind), article(wfw_kind_name(want_kind)),
			 wfw_kind_name(want_kind));
		return -EINVAL;
	}
	return 0;
}

int wfw_plugin_load(const char *name, int want_kind,
		    struct wfw_plugin_handle *h, char *err, size_t errlen)
{
	char dirs[MAX_DIRS][PATH_MAX];
	size_t ndirs, i;
	int ret;

	memset(h, 0, sizeof(*h));
	if (!valid_name(name)) {
		snprintf(err, errlen,
			 "'%s' is not a plugin name (lower-case letters, digits and '_')",
			 name);
		return -EINVAL;
	}
	for (i = 0; i < (size_t)npreloaded; i++) {
		if (!strcmp(preloaded[i].name, name)) {
			h->dl = preloaded[i].dl;
			snprintf(h->file, sizeof(h->file), "(built in)");
			ret = check_descriptor(name, want_kind, h, err, errlen);
			if (ret)
				wfw_plugin_unload(h);
			return ret;
		}
	}
	ndirs = search_dirs(dirs, MAX_DIRS);
	for (i = 0; i < ndirs; i++) {
		/* Vetted before it is opened: opening runs its constructors. */
		ret = wfw_plugin_locate(dirs[i], name, h->file, sizeof(h->file),
					err, errlen);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		h->dl = lt_dlopen(h->file);
		if (!h->dl) {
			snprintf(err, errlen, "plugin '%s' (%s) cannot be loaded: %s",
				 name, h->file, lt_dlerror());
			return -ENOEXEC;
		}
		ret = check_descriptor(name, want_kind, h, err, errlen);
		if (ret)
			wfw_plugin_unload(h);
		return ret;
	}
	snprintf(err, errlen,
		 "no plugin '%s' in the search path (WULTFW_PLUGIN_PATH, then %s); 'wultfw list-plugins' shows what there is",
		 name, PLUGINDIR);
	return -ENOENT;
}

void wfw_plugin_unload(struct wfw_plugin_handle *h)
{
	int i;

	free((void *)h->desc);
	h->desc = NULL;
	if (!h->dl)
		return;
	for (i = 0; i < npreloaded; i++)
		if (preloaded[i].dl == h->dl)
			goto out;	/* lives as long as the program */
	lt_dlclose((lt_dlhandle)h->dl);
out:
	h->dl = NULL;
	h->desc = NULL;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_name(char ***names, size_t *n, const char *name)
{
	size_t i;
	char **grown;

	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return true;
	grown = realloc(*names, (*n + 1) * sizeof(**names));
	if (!grown)
		return false;
	*names = grown;
	grown[*n] = strdup(name);
	if (!grown[*n])
		return false;
	(*n)++;
	return true;
}

char **wfw_plugin_names(size_t *n)
{
	char dirs[MAX_DIRS][PATH_MAX];
	char **names = NULL;
	size_t ndirs, i;

	*n = 0;
	for (i = 0; i < (size_t)npreloaded; i++)
		add_name(&names, n, preloaded[i].name);
	ndirs = search_dirs(dirs, MAX_DIRS);
	for (i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			char name[256];
			size_t len = strlen(e->d_name);

			if (len < 4 || len > 66 ||
			    (strcmp(e->d_name + len - 3, ".la") &&
			     strcmp(e->d_name + len - 3, ".so")))
				continue;
			memcpy(name, e->d_name, len - 3);
			name[len - 3] = '\0';
			if (valid_name(name))
				add_name(&names, n, name);
		}
		closedir(d);
	}
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_names);
	return names;
}

void wfw_plugin_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

const struct wultfw_column *wfw_plugin_columns(const struct wfw_plugin_handle *h)
{
	if (!h->desc || h->desc->kind != WULTFW_KIND_SOURCE)
		return NULL;
	return h->desc->columns;
}

void wfw_plugin_ctx_init(struct wultfw_ctx *ctx, const struct wfw_plugin_handle *h)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->size = sizeof(*ctx);
	ctx->plugin = h->desc;
	ctx->cpu = -1;
	ctx->sysfs_root = "/sys";
	ctx->bad_opt = -1;
}
