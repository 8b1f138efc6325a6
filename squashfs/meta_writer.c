/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Metadata blocks: the stream is cut into 8 KiB pieces, each compressed on
 * its own (stored raw when compression does not shrink it) behind a 2-byte
 * header.  Tables are small next to file data, so the finished blocks stay
 * in memory until the image layout places them; the inode table, which
 * directly follows the data and is the largest (about 10 bytes a small
 * file), is streamed to the image instead, and the directory table, next
 * in size (9 to 12), waits in a scratch file (issue 33). */
#include "squashfs/meta_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "common/tmpfile.h"

void sqfs_meta_init(struct sqfs_meta_writer *mw, struct ff_comp_ctx *ctx)
{
	memset(mw, 0, sizeof(*mw));
	mw->ctx = ctx;
	mw->spool_fd = -1;
}

/* Streamed blocks are written in runs of at least this many bytes. */
#define SPILL_BYTES (64u * 1024)

void sqfs_meta_stream(struct sqfs_meta_writer *mw, struct sqfs_sink *s)
{
	/* what out holds now is not written yet: the table starts here */
	mw->direct = s;
	mw->direct_start = s->pos;
}

void sqfs_meta_spool(struct sqfs_meta_writer *mw)
{
	struct ff_err ignored = {0};

	mw->spool_fd = ff_tmpfile_open("metadata", &ignored);
}

static int spill(struct sqfs_meta_writer *mw, struct ff_err *err)
{
	if (mw->direct ? sqfs_sink_write(mw->direct, mw->out, mw->len, err)
		       : ff_tmpfile_pwrite(mw->spool_fd, mw->out, mw->len, mw->base, "metadata",
					   err))
		return -1;
	mw->base += mw->len;
	mw->len = 0;
	return 0;
}

void sqfs_meta_free(struct sqfs_meta_writer *mw)
{
	free(mw->out);
	free(mw->starts);
	if (mw->spool_fd >= 0)
		close(mw->spool_fd);
	mw->spool_fd = -1;
	mw->out = NULL;
	mw->starts = NULL;
	mw->len = mw->cap = mw->n_starts = mw->starts_cap = 0;
}

static int reserve(struct sqfs_meta_writer *mw, size_t more, struct ff_err *err)
{
	if (mw->len + more > mw->cap) {
		size_t cap = mw->cap ? mw->cap * 2 : 4 * (SQFS_META_SIZE + 2);
		uint8_t *p;

		while (cap < mw->len + more)
			cap *= 2;
		p = realloc(mw->out, cap);
		if (!p)
			return ff_err_set(err, ENOMEM, "metadata: out of memory (%zu bytes)", cap);
		mw->out = p;
		mw->cap = cap;
	}
	if (mw->n_starts == mw->starts_cap) {
		size_t cap = mw->starts_cap ? mw->starts_cap * 2 : 16;
		uint64_t *p = realloc(mw->starts, cap * sizeof(*p));

		if (!p)
			return ff_err_set(err, ENOMEM, "metadata: out of memory");
		mw->starts = p;
		mw->starts_cap = cap;
	}
	return 0;
}

int sqfs_meta_flush(struct sqfs_meta_writer *mw, struct ff_err *err)
{
	ssize_t n;
	int raw;

	if (!mw->fill)
		return 0;
	if (reserve(mw, SQFS_META_HEADER_SIZE + mw->fill, err) < 0)
		return -1;
	/* No context: this table is stored uncompressed (-noI and friends). */
	n = mw->ctx ? ff_comp_compress(mw->ctx, mw->block, mw->fill, mw->scratch, mw->fill, err)
		    : FF_COMP_NOSHRINK;
	if (n < 0)
		return ff_err_prefix(err, "metadata block");
	raw = n == FF_COMP_NOSHRINK;
	if (raw)
		n = (ssize_t)mw->fill;
	mw->starts[mw->n_starts++] = mw->base + mw->len;
	ff_put_le16(mw->out + mw->len, sqfs_meta_header_encode((uint32_t)n, raw));
	memcpy(mw->out + mw->len + SQFS_META_HEADER_SIZE, raw ? mw->block : mw->scratch,
	       (size_t)n);
	mw->len += SQFS_META_HEADER_SIZE + (size_t)n;
	mw->fill = 0;
	return (mw->direct || mw->spool_fd >= 0) && mw->len >= SPILL_BYTES ? spill(mw, err) : 0;
}

/* The spooled blocks, to their place, in SPILL_BYTES pieces. */
static int copy_spooled(struct sqfs_sink *s, struct sqfs_meta_writer *mw, struct ff_err *err)
{
	uint8_t *buf = malloc(SPILL_BYTES);
	int ret = 0;

	if (!buf)
		return ff_err_set(err, ENOMEM, "metadata: out of memory");
	for (uint64_t off = 0; off < mw->base && ret == 0;) {
		size_t n = mw->base - off < SPILL_BYTES ? (size_t)(mw->base - off) : SPILL_BYTES;

		ret = ff_tmpfile_pread(mw->spool_fd, buf, n, off, "metadata", err) < 0 ||
				      sqfs_sink_write(s, buf, n, err) < 0
			      ? -1
			      : 0;
		off += n;
	}
	free(buf);
	return ret;
}

int sqfs_meta_emit(struct sqfs_sink *s, struct sqfs_meta_writer *mw, uint64_t *start,
		   struct ff_err *err)
{
	if (sqfs_meta_flush(mw, err) < 0)
		return -1;
	*start = mw->direct ? mw->direct_start : s->pos;
	if (mw->spool_fd >= 0 && copy_spooled(s, mw, err) < 0)
		return -1;
	return sqfs_sink_write(s, mw->out, mw->len, err);
}

int sqfs_meta_write(struct sqfs_meta_writer *mw, const void *buf, size_t len,
		    struct ff_err *err)
{
	const uint8_t *p = buf;

	while (len) {
		size_t chunk = SQFS_META_SIZE - mw->fill;

		if (chunk > len)
			chunk = len;
		memcpy(mw->block + mw->fill, p, chunk);
		mw->fill += chunk;
		mw->raw_pos += chunk;
		p += chunk;
		len -= chunk;
		/* Flushing as soon as a block is full keeps fill < 8192, so a
		 * reference taken now always names the block the bytes land in. */
		if (mw->fill == SQFS_META_SIZE && sqfs_meta_flush(mw, err) < 0)
			return -1;
	}
	return 0;
}
