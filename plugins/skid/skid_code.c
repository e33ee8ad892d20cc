/* SPDX-License-Identifier: MIT */
/* Generating the load + NOP runway loop: see skid_code.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "skid_code.h"

#if defined(__x86_64__)

/* SysV: rdi buf, rsi stride, rdx size, rcx iterations, r8 offset. */
static const uint8_t head_mov[] = { 0x4c, 0x89, 0xc0 };	/* mov rax, r8 */
/* The load: movzx r9d, byte [rdi + rax] */
static const uint8_t load[] = { 0x44, 0x0f, 0xb6, 0x0c, 0x07 };
static const uint8_t tail_add[] = { 0x48, 0x01, 0xf0 };	/* add rax, rsi */
static const uint8_t tail_cmp[] = { 0x48, 0x39, 0xd0 };	/* cmp rax, rdx */
static const uint8_t tail_jb[] = { 0x72, 0x02 };		/* jb over xor */
static const uint8_t tail_xor[] = { 0x31, 0xc0 };		/* xor eax, eax */
static const uint8_t tail_dec[] = { 0x48, 0xff, 0xc9 };	/* dec rcx */
#define JNZ_LEN 6					/* jnz rel32 (load) */
static const uint8_t tail_ret[] = { 0xc3 };

static uint8_t *put(uint8_t *p, const uint8_t *insn, size_t n,
		    struct skid_layout *l, int tail)
{
	memcpy(p, insn, n);
	if (tail)
		l->tail_len[l->tail_n++] = (uint8_t)n;
	else
		l->head_len[l->head_n++] = (uint8_t)n;
	return p + n;
}

static void emit(uint8_t *code, struct skid_layout *l)
{
	uint8_t *p = put(code, head_mov, sizeof(head_mov), l, 0);
	uint8_t *loop = p;
	int32_t rel;

	memcpy(p, load, sizeof(load));
	l->load_len = sizeof(load);
	p += sizeof(load);
	memset(p, 0x90, l->runway);
	p += l->runway;
	p = put(p, tail_add, sizeof(tail_add), l, 1);
	p = put(p, tail_cmp, sizeof(tail_cmp), l, 1);
	p = put(p, tail_jb, sizeof(tail_jb), l, 1);
	p = put(p, tail_xor, sizeof(tail_xor), l, 1);
	p = put(p, tail_dec, sizeof(tail_dec), l, 1);
	rel = (int32_t)(loop - (p + JNZ_LEN));
	p[0] = 0x0f;
	p[1] = 0x85;
	memcpy(p + 2, &rel, 4);
	l->tail_len[l->tail_n++] = JNZ_LEN;
	p += JNZ_LEN;
	put(p, tail_ret, sizeof(tail_ret), l, 1);
}

int skid_code_build(struct skid_code *c, uint64_t runway, char *err,
		    size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	struct skid_layout *l = &c->layout;

	memset(c, 0, sizeof(*c));
	l->runway = runway;
	l->load_len = sizeof(load);
	/* The length needs the tail, which emit() records: count it here. */
	c->map_len = sizeof(head_mov) + sizeof(load) + runway +
		     sizeof(tail_add) + sizeof(tail_cmp) + sizeof(tail_jb) +
		     sizeof(tail_xor) + sizeof(tail_dec) + JNZ_LEN +
		     sizeof(tail_ret);
	c->map_len = (c->map_len + (size_t)page - 1) & ~((size_t)page - 1);
	c->map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		snprintf(err, errlen, "cannot map %zu bytes for the workload's code: %s",
			 c->map_len, strerror(errno));
		return -ENOMEM;
	}
	emit(c->map, l);
	l->base = (uint64_t)(uintptr_t)c->map;
	if (mprotect(c->map, c->map_len, PROT_READ | PROT_EXEC)) {
		int e = errno;

		snprintf(err, errlen, "cannot make the workload's code executable (mprotect PROT_EXEC: %s; a policy such as SELinux execmem may forbid it)",
			 strerror(e));
		skid_code_free(c);
		return -e;
	}
	c->fn = (skid_fn)(uintptr_t)c->map;
	return 0;
}

#else

int skid_code_build(struct skid_code *c, uint64_t runway, char *err,
		    size_t errlen)
{
	memset(c, 0, sizeof(*c));
	snprintf(err, errlen, "the skid workload generator writes x86-64 code; this build is for another architecture");
	return -ENOTSUP;
}

#endif

void skid_code_free(struct skid_code *c)
{
	if (c->map)
		munmap(c->map, c->map_len);
	c->map = NULL;
	c->fn = NULL;
}
