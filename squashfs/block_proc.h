/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The compression pool of the data pass (block_proc_writer.c): blocks are
 * compressed on worker threads and retired in submission order, so the
 * image does not depend on the number of threads. */
#ifndef FF_SQUASHFS_BLOCK_PROC_H
#define FF_SQUASHFS_BLOCK_PROC_H

#include <stdint.h>

#include "common/error.h"
#include "compress/compress.h"

struct sqfs_block {
	uint8_t *in, *out;
	uint32_t in_len, out_len;
	int kind;             /* enum ff_sqfs_block_kind; workers may make DATA SPARSE */
	int raw;              /* out is unused, in is stored as is */
	int check_sparse;
	int store_raw;        /* keep uncompressed (-noD, -noF) */
	void *owner;          /* the submitter's bookkeeping */
	uint32_t idx;
	int failed;
	struct ff_err err;
};

/* Called in submission order on the submitting thread. */
typedef int (*sqfs_retire_fn)(void *user, struct sqfs_block *b, struct ff_err *err);
struct sqfs_block_proc;
struct sqfs_block_proc *sqfs_block_proc_new(const struct ff_comp *comp, uint32_t block_size,
					    unsigned threads, sqfs_retire_fn retire, void *user,
					    struct ff_err *err);
/* The next free slot (waits for and retires the oldest when all are busy). */
struct sqfs_block *sqfs_block_proc_get(struct sqfs_block_proc *bp, struct ff_err *err);
void sqfs_block_proc_submit(struct sqfs_block_proc *bp, struct sqfs_block *b);
/* Retire everything submitted. */
int sqfs_block_proc_drain(struct sqfs_block_proc *bp, struct ff_err *err);
void sqfs_block_proc_free(struct sqfs_block_proc *bp);

#endif
