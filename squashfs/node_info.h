/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The writer's per-node records, indexed by ff_node.index: what the table
 * writers learn about each inode (its number and reference) and, for a
 * regular file, where its data went.  Both are held for every node at
 * once (ten million tar members, issue 33): indices instead of pointers,
 * no padding, 6 and 8 bytes.  Xattr ids are kept apart, only when some
 * node has xattrs (writer.c). */
#ifndef FF_SQUASHFS_NODE_INFO_H
#define FF_SQUASHFS_NODE_INFO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/vec.h"
#include "squashfs/format.h"
#include "tree/tree.h"

/* Read and set through sqfs_ni_*: the 48-bit inode reference (a 32-bit
 * table offset and a 16-bit block offset, all the format has) in 16-bit
 * words, 6 bytes where a uint64_t was 8.  The inode number is in the
 * node's builder scratch word (sqfs_ino): 4 bytes an entry less at the
 * inode pass, the build's peak at ten million tar members (issue 33). */
struct sqfs_node_info {
	uint16_t ref[3];      /* inode reference once written, low word first */
};

static inline uint64_t sqfs_ni_ref(const struct sqfs_node_info *ni)
{
	return (uint64_t)ni->ref[0] | (uint64_t)ni->ref[1] << 16 | (uint64_t)ni->ref[2] << 32;
}

/* ref fits 48 bits: the inode table of a squashfs image ends below 4 GiB */
static inline void sqfs_ni_set_ref(struct sqfs_node_info *ni, uint64_t ref)
{
	ni->ref[0] = (uint16_t)ref;
	ni->ref[1] = (uint16_t)(ref >> 16);
	ni->ref[2] = (uint16_t)(ref >> 32);
}

/* n's inode number (a hard link's is its primary's), 0 until numbered:
 * kept in the primary's ff_node.priv, which the writer clears before it
 * numbers and when it is done (sqfs_inodes_clear). */
static inline uint32_t sqfs_ino(const struct ff_node *n)
{
	return ff_node_primary(n)->priv;
}

static inline void sqfs_set_ino(const struct ff_node *n, uint32_t ino)
{
	ff_node_primary(n)->priv = ino; /* the builder's scratch word */
}

/* A file's record is 8 bytes (ten million tar members, issue 33: it was
 * 12, 40 MB more).  A file holds three things: its fragment (index and
 * offset), its block sizes, and for a duplicate the first copy; no file
 * needs all three in the record.  Nearly every small file has a fragment
 * and no block, so the fragment stays here; the few files with blocks
 * (one block or more, --no-fragments, an all-zero tail, an appended
 * image's files) have an array of sizes, found through a table of the
 * writer's (struct ff_vec of uint32_t *), and their fragment offset moves
 * into the array's header.  A duplicate has neither of its own.  Read and
 * set through sqfs_fd_*:
 *
 *   frag_index   word
 *   DUP          node index of the earlier file with the same content
 *   any other    SQFS_FD_ARRAY | the array's place in the table
 *   any other    fragment offset (0 without a fragment): no array
 *
 * A fragment offset is below the block size (at most 1 MiB), so the top
 * bit tells the two apart; an image with 2^31 files with blocks is refused
 * (sqfs_fd_sizes_new), not written wrong. */
struct sqfs_file_data {
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment;
				 SQFS_FD_DUP for a duplicate (sqfs_fd_dup_of) */
	uint32_t word;        /* see above */
};

/* frag_index of a duplicate: the fragment writer stops below it */
#define SQFS_FD_DUP 0xfffffffeu
/* word of a file with a sizes array: this bit and its place in the table */
#define SQFS_FD_ARRAY 0x80000000u
/* Words in front of each sizes array (sqfs_fd_head) */
#define SQFS_FD_HEAD 4

/* The node index of the first copy of fd's content, 0 for a first copy
 * (node 0 is the root, never a file). */
static inline uint32_t sqfs_fd_dup_of(const struct sqfs_file_data *fd)
{
	return fd->frag_index == SQFS_FD_DUP ? fd->word : 0;
}

/* Only for a file not written yet: a duplicate has no data of its own. */
static inline void sqfs_fd_set_dup(struct sqfs_file_data *fd, uint32_t first)
{
	fd->frag_index = SQFS_FD_DUP;
	fd->word = first;
}

static inline int sqfs_fd_has_sizes(const struct sqfs_file_data *fd)
{
	return fd->frag_index != SQFS_FD_DUP && (fd->word & SQFS_FD_ARRAY);
}

