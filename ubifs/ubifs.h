/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBIFS reader's shared state and the functions its files give each
 * other.  One open image is a superblock and master node, the on-flash
 * index (read lazily, znodes kept in a bounded cache), and an overlay: the
 * journal's changes replayed at open as the kernel replays them at mount.
 * Everything after open is immutable except the caches, which a mutex
 * guards, so every read operation is safe from several threads. */
#ifndef FF_UBIFS_UBIFS_H
#define FF_UBIFS_UBIFS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/fs.h"
#include "common/hmap.h"
#include "common/problems.h"
#include "ubifs/media.h"

/* A key in memory: the inode number, then 3 type bits over 29 bits of
 * block number or name hash (the "simple" key format). */
struct ubifs_key {
	uint32_t inum;
	uint32_t lo;
};
#define UBIFS_KEY_TYPE(k) ((k).lo >> 29)
#define UBIFS_KEY_VAL(k) ((k).lo & 0x1fffffffu)
#define UBIFS_KEY_VAL_MASK 0x1fffffffu
#define UBIFS_TRUN_KEY 4u /* the kernel's fake key type for truncations */

/* Where a node sits: LEB, offset inside it, length. */
struct ubifs_loc {
	uint32_t lnum, offs, len;
};

/* One branch of an index node, and the node (refcounted in the cache). */
struct ubifs_zbr {
	struct ubifs_key key;
	struct ubifs_loc loc;
};
struct ubifs_znode {
	atomic_uint refs;
	uint32_t level, cnt;
	/* above level 0: each branch's znode once a walk has read it, with a
	 * reference of this znode's (index.c), so later walks need neither
	 * the cache's lock nor its table */
	_Atomic(struct ubifs_znode *) *kid;
	struct ubifs_zbr br[];
};

/* A node's common header. */
struct ubifs_ch {
	uint32_t crc, len;
	uint64_t sqnum;
	uint8_t type, group;
};

struct ubifs_super {
	uint8_t key_hash, key_fmt;
	uint32_t flags, min_io, leb_size, leb_cnt, max_leb_cnt;
	uint64_t max_bud_bytes;
	uint32_t log_lebs, lpt_lebs, orph_lebs, jhead_cnt, fanout, lsave_cnt;
	uint32_t fmt_version, ro_compat, time_gran, rp_uid, rp_gid;
	uint64_t rp_size;
	uint16_t default_compr, hash_algo;
	uint8_t uuid[16];
};

struct ubifs_master {
	uint64_t sqnum, highest_inum, cmt_no, index_size;
	uint64_t total_free, total_dirty, total_used, total_dead, total_dark;
	uint32_t flags, log_lnum, gc_lnum, ihead_lnum, ihead_offs;
	uint32_t empty_lebs, idx_lebs, leb_cnt;
	uint32_t lpt_lnum, lpt_offs, ltab_lnum, ltab_offs; /* the LPT's root, own table */
	struct ubifs_loc root;
	uint32_t at_lnum, at_offs; /* where the chosen copy sits */
	int copies_differ;         /* LEBs 1 and 2 disagree (a cut master write) */
};

/* A decoded inode node (data holds a symlink target or device number). */
struct ubifs_ino {
	uint64_t inum, size, creat_sqnum;
	int64_t atime, ctime, mtime;
	uint32_t nlink, uid, gid, mode, flags, data_len, xattr_cnt;
	uint16_t compr;
	uint8_t data[UBIFS_MAX_INO_DATA];
};

/* A decoded directory or xattr entry. */
struct ubifs_dent {
	struct ubifs_key key;
	uint64_t inum;
	uint8_t type;
	uint16_t nlen;
	uint32_t cookie;
	char name[UBIFS_MAX_NLEN + 1];
};

/* The journal's changes: entries by key (and name, for entries), each
 * with the sequence number of its last change; and removed key ranges
 * (truncations, deleted inodes) with theirs.  An entry newer than every
 * range over its key stands; a flash entry under any range is gone. */
