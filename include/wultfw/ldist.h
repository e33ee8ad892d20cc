/* SPDX-License-Identifier: MIT */
/*
 * The launch distance generator, the one copy that user space (plugin.h),
 * the eBPF program (plugins/hrt/hrt.bpf.c) and the kernel modules (kmod/)
 * include, so the same seed gives the same distances everywhere.
 *
 * Freestanding: no includes, only unsigned long long (64 bits on every
 * Linux ABI), so it compiles in the kernel, in BPF and in user space.
 */
#ifndef WULTFW_LDIST_H
#define WULTFW_LDIST_H

/* splitmix64: one 64-bit state, advanced once per draw. */
static inline unsigned long long wultfw_ldist_rand(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Uniform in [from, to], rounded down to a multiple of gran (0 or 1:
 * exact) and up again when that falls below from. The caller keeps a
 * multiple of gran inside [from, to] (the core rounds the range to the
 * source's granularity).
 */
static inline unsigned long long
wultfw_ldist_pick(unsigned long long *state, unsigned long long from,
		  unsigned long long to, unsigned long long gran)
{
	unsigned long long span = to - from + 1;
	unsigned long long r = wultfw_ldist_rand(state);
	unsigned long long v = span ? from + r % span : from;

	if (gran > 1) {
		v -= v % gran;
		if (v < from)
			v += gran;
	}
	return v;
}

#endif /* WULTFW_LDIST_H */
