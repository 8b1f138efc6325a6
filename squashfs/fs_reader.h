/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Reader internals shared by the squashfs/ *_reader.c files.  One open image
 * is a struct sqfs_rd; everything in it is immutable after open except the
 * caches and the codec context pool, which are thread-safe. */
#ifndef FF_SQUASHFS_FS_READER_H
#define FF_SQUASHFS_FS_READER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "compress/compress.h"
#include "squashfs/cache.h"
#include "squashfs/format.h"

struct sqfs_ctx_pool;

/* Striped locks held while a missing data block is decompressed, so
 * threads wanting the same block (files sharing a fragment) wait for one
 * decompression instead of each doing it. */
#define SQFS_LOAD_LOCKS 64

struct sqfs_rd {
	struct ff_fs base;
	struct ff_bsrc *src; /* the image's bytes, from its first */
	uint64_t size;       /* bytes_used, all checked to lie inside the file */
	uint64_t file_size;  /* the file (or device) from file_off to its end */
	struct sqfs_super sb;      /* sb.order: the byte order of every field */
	/* The order of the 2-byte metadata block headers, which need not be
	 * the fields' one: AVM's big-endian images keep them little-endian
	 * (sqfs_meta_order_detect). */
	enum sqfs_order meta_order;
	struct ff_comp *comp;
	struct sqfs_ctx_pool *pool;
	struct sqfs_cache *meta, *data, *files;
	uint64_t inode_end, dir_end; /* metadata table ends */
	uint32_t *ids;
	struct sqfs_fragment_entry *frags;
	uint64_t *export_blocks;     /* NULL when not exportable */
	uint64_t *xattr_blocks;      /* xattr id table index, NULL when none */
	uint64_t xattr_kv_start, xattr_ids_start;
	uint32_t xattr_count;
	pthread_mutex_t load_lock[SQFS_LOAD_LOCKS];
	/* where the last data block read from disk ended: a miss starting
	 * there is taken as a sequential scan and reads ahead */
	_Atomic uint64_t data_end;
	struct sqfs_prefetch *prefetch; /* NULL: no background read-ahead */
};

/* decomp_reader.c: raw reads and decompression with pooled contexts. */
struct sqfs_ctx_pool *sqfs_pool_new(void);
void sqfs_pool_free(struct sqfs_ctx_pool *p);
int sqfs_pread(struct sqfs_rd *rd, void *buf, size_t len, uint64_t pos, struct ff_err *err);
/* Reads `stored` bytes at pos and decompresses them (or copies when raw)
 * into out; returns the output length (<= cap) or -1. */
ssize_t sqfs_read_block(struct sqfs_rd *rd, uint64_t pos, uint32_t stored, int raw, void *out,
			size_t cap, struct ff_err *err);
/* Reads and decodes the metadata block whose header is at pos (the table
 * ends at limit > pos) into out (SQFS_META_SIZE bytes); sets *next to the
 * position of the following block and returns the payload length or -1. */
ssize_t sqfs_read_meta_block(struct sqfs_rd *rd, uint64_t pos, uint64_t limit, void *out,
			     uint64_t *next, struct ff_err *err);

/* meta_reader.c: a position in a metadata table and reads through it. */
struct sqfs_mpos {
	uint64_t block;  /* absolute image position of the block header */
	uint32_t offset; /* inside its uncompressed payload */
	uint64_t limit;  /* blocks must start before this */
};
int sqfs_meta_read(struct sqfs_rd *rd, struct sqfs_mpos *pos, void *dst, size_t len,
		   struct ff_err *err);
/* Moves pos from the end of a full block to the start of the next, so it
 * can be turned into a reference; fails when no byte follows. */
int sqfs_meta_normalize(struct sqfs_rd *rd, struct sqfs_mpos *pos, struct ff_err *err);
/* Sets rd->meta_order.  A little-endian image's headers are little-endian.
 * A big-endian one's are big-endian as its other fields, or little-endian
 * as AVM's writer leaves them: the order whose headers chain from the
 * inode table's start to the directory table's is the one. */
void sqfs_meta_order_detect(struct sqfs_rd *rd);
/* Loads a table of `len` bytes stored as metadata blocks whose positions
 * are in an index at index_pos (the id, fragment and export tables). */
int sqfs_table_load(struct sqfs_rd *rd, const char *what, uint64_t index_pos, uint64_t len,
		    void *dst, uint64_t *first_block, struct ff_err *err);

