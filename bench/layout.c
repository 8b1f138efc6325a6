/* The corpus cut into SquashFS blocks the way mkfs.squashfs (and
 * mksquashfs) cut it: full blocks per file; a file smaller than the block
 * size goes into a fragment block; the tail of a larger file is a short
 * block unless tails are packed too (--always-fragments); identical files
 * are stored once; all-zero blocks are sparse and cost nothing.  Fragment
 * blocks are filled in file order and closed when the next tail would not
 * fit. */
#include "bench/bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

static int unique(const struct bench_file *f, const struct bench_layout_opts *o)
{
	return f->size && (o->no_dedup || f->dup_of < 0);
}

/* The part of a file that goes into a fragment (0 = none). */
static uint32_t frag_part(const struct bench_file *f, const struct bench_layout_opts *o)
{
	uint32_t tail = (uint32_t)(f->size % o->block_size);

	if (o->no_fragments)
		return 0;
	if (f->size < o->block_size)
		return (uint32_t)f->size;
	return o->always_fragments ? tail : 0;
}

static int push_block(struct bench_layout *l, size_t *cap, const uint8_t *p, uint32_t len,
		      uint32_t kind, struct ff_err *err)
{
	if (l->n_blocks == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		struct bench_block *b = realloc(l->blocks, n * sizeof(*b));

		if (!b)
			return ff_err_set(err, ENOMEM, "bench: out of memory for %zu blocks", n);
		l->blocks = b;
		*cap = n;
	}
	l->blocks[l->n_blocks++] = (struct bench_block){ .p = p, .len = len, .kind = kind };
	l->bytes += len;
	return 0;
}

static int file_blocks(const struct bench_corpus *c, size_t fi,
		       const struct bench_layout_opts *o, struct bench_layout *l, size_t *cap,
		       struct ff_err *err)
{
	const struct bench_file *f = &c->files[fi];
	uint64_t in_blocks = f->size - frag_part(f, o);
	uint32_t n = 0;

	l->file_first[fi] = l->n_blocks;
	for (uint64_t off = 0; off < in_blocks; off += o->block_size, n++) {
		uint32_t len = in_blocks - off < o->block_size ? (uint32_t)(in_blocks - off)
							       : o->block_size;
		const uint8_t *p = c->data + f->off + off;
		uint32_t kind = !o->no_sparse && ff_is_zero(p, len) ? BENCH_BLOCK_ZERO
								 : BENCH_BLOCK_DATA;

		if (push_block(l, cap, p, len, kind, err))
			return -1;
	}
	l->file_blocks[fi] = n;
	return 0;
}

struct frag_fill {
	uint64_t start, used;  /* current fragment block in the arena */
};

static int add_tail(const struct bench_corpus *c, size_t fi, uint32_t len,
		    struct bench_layout *l, struct frag_fill *ff, size_t *cap,
		    struct ff_err *err)
{
	const struct bench_file *f = &c->files[fi];

	if (ff->used + len > l->block_size) {
		if (push_block(l, cap, l->frag_arena + ff->start, (uint32_t)ff->used,
			       BENCH_BLOCK_FRAG, err))
			return -1;
		l->n_frag_blocks++;
		ff->start += ff->used;
		ff->used = 0;
	}
	memcpy(l->frag_arena + ff->start + ff->used, c->data + f->off + f->size - len, len);
	l->file_frag[fi] = l->n_frag_blocks;
	l->file_frag_off[fi] = (uint32_t)ff->used;
	ff->used += len;
	return 0;
}

static int alloc_arrays(const struct bench_corpus *c, const struct bench_layout_opts *o,
			struct bench_layout *l, struct ff_err *err)
{
	uint64_t tails = 0;

	for (size_t i = 0; i < c->n_files; i++)
		if (unique(&c->files[i], o))
			tails += frag_part(&c->files[i], o);
	l->frag_arena = malloc(tails ? tails : 1);
	l->file_blocks = calloc(c->n_files + 1, sizeof(*l->file_blocks));
	l->file_has_frag = calloc(c->n_files + 1, 1);
	l->file_first = calloc(c->n_files + 1, sizeof(*l->file_first));
	l->file_frag = calloc(c->n_files + 1, sizeof(*l->file_frag));
	l->file_frag_off = calloc(c->n_files + 1, sizeof(*l->file_frag_off));
	if (!l->frag_arena || !l->file_blocks || !l->file_has_frag || !l->file_first ||
	    !l->file_frag || !l->file_frag_off)
		return ff_err_set(err, ENOMEM, "bench: out of memory for the block layout");
	return 0;
}

static void copy_dup_shapes(const struct bench_corpus *c, const struct bench_layout_opts *o,
			    struct bench_layout *l)
{
	for (size_t i = 0; i < c->n_files; i++) {
		const struct bench_file *f = &c->files[i];

		if (f->size && !unique(f, o)) {
			l->file_blocks[i] = l->file_blocks[f->dup_of];
			l->file_has_frag[i] = l->file_has_frag[f->dup_of];
			l->file_first[i] = l->file_first[f->dup_of];
			l->file_frag[i] = l->file_frag[f->dup_of];
			l->file_frag_off[i] = l->file_frag_off[f->dup_of];
		}
	}
}

int bench_layout_build(const struct bench_corpus *c, const struct bench_layout_opts *o,
		       struct bench_layout *l, struct ff_err *err)
{
	struct frag_fill ff = { 0 };
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	l->block_size = o->block_size;
	if (o->block_size < 4096 || o->block_size > (1u << 20) ||
	    (o->block_size & (o->block_size - 1)))
		return ff_err_set(err, EINVAL, "block size %u: must be a power of two in 4K..1M",
				  o->block_size);
	if (alloc_arrays(c, o, l, err))
		goto fail;
	for (size_t i = 0; i < c->n_files; i++) {
		const struct bench_file *f = &c->files[i];
		uint32_t tail = frag_part(f, o);

		if (!unique(f, o))
			continue;
		if (file_blocks(c, i, o, l, &cap, err))
			goto fail;
		l->file_has_frag[i] = tail > 0;
		if (tail && add_tail(c, i, tail, l, &ff, &cap, err))
			goto fail;
	}
	if (ff.used) {
		if (push_block(l, &cap, l->frag_arena + ff.start, (uint32_t)ff.used,
			       BENCH_BLOCK_FRAG, err))
			goto fail;
		l->n_frag_blocks++;
	}
	copy_dup_shapes(c, o, l);
	return 0;
fail:
	bench_layout_free(l);
	return -1;
}

void bench_layout_free(struct bench_layout *l)
{
	free(l->blocks);
	free(l->frag_arena);
	free(l->file_blocks);
	free(l->file_has_frag);
	free(l->file_first);
	free(l->file_frag);
	free(l->file_frag_off);
	memset(l, 0, sizeof(*l));
}
