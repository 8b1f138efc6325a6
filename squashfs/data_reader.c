/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File contents.  A file is a list of u32 block sizes in the inode table
 * (0 = sparse block of zeros, bit 24 = stored uncompressed) for data blocks
 * laid out back to back from blocks_start, plus an optional tail in a
 * fragment block.
 *
 * A file's block map is built once and cached by inode reference: for every
 * CHK-th block it keeps where that block's size entry sits in the inode
 * table and where its data starts, so finding block i reads at most CHK
 * sizes from the (cached) metadata, and a map for a huge file stays small.
 * Decompressed data and fragment blocks are cached by image position, so a
 * block decompressed once serves many small sequential reads.  A read that
 * wants a whole data block which is not cached (extraction, large FUSE
 * reads) has it decompressed straight into the caller's buffer instead:
 * caching a block nobody reads twice only costs a copy, and fresh cache
 * memory costs a page fault per 4 KiB. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "squashfs/fs_reader.h"

#define CHK 256

struct chk {
	struct sqfs_mpos pos; /* size entry of block k*CHK */
	uint64_t start;       /* its data position */
};

struct fmap {
	struct sqfs_node node;
	uint64_t count; /* data blocks */
	uint64_t nchk;
	struct chk chk[];
};

static int build_chunk(struct sqfs_rd *rd, struct fmap *m, struct sqfs_mpos *pos,
		       uint64_t *start, uint64_t first, struct ff_err *err)
{
	uint8_t raw[CHK * 4];
	uint64_t n = m->count - first < CHK ? m->count - first : CHK, i;

	m->chk[first / CHK].pos = *pos;
	m->chk[first / CHK].start = *start;
	if (sqfs_meta_read(rd, pos, raw, n * 4, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t sz = sqfs_get32(raw + 4 * i, rd->sb.order);
		uint32_t stored = sz & SQFS_BLOCK_SIZE_MASK;

		if ((sz & ~(SQFS_BLOCK_SIZE_MASK | SQFS_BLOCK_UNCOMPRESSED)) ||
		    stored > rd->sb.block_size)
			return ff_err_set(err, EIO, "block %llu: size field 0x%08x invalid (block size %u)",
					  (unsigned long long)(first + i), sz,
					  rd->sb.block_size);
		if (stored > rd->size - *start)
			return ff_err_set(err, EIO,
					  "block %llu points past end of image (offset %llu > size %llu)",
					  (unsigned long long)(first + i),
					  (unsigned long long)(*start + stored),
					  (unsigned long long)rd->size);
		*start += stored;
	}
	return 0;
}

static struct sqfs_cbuf *build_map(struct sqfs_rd *rd, const struct sqfs_node *n,
				   struct ff_err *err)
{
	uint64_t count = sqfs_inode_block_count(&n->in, rd->sb.block_size);
	uint64_t nchk = (count + CHK - 1) / CHK, start = n->in.blocks_start, i;
	uint64_t table = rd->inode_end - rd->sb.inode_table;
	struct sqfs_mpos pos = n->tail;
	struct sqfs_cbuf *b;
	struct fmap *m;

	if (count / 8192 > table)
		return ff_err_set(err, EIO, "%llu blocks cannot fit the inode table",
				  (unsigned long long)count), NULL;
	b = sqfs_cbuf_alloc(sizeof(*m) + nchk * sizeof(struct chk));
	if (!b)
		return ff_err_set(err, ENOMEM, "out of memory"), NULL;
	m = (struct fmap *)b->data;
	m->node = *n;
	m->count = count;
	m->nchk = nchk;
	for (i = 0; i < count; i += CHK)
		if (build_chunk(rd, m, &pos, &start, i, err) < 0) {
			sqfs_cbuf_release(b);
			return NULL;
		}
	b->len = (uint32_t)b->cap;
	return b;
}

static struct sqfs_cbuf *get_map(struct sqfs_rd *rd, uint64_t ref, struct ff_err *err)
{
	struct sqfs_cbuf *b = sqfs_cache_get(rd->files, ref);
	struct sqfs_node n;

	if (b)
		return b;
	if (sqfs_node_load(rd, ref, &n, err) < 0)
		return NULL;
	if (sqfs_basic_type(n.in.type) != SQFS_FILE) {
		ff_err_set(err, EISDIR, "inode %u is not a regular file", n.in.inode_number);
		return NULL;
	}
	b = build_map(rd, &n, err);
	if (!b) {
		ff_err_prefix(err, "inode %u", n.in.inode_number);
		return NULL;
	}
	return sqfs_cache_put(rd->files, ref, b);
}

/* Size field and data position of block i, and of block i + 1 when its
 * size entry is in the same chunk (next->size 0 otherwise). */
struct blk {
	uint64_t start;
	uint32_t size;
};

static int locate(struct sqfs_rd *rd, const struct fmap *m, uint64_t i, struct blk *cur,
		  struct blk *next, struct ff_err *err)
{
	const struct chk *c = &m->chk[i / CHK];
	struct sqfs_mpos pos = c->pos;
	uint8_t raw[CHK * 4];
	uint64_t k, n = i % CHK;
	int more = n + 1 < CHK && i + 1 < m->count;

	if (sqfs_meta_read(rd, &pos, raw, (n + 1 + more) * 4, err) < 0)
		return -1;
	cur->start = c->start;
	for (k = 0; k < n; k++)
		cur->start += sqfs_get32(raw + 4 * k, rd->sb.order) & SQFS_BLOCK_SIZE_MASK;
	cur->size = sqfs_get32(raw + 4 * n, rd->sb.order);
	next->start = cur->start + (cur->size & SQFS_BLOCK_SIZE_MASK);
	next->size = more ? sqfs_get32(raw + 4 * (n + 1), rd->sb.order) : 0;
	return 0;
}

/* Several threads reading one scan interleave their preads, which hides
 * the pattern from the kernel's read-ahead; a miss that starts at or a
 * little after where the previous one ended asks for the next stretch of
 * the image explicitly, once per half stretch.  Random reads rarely match,
 * so they do not pay for it. */
#define DATA_AHEAD (1u << 20)

static void data_ahead(struct sqfs_rd *rd, uint64_t pos, uint32_t size)
{
	const uint64_t half = DATA_AHEAD / 2;
	uint64_t end = pos + (size & SQFS_BLOCK_SIZE_MASK);
	uint64_t prev = atomic_exchange(&rd->data_end, end);
	int sequential = pos >= prev && pos - prev <= DATA_AHEAD / 4;

	if (sequential && end < rd->size && end / half != pos / half)
		ff_bsrc_advise(rd->src, end, DATA_AHEAD, POSIX_FADV_WILLNEED);
}

static struct sqfs_cbuf *decompress(struct sqfs_rd *rd, uint64_t pos, uint32_t size,
				     struct ff_err *err)
{
	struct sqfs_cbuf *b = sqfs_cache_alloc(rd->data, rd->sb.block_size);
	ssize_t n;

	if (!b) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	data_ahead(rd, pos, size);
	n = sqfs_read_block(rd, pos, size & SQFS_BLOCK_SIZE_MASK, !!(size & SQFS_BLOCK_UNCOMPRESSED),
			    b->data, rd->sb.block_size, err);
	if (n < 0) {
		sqfs_cbuf_release(b);
		return NULL;
	}
	b->len = (uint32_t)n;
	return sqfs_cache_put(rd->data, pos, b);
}

static pthread_mutex_t *load_lock(struct sqfs_rd *rd, uint64_t pos)
{
	return &rd->load_lock[(pos >> 4) % SQFS_LOAD_LOCKS];
}

/* Called by a thread that would otherwise sleep while another decompresses
 * the block it wants: it decompresses the block after that one instead
 * (the next fragment, the file's next data block), which the reader
 * usually needs next.  Never waits: a busy lock means someone is on it. */
static void help_ahead(struct sqfs_rd *rd, const struct blk *next)
{
	pthread_mutex_t *lock = load_lock(rd, next->start);
	struct ff_err err = {0};
	struct sqfs_cbuf *b;

	if (!(next->size & SQFS_BLOCK_SIZE_MASK))
		return;
	b = sqfs_cache_get(rd->data, next->start);
	if (b || pthread_mutex_trylock(lock) != 0) {
		sqfs_cbuf_release(b);
		return;
	}
	b = sqfs_cache_get(rd->data, next->start);
	if (!b)
		b = decompress(rd, next->start, next->size, &err); /* errors show up later */
	pthread_mutex_unlock(lock);
	sqfs_cbuf_release(b);
}

/* The cached block at cur->start, decompressing it once however many
 * threads want it at the same time.  With nowait a missing block is
 * EAGAIN instead. */
static struct sqfs_cbuf *load_block(struct sqfs_rd *rd, const struct blk *cur,
				    const struct blk *next, unsigned n_next, int nowait,
				    struct ff_err *err)
{
	struct sqfs_cbuf *b = sqfs_cache_get(rd->data, cur->start);
	pthread_mutex_t *lock = load_lock(rd, cur->start);
	unsigned k;

	if (b)
		return b;
	if (nowait) {
		ff_err_set(err, EAGAIN, "block at %llu not decoded yet",
			   (unsigned long long)cur->start);
		return NULL;
	}
	for (k = 0; pthread_mutex_trylock(lock) != 0; k++) {
		if (k == n_next) {
			pthread_mutex_lock(lock);
			break;
		}
		if (load_lock(rd, next[k].start) != lock)
			help_ahead(rd, &next[k]);
	}
	b = sqfs_cache_get(rd->data, cur->start); /* another thread may have loaded it */
	if (!b)
		b = decompress(rd, cur->start, cur->size, err);
	pthread_mutex_unlock(lock);
	return b;
}

/* Decompresses block i (cur) straight into out, which it must fill
 * exactly.  Returns 1 instead when another thread is decoding the block
 * (a prefetch worker, a second reader) or already has: the caller then
 * takes that copy from the cache rather than making a second. */
static int decode_into(struct sqfs_rd *rd, const struct blk *cur, uint64_t i, uint8_t *out,
		       size_t want, struct ff_err *err)
{
	pthread_mutex_t *lock = load_lock(rd, cur->start);
	struct sqfs_cbuf *b;
	ssize_t n;

	if (pthread_mutex_trylock(lock) != 0)
		return 1;
	b = sqfs_cache_get(rd->data, cur->start);
	if (b) {
		pthread_mutex_unlock(lock);
		sqfs_cbuf_release(b);
		return 1;
	}
	data_ahead(rd, cur->start, cur->size);
	n = sqfs_read_block(rd, cur->start, cur->size & SQFS_BLOCK_SIZE_MASK,
			    !!(cur->size & SQFS_BLOCK_UNCOMPRESSED), out, want, err);
	pthread_mutex_unlock(lock);
	if (n < 0)
		return ff_err_prefix(err, "block %llu", (unsigned long long)i);
	if ((size_t)n != want)
		return ff_err_set(err, EIO, "block %llu at %llu: %zd bytes decompressed, expected %zu",
				  (unsigned long long)i, (unsigned long long)cur->start, n, want);
	return 0;
}

/* Copies part of block i (want bytes from `skip`) into out. */
static int copy_block(struct sqfs_rd *rd, const struct fmap *m, uint64_t i, size_t skip,
		      size_t want, uint8_t *out, int nowait, struct ff_err *err)
{
	uint64_t fsize = m->node.in.file_size, bs = rd->sb.block_size;
	uint64_t expect = fsize - i * bs < bs ? fsize - i * bs : bs;
	struct blk cur, next;
	struct sqfs_cbuf *b;

	if (locate(rd, m, i, &cur, &next, err) < 0)
		return -1;
	if ((cur.size & SQFS_BLOCK_SIZE_MASK) == 0) {
		memset(out, 0, want);
		return 0;
	}
	b = NULL;
	if (skip == 0 && want == expect && !nowait) {
		int r;

		b = sqfs_cache_get(rd->data, cur.start);
		if (!b && (r = decode_into(rd, &cur, i, out, want, err)) <= 0)
			return r;
	}
	if (!b)
		b = load_block(rd, &cur, &next, 1, nowait, err);
	if (!b)
		return ff_err_prefix(err, "block %llu", (unsigned long long)i);
	if (b->len != expect) {
		sqfs_cbuf_release(b);
		return ff_err_set(err, EIO, "block %llu at %llu: %u bytes decompressed, expected %llu",
				  (unsigned long long)i, (unsigned long long)cur.start, b->len,
				  (unsigned long long)expect);
	}
	memcpy(out, b->data + skip, want);
	sqfs_cbuf_release(b);
	return 0;
}

/* Small files share fragment blocks and are extracted in the order their
 * tails were packed, so two workers often want the same fragment at once;
 * the one that finds it being decompressed decompresses the next few
 * instead of sleeping (the following files' blocks). */
#define FRAG_AHEAD 4

static int copy_fragment(struct sqfs_rd *rd, const struct fmap *m, size_t skip, size_t want,
			 uint8_t *out, int nowait, struct ff_err *err)
{
	const struct sqfs_inode *in = &m->node.in;
	const struct sqfs_fragment_entry *f = &rd->frags[in->frag_index];
	uint64_t tail = in->file_size % rd->sb.block_size;
	struct blk cur = {f->start, f->size}, next[FRAG_AHEAD];
	struct sqfs_cbuf *b;
	unsigned k;

	for (k = 0; k < FRAG_AHEAD && in->frag_index + 1 + k < rd->sb.fragment_count; k++) {
		next[k].start = f[1 + k].start;
		next[k].size = f[1 + k].size;
	}
	b = load_block(rd, &cur, next, k, nowait, err);
	if (!b)
		return ff_err_prefix(err, "fragment %u", in->frag_index);
	if ((uint64_t)in->frag_offset + tail > b->len) {
		sqfs_cbuf_release(b);
		return ff_err_set(err, EIO, "tail of %llu bytes at offset %u past fragment %u (%u bytes)",
				  (unsigned long long)tail, in->frag_offset, in->frag_index,
				  b->len);
	}
	memcpy(out, b->data + in->frag_offset + skip, want);
	sqfs_cbuf_release(b);
	return 0;
}

static ssize_t read_map(struct sqfs_rd *rd, const struct fmap *m, uint8_t *buf, size_t len,
			uint64_t off, int nowait, struct ff_err *err)
{
	uint64_t fsize = m->node.in.file_size, bs = rd->sb.block_size;
	size_t done = 0;

	len = ff_read_span(fsize, off, len);
	if (!len)
		return 0;
	while (done < len) {
		uint64_t pos = off + done, i = pos / bs;
		size_t skip = (size_t)(pos % bs), want = (size_t)(bs - skip);
		int ret;

		if (want > len - done)
			want = len - done;
		if (i < m->count)
			ret = copy_block(rd, m, i, skip, want, buf + done, nowait, err);
		else
			ret = copy_fragment(rd, m, skip, want, buf + done, nowait, err);
		if (ret < 0)
			return ff_err_prefix(err, "inode %u", m->node.in.inode_number);
		done += want;
	}
	return (ssize_t)done;
}

ssize_t sqfs_file_read(struct sqfs_rd *rd, uint64_t ref, void *buf, size_t len, uint64_t off,
		       int nowait, struct ff_err *err)
{
	const struct fmap *m;
	struct sqfs_cbuf *b;
	ssize_t ret;

	b = get_map(rd, ref, err);
	if (!b)
		return -1;
	m = (const struct fmap *)b->data;
	sqfs_prefetch_note(rd->prefetch, ref, off / rd->sb.block_size,
			   len >= m->node.in.file_size || off >= m->node.in.file_size - len);
	ret = read_map(rd, m, buf, len, off, nowait, err);
	sqfs_cbuf_release(b);
	return ret;
}

ssize_t sqfs_file_blocks(struct sqfs_rd *rd, uint64_t ref, uint64_t first,
			 struct sqfs_blkref *out, size_t cap, struct ff_err *err)
{
	struct sqfs_cbuf *b = get_map(rd, ref, err);
	const struct fmap *m;
	struct blk cur, next;
	size_t n = 0;

	if (!b)
		return -1;
	m = (const struct fmap *)b->data;
	for (; first < m->count && n < cap; first++, n++) {
		if (locate(rd, m, first, &cur, &next, err) < 0) {
			sqfs_cbuf_release(b);
			return -1;
		}
		out[n] = (struct sqfs_blkref){first, cur.start, cur.size};
	}
	if (first == m->count && n < cap && m->node.in.frag_index != SQFS_INVALID_FRAG) {
		const struct sqfs_fragment_entry *f = &rd->frags[m->node.in.frag_index];

		out[n++] = (struct sqfs_blkref){first, f->start, f->size};
	}
	sqfs_cbuf_release(b);
	return (ssize_t)n;
}

void sqfs_block_preload(struct sqfs_rd *rd, uint64_t start, uint32_t size)
{
	struct blk cur = {start, size};
	struct ff_err err = {0};

	if (size & SQFS_BLOCK_SIZE_MASK)
		sqfs_cbuf_release(load_block(rd, &cur, NULL, 0, 0, &err));
}

int sqfs_file_verify(struct sqfs_rd *rd, const struct sqfs_node *n, struct ff_err *err)
{
	uint8_t *buf = malloc(rd->sb.block_size);
	uint64_t off;
	int ret = 0;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (off = 0; off < n->in.file_size && ret == 0; off += rd->sb.block_size)
		if (sqfs_file_read(rd, n->ref, buf, rd->sb.block_size, off, 0, err) < 0)
			ret = -1;
	free(buf);
	return ret;
}