struct ubifs_oent {
	struct ubifs_key key;
	uint64_t sqnum;
	struct ubifs_loc loc;
	uint8_t deleted, nlen;
	char *name; /* NULL for keys without a name */
};
struct ubifs_orange {
	uint32_t inum, lo, hi;
	uint64_t sqnum;
};
struct ubifs_overlay {
	struct ubifs_oent *e;
	size_t n, cap;
	struct ubifs_orange *r;
	size_t nr, rcap;
	struct ff_hmap where;  /* while replaying: key+name -> entry index + 1 */
	struct ff_hmap sizes;  /* recovered inode sizes: inum -> size + 1 */
};

struct ubifs_jstats {
	uint32_t log_lebs_read, refs, buds, cs_nodes, buds_cut;
	uint64_t nodes, applied, cs_sqnum, max_sqnum;
	uint32_t orphans, orphans_killed, sizes_fixed;
	int need_recovery;
};

#define UBIFS_PROBLEMS_KEPT 200
#define UBIFS_DCTX_KEPT 8

struct ubifs_dircache;
struct ubifs_icache;
struct ubifs_wcache;

struct ubifs_fs {
	struct ff_fs fs;
	struct ff_bsrc *src;
	struct ubifs_super sb;
	struct ubifs_master mst;
	uint32_t orph_first, main_first; /* area boundaries in LEBs */
	uint32_t max_znode_len;
	struct ubifs_overlay ov;
	struct ubifs_jstats js;
	struct ff_problem_list problems; /* found while opening, for check */
	pthread_mutex_t lock;   /* guards everything below */
	struct ff_hmap zcache;  /* (lnum << 32 | offs) -> struct ubifs_znode * */
	struct ubifs_znode *zroot; /* the index root, while the cache holds it */
	size_t zcache_bytes, cache_budget;
	struct ubifs_dircache *dirs;
	struct ubifs_wcache *wc; /* window.c */
	struct ubifs_icache *ic; /* icache.c */
	struct ff_hmap damaged; /* (lnum << 32 | offs) of entries left out */
	uint64_t inode_count;   /* 0 until counted */
	uint32_t *bud_lnum;     /* the journal's buds (LEBs the LPT lags behind) */
	size_t n_buds;
	void *dctx[UBIFS_DCTX_KEPT]; /* spare zstd contexts (compr.c) */
	unsigned n_dctx;
};

/* node.c */
uint32_t ubifs_crc(const uint8_t *p, size_t n);
void ubifs_ch_decode(const uint8_t *p, struct ubifs_ch *ch);
/* 0 when p (avail bytes, at offset offs of a LEB) holds a sound node: magic,
 * type, length for its type, inside the LEB, CRC.  -1 with why. */
int ubifs_node_check(const struct ubifs_fs *u, const uint8_t *p, size_t avail, uint32_t offs,
		     struct ubifs_ch *ch, char *why, size_t cap);
/* Reads the node at loc into buf (cap bytes) and checks it and its type
 * (want < 0: any); -EIO with a logged message naming what. */
int ubifs_read_node(struct ubifs_fs *u, const struct ubifs_loc *loc, int want, uint8_t *buf,
		    size_t cap, const char *what);
/* The checks of ubifs_read_node on a node already read (loc->len bytes at
 * buf, loc within the volume). */
int ubifs_node_verify(struct ubifs_fs *u, const struct ubifs_loc *loc, int want,
		      const uint8_t *buf, const char *what);
/* The same two for a data node read for its contents, without its CRC
 * (the kernel's default, no_chk_data_crc). */
int ubifs_read_data_node(struct ubifs_fs *u, const struct ubifs_loc *loc, uint8_t *buf,
			 size_t cap);
int ubifs_data_node_verify(struct ubifs_fs *u, const struct ubifs_loc *loc, const uint8_t *buf);
/* len bytes at offs of LEB lnum (erased past the source's end); small
 * reads through the cached windows of window.c, _raw straight from the
 * source. */
int ubifs_leb_read(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len);
int ubifs_leb_read_raw(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len);
/* From a window already read, else straight from the source. */
int ubifs_leb_read_near(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len);
/* As ubifs_leb_read, a missed window starting at offs: data nodes are
 * read in the order they were written, forwards. */
int ubifs_leb_read_ahead(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len);
void ubifs_wcache_free(struct ubifs_fs *u);

/* An entry left out of a listing after open (its node unreadable): kept
 * once among the problems, so extract fails and check names it. */
