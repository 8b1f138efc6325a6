/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS before 4.0 (layouts 1.x, 2.x and 3.x, either byte order):
 * internals shared by the files of this folder.  One open image is a
 * struct lsq_rd; everything in it is fixed after open except the block
 * caches, which lock.
 *
 * These layouts were C structs with bit fields written by the compiler of
 * the machine that built the image, so a little-endian image numbers a
 * field's bits from the least significant bit of its first byte and a
 * big-endian image from the most significant one (bits.c).  Each decoder
 * names a field by its bit position and width in the structure, the same
 * numbers for both orders. */
#ifndef FF_SQUASHFS_LEGACY_LEGACY_H
#define FF_SQUASHFS_LEGACY_LEGACY_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"

#define LSQ_META_SIZE 8192u
#define LSQ_NAME_MAX 256u
#define LSQ_SUPER_MAX 119u      /* the 3.x superblock; 2.x uses 63, 1.x 51 */
#define LSQ_INVALID_FRAG 0xffffffffu
#define LSQ_NO_TABLE UINT64_MAX /* 3.x lookup_table_start when not exportable */

/* Superblock flags (one byte in these versions). */
#define LSQ_FLAG_NOI 0x01u          /* inodes uncompressed */
#define LSQ_FLAG_NOD 0x02u          /* data uncompressed */
#define LSQ_FLAG_CHECK 0x04u        /* a marker byte follows each metadata header */
#define LSQ_FLAG_NOF 0x08u          /* fragments uncompressed */
#define LSQ_FLAG_NO_FRAG 0x10u
#define LSQ_FLAG_ALWAYS_FRAG 0x20u
#define LSQ_FLAG_DUPLICATES 0x40u
#define LSQ_FLAG_EXPORT 0x80u

/* Inode types as stored (1.x packs the uid's high bits into the type and
 * keeps fifos and sockets under type 0, inode.c). */
enum lsq_type {
	LSQ_IPC = 0,
	LSQ_DIR = 1,
	LSQ_FILE = 2,
	LSQ_SYMLINK = 3,
	LSQ_BLKDEV = 4,
	LSQ_CHRDEV = 5,
	LSQ_FIFO = 6,
	LSQ_SOCKET = 7,
	LSQ_LDIR = 8,
	LSQ_LREG = 9,
};

/* bits.c: a field of a bit-packed structure.  pos and width in bits
 * (width 1..64, pos % 8 + width <= 64). */
uint64_t lsq_bits(const uint8_t *p, unsigned pos, unsigned width, int big);
/* The same as a signed value (sign bit = the field's top bit). */
int64_t lsq_sbits(const uint8_t *p, unsigned pos, unsigned width, int big);

/* super.c: the superblock, every version's fields widened. */
struct lsq_super {
	int big;               /* image byte order */
	int alt_magic;         /* "shsq"/"qshs": the LZMA firmware magic */
	unsigned major, minor; /* minor 'L' (0x4c) marks vendor LZMA images */
	uint32_t inodes;
	uint32_t block_size, block_log;
	uint32_t flags;
	uint32_t no_uids, no_guids;
	int64_t mkfs_time;
	uint64_t root_inode;   /* (block << 16) | offset in the inode table */
	uint32_t fragments;
	uint64_t bytes_used, uid_start, guid_start;
	uint64_t inode_table, dir_table, fragment_table, lookup_table;
	uint32_t sb_size;      /* bytes the version's superblock spans */
};

/* Decodes and checks a superblock at buf (len bytes available); src_size
 * is the bytes readable from its start.  0, or -1 with err naming the
 * field and its numbers. */
int lsq_super_decode(const uint8_t *buf, size_t len, uint64_t src_size, struct lsq_super *sb,
		     struct ff_err *err);
