/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The plan: one record per inode in the tree's pre-order (the root
 * first, so its nid is the smallest and fits the superblock's 16 bits),
 * each inode's size and layout, then the inodes' places in the meta area.
 * A flat file keeps its last partial block behind the inode (flat inline)
 * when inode, xattrs and that tail fit in one block, as mkfs.erofs does
 * unless -E noinline_data; else every block is in the data area.
 * A compressed file's inode is "late": its inline tail's size
 * (ztailpacking), its index form (dedupe), whether it stays compressed
 * at all are known only once the file is compressed, so it goes in a
 * meta region after the compressed data (nids are 64-bit in dirents;
 * only the root's must fit the superblock's 16 bits, and the root is a
 * directory). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/vec.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

struct ew_ino *ew_ino_of(const struct ew *w, const struct ff_node *n)
{
	if (ff_node_link(n))
		n = ff_node_link(n);
	return &w->inos[n->priv - 1];
}

static int collect(struct ew *w, struct ff_err *err)
{
	uint32_t n = 0;

	for (struct ff_node *x = ff_tree_root(w->tree); x; x = ff_tree_next(w->tree, x))
		n += !ff_node_link(x);
	w->inos = calloc(n, sizeof(*w->inos));
	if (!w->inos)
		return ff_err_set(err, ENOMEM, "inodes: out of memory (%u)", n);
	for (struct ff_node *x = ff_tree_root(w->tree); x; x = ff_tree_next(w->tree, x)) {
		if (ff_node_link(x))
			continue;
		x->priv = (uint32_t)(w->n_inos + 1);
		w->inos[w->n_inos].n = x;
		w->n_inos++;
	}
	return 0;
}

/* i_size, and for regular files whether and how they are compressed. */
static int size_of(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	struct ff_node *n = e->n;

	if (S_ISDIR(n->mode))
		return ew_dir_build(w, e, NULL, err);
	if (S_ISLNK(n->mode)) {
		e->size = strlen(n->target);
	} else if (S_ISREG(n->mode)) {
		e->size = n->size;
		/* a file of one block or less cannot save a block: flat,
		 * its bytes inline, as mkfs.erofs stores it; with fragments
		 * it goes whole into the packed inode, compressed there;
		 * with ztailpacking its stream may go inline, shorter */
		e->compressed = w->o->codec != FF_EROFS_NONE &&
				(n->size > w->blksz ||
				 ((w->o->fragments || w->o->ztailpacking) && n->size));
		if (e->compressed && (w->o->all_fragments ||
				      (w->o->fragments && n->size <= w->blksz)))
			e->frag = 2;
	}
	return 0;
}

/* Flat layouts: inline the tail when inode, xattrs and tail share a block. */
static void flat_layout(struct ew *w, struct ew_ino *e)
{
	uint32_t head = (e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE) + e->xattr_len;
	uint32_t tail = (uint32_t)(e->size % w->blksz);

	e->layout = ER_FLAT_PLAIN;
	e->nblocks = (uint32_t)((e->size + w->blksz - 1) >> w->blkbits);
	if (tail && !w->o->no_inline && head + tail <= w->blksz) {
		e->layout = ER_FLAT_INLINE;
		e->inline_len = tail;
		e->nblocks--;
	}
}

void ew_plan_flat(struct ew *w, struct ew_ino *e)
{
	flat_layout(w, e);
	e->zmeta_len = 0;
	e->slot = (e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE) + e->xattr_len +
		  e->inline_len;
}

int ew_plan(struct ew *w, struct ff_err *err)
{
	if (collect(w, err) || ew_xattr_count(w, err))
		return -1;
	for (uint32_t i = 0; i < w->n_inos; i++) {
		struct ew_ino *e = &w->inos[i];

		if (ew_xattr_body(w, e, err) || size_of(w, e, err) ||
		    (e->frag == 2 && w->o->all_fragments && ew_frag_plan(w, e, err)))
			return -1;
		e->ext = (uint8_t)ew_inode_pick_form(w, e);
		if (!e->compressed && S_ISREG(e->n->mode) && w->o->chunksize && e->size > w->blksz) {
			/* a 4-byte block address per chunk, right after the xattrs
			 * (a file of a block or less stays flat: inline, smaller) */
			e->layout = ER_CHUNK_BASED;
			e->zmeta_len = (uint32_t)((e->size + w->o->chunksize - 1) /
						  w->o->chunksize * 4);
			w->chunked = 1;
		} else if (!e->compressed) {
			flat_layout(w, e);
		} else {
			e->layout = ew_zmap_compact_ok(w) ? ER_COMPRESSED_COMPACT
							  : ER_COMPRESSED_FULL;
			/* a whole fragment has the map header only; a tail
			 * fragment's offset takes the inline size's place */
			e->zmeta_len = e->frag == 2 ? ER_MAP_HEADER_SIZE : ew_zmap_len(w, e);
			/* its slot is known once compressed: the inline tail, full
			 * indexes (dedupe) or compact, or flat (no gain) */
			e->late = e->frag != 2;
		}
		e->slot = (e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE) +
			  e->xattr_len + e->inline_len;
		if (e->zmeta_len)
			e->slot = (uint32_t)ew_align(e->slot - e->inline_len,
						     e->layout == ER_CHUNK_BASED ? 4 : 8) +
				  e->zmeta_len + e->inline_len;
	}
	return 0;
}

