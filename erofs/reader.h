/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The EROFS reader's inside: the decoded superblock and inode (in-memory
 * structures, decoded field by field from the image's bytes), the open
 * image, and the functions each file of erofs/ provides to the others.
 *
 * Every function that reads the image returns 0 (or a count) or a
 * negative errno: -EIO with a message in err naming the object, the
 * problem and the numbers when the image is damaged, -EOPNOTSUPP with a
 * message for a layout this reader does not implement. */
#ifndef FF_EROFS_READER_H
#define FF_EROFS_READER_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/format.h"
#include "common/fs.h"
#include "erofs/layout.h"

/* A damaged image: the message, then -EIO. */
#define ER_BAD(err, ...) (ff_err_set((err), EIO, __VA_ARGS__), -EIO)
#define ER_UNSUP(err, ...) (ff_err_set((err), EOPNOTSUPP, __VA_ARGS__), -EOPNOTSUPP)

struct er_super {
	uint32_t checksum, compat, incompat;
	unsigned blkszbits;
	uint32_t blksz;
	uint32_t sb_size;          /* 128 + extension slots */
	uint64_t root_nid, inos, packed_nid;
	int64_t epoch;
	uint32_t fixed_nsec, build_time;
	uint64_t blocks;
	uint32_t meta_blkaddr, xattr_blkaddr;
	uint8_t uuid[16];
	char volume_name[17];
	uint16_t algs;             /* bit per enum er_alg configured */
	uint16_t lz4_max_distance, lz4_max_pclusterblks;
	uint32_t lzma_dict;
	uint8_t deflate_windowbits, zstd_windowlog;
	uint16_t extra_devices;
	uint8_t dirblkbits, xattr_prefix_count;
	uint32_t xattr_prefix_start;
	int csum_state;            /* -1 no checksum feature, 0 bad, 1 good */
};

/* Decodes and validates the superblock from the image (reads the block it
 * sits in, the checksum's span and the compression configurations). */
int er_super_read(struct ff_bsrc *src, struct er_super *sb, struct ff_err *err);
/* Only the fixed part from buf (len >= 1024 + 128): magic, block size,
 * features; for the probe.  Checksum not verified. */
int er_super_decode(const uint8_t *sb128, struct er_super *sb, struct ff_err *err);
/* The names of the set bits, comma-joined. */
void er_compat_names(uint32_t mask, char *buf, size_t cap);
void er_incompat_names(uint32_t mask, char *buf, size_t cap);
/* The same names as NULL-terminated tables, bit i at index i. */
const char *const *er_compat_table(void);
const char *const *er_incompat_table(void);
const char *er_alg_name(unsigned alg);

struct er_inode {
	uint64_t nid;
	uint64_t iloc;             /* byte offset of the inode */
	uint16_t ifmt;
	unsigned layout;           /* enum er_layout */
	unsigned isize, xattr_isize;
	uint16_t xattr_icount;
	uint32_t mode, uid, gid, nlink, rdev_major, rdev_minor;
	uint64_t size, ino;
	int64_t mtime;
	uint32_t mtime_nsec;
	uint64_t startblk;         /* flat layouts */
	int startblk_null;         /* FLAT_PLAIN without blocks: all zeros */
	uint32_t cblocks;          /* compressed layouts: blocks stored */
	uint16_t chunkformat;
	unsigned chunkbits;
};

/* The compressed file's map header, decoded once per inode. */
struct er_zinfo {
	uint16_t advise;
	uint8_t alg[2];
	unsigned lclusterbits;
	uint64_t extents;          /* ER_ADVISE_EXTENTS layout */
	uint16_t idata_size;       /* ztailpacking: the inline pcluster's bytes */
	uint64_t tailpos;          /* ztailpacking: its offset in the image */
	uint64_t fragmentoff;      /* offset of the tail in the packed inode */
	uint64_t tail_headlcn;     /* lcluster of the tail extent's head */
	int all_fragment;          /* the whole file is in the packed inode */
};

/* One extent of a file: logical [la, la + llen) from physical [pa, pa + plen). */
#define ER_MAP_MAPPED 0x1u
#define ER_MAP_META 0x2u       /* pa is inside the metadata (inline) */
#define ER_MAP_FRAGMENT 0x4u   /* in the packed inode at fragmentoff */
#define ER_MAP_PARTIAL 0x8u    /* references a prefix of its pcluster */
#define ER_MAP_ENCODED 0x10u
struct er_map {
	uint64_t la, llen, pa, plen;
	unsigned flags, alg;
};

/* A decoded pcluster held for later reads (pcache.c). */
struct er_pcache_ent {
	uint64_t nid, la;
	uint8_t *data;
	size_t len;
	uint64_t used;             /* LRU clock */
};

