/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Tail-end packing: file tails (and files smaller than a block) are copied
 * into the current fragment block in data order; when the next tail does
 * not fit, the block goes to the block processor like a data block, so its
 * place in the image is fixed by the order of submission alone. */
#include "squashfs/fragment_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "squashfs/writer.h"

int sqfs_frag_init(struct sqfs_frag_writer *f, uint32_t block_size, int store_raw,
		   struct ff_err *err)
{
	memset(f, 0, sizeof(*f));
	ff_vec_init(&f->entries, sizeof(struct sqfs_fragment_entry));
	f->block_size = block_size;
	f->store_raw = store_raw;
	f->buf = malloc(block_size);
	if (!f->buf)
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	return 0;
}

void sqfs_frag_free(struct sqfs_frag_writer *f)
{
	free(f->buf);
	ff_vec_free(&f->entries);
	memset(f, 0, sizeof(*f));
}


int sqfs_frag_preload(struct sqfs_frag_writer *f, const struct sqfs_fragment_entry *e,
		      uint32_t n, struct ff_err *err)
{
	if (ff_vec_append(&f->entries, e, n) < 0)
		return ff_err_set(err, ENOMEM, "append: out of memory for %u fragments", n);
	f->count = n;
	return 0;
}

int sqfs_frag_flush(struct sqfs_frag_writer *f, struct sqfs_block_proc *bp, struct ff_err *err)
{
	struct sqfs_block *b;

	if (!f->fill)
		return 0;
	/* 0xfffffffe marks a duplicate in the writer's file records
	 * (SQFS_FD_DUP, node_info.h), 0xffffffff no fragment */
	if (f->count >= SQFS_INVALID_FRAG - 1)
		return ff_err_set(err, EFBIG, "fragments: more than %u fragment blocks",
				  SQFS_INVALID_FRAG - 2);
	/* the entry is filled when the block is retired */
	if (ff_vec_push(&f->entries, NULL) < 0)
		return ff_err_set(err, ENOMEM, "fragments: out of memory for %u entries",
				  f->count + 1);
	b = sqfs_block_proc_get(bp, err);
	if (!b)
		return -1;
	memcpy(b->in, f->buf, f->fill);
	b->in_len = f->fill;
	b->kind = FF_SQFS_BLOCK_FRAGMENT;
	b->store_raw = f->store_raw;
	b->idx = f->count++;
	f->fill = 0;
	sqfs_block_proc_submit(bp, b);
	return 0;
}

int sqfs_frag_add(struct sqfs_frag_writer *f, struct sqfs_block_proc *bp, const uint8_t *tail,
		  uint32_t len, uint32_t *index, uint32_t *offset, struct ff_err *err)
{
	if (f->fill + len > f->block_size && sqfs_frag_flush(f, bp, err) < 0)
		return -1;
	memcpy(f->buf + f->fill, tail, len);
	*index = f->count;
	*offset = f->fill;
	f->fill += len;
	f->tails++;
	return 0;
}

int sqfs_frag_retire(struct sqfs_frag_writer *f, struct sqfs_sink *s, struct sqfs_block *b,
		     struct ff_err *err)
{
	struct sqfs_fragment_entry *e = FF_VEC_AT(&f->entries, struct sqfs_fragment_entry, b->idx);

	e->start = s->pos;
	e->size = b->out_len | (b->raw ? SQFS_BLOCK_UNCOMPRESSED : 0);
	return sqfs_sink_write(s, b->raw ? b->in : b->out, b->out_len, err);
}