/* Placing inodes in a meta region: every block begun keeps the room
 * left at its end in a bucket by that room (in 32-byte slots), and an
 * inode that fits in one block goes into the fullest block it fits in
 * (the least room that is enough), else at the start of a new block, as
 * mkfs.erofs fills its meta blocks: an inode with its inline tail never
 * crosses a block (the kernel reads them from one), and small files'
 * inline tails leave no gaps to pad.  The choices follow the pre-order
 * alone, so the bytes do not depend on -j. */
struct fit {
	const struct ew *w;
	struct ff_vec *room;       /* per bucket: block positions (uint64_t) */
	uint64_t *nonempty;        /* a bit per bucket */
	uint32_t nb;               /* buckets: slots per block */
	uint64_t next;             /* the next block never used (aligned) */
	uint64_t end;              /* past the last byte placed */
	uint32_t least;            /* slots of the smallest inode to come */
};

static int fit_init(struct fit *f, const struct ew *w, uint64_t start, struct ff_err *err)
{
	memset(f, 0, sizeof(*f));
	f->w = w;
	f->nb = w->blksz / 32;
	f->room = calloc(f->nb + 1, sizeof(*f->room));
	f->nonempty = calloc(f->nb / 64 + 1, sizeof(uint64_t));
	if (!f->room || !f->nonempty) {
		free(f->room);
		free(f->nonempty);
		return ff_err_set(err, ENOMEM, "inode placement: out of memory");
	}
	for (uint32_t b = 0; b <= f->nb; b++)
		ff_vec_init(&f->room[b], sizeof(uint64_t));
	f->end = start;
	f->next = ew_align(start, w->blksz);
	return 0;
}

static void fit_free(struct fit *f)
{
	for (uint32_t b = 0; f->room && b <= f->nb; b++)
		ff_vec_free(&f->room[b]);
	free(f->room);
	free(f->nonempty);
}

/* The room from pos to the end of its block, for later inodes. */
static int fit_keep(struct fit *f, uint64_t pos, struct ff_err *err)
{
	uint32_t b = (uint32_t)((ew_align(pos, f->w->blksz) - pos) / 32);

	if (!b)
		return 0;
	if (ff_vec_push(&f->room[b], &pos))
		return ff_err_set(err, ENOMEM, "inode placement: out of memory");
	f->nonempty[b / 64] |= 1ull << (b % 64);
	return 0;
}

/* The smallest bucket of at least need slots with a block in it (0 none). */
static uint32_t fit_bucket(const struct fit *f, uint32_t need)
{
	for (uint32_t b = need; b <= f->nb; b++) {
		uint64_t word = f->nonempty[b / 64] >> (b % 64);

		if (word)
			return b + (uint32_t)__builtin_ctzll(word);
		b |= 63;
	}
	return 0;
}

/* The fullest block the inode fits in, passing over those it would leave
 * with room no inode to come fits in (that room is lost: a new block is
 * begun instead, and the room stays for a later inode that fills it). */
static uint32_t fit_find(const struct fit *f, uint32_t need)
{
	uint32_t b = fit_bucket(f, need);

	while (b && b != need && b - need < f->least)
		b = b < f->nb ? fit_bucket(f, b + 1) : 0;
	return b;
}

/* The smallest of the inodes to place (late or not), in slots. */
static void fit_least(struct fit *f, const struct ew *w, int late)
{
	for (uint32_t i = 0; i < w->n_inos; i++) {
		uint32_t s = (uint32_t)(ew_align(w->inos[i].slot, 32) / 32);

		if (!w->inos[i].late == !late && s && (!f->least || s < f->least))
			f->least = s;
	}
}

