/* SPDX-License-Identifier: MIT */
/* A perf event's ring buffer, mapped and read: see skid_perf.h. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "skid_events.h"
#include "skid_perf.h"

int skid_perf_open(struct skid_perf *p, struct perf_event_attr *a, int tid)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(p, 0, sizeof(*p));
	p->fd = skid_event_open(a, tid);
	if (p->fd < 0)
		return p->fd;
	p->data_size = (uint64_t)SKID_RING_PAGES * (uint64_t)page;
	p->map_len = (size_t)(p->data_size + (uint64_t)page);
	p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      p->fd, 0);
	if (p->map == MAP_FAILED) {
		int e = -errno;

		p->map = NULL;
		skid_perf_close(p);
		return e;
	}
	return 0;
}

int skid_perf_enable(struct skid_perf *p, int on)
{
	if (ioctl(p->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0))
		return -errno;
	return 0;
}

int skid_perf_wait(struct skid_perf *p, uint64_t timeout_ns)
{
	struct perf_event_mmap_page *mp = p->map;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	int ms = (int)((timeout_ns + 999999) / 1000000), n;

	if (__atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE) != mp->data_tail)
		return 1;
	n = poll(&pfd, 1, ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	return n > 0;
}

void skid_perf_read(struct skid_perf *p, const struct skid_ring_ops *ops,
		    void *arg)
{
	struct perf_event_mmap_page *mp = p->map;
	/* data_offset is 0 before Linux 4.1: the data follow the first page. */
	uint64_t off = mp->data_offset ? mp->data_offset : p->map_len - p->data_size;
	const unsigned char *data = (const unsigned char *)p->map + off;
	/* Acquire: the records before head are written once we see it. */
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;

	tail = skid_ring_parse(data, p->data_size, tail, head, ops, arg, &p->st);
	/* Release: we are done reading what the kernel may now overwrite. */
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

void skid_perf_close(struct skid_perf *p)
{
	if (p->map)
		munmap(p->map, p->map_len);
	if (p->fd >= 0)
		close(p->fd);
	p->map = NULL;
	p->fd = -1;
}
