/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The EROFS writer's inside: one record per inode (a hard link's names
 * share the primary's), the plan that places them, and the encoders of
 * each on-disk structure (one file each). */
#ifndef FF_EROFS_WRITE_PRIV_H
#define FF_EROFS_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/hmap.h"
#include "common/outfile.h"
#include "common/vec.h"
#include "erofs/writer.h"
#include "tree/tree.h"

/* A million of these for a million small files: no field that can be
 * derived (i_ino is the record's index + 1, the packed inode's n_inos + 1;
 * a directory's blocks live only while the data pass writes them), and
 * the bytes after the 32-bit ones together, unpadded. */
struct ew_ino {
	struct ff_node *n;         /* the primary node */
	uint64_t nid;
	uint64_t size;             /* i_size */
	uint64_t fragoff;          /* fragments: where its fragment starts in
				      the packed inode */
	uint64_t fraghead;         /* all-fragments: the bytes before a tail
				      found in the packed inode already, the
				      file's own extents (0: none) */
	uint8_t *xattr;            /* the encoded xattr body */
	uint8_t *zmeta;            /* compressed: encoded map header + indexes;
				      chunk-based: the block map */
	uint8_t *ztail;            /* a late inode's inline tail, compressed or
				      plain (owned) */
	uint32_t blkaddr;          /* first data block (flat, compressed) */
	uint32_t nblocks;          /* blocks in the data area */
	uint32_t inline_len;       /* bytes stored behind the inode */
	uint32_t xattr_len;        /* bytes of the xattr body (0: none) */
	uint32_t zmeta_len;        /* compressed: map header and indexes */
	uint32_t slot;             /* bytes in the meta area, all of the above */
	uint8_t layout;            /* enum er_layout */
	uint8_t ext;               /* extended inode */
	uint8_t compressed;        /* a regular file to compress */
	uint8_t late;              /* placed after its data (its inline tail's
				      size is known only once compressed) */
	uint8_t frag;              /* fragments: 1 the last extent, 2 the whole
				      file in the packed inode */
	uint8_t deduped;           /* -E dedupe: some extent on another file's
				      pcluster (full indexes) */
	uint8_t tail_out;          /* the inline tail is in the image already,
				      at its place behind the inode (the data
				      pass's, write_tails.c; read back with its
				      block, write_meta.c) */
};

struct ew_dd;
struct ew_tails;

struct ew {
	const struct ff_erofs_write_opts *o;
	const struct ff_tree *tree;
	uint32_t blksz;
	unsigned blkbits;
	struct ew_ino *inos;
	uint32_t n_inos;
	/* shared xattrs: encoded entries -> (uses << 32 | id + 1) */
	struct ff_hmap xcount;
	uint8_t *shared;           /* the shared xattr area's bytes */
	size_t shared_len;
	uint32_t n_shared;
	uint64_t meta_end;         /* end of the inodes */
	uint32_t xattr_blkaddr;
	uint32_t data_start;       /* first data block */
	uint32_t next_blk;         /* next free block while data is written */
	uint16_t algs;             /* available_compr_algs bits */
	uint8_t chunked;           /* some file is chunk-based */
	uint32_t pcluster;         /* bytes of the largest pcluster */
	uint32_t ext_cap;          /* the most input one extent takes (a power
				      of two: also the LZMA dictionary, the
				      zstd window) */
	/* fragments: their bytes, back to back, in a temporary file until
	 * the packed inode (an inode of no directory) is compressed */
	FILE *frag_file;
	uint64_t frag_len;
	struct ff_hmap frag_seen;  /* (length, CRCs) -> the first such fragment */
	struct ff_hmap frag_tails; /* crc32c of a fragment's last bytes -> its
				      record in frag_items + 1 */
	struct ff_vec frag_items;  /* struct ew_fitem: fragments stored */
	struct ff_hmap files_seen; /* (length, CRCs) -> the first such compressed
				      file's index + 1 (fragments, -E dedupe) */
	struct ew_dd *dd;          /* -E dedupe: written pclusters (write_dedupe.c) */
	struct ff_hmap pcl_seen;   /* fragments: (crc32c, blocks, stored) -> the
				      first such pcluster's block (write_pshare.c) */
	uint8_t deduped;           /* some extent shares a pcluster: feature DEDUPE */
	struct ff_node packed_node;
	struct ew_ino packed;      /* its record (packed.n: packed_node) */
	struct ew_tails *tails;    /* the data pass's inline tails (write_tails.c) */
	struct ff_outfile out;
	uint64_t out_high;         /* the output's end before a rewind (a large
				      file's early segments dropped): the
				      file is cut back there at the end */
	struct ff_erofs_write_stats *st;
};