static int fit_place(struct fit *f, struct ew_ino *e, struct ff_err *err)
{
	uint32_t need = (uint32_t)(ew_align(e->slot, 32) / 32), b;
	uint64_t pos;

	if (e->slot <= f->w->blksz && (b = fit_find(f, need)) != 0) {
		struct ff_vec *v = &f->room[b];

		pos = *FF_VEC_AT(v, uint64_t, v->len - 1);
		if (!--v->len)
			f->nonempty[b / 64] &= ~(1ull << (b % 64));
	} else {
		pos = f->next;
		f->next = ew_align(pos + e->slot, f->w->blksz);
	}
	e->nid = pos >> 5;
	pos = ew_align(pos + e->slot, 32);
	if (pos > f->end)
		f->end = pos;
	return fit_keep(f, pos, err);
}

/* nids: 32-byte slots from just after the superblock (and the compression
 * configs), the late ones left for ew_write_late. */
int ew_place_inodes(struct ew *w, struct ff_err *err)
{
	uint64_t pos = ew_align(w->meta_end, 32);
	struct fit f;
	int r = fit_init(&f, w, pos, err) || fit_keep(&f, pos, err);

	fit_least(&f, w, 0);
	for (uint32_t i = 0; !r && i < w->n_inos; i++)
		if (!w->inos[i].late)
			r = fit_place(&f, &w->inos[i], err);
	pos = f.end;
	fit_free(&f);
	if (r)
		return -1;
	if (w->inos[0].nid > 0xffff)
		return ff_err_set(err, EINVAL, "root inode: nid %llu past 65535",
				  (unsigned long long)w->inos[0].nid);
	w->meta_end = pos;
	w->xattr_blkaddr = (uint32_t)(ew_align(pos, w->blksz) >> w->blkbits);
	w->data_start = w->xattr_blkaddr + (uint32_t)(ew_align(w->shared_len, w->blksz) >> w->blkbits);
	w->next_blk = w->data_start;
	return 0;
}

uint32_t ew_ztail_room(const struct ew *w, const struct ew_ino *e)
{
	uint32_t head = (uint32_t)ew_align((e->ext ? ER_INODE_EXTENDED_SIZE
						 : ER_INODE_COMPACT_SIZE) + e->xattr_len, 8) +
			e->zmeta_len;

	return head < w->blksz ? w->blksz - head : 0;
}

/* The room left at the end of each block of the first meta region (the
 * inodes placed before the data), so that late inodes fill it before a
 * block of their own region is begun: that region is written last
 * (write_meta), after every nid is known. */
static int fit_first_region(struct fit *f, const struct ew *w, struct ff_err *err)
{
	uint64_t nblk = ew_align(w->meta_end, w->blksz) >> w->blkbits, *end;
	int r = 0;

	if (!nblk)
		return 0;
	if (!(end = calloc((size_t)nblk, sizeof(*end))))
		return ff_err_set(err, ENOMEM, "inode placement: out of memory");
	for (uint32_t i = 0; i < w->n_inos; i++) {
		const struct ew_ino *e = &w->inos[i];
		uint64_t at = ew_align((e->nid << 5) + e->slot, 32);

		if (!e->late && at > end[(at - 1) >> w->blkbits])
			end[(at - 1) >> w->blkbits] = at;
	}
	for (uint64_t b = 0; !r && b < nblk; b++)
		if (end[b])
			r = fit_keep(f, end[b], err);
	free(end);
	return r;
}

int ew_write_late(struct ew *w, struct ff_err *err)
{
	uint64_t start = (uint64_t)w->next_blk << w->blkbits, pos, len;
	struct fit f;
	int r = fit_init(&f, w, start, err) || fit_first_region(&f, w, err);

	fit_least(&f, w, 1);
	for (uint32_t i = 0; !r && i < w->n_inos; i++)
		if (w->inos[i].late)
			r = fit_place(&f, &w->inos[i], err);
	if (!r && w->packed.n)
		r = fit_place(&f, &w->packed, err);
	pos = f.end;
	fit_free(&f);
	if (r)
		return -1;
	if (pos == start)
		return 0;
	len = ew_align(pos - start, w->blksz);
	r = ew_meta_write(w, start, start + len, err);
	w->next_blk += (uint32_t)(len >> w->blkbits);
	return r;
}