/* The header of fd's sizes array in table t (uint32_t * each, pointing
 * at the header), NULL without an array: the fragment offset, the block
 * count and the blocks' start (low word first), then the sizes. */
static inline uint32_t *sqfs_fd_head(const struct ff_vec *t, const struct sqfs_file_data *fd)
{
	return sqfs_fd_has_sizes(fd) ? *FF_VEC_AT(t, uint32_t *, fd->word & ~SQFS_FD_ARRAY)
				     : NULL;
}

/* fd's block sizes, NULL without an array.  The on-disk size of each
 * block, with the raw bit; 0 for a sparse block (which stands for
 * block_size bytes, or the rest of the file). */
static inline uint32_t *sqfs_fd_sizes(const struct ff_vec *t, const struct sqfs_file_data *fd)
{
	uint32_t *h = sqfs_fd_head(t, fd);

	return h ? h + SQFS_FD_HEAD : NULL;
}

/* Where the fragment offset is kept (for sqfs_frag_add): the array's
 * header once there is an array, else the record. */
static inline uint32_t *sqfs_fd_frag_offset_at(const struct ff_vec *t, struct sqfs_file_data *fd)
{
	uint32_t *h = sqfs_fd_head(t, fd);

	return h ? &h[0] : &fd->word;
}

/* The tail's offset in its fragment block: 0 without a fragment. */
static inline uint32_t sqfs_fd_frag_offset(const struct ff_vec *t,
					   const struct sqfs_file_data *fd)
{
	const uint32_t *h = sqfs_fd_head(t, fd);

	if (fd->frag_index == SQFS_INVALID_FRAG || fd->frag_index == SQFS_FD_DUP)
		return 0;
	return h ? h[0] : fd->word;
}

/* Blocks in the sizes array: 0 without one. */
static inline uint32_t sqfs_fd_n_blocks(const struct ff_vec *t, const struct sqfs_file_data *fd)
{
	const uint32_t *h = sqfs_fd_head(t, fd);

	return h ? h[1] : 0;
}

/* Only with a sizes array, n at most the count it was made for. */
static inline void sqfs_fd_set_n_blocks(const struct ff_vec *t, struct sqfs_file_data *fd,
					uint32_t n)
{
	sqfs_fd_head(t, fd)[1] = n;
}

/* Where a file's blocks start in the image: 0 without a sizes array. */
static inline uint64_t sqfs_fd_blocks_start(const struct ff_vec *t,
					    const struct sqfs_file_data *fd)
{
	const uint32_t *h = sqfs_fd_head(t, fd);

	return h ? (uint64_t)h[2] | (uint64_t)h[3] << 32 : 0;
}

static inline void sqfs_fd_set_blocks_start(const struct ff_vec *t, struct sqfs_file_data *fd,
					    uint64_t start)
{
	uint32_t *h = sqfs_fd_head(t, fd);

	h[2] = (uint32_t)start;
	h[3] = (uint32_t)(start >> 32);
}

/* fd's sizes array in t (fd neither a duplicate nor with an array yet):
 * room for n zeroed sizes after the header, the block count n_blocks, a
 * fragment offset already in the record moved into the header.  0, or -1
 * with err set; sqfs_fd_table_free releases them all. */
static inline int sqfs_fd_sizes_new(struct ff_vec *t, struct sqfs_file_data *fd, size_t n,
				    uint32_t n_blocks, struct ff_err *err)
{
	uint32_t *h;

	if (t->len >= SQFS_FD_ARRAY)
		return ff_err_set(err, EFBIG, "more than %u files with data blocks",
				  SQFS_FD_ARRAY);
	h = calloc(n + SQFS_FD_HEAD, sizeof(*h));
	if (!h || ff_vec_push(t, &h) < 0) {
		free(h);
		return ff_err_set(err, ENOMEM, "out of memory for %zu block sizes", n);
	}
	h[0] = fd->word;
	h[1] = n_blocks;
	fd->word = SQFS_FD_ARRAY | (uint32_t)(t->len - 1);
	return 0;
}

static inline void sqfs_fd_table_free(struct ff_vec *t)
{
	for (size_t i = 0; i < t->len; i++)
		free(*FF_VEC_AT(t, uint32_t *, i));
	ff_vec_free(t);
}

/* The record of n's inode: a hard link shares its primary's. */
static inline struct sqfs_node_info *sqfs_info_of(struct sqfs_node_info *info,
						  const struct ff_node *n)
{
	return &info[(ff_node_primary(n))->index];
}

/* Path of a node for messages ("/" for the root; node_name.c). */
const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap);

#endif