/* "3.1", or "3.L" style for a vendor minor. */
void lsq_super_version(const struct lsq_super *sb, char *buf, size_t cap);
/* 1 when buf starts with one of the four magics. */
int lsq_magic_match(const uint8_t *buf, size_t len, int *big, int *alt);

/* cache.c: decoded blocks by image position, a fixed number of slots,
 * thread-safe. */
struct lsq_cache;
struct lsq_cache *lsq_cache_new(unsigned slots, size_t slot_bytes);
void lsq_cache_free(struct lsq_cache *c);
/* Copies a cached block into out (cap bytes); its length, or -1 if absent. */
ssize_t lsq_cache_get(struct lsq_cache *c, uint64_t key, void *out, size_t cap, uint64_t *next);
void lsq_cache_put(struct lsq_cache *c, uint64_t key, const void *data, size_t len,
		   uint64_t next);

/* codec.c: what compresses the blocks.  Every block says by its first
 * bytes whether it is a zlib stream, an LZMA-alone stream (13-byte header,
 * or 5 without the size) or a raw LZMA stream without a header, whose
 * lc/lp/pb are found once at open. */
enum lsq_codec_kind { LSQ_CODEC_GZIP, LSQ_CODEC_LZMA_ALONE, LSQ_CODEC_LZMA_RAW };

struct lsq_codec {
	int seen;       /* bit per lsq_codec_kind met so far at open */
	int lc, lp, pb; /* for raw streams */
	uint32_t dict;  /* dictionary for raw streams */
};

void lsq_codec_init(struct lsq_codec *c, uint32_t block_size);
/* Which kind a compressed block is, or -1 with err naming the first bytes. */
int lsq_codec_sniff(const uint8_t *src, size_t n, struct ff_err *err);
/* Decompresses n bytes into dst; the output length (<= cap) or -1. */
ssize_t lsq_decompress(const struct lsq_codec *c, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap, struct ff_err *err);
/* At open: when the block is raw LZMA, finds lc/lp/pb that decode it to
 * `want` bytes (0: any length up to cap that uses all input). */
int lsq_codec_detect(struct lsq_codec *c, const uint8_t *src, size_t n, size_t cap, size_t want,
		     struct ff_err *err);
/* "gzip", "lzma", "lzma-raw lc=3 lp=0 pb=2", several joined by '+'. */
void lsq_codec_describe(const struct lsq_codec *c, char *buf, size_t cap);

/* One open image. */
struct lsq_rd {
	struct ff_fs base;
	struct ff_bsrc *src;
	struct lsq_super sb;
	struct lsq_codec codec;
	struct lsq_cache *meta, *data;
	uint64_t dir_end;        /* the directory table ends here */
	uint32_t *uids, *gids;
	uint64_t *frag_index;    /* fragment table block positions */
	uint32_t frag_blocks;
	uint64_t *export_index;  /* 3.x lookup table block positions, or NULL */
	uint32_t export_blocks;
};

/* meta.c: metadata blocks (2-byte length header, bit 15 set when stored
 * uncompressed, a marker byte more with the check flag, 8 KiB payload). */
struct lsq_mpos {
	uint64_t block;  /* image position of the block's header */
	uint32_t offset; /* in its payload */
	uint64_t limit;  /* blocks of this table start before this */
};
/* Reads the block at pos into out (LSQ_META_SIZE bytes); its payload
 * length, *next the following block. */
ssize_t lsq_meta_block(struct lsq_rd *rd, uint64_t pos, uint64_t limit, uint8_t *out,
		       uint64_t *next, struct ff_err *err);
int lsq_meta_read(struct lsq_rd *rd, struct lsq_mpos *p, void *dst, size_t len,
		  struct ff_err *err);
/* Exactly len bytes of the image at pos, inside bytes_used. */
int lsq_pread(struct lsq_rd *rd, void *buf, size_t len, uint64_t pos, struct ff_err *err);

/* tables.c: id, fragment and export tables, checked in the order the
 * writer laid them out from the end of the image backwards. */
