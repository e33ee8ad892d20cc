/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "log.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define KEEP_MAX 65536

int wfw_verbosity = 1;
static FILE *tee;
/* Messages said before the file to copy them to exists. */
static struct {
	char *text;
	size_t len;
	unsigned long dropped;
	int on;
} early;
static char first_error[512];
static int progress_active;

void wfw_log_reset_first_error(void)
{
	first_error[0] = '\0';
}

const char *wfw_log_first_error(void)
{
	return first_error;
}

void wfw_log_keep(void)
{
	free(early.text);
	memset(&early, 0, sizeof(early));
	early.on = 1;
}

static __attribute__((format(printf, 2, 0)))
void keep(const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s", prefix);
	size_t len;
	char *t;

	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	len = strlen(line);
	t = early.len + len + 2 <= KEEP_MAX ? realloc(early.text, early.len + len + 2) : NULL;
	if (!t) {
		early.dropped++;
		return;
	}
	early.text = t;
	memcpy(t + early.len, line, len);
	early.len += len;
	t[early.len++] = '\n';
}

void wfw_log_tee(FILE *f)
{
	tee = f;
	if (!f)
		return;
	if (early.len)
		fwrite(early.text, 1, early.len, f);
	if (early.dropped)
		fprintf(f, "wultfw: (%lu more messages before this log existed: not early)\n",
			early.dropped);
	free(early.text);
	memset(&early, 0, sizeof(early));
}

void wfw_log_set_progress_active(int active)
{
	progress_active = active;
}

void wfw_log_clear_progress(void)
{
	if (progress_active)
		fputs("\r\033[K", stderr);
}

static __attribute__((format(printf, 3, 0)))
void emit(int min_verbosity, const char *prefix, const char *fmt,
		 va_list ap)
{
	va_list copy;

	if (tee) {
		va_copy(copy, ap);
		fputs(prefix, tee);
		vfprintf(tee, fmt, copy);
		fputc('\n', tee);
		va_end(copy);
	} else if (early.on) {
		va_copy(copy, ap);
		keep(prefix, fmt, copy);
		va_end(copy);
	}
	if (wfw_verbosity < min_verbosity)
		return;
	wfw_log_clear_progress();
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_LOG(fn, min, prefix)			\
	void fn(const char *fmt, ...)			\
	{						\
		va_list ap;				\
		va_start(ap, fmt);			\
		emit(min, prefix, fmt, ap);		\
		va_end(ap);				\
	}

void wfw_err(const char *fmt, ...)
{
	va_list ap;

	if (!first_error[0]) {
		va_start(ap, fmt);
		vsnprintf(first_error, sizeof(first_error), fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	emit(0, "wultfw: error: ", fmt, ap);
	va_end(ap);
}

DEFINE_LOG(wfw_warn, 1, "wultfw: warning: ")
DEFINE_LOG(wfw_info, 1, "wultfw: ")
DEFINE_LOG(wfw_debug, 2, "wultfw: debug: ")
