/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Raw image reads and block decompression.  Codec contexts live in a small
 * lock-free pool: a reader grabs any free slot with an atomic exchange and
 * puts it back with a compare-and-swap, so threads never wait on a lock and
 * the hot path does not allocate once the pool is warm. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "squashfs/fs_reader.h"

#define POOL_SLOTS 32

struct pool_item {
	struct ff_comp_ctx *ctx;
	uint8_t *scratch; /* compressed input, up to one block */
};

struct sqfs_ctx_pool {
	_Atomic(struct pool_item *) slot[POOL_SLOTS];
};

struct sqfs_ctx_pool *sqfs_pool_new(void)
{
	struct sqfs_ctx_pool *p = calloc(1, sizeof(*p));
	int i;

	if (p)
		for (i = 0; i < POOL_SLOTS; i++)
			atomic_init(&p->slot[i], NULL);
	return p;
}

static void item_free(struct pool_item *it)
{
	if (!it)
		return;
	ff_comp_ctx_free(it->ctx);
	free(it->scratch);
	free(it);
}

void sqfs_pool_free(struct sqfs_ctx_pool *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < POOL_SLOTS; i++)
		item_free(atomic_load(&p->slot[i]));
	free(p);
}

static struct pool_item *pool_get(struct sqfs_rd *rd, struct ff_err *err)
{
	struct pool_item *it;
	int i;

	for (i = 0; i < POOL_SLOTS; i++) {
		it = atomic_exchange(&rd->pool->slot[i], NULL);
		if (it)
			return it;
	}
	it = calloc(1, sizeof(*it));
	if (!it) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	/* room for a data block, or a metadata block with its header */
	it->scratch = malloc(rd->sb.block_size > SQFS_META_SIZE + SQFS_META_HEADER_SIZE
				     ? rd->sb.block_size
				     : SQFS_META_SIZE + SQFS_META_HEADER_SIZE);
	it->ctx = ff_comp_ctx_new(rd->comp, err);
	if (!it->scratch || !it->ctx) {
		if (!it->scratch)
			ff_err_set(err, ENOMEM, "out of memory");
		item_free(it);
		return NULL;
	}
	return it;
}

static void pool_put(struct sqfs_rd *rd, struct pool_item *it)
{
	int i;

	for (i = 0; i < POOL_SLOTS; i++) {
		struct pool_item *expect = NULL;

		if (atomic_compare_exchange_strong(&rd->pool->slot[i], &expect, it))
			return;
	}
	item_free(it);
}

int sqfs_pread(struct sqfs_rd *rd, void *buf, size_t len, uint64_t pos, struct ff_err *err)
{
	size_t done = 0;

	if (pos > rd->size || len > rd->size - pos)
		return ff_err_set(err, EIO, "read of %zu bytes at %llu past end of image (size %llu)",
				  len, (unsigned long long)pos, (unsigned long long)rd->size);
	while (done < len) {
		ssize_t n = ff_bsrc_pread(rd->src, (uint8_t *)buf + done, len - done, pos + done);

		if (n < 0)
			return ff_err_sys(err, (int)-n, "read at %llu",
					  (unsigned long long)(pos + done));
		if (n == 0)
			return ff_err_set(err, EIO, "image truncated at %llu",
					  (unsigned long long)(pos + done));
		done += (size_t)n;
	}
	return 0;
}

ssize_t sqfs_read_block(struct sqfs_rd *rd, uint64_t pos, uint32_t stored, int raw, void *out,
			size_t cap, struct ff_err *err)
{
	struct pool_item *it;
	ssize_t n;

	if (raw) {
		if (stored > cap)
			return ff_err_set(err, EIO,
					  "uncompressed block at %llu: size %u > %zu",
					  (unsigned long long)pos, stored, cap);
		return sqfs_pread(rd, out, stored, pos, err) < 0 ? -1 : (ssize_t)stored;
	}
	if (stored > rd->sb.block_size && stored > SQFS_META_SIZE)
		return ff_err_set(err, EIO, "block at %llu: compressed size %u > block size %u",
				  (unsigned long long)pos, stored, rd->sb.block_size);
	it = pool_get(rd, err);
	if (!it)
		return -1;
	if (sqfs_pread(rd, it->scratch, stored, pos, err) < 0) {
		pool_put(rd, it);
		return -1;
	}
	n = ff_comp_decompress(it->ctx, it->scratch, stored, out, cap, err);
	pool_put(rd, it);
	if (n < 0)
		ff_err_prefix(err, "block at %llu (%u bytes)", (unsigned long long)pos, stored);
	return n;
}

/* One pread fetches the header and the largest payload that can follow it
 * (clamped to the table end), so a cold metadata block costs one disk round
 * trip instead of two. */
ssize_t sqfs_read_meta_block(struct sqfs_rd *rd, uint64_t pos, uint64_t limit, void *out,
			     uint64_t *next, struct ff_err *err)
{
	size_t want = SQFS_META_HEADER_SIZE + SQFS_META_SIZE;
	struct pool_item *it;
	uint32_t size;
	ssize_t n = -1;
	int raw;

	if (want > limit - pos)
		want = (size_t)(limit - pos);
	it = pool_get(rd, err);
	if (!it)
		return -1;
	if (sqfs_pread(rd, it->scratch, want, pos, err) < 0)
		goto out;
	if (sqfs_meta_header_decode(it->scratch, rd->meta_order, &size, &raw, err) < 0) {
		ff_err_prefix(err, "metadata block at %llu", (unsigned long long)pos);
		goto out;
	}
	if (size > want - SQFS_META_HEADER_SIZE) {
		ff_err_set(err, EIO, "metadata block at %llu: %u bytes run past its table end %llu",
			   (unsigned long long)pos, size, (unsigned long long)limit);
		goto out;
	}
	*next = pos + SQFS_META_HEADER_SIZE + size;
	if (raw) {
		memcpy(out, it->scratch + SQFS_META_HEADER_SIZE, size);
		n = size;
	} else {
		n = ff_comp_decompress(it->ctx, it->scratch + SQFS_META_HEADER_SIZE, size, out,
				       SQFS_META_SIZE, err);
		if (n < 0)
			ff_err_prefix(err, "metadata: block at %llu (%u bytes)",
				      (unsigned long long)pos + SQFS_META_HEADER_SIZE, size);
	}
out:
	pool_put(rd, it);
	return n;
}