static inline uint64_t ew_align(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

struct ew_ino *ew_ino_of(const struct ew *w, const struct ff_node *n);

/* write_xattr.c */
int ew_xattr_count(struct ew *w, struct ff_err *err);
int ew_xattr_body(struct ew *w, struct ew_ino *e, struct ff_err *err);
void ew_xattr_free(struct ew *w);

/* write_dirent.c: a directory's size, and with blocks its encoded blocks
 * (the caller frees them). */
int ew_dir_build(struct ew *w, struct ew_ino *e, uint8_t **blocks, struct ff_err *err);

/* write_inode.c: the inode, its xattrs and inline bytes at buf (not a
 * tail_out tail); where the inline tail starts in its slot. */
void ew_inode_encode(const struct ew *w, const struct ew_ino *e, uint8_t *buf);
uint32_t ew_inode_tail_at(const struct ew_ino *e);
int ew_inode_pick_form(const struct ew *w, const struct ew_ino *e);

/* write_super.c: superblock into the first bytes of the meta buffer,
 * then its crc32c over the rest of its block. */
void ew_super_encode(const struct ew *w, uint8_t *buf, uint64_t inos, uint32_t blocks);

/* write_meta.c: the image's bytes [start, end) of a meta region (block
 * aligned), a run of blocks at a time: the inodes placed there (the
 * packed inode too), the shared xattrs and, from offset 0, the
 * superblock; zeros between. */
int ew_meta_write(struct ew *w, uint64_t start, uint64_t end, struct ff_err *err);

/* write_tails.c: the data pass's inline tails of the inodes placed before
 * it, gathered a block at a time on their way to their places (tail_out). */
int ew_tails_init(struct ew *w, struct ff_err *err);
int ew_tail_put(struct ew *w, struct ew_ino *e, const uint8_t *tail, struct ff_err *err);
/* err NULL: only free them. */
int ew_tails_done(struct ew *w, struct ff_err *err);

/* write_plan.c */
int ew_plan(struct ew *w, struct ff_err *err);
int ew_place_inodes(struct ew *w, struct ff_err *err);
/* A file that was to be compressed stored flat instead (layout, slot). */
void ew_plan_flat(struct ew *w, struct ew_ino *e);
/* The late inodes (and the packed inode), in a meta region at the current end of the data. */
int ew_write_late(struct ew *w, struct ff_err *err);
/* ztailpacking: the most bytes an inline tail may take behind e. */
uint32_t ew_ztail_room(const struct ew *w, const struct ew_ino *e);

/* write_data.c: flat file, directory and symlink blocks. */
/* Reads [off, off + len) of the file, failing on a short read (a file
 * that shrank since the scan is named, with the numbers). */
int ew_read_at(struct ff_data *d, const struct ew_ino *e, uint8_t *buf, size_t len,
	       uint64_t off, struct ff_err *err);
/* mem: a directory's blocks or a symlink's target; NULL: a file's data. */
int ew_write_flat(struct ew *w, struct ew_ino *e, const uint8_t *mem, struct ff_err *err);
/* write_chunk.c: a chunk-based file's chunks and its block map (zmeta). */
int ew_write_chunked(struct ew *w, struct ew_ino *e, struct ff_err *err);

/* One extent of a compressed file: where its decompressed bytes start,
 * its pcluster's blocks, whether they are stored as is. */
struct ew_extent {
	uint64_t lstart;
	uint32_t cblks;
	uint8_t plain;
	uint8_t frag;              /* the last one: in the packed inode */
	uint8_t partial;           /* dedupe: takes only the first bytes its
				      pcluster decodes to (PARTIAL_REF) */
	uint8_t ref;               /* dedupe: its pcluster is an earlier one, at blk */
	uint32_t blk;
	uint32_t dlen;             /* bytes its pcluster decodes to (compressed) */
};

/* write_zmap.c: the map's bytes for e's size and layout, and its
 * encoding once the file's first block (e->blkaddr) is known. */
uint32_t ew_zmap_len(const struct ew *w, const struct ew_ino *e);
int ew_zmap_compact_ok(const struct ew *w);
int ew_zmap_encode(const struct ew *w, struct ew_ino *e, const struct ew_extent *x, size_t n,
		   struct ff_err *err);

/* write_super.c: the compression configuration record after the
 * superblock; returns its length (0 when nothing is compressed). */
uint32_t ew_super_cfg(const struct ew *w, uint8_t *buf);

/* Running sums of some bytes: their length and two CRCs (crc32c and
 * zlib's crc32), the key (16 bytes) under which equal bytes are found. */
struct ew_fsum {
	uint64_t len;
	uint32_t c1, c2;
};

void ew_fsum_add(struct ew_fsum *s, const uint8_t *b, size_t len);
void ew_fsum_key(const struct ew_fsum *s, uint8_t key[16]);

/* write_share.c: a compressed file equal to one placed before it (same
 * sums, then the same bytes): 1 and *first, 0 none (e is remembered). */
int ew_share_find(struct ew *w, const struct ew_ino *e, const struct ew_fsum *s,
		  const struct ew_ino **first, struct ff_err *err);

/* write_fragment.c: the fragments' temporary file, a part appended
 * (e->fragoff set), a file copied whole, the packed inode's record. */
int ew_frag_open(struct ew *w, struct ff_err *err);
void ew_frag_close(struct ew *w);
int ew_frag_append(struct ew *w, struct ew_ino *e, const uint8_t *b, size_t len,
		   struct ff_err *err);
int ew_frag_copy(struct ew *w, struct ew_ino *e, struct ff_err *err);
/* all-fragments, in the plan: e's bytes into the packed inode, or its
 * tail found there already (e->fraghead, e->frag 1 then). */
int ew_frag_plan(struct ew *w, struct ew_ino *e, struct ff_err *err);
void ew_frag_packed_setup(struct ew *w);

/* write_dedupe.c: the table of written pclusters (-E dedupe). */
int ew_dedupe_init(struct ew *w, struct ff_err *err);
void ew_dedupe_free(struct ew *w);
/* The runs of buf (the file's size bytes) equal to the first bytes of a
 * pcluster in the table, in order, not overlapping: each a reference
 * extent and its length (ew_match) appended to out. */
struct ew_match {
	struct ew_extent x;
	uint64_t len;
};
int ew_dedupe_scan(struct ew *w, const uint8_t *buf, uint64_t size, struct ff_vec *out,
		   struct ff_err *err);
/* e placed (blkaddr known): its new compressed pclusters into the table
 * (has_tail: the last extent is an inline tail, not a pcluster). */
int ew_dedupe_add(struct ew *w, const struct ew_ino *e, const uint8_t *buf,
		  const struct ew_extent *x, size_t n, int has_tail, struct ff_err *err);

/* write_compress.c: every compressed file, in the pool. */
int ew_compress_all(struct ew *w, struct ff_err *err);

#endif