struct er_pcache {
	pthread_mutex_t lock;
	struct er_pcache_ent *ents;
	size_t n, cap;
	size_t bytes, budget;
	uint64_t clock;
};

/* A long xattr name prefix (superblock's table). */
struct er_prefix {
	uint8_t base;
	uint8_t len;
	char infix[256];
};

struct er_rd {
	struct ff_fs fs;
	struct ff_bsrc *src;
	struct er_super sb;
	struct er_prefix *prefixes;
	struct er_pcache cache;
};

static inline uint64_t er_blkpos(const struct er_rd *rd, uint64_t blk)
{
	return blk << rd->sb.blkszbits;
}

/* Exactly len bytes at off, checked against the image's size; what names
 * the thing read in a message. */
int er_pread(const struct er_rd *rd, void *buf, size_t len, uint64_t off, const char *what,
	     uint64_t nid, struct ff_err *err);

/* inode.c */
int er_inode_load(const struct er_rd *rd, uint64_t nid, struct er_inode *ino,
		  struct ff_err *err);
/* Offset of the bytes right after the inode and its inline xattrs. */
static inline uint64_t er_inode_tail(const struct er_inode *ino)
{
	return ino->iloc + ino->isize + ino->xattr_isize;
}
uint32_t er_mode_of_ftype(unsigned ft);

/* data.c: reading a file's bytes, whatever the layout.  Returns the count
 * (short only at the end of the file) or -errno. */
ssize_t er_read(struct er_rd *rd, const struct er_inode *ino, void *buf, size_t len,
		uint64_t off, struct ff_err *err);
/* The uncompressed layouts' extent containing off. */
int er_map_flat(const struct er_rd *rd, const struct er_inode *ino, uint64_t off,
		struct er_map *map, struct ff_err *err);
int er_map_chunk(const struct er_rd *rd, const struct er_inode *ino, uint64_t off,
		 struct er_map *map, struct ff_err *err);

/* zmap.c: the compressed layouts. */
int er_zinfo_load(const struct er_rd *rd, const struct er_inode *ino, struct er_zinfo *z,
		  struct ff_err *err);
/* The whole extent containing off (its full decoded length). */
int er_zmap(const struct er_rd *rd, const struct er_inode *ino, const struct er_zinfo *z,
	    uint64_t off, struct er_map *map, struct ff_err *err);

/* decompress.c: in (plen bytes) into out (exactly llen bytes); partial
 * when the pcluster decodes to more than the extent uses. */
int er_decompress(const struct er_rd *rd, unsigned alg, const uint8_t *in, size_t plen,
		  uint8_t *out, size_t llen, int partial, uint64_t la, struct ff_err *err);

/* pcache.c */
int er_pcache_init(struct er_pcache *c, size_t budget);
void er_pcache_free(struct er_pcache *c);
/* Copies [off, off + len) of the cached extent (nid, la) into buf: 1 when
 * it was there, 0 when not. */
int er_pcache_get(struct er_pcache *c, uint64_t nid, uint64_t la, void *buf, size_t off,
		  size_t len);
/* Takes ownership of data (freed when it cannot be kept). */
void er_pcache_put(struct er_pcache *c, uint64_t nid, uint64_t la, uint8_t *data, size_t len);

/* dir.c: one directory's entries in on-disk order.  fn returns non-zero
 * to stop (that value is returned).  pos is the entry's byte position in
 * the directory (its cookie is pos + ER_DIRENT_SIZE). */
struct er_dirent {
	const char *name;
	size_t len;
	uint64_t nid;
	unsigned ftype;
	uint64_t pos;
};
typedef int (*er_dirent_fn)(void *ctx, const struct er_dirent *d);
int er_dir_iter(struct er_rd *rd, const struct er_inode *dir, uint64_t start, er_dirent_fn fn,
		void *ctx, struct ff_err *err);
int er_dir_lookup(struct er_rd *rd, const struct er_inode *dir, const char *name, size_t len,
		  uint64_t *nid, struct ff_err *err);

/* xattr.c */
typedef int (*er_xattr_fn)(void *ctx, const char *name, size_t name_len, const uint8_t *value,
			   size_t value_len);
int er_xattr_walk(struct er_rd *rd, const struct er_inode *ino, er_xattr_fn fn, void *ctx,
		  struct ff_err *err);
int er_prefixes_load(struct er_rd *rd, struct ff_err *err);

/* info.c, check.c */
void er_info(struct ff_fs *fs, ff_info_fn fn, void *ctx);
long er_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);

/* reader.c */
int ff_erofs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err);

#endif
