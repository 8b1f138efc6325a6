/* Tail-end packing: file tails (and files smaller than a block) are copied
 * into the current fragment block in data order; when the next tail does
 * not fit, the block goes to the block processor like a data block, so its
 * place in the image is fixed by the order of submission alone. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sqfs_frag_init(struct sqfs_frag_writer *f, uint32_t block_size, struct ff_err *err)
{
	memset(f, 0, sizeof(*f));
	f->block_size = block_size;
	f->buf = malloc(block_size);
	if (!f->buf)
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	return 0;
}

void sqfs_frag_free(struct sqfs_frag_writer *f)
{
	free(f->buf);
	free(f->entries);
	memset(f, 0, sizeof(*f));
}

static int grow_entries(struct sqfs_frag_writer *f, struct ff_err *err)
{
	size_t cap = f->cap ? f->cap * 2 : 64;
	struct sqfs_fragment_entry *p;

	if (f->count < f->cap)
		return 0;
	p = realloc(f->entries, cap * sizeof(*p));
	if (!p)
		return ff_err_set(err, ENOMEM, "fragments: out of memory for %zu entries", cap);
	f->entries = p;
	f->cap = cap;
	return 0;
}

int sqfs_frag_flush(struct sqfs_writer *w, struct ff_err *err)
{
	struct sqfs_frag_writer *f = &w->frags;
	struct sqfs_block *b;

	if (!f->fill)
		return 0;
	if (f->count == SQFS_INVALID_FRAG)
		return ff_err_set(err, EFBIG, "fragments: more than %u fragment blocks",
				  SQFS_INVALID_FRAG - 1);
	if (grow_entries(f, err) < 0)
		return -1;
	b = sqfs_block_proc_get(w->bp, err);
	if (!b)
		return -1;
	memcpy(b->in, f->buf, f->fill);
	b->in_len = f->fill;
	b->kind = FF_SQFS_BLOCK_FRAGMENT;
	b->store_raw = w->o->raw_fragments;
	b->idx = f->count++;
	f->fill = 0;
	sqfs_block_proc_submit(w->bp, b);
	return 0;
}

int sqfs_frag_add(struct sqfs_writer *w, struct sqfs_file_data *fd, const uint8_t *tail,
		  uint32_t len, struct ff_err *err)
{
	struct sqfs_frag_writer *f = &w->frags;

	if (f->fill + len > f->block_size && sqfs_frag_flush(w, err) < 0)
		return -1;
	memcpy(f->buf + f->fill, tail, len);
	fd->frag_index = f->count;
	fd->frag_offset = f->fill;
	f->fill += len;
	f->tails++;
	return 0;
}

int sqfs_frag_retire(struct sqfs_writer *w, struct sqfs_block *b, struct ff_err *err)
{
	struct sqfs_fragment_entry *e = &w->frags.entries[b->idx];

	e->start = w->sink.pos;
	e->size = b->out_len | (b->raw ? SQFS_BLOCK_UNCOMPRESSED : 0);
	return sqfs_sink_write(&w->sink, b->raw ? b->in : b->out, b->out_len, err);
}
