/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File data: one data node per 4096-byte block, keyed by the block's
 * number; each holds the block's length and its bytes, compressed with the
 * node's own compressor.  A block with no node is a hole and reads as
 * zeros, as does the part of a block past the node's length. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

/* The data node for block of inode inum, read whole at buf and its
 * header checked: its key and size checked, then decompressed into out
 * (*got bytes). */
static int decode_node(struct ubifs_fs *u, uint64_t inum, uint32_t block,
		       const struct ubifs_loc *loc, const uint8_t *buf,
		       uint8_t out[UBIFS_BLOCK_SIZE], uint32_t *got, void **dctx)
{
	char why[FF_ERR_MSG_MAX];
	struct ubifs_key k = ubifs_key_make((uint32_t)inum, UBIFS_DATA_NODE, block), nk;
	uint32_t size;
	ssize_t n;

	ubifs_key_decode(buf + UBIFS_KEY_OFF, &nk);
	size = ff_get_le32(buf + DATA_SIZE);
	if (ubifs_key_cmp(&nk, &k) || size > UBIFS_BLOCK_SIZE) {
		ff_fs_log(&u->fs, "inode %llu: block %u: data node at LEB %u:%u has key %u:%08x "
			  "and size %u", (unsigned long long)inum, block, loc->lnum, loc->offs,
			  nk.inum, nk.lo, size);
		return -EIO;
	}
	if (ubifs_lzo_missing(ff_get_le16(buf + DATA_COMPR), why, sizeof(why))) {
		ff_fs_log(&u->fs, "inode %llu: block %u: %s", (unsigned long long)inum, block, why);
		return -ENOTSUP;
	}
	/* a zstd context once a zstd node shows: not for other codecs */
	if (!*dctx && ff_get_le16(buf + DATA_COMPR) == UBIFS_COMPR_ZSTD)
		*dctx = ubifs_zstd_dctx_get(u);
	n = ubifs_decompress_ctx(ff_get_le16(buf + DATA_COMPR), buf + UBIFS_DATA_NODE_SZ,
				 loc->len - UBIFS_DATA_NODE_SZ, out, UBIFS_BLOCK_SIZE, *dctx);
	if (n != (ssize_t)size) {
		ff_fs_log(&u->fs, "inode %llu: block %u: data node at LEB %u:%u (%s) %s %u bytes",
			  (unsigned long long)inum, block, loc->lnum, loc->offs,
			  ubifs_compr_name(ff_get_le16(buf + DATA_COMPR)),
			  n < 0 ? "does not decompress to" : "decompresses to other than", size);
		return -EIO;
	}
	*got = size;
	return 0;
}

int ubifs_data_block(struct ubifs_fs *u, uint64_t inum, uint32_t block,
		     uint8_t out[UBIFS_BLOCK_SIZE], uint32_t *got)
{
	uint8_t buf[UBIFS_DATA_NODE_SZ + UBIFS_BLOCK_SIZE];
	struct ubifs_key k = ubifs_key_make((uint32_t)inum, UBIFS_DATA_NODE, block);
	struct ubifs_loc loc;
	void *dctx = NULL;
	int ret = ubifs_lookup(u, &k, &loc);

	*got = 0;
	if (ret == -ENOENT)
		return 0;
	if (ret < 0 || (ret = ubifs_read_data_node(u, &loc, buf, sizeof(buf))) < 0)
		return ret;
	ret = decode_node(u, inum, block, &loc, buf, out, got, &dctx);
	ubifs_zstd_dctx_put(u, dctx);
	return ret;
}

/* A range of blocks is read in runs: the nodes of consecutive blocks that
 * lie one after the other in a LEB (as a builder writes a file) come in
 * one read of up to RUN_BLOCKS nodes rather than one each, and share one
 * zstd context (taken at the first zstd node); 4 KiB blocks otherwise
 * cost a system call each. */
#define RUN_BLOCKS 16u
#define RUN_NODE_MAX (UBIFS_DATA_NODE_SZ + UBIFS_BLOCK_SIZE)
#define RUN_BUF (RUN_BLOCKS * (RUN_NODE_MAX + 8u))

struct run_ctx {
	struct ubifs_fs *u;
	const struct ubifs_ino *ino;
	uint8_t *buf;           /* RUN_BUF bytes; NULL: node by node */
	void *dctx;
	uint8_t edge[2][UBIFS_BLOCK_SIZE]; /* blocks the range takes part of */
};

/* A data node the run may read: inside the volume, of a data node's size. */
static int runnable(const struct ubifs_fs *u, const struct ubifs_loc *l)
{
	return l->lnum < u->sb.leb_cnt && l->offs <= u->sb.leb_size &&
	       l->len <= u->sb.leb_size - l->offs && l->len >= UBIFS_DATA_NODE_SZ &&
	       l->len <= RUN_NODE_MAX;
}

static int follows(const struct ubifs_loc *a, const struct ubifs_loc *b)
{
	return b->lnum == a->lnum && b->offs == a->offs + ((a->len + 7u) & ~7u);
}

struct gather {
	uint32_t first, n;
	struct ubifs_loc *loc;
	int *have;
};

static int gather_one(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		      const uint8_t *node)
{
	struct gather *g = ctx;
	uint32_t i = UBIFS_KEY_VAL(*k) - g->first;

	(void)node;
	if (i < g->n) {
		g->loc[i] = *loc;
		g->have[i] = 1;
	}
	return 0;
}

/* Blocks first .. first + n - 1 (n <= RUN_BLOCKS) into out[i], got[i]
 * bytes each (0: a hole). */