void ubifs_damaged(struct ubifs_fs *u, const struct ubifs_loc *loc, const char *what);

/* key.c */
void ubifs_key_decode(const uint8_t *p, struct ubifs_key *k);
int ubifs_key_cmp(const struct ubifs_key *a, const struct ubifs_key *b);
uint32_t ubifs_name_hash(const struct ubifs_fs *u, const char *name, size_t len);
/* The same by the superblock's key_hash (0 r5, 1 test), for the builder. */
uint32_t ubifs_hash_name(int key_hash, const char *name, size_t len);
struct ubifs_key ubifs_key_make(uint32_t inum, uint32_t type, uint32_t val);
int ubifs_key_hashed(const struct ubifs_key *k);

/* super.c, master.c */
int ubifs_super_decode(const uint8_t *p, size_t len, uint64_t src_size, struct ubifs_super *sb,
		       struct ff_err *err);
int ubifs_master_read(struct ubifs_fs *u, struct ff_err *err);

/* index.c: the on-flash index */
int ubifs_znode_get(struct ubifs_fs *u, const struct ubifs_loc *loc, uint32_t want_level,
		    struct ubifs_znode **out);
void ubifs_znode_put(struct ubifs_znode *z);
void ubifs_zcache_clear(struct ubifs_fs *u);
struct ubifs_fiter {
	struct ubifs_znode *path[UBIFS_MAX_LEVELS];
	uint32_t pos[UBIFS_MAX_LEVELS];
	unsigned depth;
	int done;
	uint64_t loads, max_loads;
};
int ubifs_fiter_seek(struct ubifs_fs *u, struct ubifs_fiter *it, const struct ubifs_key *lo);
int ubifs_fiter_next(struct ubifs_fs *u, struct ubifs_fiter *it);
const struct ubifs_zbr *ubifs_fiter_cur(const struct ubifs_fiter *it);
void ubifs_fiter_end(struct ubifs_fiter *it);
int ubifs_flash_lookup(struct ubifs_fs *u, const struct ubifs_key *k, struct ubifs_loc *loc);

/* overlay.c */
int ubifs_ov_put(struct ubifs_overlay *ov, const struct ubifs_key *k, const char *name,
		 size_t nlen, uint64_t sqnum, const struct ubifs_loc *loc, int deleted);
int ubifs_ov_range(struct ubifs_overlay *ov, uint32_t inum, uint32_t lo, uint32_t hi,
		   uint64_t sqnum);
void ubifs_ov_finish(struct ubifs_overlay *ov);
const struct ubifs_oent *ubifs_ov_find(const struct ubifs_overlay *ov, const struct ubifs_key *k,
				       const char *name, size_t nlen);
size_t ubifs_ov_lower(const struct ubifs_overlay *ov, const struct ubifs_key *k);
int ubifs_ov_hidden(const struct ubifs_overlay *ov, const struct ubifs_key *k, uint64_t sqnum);
void ubifs_ov_free(struct ubifs_overlay *ov);

/* scan.c: a LEB read node by node, as the kernel's scan does */
enum ubifs_scan_end { UBIFS_SCAN_EMPTY, UBIFS_SCAN_CORRUPT, UBIFS_SCAN_FULL };
struct ubifs_snode {
	struct ubifs_ch ch;
	uint32_t offs;
	const uint8_t *p;
};
struct ubifs_sleb {
	uint8_t *buf;           /* the whole LEB */
	struct ubifs_snode *v;
	size_t n, cap;
	uint32_t endpt;         /* where scanning stopped */
	enum ubifs_scan_end end;
	char why[160];          /* the corruption, when end is CORRUPT */
};
int ubifs_scan(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, struct ubifs_sleb *s);
void ubifs_sleb_free(struct ubifs_sleb *s);

/* replay.c, orphan.c */
int ubifs_replay(struct ubifs_fs *u, struct ff_err *err);
int ubifs_orphans(struct ubifs_fs *u);

/* tnc.c: the index as the journal left it */
int ubifs_lookup(struct ubifs_fs *u, const struct ubifs_key *k, struct ubifs_loc *loc);
int ubifs_lookup_name(struct ubifs_fs *u, uint32_t dir, uint32_t type, const char *name,
		      size_t nlen, struct ubifs_dent *out);