/* inode_reader.c */
struct sqfs_node {
	uint64_t ref;
	struct sqfs_inode in;
	struct sqfs_mpos tail; /* just after the fixed part */
};
int sqfs_node_load(struct sqfs_rd *rd, uint64_t ref, struct sqfs_node *n, struct ff_err *err);
uint32_t sqfs_node_mode(const struct sqfs_node *n);
int sqfs_node_stat(struct sqfs_rd *rd, const struct sqfs_node *n, struct ff_stat *st,
		   struct ff_err *err);
/* Skips the variable part after the fixed inode (for sequential scans). */
int sqfs_node_skip_tail(struct sqfs_rd *rd, struct sqfs_node *n, struct ff_err *err);

/* dir_reader.c */
typedef int (*sqfs_dirent_fn)(void *ctx, const char *name, size_t len, uint64_t ref,
			      uint32_t ino, int type, uint64_t cookie);
int sqfs_dir_iterate(struct sqfs_rd *rd, const struct sqfs_node *dir, uint64_t start,
		     sqfs_dirent_fn fn, void *ctx, struct ff_err *err);
/* 0 and *ref set, 1 when absent, -1 on a damaged image. */
int sqfs_dir_find(struct sqfs_rd *rd, const struct sqfs_node *dir, const char *name,
		  size_t len, uint64_t *ref, struct ff_err *err);

/* data_reader.c */
/* EISDIR (err->code) when ref is not a regular file; with nowait, EAGAIN
 * when a data block would have to be decompressed. */
ssize_t sqfs_file_read(struct sqfs_rd *rd, uint64_t ref, void *buf, size_t len, uint64_t off,
		       int nowait, struct ff_err *err);
/* Decompresses every block of a file (for check). */
int sqfs_file_verify(struct sqfs_rd *rd, const struct sqfs_node *n, struct ff_err *err);
/* Where the blocks of regular file `ref` lie, from block `first` on: up to
 * cap entries in file order, the tail fragment last (its idx is the data
 * block count).  Returns how many were filled, 0 past the end, or -1. */
struct sqfs_blkref {
	uint64_t idx;
	uint64_t start;
	uint32_t size; /* size field: 0 sparse, SQFS_BLOCK_UNCOMPRESSED bit */
};
ssize_t sqfs_file_blocks(struct sqfs_rd *rd, uint64_t ref, uint64_t first,
			 struct sqfs_blkref *out, size_t cap, struct ff_err *err);
/* Decompresses a block into the data cache unless it is there or being
 * loaded (then waits for it).  Errors are left to the reads that need it. */
void sqfs_block_preload(struct sqfs_rd *rd, uint64_t start, uint32_t size);

/* prefetch_reader.c: background workers that decompress the files that
 * follow the one being read, in inode-table order, which is the order
 * mksquashfs and mkfs.squashfs write data and the order tar reads it.
 * At most `window` bytes of decoded blocks are kept ahead of the reader. */
struct sqfs_prefetch;
struct sqfs_prefetch *sqfs_prefetch_new(struct sqfs_rd *rd, uint64_t window, unsigned threads);
void sqfs_prefetch_free(struct sqfs_prefetch *p);
/* A read of file `ref` at block `idx` (the fragment is idx = block
 * count); at_end: it reaches the end of the file.  Never waits; p may be
 * NULL. */
void sqfs_prefetch_note(struct sqfs_prefetch *p, uint64_t ref, uint64_t idx, int at_end);

/* fragment_table_reader.c, id_table_reader.c, export_table_reader.c */
int sqfs_fragments_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err);
int sqfs_ids_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err);
int sqfs_id_get(struct sqfs_rd *rd, uint16_t idx, uint32_t *id, struct ff_err *err);
int sqfs_export_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err);
int sqfs_export_lookup(struct sqfs_rd *rd, uint32_t ino, uint64_t *ref, struct ff_err *err);

/* xattr_table_reader.c */
int sqfs_xattr_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err);
/* Calls fn for each attribute of xattr index idx; value_cap 0 skips values. */
typedef int (*sqfs_xattr_fn)(void *ctx, const char *name, size_t name_len, const uint8_t *value,
			     size_t value_len);
int sqfs_xattr_walk(struct sqfs_rd *rd, uint32_t idx, sqfs_xattr_fn fn, void *ctx,
		    struct ff_err *err);

/* info_reader.c, check_reader.c */
void sqfs_info(struct ff_fs *fs, ff_info_fn fn, void *ctx);
long sqfs_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);

/* reader.c: log a damaged-image error and turn it into -EIO. */
int sqfs_fail(struct sqfs_rd *rd, const struct ff_err *err);

#endif
