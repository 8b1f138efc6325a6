/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The plan: one record per inode in the tree's pre-order (the root
 * first, so its nid is the smallest and fits the superblock's 16 bits),
 * each inode's size and layout, then the inodes' places in the meta area.
 * A flat file keeps its last partial block behind the inode (flat inline)
 * when inode, xattrs and that tail fit in one block, as mkfs.erofs does
 * unless -E noinline_data; else every block is in the data area.
 * With -E ztailpacking a compressed file's inode is "late": its inline
 * tail's size is known only once the file is compressed, so it goes in a
 * meta region after the compressed data (nids are 64-bit in dirents;
 * only the root's must fit the superblock's 16 bits, and the root is a
 * directory). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "erofs/layout.h"
#include "erofs/write_priv.h"

struct ew_ino *ew_ino_of(const struct ew *w, const struct ff_node *n)
{
	if (n->link)
		n = n->link;
	return &w->inos[(uintptr_t)n->priv - 1];
}

static int collect(struct ew *w, struct ff_err *err)
{
	uint32_t n = 0;

	for (struct ff_node *x = ff_tree_root(w->tree); x; x = ff_tree_next(w->tree, x))
		n += !x->link;
	w->inos = calloc(n, sizeof(*w->inos));
	if (!w->inos)
		return ff_err_set(err, ENOMEM, "inodes: out of memory (%u)", n);
	for (struct ff_node *x = ff_tree_root(w->tree); x; x = ff_tree_next(w->tree, x)) {
		if (x->link)
			continue;
		x->priv = (void *)(uintptr_t)(w->n_inos + 1);
		w->inos[w->n_inos].n = x;
		w->inos[w->n_inos].ino = w->n_inos + 1;
		w->n_inos++;
	}
	return 0;
}

/* i_size, and what the content is for directories and symlinks. */
static int size_of(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	struct ff_node *n = e->n;

	if (S_ISDIR(n->mode))
		return ew_dir_build(w, e, 0, err);
	if (S_ISLNK(n->mode)) {
		e->size = strlen(n->target);
		e->content = (uint8_t *)n->target;
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

int ew_plan(struct ew *w, struct ff_err *err)
{
	if (collect(w, err) || ew_xattr_count(w, err))
		return -1;
	for (uint32_t i = 0; i < w->n_inos; i++) {
		struct ew_ino *e = &w->inos[i];

		if (ew_xattr_body(w, e, err) || size_of(w, e, err))
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
			e->late = (uint8_t)(w->o->ztailpacking && !w->o->fragments);
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

/* Where inodes go: the next 32-byte slot, and the ends of blocks that an
 * inode too long for them skipped (holes), which later shorter inodes
 * fill first (small files with inline tails would otherwise leave a
 * tenth of the meta area empty). */
#define EW_HOLES 256
struct placer {
	uint64_t pos;
	uint64_t hole_at[EW_HOLES];
	uint32_t hole_len[EW_HOLES];
	unsigned n;
};

/* The smallest hole e fits in: 1 and its nid, else 0. */
static int fill_hole(struct placer *pl, struct ew_ino *e)
{
	uint32_t need = (uint32_t)ew_align(e->slot, 32);
	unsigned best = pl->n;

	for (unsigned i = 0; i < pl->n; i++)
		if (pl->hole_len[i] >= need &&
		    (best == pl->n || pl->hole_len[i] < pl->hole_len[best]))
			best = i;
	if (best == pl->n)
		return 0;
	e->nid = pl->hole_at[best] >> 5;
	pl->hole_at[best] += need;
	pl->hole_len[best] -= need;
	if (pl->hole_len[best] < 32) {
		pl->n--;
		pl->hole_at[best] = pl->hole_at[pl->n];
		pl->hole_len[best] = pl->hole_len[pl->n];
	}
	return 1;
}

/* e's nid: in a hole, or at the next slot, never across a block when it
 * fits in one (the kernel reads an inline tail from one block). */
static void place_one(const struct ew *w, struct ew_ino *e, struct placer *pl)
{
	uint64_t off = pl->pos % w->blksz;

	if (e->slot <= w->blksz && fill_hole(pl, e))
		return;
	if (off && (e->slot > w->blksz || off + e->slot > w->blksz)) {
		if (pl->n < EW_HOLES && w->blksz - off >= 32) {
			pl->hole_at[pl->n] = pl->pos;
			pl->hole_len[pl->n++] = (uint32_t)(w->blksz - off);
		}
		pl->pos = ew_align(pl->pos, w->blksz);
	}
	e->nid = pl->pos >> 5;
	pl->pos = ew_align(pl->pos + e->slot, 32);
}

/* nids: 32-byte slots from just after the superblock (and the compression
 * configs), the late ones left for ew_write_late. */
int ew_place_inodes(struct ew *w, struct ff_err *err)
{
	struct placer pl = { .pos = ew_align(w->meta_end, 32) };

	for (uint32_t i = 0; i < w->n_inos; i++)
		if (!w->inos[i].late)
			place_one(w, &w->inos[i], &pl);
	if (w->inos[0].nid > 0xffff)
		return ff_err_set(err, EINVAL, "root inode: nid %llu past 65535",
				  (unsigned long long)w->inos[0].nid);
	w->meta_end = pl.pos;
	w->xattr_blkaddr = (uint32_t)(ew_align(pl.pos, w->blksz) >> w->blkbits);
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

int ew_write_late(struct ew *w, struct ff_err *err)
{
	uint64_t start = (uint64_t)w->next_blk << w->blkbits, len;
	struct placer pl = { .pos = start };
	uint8_t *buf;
	int r;

	for (uint32_t i = 0; i < w->n_inos; i++)
		if (w->inos[i].late)
			place_one(w, &w->inos[i], &pl);
	if (w->packed.n)
		place_one(w, &w->packed, &pl);
	if (pl.pos == start)
		return 0;
	len = ew_align(pl.pos - start, w->blksz);
	if (!(buf = calloc(1, (size_t)len)))
		return ff_err_set(err, ENOMEM, "late inodes: out of memory (%llu bytes)",
				  (unsigned long long)len);
	for (uint32_t i = 0; i < w->n_inos; i++)
		if (w->inos[i].late)
			ew_inode_encode(w, &w->inos[i], buf + ((w->inos[i].nid << 5) - start));
	if (w->packed.n)
		ew_inode_encode(w, &w->packed, buf + ((w->packed.nid << 5) - start));
	r = ff_outfile_write(&w->out, buf, (size_t)len, err);
	free(buf);
	w->next_blk += (uint32_t)(len >> w->blkbits);
	return r;
}