/* Called for each live entry in [lo, hi] in key order; node is the entry's
 * bytes when already read (hashed keys), else NULL.  Non-zero stops. */
typedef int (*ubifs_walk_fn)(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
			     const uint8_t *node);
int ubifs_walk(struct ubifs_fs *u, const struct ubifs_key *lo, const struct ubifs_key *hi,
	       ubifs_walk_fn fn, void *ctx);

/* inode.c, dent.c */
int ubifs_ino_decode(const uint8_t *p, size_t len, struct ubifs_ino *ino);
int ubifs_read_inode(struct ubifs_fs *u, uint64_t inum, struct ubifs_ino *ino);
uint32_t ubifs_ino_mode(const struct ubifs_ino *ino);
void ubifs_ino_rdev(const struct ubifs_ino *ino, uint32_t *major, uint32_t *minor);
int ubifs_dent_decode(const uint8_t *p, size_t len, struct ubifs_dent *d);
int ubifs_read_dent(struct ubifs_fs *u, const struct ubifs_loc *loc, const uint8_t *node,
		    struct ubifs_dent *d);
uint32_t ubifs_itype_mode(uint8_t type);

/* data.c, compr.c */
ssize_t ubifs_read_data(struct ubifs_fs *u, const struct ubifs_ino *ino, uint8_t *buf,
			size_t len, uint64_t off);
int ubifs_data_block(struct ubifs_fs *u, uint64_t inum, uint32_t block,
		     uint8_t out[UBIFS_BLOCK_SIZE], uint32_t *got);
ssize_t ubifs_decompress(int type, const uint8_t *src, size_t n, uint8_t *dst, size_t cap);
/* A zstd context from the fs's spares or new (NULL when out of memory),
 * given back with _put (NULL is fine); _clear frees the spares. */
void *ubifs_zstd_dctx_get(struct ubifs_fs *u);
void ubifs_zstd_dctx_put(struct ubifs_fs *u, void *dctx);
void ubifs_zstd_dctx_clear(struct ubifs_fs *u);
/* The same with a zstd context to reuse (ZSTD_DCtx *; NULL: one made for
 * the call). */
ssize_t ubifs_decompress_ctx(int type, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     void *zstd_dctx);
/* 1, with the reason in why, when a node of this type cannot decode
 * because the build has no LZO (`make LZO=0`); else 0. */
int ubifs_lzo_missing(unsigned type, char *why, size_t cap);
const char *ubifs_compr_name(unsigned type);

/* icache.c: decoded inodes by number (1: found in the cache) */
int ubifs_icache_get(struct ubifs_fs *u, uint64_t inum, struct ubifs_ino *ino);
void ubifs_icache_put(struct ubifs_fs *u, const struct ubifs_ino *ino);
void ubifs_icache_free(struct ubifs_fs *u);

/* dircache.c */
struct ubifs_dl_ent {
	char *name;
	size_t nlen;
	uint64_t inum;
	uint8_t type;
};
struct ubifs_dlist {
	uint64_t dir;
	struct ubifs_dl_ent *v;
	size_t n, cap;
	atomic_uint refs;
};
int ubifs_dir_get(struct ubifs_fs *u, uint64_t dir, struct ubifs_dlist **out);
void ubifs_dir_put(struct ubifs_dlist *l);
void ubifs_dircache_free(struct ubifs_fs *u);

/* info.c, check.c */
void ubifs_info(struct ff_fs *fs, ff_info_fn fn, void *ctx);
long ubifs_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
long ubifs_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx);

/* check_lpt.c: the LEB properties tree against the main area.  live[lnum]
 * is the space (8-byte aligned) the committed index's nodes take in each
 * LEB, idx[lnum] 1 where index nodes are, 2 where leaves are (or both);
 * index_size their sum for index nodes.  Returns the problems found. */
long ubifs_check_lpt(struct ubifs_fs *u, const uint64_t *live, const uint8_t *idx,
		     uint64_t index_size, ff_problem_fn fn, void *ctx);

/* reader.c */
int ubifs_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
	       struct ff_err *err);

#endif
