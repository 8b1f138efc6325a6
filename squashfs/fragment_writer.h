/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Tail-end packing (fragment_writer.c) and the fragment table it fills
 * (fragment_table_writer.c).  Full fragment blocks go to the block
 * processor like data blocks; the entry of each is filled when the block
 * is retired, in submission order. */
#ifndef FF_SQUASHFS_FRAGMENT_WRITER_H
#define FF_SQUASHFS_FRAGMENT_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/vec.h"
#include "compress/compress.h"
#include "squashfs/block_proc.h"
#include "squashfs/format.h"
#include "squashfs/sink.h"

struct sqfs_frag_writer {
	uint8_t *buf;
	uint32_t fill, block_size;
	int store_raw;        /* -noF: blocks stored uncompressed */
	uint32_t count;       /* fragment blocks submitted */
	uint32_t tails;
	struct ff_vec entries; /* struct sqfs_fragment_entry, filled as blocks
				  are retired */
};

int sqfs_frag_init(struct sqfs_frag_writer *f, uint32_t block_size, int store_raw,
		   struct ff_err *err);
/* Entries of an image appended to: new blocks are numbered after them. */
int sqfs_frag_preload(struct sqfs_frag_writer *f, const struct sqfs_fragment_entry *e,
		      uint32_t n, struct ff_err *err);
/* Packs a tail; *index and *offset tell where it went. */
int sqfs_frag_add(struct sqfs_frag_writer *f, struct sqfs_block_proc *bp, const uint8_t *tail,
		  uint32_t len, uint32_t *index, uint32_t *offset, struct ff_err *err);
/* Submits the partial block. */
int sqfs_frag_flush(struct sqfs_frag_writer *f, struct sqfs_block_proc *bp, struct ff_err *err);
/* A fragment block's turn: its bytes to the sink, its entry filled. */
int sqfs_frag_retire(struct sqfs_frag_writer *f, struct sqfs_sink *s, struct sqfs_block *b,
		     struct ff_err *err);
void sqfs_frag_free(struct sqfs_frag_writer *f);

/* fragment_table_writer.c: the table at the sink (ctx NULL: stored). */
int sqfs_fragment_table_write(const struct sqfs_frag_writer *f, struct sqfs_sink *s,
			      struct ff_comp_ctx *ctx, uint64_t *pos, struct ff_err *err);

#endif
