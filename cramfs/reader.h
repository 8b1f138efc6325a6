/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An open CramFS image: what the read operations (reader.c), the block
 * reader (data.c), the directory walker (dir.c), check (check.c) and info
 * (info.c) share.  A node's handle is the byte offset of its 12-byte
 * inode in the image (the root's is inside the superblock): cramfs has no
 * inode numbers and no hard links, so each name is its own node. */
#ifndef FF_CRAMFS_READER_H
#define FF_CRAMFS_READER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/format.h"
#include "common/fs.h"
#include "cramfs/inode.h"
#include "cramfs/super.h"

#define CR_BLOCK_MIN 512u
#define CR_BLOCK_MAX 65536u /* mkfs.cramfs -b: page sizes up to 64 KiB */

enum cr_crc_state { CR_CRC_UNKNOWN, CR_CRC_OK, CR_CRC_BAD, CR_CRC_UNREADABLE, CR_CRC_NONE };

struct cr_fs {
	struct ff_fs fs;
	struct ff_bsrc *src;
	struct cr_super sb;
	uint64_t span;        /* image bytes from offset 0 */
	uint32_t blksize;     /* the page size it was made for */
	const char *blksize_from; /* "detected", "given", "default" */
	pthread_mutex_t lock; /* guards what follows */
	uint8_t *cache;       /* the last block decoded, blksize bytes */
	uint64_t cache_handle;
	uint32_t cache_block, cache_len;
	enum cr_crc_state crc;
	uint32_t crc_calc;
};

/* One directory entry as the walker gives it. */
struct cr_dirent {
	uint64_t handle;      /* where its inode is */
	struct cr_inode in;
	const char *name;     /* not NUL-terminated */
	size_t len;
	uint64_t next;        /* position after it in the listing: a cookie */
};

typedef int (*cr_dirent_fn)(void *ctx, const struct cr_dirent *e);

/* The inode at a handle (bounds checked). */
int cr_node(struct cr_fs *c, uint64_t handle, struct cr_inode *in, struct ff_err *err);
uint64_t cr_root_handle(const struct cr_fs *c);

/* Each entry of directory `dir` (inode at handle dh) from listing
 * position `start` on, until fn returns non-zero.  0, or -1 with err on
 * a damaged listing. */
int cr_dir_walk(struct cr_fs *c, uint64_t dh, const struct cr_inode *dir, uint64_t start,
		cr_dirent_fn fn, void *ctx, struct ff_err *err);

/* Where block i of a file or symlink is stored. */
struct cr_extent {
	uint64_t start;
	uint32_t len;         /* 0: a hole */
	int uncompressed;
	uint32_t want;        /* bytes the block holds once decoded */
};
uint32_t cr_block_count(const struct cr_fs *c, const struct cr_inode *in);
int cr_block_extent(struct cr_fs *c, const struct cr_inode *in, uint32_t i, struct cr_extent *e,
		    struct ff_err *err);
/* Block i decoded into out (blksize bytes); *got = bytes it holds. */
int cr_block_read(struct cr_fs *c, const struct cr_inode *in, uint32_t i, uint8_t *out,
		  uint32_t *got, struct ff_err *err);
/* The block size an image's larger files were made with, or 0 when no
 * file tells (every file fits one block of any size). */
uint32_t cr_detect_blksize(struct cr_fs *c);

/* The CRC state, computed once. */
enum cr_crc_state cr_crc_state(struct cr_fs *c);

void cr_info(struct ff_fs *fs, ff_info_fn fn, void *ctx);
long cr_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
long cr_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx);

int ff_cramfs_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err);

#endif