static int read_run(struct run_ctx *c, uint32_t first, uint32_t n, uint8_t **out,
		    uint32_t *got)
{
	struct ubifs_loc loc[RUN_BLOCKS];
	int have[RUN_BLOCKS] = { 0 };
	struct gather g = { first, n, loc, have };
	struct ubifs_key lo = ubifs_key_make((uint32_t)c->ino->inum, UBIFS_DATA_NODE, first);
	struct ubifs_key hi = ubifs_key_make((uint32_t)c->ino->inum, UBIFS_DATA_NODE,
					     first + n - 1);
	int ret;

	/* one walk of the index (and the journal's changes) for the run,
	 * not a lookup from the root for each block */
	if ((ret = ubifs_walk(c->u, &lo, &hi, gather_one, &g)) < 0)
		return ret;
	memset(got, 0, n * sizeof(*got));
	for (uint32_t i = 0, j; i < n; i = j) {
		uint32_t span;

		j = i + 1;
		if (!have[i])
			continue;
		if (!c->buf || !runnable(c->u, &loc[i])) {
			if ((ret = ubifs_data_block(c->u, c->ino->inum, first + i, out[i],
						    &got[i])) < 0)
				return ret;
			continue;
		}
		while (j < n && have[j] && runnable(c->u, &loc[j]) && follows(&loc[j - 1], &loc[j]))
			j++;
		span = loc[j - 1].offs + loc[j - 1].len - loc[i].offs;
		if (ubifs_leb_read_ahead(c->u, loc[i].lnum, loc[i].offs, c->buf, span) < 0) {
			ff_fs_log(&c->u->fs, "data: read of LEB %u:%u failed", loc[i].lnum,
				  loc[i].offs);
			return -EIO;
		}
		for (uint32_t m = i; m < j; m++) {
			const uint8_t *node = c->buf + (loc[m].offs - loc[i].offs);

			if (ubifs_data_node_verify(c->u, &loc[m], node) < 0)
				return -EIO;
			if ((ret = decode_node(c->u, c->ino->inum, first + m, &loc[m], node,
					       out[m], &got[m], &c->dctx)) < 0)
				return ret;
		}
	}
	return 0;
}

/* Where block i of the run goes: straight into the caller's buffer when
 * the range takes all of it, else into an edge buffer. */
static uint8_t *block_out(struct run_ctx *c, uint8_t *buf, size_t len, uint64_t off,
			  uint64_t block, uint32_t i)
{
	uint64_t at = block * UBIFS_BLOCK_SIZE;

	if (at >= off && at + UBIFS_BLOCK_SIZE <= off + len)
		return buf + (at - off);
	return c->edge[i ? 1 : 0];
}

/* Blocks of [off + done, off + len) from one run; the bytes done. */
static ssize_t read_some(struct run_ctx *c, uint8_t *buf, size_t len, uint64_t off, size_t done)
{
	uint64_t b0 = (off + done) / UBIFS_BLOCK_SIZE, last = (off + len - 1) / UBIFS_BLOCK_SIZE;
	uint32_t n = last - b0 + 1 < RUN_BLOCKS ? (uint32_t)(last - b0 + 1) : RUN_BLOCKS;
	uint8_t *out[RUN_BLOCKS];
	uint32_t got[RUN_BLOCKS];
	size_t start = done;
	int ret;

	if (b0 > UBIFS_KEY_VAL_MASK) { /* no key reaches here: a hole */
		memset(buf + done, 0, len - done);
		return (ssize_t)(len - done);
	}
	if (b0 + n - 1 > UBIFS_KEY_VAL_MASK)
		n = (uint32_t)(UBIFS_KEY_VAL_MASK - b0 + 1);
	for (uint32_t i = 0; i < n; i++)
		out[i] = block_out(c, buf, len, off, b0 + i, i);
	if ((ret = read_run(c, (uint32_t)b0, n, out, got)) < 0)
		return ret;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t in = (uint32_t)((off + done) % UBIFS_BLOCK_SIZE);
		size_t k = UBIFS_BLOCK_SIZE - in < len - done ? UBIFS_BLOCK_SIZE - in : len - done;

		if (out[i] == buf + done) {
			memset(out[i] + got[i], 0, UBIFS_BLOCK_SIZE - got[i]);
		} else {
			if (got[i] > in)
				memcpy(buf + done, out[i] + in, got[i] - in < k ? got[i] - in : k);
			if (got[i] < in + k)
				memset(buf + done + (got[i] > in ? got[i] - in : 0), 0,
				       k - (got[i] > in ? got[i] - in : 0));
		}
		done += k;
	}
	return (ssize_t)(done - start);
}

ssize_t ubifs_read_data(struct ubifs_fs *u, const struct ubifs_ino *ino, uint8_t *buf,
			size_t len, uint64_t off)
{
	struct run_ctx *c;
	size_t done = 0;
	ssize_t r = 0;

	len = ff_read_span(ino->size, off, len);
	if (!len)
		return 0;
	/* not zeroed: the edge blocks are written before they are read */
	if (!(c = malloc(sizeof(*c))))
		return -ENOMEM;
	c->u = u;
	c->ino = ino;
	c->dctx = NULL;
	c->buf = len > UBIFS_BLOCK_SIZE ? malloc(RUN_BUF) : NULL; /* NULL: node by node */
	while (done < len && (r = read_some(c, buf, len, off, done)) >= 0)
		done += (size_t)r;
	ubifs_zstd_dctx_put(u, c->dctx);
	free(c->buf);
	free(c);
	return r < 0 ? r : (ssize_t)done;
}