int lsq_tables_load(struct lsq_rd *rd, struct ff_err *err);
/* Fragment i's block position and stored size word (bit 24: raw). */
int lsq_fragment(struct lsq_rd *rd, uint32_t i, uint64_t *start, uint32_t *size,
		 struct ff_err *err);
/* Export table entry for inode number n (1-based). */
int lsq_export_ref(struct lsq_rd *rd, uint32_t n, uint64_t *ref, struct ff_err *err);

/* inode.c: one inode decoded, every version's fields widened. */
struct lsq_inode {
	uint64_t ref;
	int type;           /* LSQ_DIR..LSQ_SOCKET (long forms folded in) */
	int stored_type;    /* as stored (LSQ_LDIR, LSQ_LREG too) */
	uint32_t mode;      /* S_IFMT | permissions */
	uint32_t uid, gid;  /* resolved through the id tables */
	uint32_t uid_idx, gid_idx;
	int64_t mtime;
	uint32_t ino;       /* 3.x: stored; before: 0 (not stored) */
	uint32_t nlink;     /* 0 when the layout stores none */
	uint64_t size;      /* file bytes, directory listing bytes, target length */
	uint64_t start;     /* file: first data block; dir: block in the dir table */
	uint32_t offset;    /* dir: in its block; file: in the fragment */
	uint32_t fragment;  /* LSQ_INVALID_FRAG when none */
	uint32_t i_count;   /* ldir: index entries */
	uint32_t rdev;      /* 16-bit: major << 8 | minor */
	uint32_t parent;
	struct lsq_mpos tail; /* after the fixed part: block list, target, index */
};

int lsq_inode_load(struct lsq_rd *rd, uint64_t ref, struct lsq_inode *in, struct ff_err *err);
/* Bytes the directory listing holds after the version's bias (3.x counts
 * 3 for "." and ".."). */
uint64_t lsq_dir_bytes(const struct lsq_rd *rd, const struct lsq_inode *in);
/* Data blocks a file stores (the rest, if any, in its fragment). */
uint64_t lsq_file_blocks(const struct lsq_rd *rd, const struct lsq_inode *in);
/* The inode number shown to users: stored in 3.x, made from the reference
 * before (as the kernel did), so hard links agree. */
uint64_t lsq_inode_number(const struct lsq_rd *rd, const struct lsq_inode *in);

/* dir.c: directory listings (headers naming an inode block, entries). */
struct lsq_dirent {
	char name[LSQ_NAME_MAX + 1];
	size_t len;
	uint64_t ref;
	uint32_t ino;   /* 3.x: header number + delta; 0 before */
	int type;       /* 0..7 as stored in the entry */
};
/* Calls fn for each entry from index `start` (0-based); fn returns
 * non-zero to stop.  index is the entry's own index. */
typedef int (*lsq_dirent_fn)(void *ctx, const struct lsq_dirent *e, uint64_t index);
int lsq_dir_walk(struct lsq_rd *rd, const struct lsq_inode *dir, uint64_t start, lsq_dirent_fn fn,
		 void *ctx, struct ff_err *err);

/* data.c: file contents. */
ssize_t lsq_file_read(struct lsq_rd *rd, const struct lsq_inode *in, uint8_t *buf, size_t len,
		      uint64_t off, struct ff_err *err);
/* Size word of data block k: *stored bytes at *pos, *raw when stored
 * uncompressed (stored 0: a hole). */
int lsq_block_at(struct lsq_rd *rd, const struct lsq_inode *in, uint64_t k, uint64_t *pos,
		 uint32_t *stored, int *raw, struct ff_err *err);

/* reader.c, info.c, check.c */
int lsq_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
	     struct ff_err *err);
void lsq_info(struct ff_fs *fs, ff_info_fn fn, void *ctx);
long lsq_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
uint32_t lsq_mode_of_type(int type);

#endif
