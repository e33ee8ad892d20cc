/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "log.h"

#include <stdarg.h>

int wfw_verbosity = 1;
static FILE *tee;
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

void wfw_log_tee(FILE *f)
{
	tee = f;
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

static void emit(int min_verbosity, const char *prefix, const char *fmt,
		 va_list ap)
{
	va_list copy;

	if (tee) {
		va_copy(copy, ap);
		fputs(prefix, tee);
		vfprintf(tee, fmt, copy);
		fputc('\n', tee);
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
