/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A stream of 8 KiB metadata blocks (meta_writer.c), kept in memory until
 * emitted at its place in the image, or written out as it fills
 * (sqfs_meta_stream).  Every table writer builds on it. */
#ifndef FF_SQUASHFS_META_WRITER_H
#define FF_SQUASHFS_META_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "compress/compress.h"
#include "squashfs/format.h"
#include "squashfs/sink.h"

struct sqfs_meta_writer {
	struct ff_comp_ctx *ctx; /* NULL: blocks are stored uncompressed */
	uint8_t block[SQFS_META_SIZE];
	uint8_t scratch[SQFS_META_SIZE];
	size_t fill;          /* bytes in block; always < SQFS_META_SIZE */
	uint64_t raw_pos;     /* uncompressed bytes written so far */
	uint8_t *out;         /* finished blocks, each with its 2-byte header */
	size_t len, cap;      /* bytes in out */
	uint64_t *starts;     /* offset of each finished block in the table */
	size_t n_starts, starts_cap;
	struct sqfs_sink *direct; /* streaming: out is written here past a size */
	uint64_t direct_start;    /* where the table starts in direct */
	uint64_t base;            /* table bytes already written to direct
				     or to spool_fd */
	int spool_fd;             /* -1, else finished blocks wait here */
};

void sqfs_meta_init(struct sqfs_meta_writer *mw, struct ff_comp_ctx *ctx);
/* From now on finished blocks go to s, at its current position, whenever
 * 64 KiB of them are waiting; nothing else may write to s until
 * sqfs_meta_emit.  For a table that directly follows what is already
 * written (the inode table after the data), so it is never held whole. */
void sqfs_meta_stream(struct sqfs_meta_writer *mw, struct sqfs_sink *s);
/* From now on finished blocks go to an unnamed scratch file (TMPDIR)
 * whenever 64 KiB of them are waiting, and sqfs_meta_emit copies them to
 * their place: for a large table placed after one still being written
 * (the directory table, 9 to 12 bytes an entry, behind the inode table).
 * Without a scratch file (none can be made) the table stays in memory. */
void sqfs_meta_spool(struct sqfs_meta_writer *mw);
int sqfs_meta_write(struct sqfs_meta_writer *mw, const void *buf, size_t len,
		    struct ff_err *err);
/* Close a partial block. */
int sqfs_meta_flush(struct sqfs_meta_writer *mw, struct ff_err *err);
/* Appends the finished stream at the sink; *start its position. */
int sqfs_meta_emit(struct sqfs_sink *s, struct sqfs_meta_writer *mw, uint64_t *start,
		   struct ff_err *err);
void sqfs_meta_free(struct sqfs_meta_writer *mw);
/* Where the next byte goes: block start relative to the table, offset. */
static inline uint64_t sqfs_meta_ref(const struct sqfs_meta_writer *mw)
{
	return sqfs_ref(mw->base + mw->len, (uint32_t)mw->fill);
}

#endif
