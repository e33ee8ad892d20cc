/* SPDX-License-Identifier: MIT */
/* A module without a wultfw descriptor: the core must refuse it. */
int nodesc_LTX_something_else(void);

int nodesc_LTX_something_else(void)
{
	return 42;
}
