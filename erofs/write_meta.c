/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A meta region written a run of blocks at a time, in position order,
 * instead of built whole in memory (for a tree of small files the region
 * is nearly the image: their bytes are inline).  The inodes are counted
 * into their blocks first (a counting sort), so each run finds its own;
 * the placement itself is write_plan.c's, done before.  The inline tail
 * of an inode placed before the data (a flat file's, a directory's, a
 * symlink's) was written into the image at its place by the data pass
 * (tail_out, write_tails.c): the run is read back to copy those tails
 * into its buffer, so no tail waits in memory from the data pass to here.
 * A late inode's tail is still in memory (ztail). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "erofs/write_priv.h"

/* The bytes of a run at least: a power of two no smaller than the largest
 * block (64 KiB), so runs are whole blocks and the first one holds the
 * superblock's block, whose checksum covers the inodes that share it. */
#define RUN (256u << 10)

struct mrun {
	struct ew *w;
	uint64_t start, end;       /* the region (block aligned) */
	uint32_t *first;           /* per block b: its inodes are
				      order[first[b] .. first[b + 1]) */
	uint32_t *order;           /* indices into w->inos; n_inos: the packed inode */
	uint8_t *buf;              /* the run's bytes */
	uint8_t *back;             /* the run as the data pass left it */
	size_t cap;                /* of both */
};

static struct ew_ino *ino_at(const struct mrun *m, uint32_t k)
{
	uint32_t i = m->order[k];

	return i == m->w->n_inos ? &m->w->packed : &m->w->inos[i];
}

/* The packed inode's record has no node when there is none. */
static int in_region(const struct mrun *m, const struct ew_ino *e)
{
	uint64_t pos = e->nid << 5;

	return e->n && pos >= m->start && pos < m->end;
}

static uint32_t blk_of(const struct mrun *m, uint64_t pos)
{
	return (uint32_t)((pos - m->start) >> m->w->blkbits);
}

static int sort_by_block(struct mrun *m, struct ff_err *err)
{
	const struct ew *w = m->w;
	uint32_t nblk = blk_of(m, m->end), n = 0;

	/* counts at [b + 2], summed, leave [b + 1] at block b's start; the
	 * fill moves it to b's end, which is b + 1's start */
	m->first = calloc((size_t)nblk + 2, sizeof(*m->first));
	for (uint32_t i = 0; m->first && i <= w->n_inos; i++) {
		const struct ew_ino *e = i < w->n_inos ? &w->inos[i] : &w->packed;

		if (in_region(m, e)) {
			m->first[blk_of(m, e->nid << 5) + 2]++;
			n++;
		}
	}
	m->order = m->first ? malloc((size_t)(n ? n : 1) * sizeof(*m->order)) : NULL;
	if (!m->order)
		return ff_err_set(err, ENOMEM, "meta area: out of memory (%u inodes in %u blocks)",
				  n, nblk);
	for (uint32_t b = 2; b < nblk + 2; b++)
		m->first[b] += m->first[b - 1];
	for (uint32_t i = 0; i <= w->n_inos; i++) {
		const struct ew_ino *e = i < w->n_inos ? &w->inos[i] : &w->packed;

		if (in_region(m, e))
			m->order[m->first[blk_of(m, e->nid << 5) + 1]++] = i;
	}
	return 0;
}

/* The run from at: RUN bytes, longer while an inode begun in it goes past
 * its end (an inode larger than a block: long indexes or xattrs). */
static uint64_t run_end(const struct mrun *m, uint64_t at)
{
	const struct ew *w = m->w;
	uint64_t to = m->end - at > RUN ? at + RUN : m->end;

	for (uint32_t k = m->first[blk_of(m, at)]; k < m->first[blk_of(m, to)]; k++) {
		const struct ew_ino *e = ino_at(m, k);
		uint64_t past = ew_align((e->nid << 5) + e->slot, w->blksz);

		if (past > to)
			to = past < m->end ? past : m->end;
	}
	return to;
}

static int grow(struct mrun *m, size_t len, struct ff_err *err)
{
	uint8_t *b, *k;

	if (len <= m->cap)
		return 0;
	b = realloc(m->buf, len);
	if (b)
		m->buf = b;
	k = b ? realloc(m->back, len) : NULL;
	if (k)
		m->back = k;
	if (!b || !k)
		return ff_err_set(err, ENOMEM, "meta area: out of memory (%zu bytes)", len);
	m->cap = len;
	return 0;
}

/* A device smaller than the image ends early (its writes past the end
 * were only counted, and commit refuses the image): zeros there. */
static int read_back(const struct ew *w, uint8_t *b, size_t len, uint64_t off,
		     struct ff_err *err)
{
	while (len) {
		ssize_t n = pread(w->out.fd, b, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ff_err_sys(err, errno, "%s: reading back %zu bytes of inline data at %llu",
					  w->out.path, len, (unsigned long long)off);
		if (!n) {
			memset(b, 0, len);
			break;
		}
		b += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* The part of the shared xattr area in [at, to). */
static void copy_shared(const struct ew *w, uint8_t *buf, uint64_t at, uint64_t to)
{
	uint64_t s = (uint64_t)w->xattr_blkaddr << w->blkbits, e = s + w->shared_len;
	uint64_t from = s > at ? s : at, till = e < to ? e : to;

	if (w->shared_len && from < till)
		memcpy(buf + (from - at), w->shared + (from - s), (size_t)(till - from));
}

static int write_run(struct mrun *m, uint64_t at, uint64_t to, struct ff_err *err)
{
	struct ew *w = m->w;
	size_t len = (size_t)(to - at);
	uint32_t k0 = m->first[blk_of(m, at)], k1 = m->first[blk_of(m, to)];
	int back = 0;

	if (grow(m, len, err))
		return -1;
	memset(m->buf, 0, len);
	for (uint32_t k = k0; k < k1 && !back; k++)
		back = ino_at(m, k)->tail_out;
	if (back && read_back(w, m->back, len, at, err))
		return -1;
	for (uint32_t k = k0; k < k1; k++) {
		const struct ew_ino *e = ino_at(m, k);
		size_t off = (size_t)((e->nid << 5) - at);

		ew_inode_encode(w, e, m->buf + off);
		if (e->tail_out) {
			off += ew_inode_tail_at(e);
			memcpy(m->buf + off, m->back + off, e->inline_len);
		}
	}
	copy_shared(w, m->buf, at, to);
	if (!at) {
		ew_super_cfg(w, m->buf);
		ew_super_encode(w, m->buf, w->n_inos + (w->packed.n != NULL), w->next_blk);
	}
	return ff_outfile_pwrite(&w->out, m->buf, len, at, err);
}

int ew_meta_write(struct ew *w, uint64_t start, uint64_t end, struct ff_err *err)
{
	struct mrun m = { .w = w, .start = start, .end = end };
	int r = sort_by_block(&m, err);

	for (uint64_t at = start, to; !r && at < end; at = to) {
		to = run_end(&m, at);
		r = write_run(&m, at, to, err);
	}
	free(m.first);
	free(m.order);
	free(m.buf);
	free(m.back);
	return r;
}
