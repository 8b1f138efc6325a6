/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBIFS builder's shared state and the functions its files give each
 * other: one file per structure written (write_super.c, write_master.c,
 * write_inode.c, write_dent.c, write_xattr.c, write_data.c, write_index.c, write_lpt.c,
 * write_log.c, write_node.c), the head that places nodes in the main area
 * (write_head.c), the ordered pipeline of nodes (write_pipe.c), the codecs (write_compress.c) and the walk over the tree
 * (writer.c). */
#ifndef FF_UBIFS_WRITE_PRIV_H
#define FF_UBIFS_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "common/outfile.h"
#include "common/pool.h"
#include "common/vec.h"
#include "ubifs/media.h"
#include "ubifs/writer.h"

#define UW_FIRST_INO 64u        /* inode numbers below are the kernel's */
#define UW_MIN_LOG_LEBS 2u
#define UW_MIN_LPT_LEBS 2u
#define UW_MIN_BUD_LEBS 3u
#define UW_MIN_MAIN_LEBS (UW_MIN_BUD_LEBS + 6u)
#define UW_MIN_LEB_CNT (1u + 2u + UW_MIN_LOG_LEBS + UW_MIN_LPT_LEBS + 1u + UW_MIN_MAIN_LEBS)
#define UW_MAX_LEB_SIZE (2u * 1024u * 1024u)
#define UW_LSAVE_CNT 256u
#define UW_MIN_COMPR_LEN 128u   /* shorter blocks are stored as they are */
#define UW_MAX_NODE_SZ (UBIFS_INO_NODE_SZ + UBIFS_MAX_INO_DATA)
#define UW_MIN_WRITE_SZ (UBIFS_DATA_NODE_SZ + 8u)
#define UW_LPROPS_INDEX 0x20u   /* LEB holds index nodes (pnode bit, lprops flag) */
#define UW_COMPR_FL 0x01u       /* inode flag: compress new data */
#define UW_ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

/* The areas and the LEB properties tree's geometry (the kernel's
 * do_calc_lpt_geom, taken with mkfs.ubifs' main area for max_leb_cnt). */
struct uw_geom {
	uint32_t min_io, leb_size, max_leb_cnt, fanout;
	uint32_t log_lebs, lpt_lebs, orph_lebs, lsave_cnt;
	uint32_t lpt_first, lpt_last, main_first;
	uint32_t max_main_lebs;           /* main LEBs when the volume is full size */
	uint64_t max_bud_bytes, rp_size;
	int big_lpt;
	uint32_t lpt_hght, space_bits, lpt_lnum_bits, lpt_offs_bits, lpt_spc_bits;
	uint32_t pcnt_bits, lnum_bits, pnode_sz, nnode_sz, ltab_sz, lsave_sz;
	uint64_t lpt_sz;
	uint32_t dead_wm, dark_wm;
};

struct uw_lprops {
	uint32_t free, dirty, flags;
};

/* Space totals, as the master node holds them. */
struct uw_lst {
	uint64_t total_free, total_dirty, total_used, total_dead, total_dark;
	uint32_t empty_lebs, idx_lebs;
};

/* One leaf of the index: a node's key (and name) and where it went. */
struct uw_ient {
	uint32_t inum, lo;
	const char *name;
	uint32_t nlen, lnum, offs, len;
};

/* Where the LEB properties tree went (for the master node). */
struct uw_lpt_pos {
	uint32_t lpt_lnum, lpt_offs, nhead_lnum, nhead_offs;
	uint32_t ltab_lnum, ltab_offs, lsave_lnum, lsave_offs;
};

/* One node on its way to the head, through the ordered pool: a data block
 * to compress (in) or a node made already (node).  Keeps the placement in
 * submission order whatever the number of workers. */
#define UW_NODE_CAP (UW_MAX_NODE_SZ + 64u)
struct uw_job {
	uint32_t inum, lo, nlen, len;   /* key; node length once made */
	const char *name;               /* entries: the name (the tree's) */
	uint32_t in_len;                /* data: bytes in `in`; 0 for a made node */
	uint32_t compr;                 /* data: the codec used */
	uint64_t sqnum;                 /* data: given at submission */
	uint8_t in[UBIFS_BLOCK_SIZE];
	uint8_t node[UW_NODE_CAP];
};

struct uw_cz;
struct uw_batch;
struct uw_look;

struct uw {
	const struct ff_ubifs_write_opts *o;
	struct uw_geom g;
	struct ff_outfile out;
	uint8_t *leb;                   /* the head LEB being filled */
	uint8_t *rbuf;                  /* file data, read 64 KiB at a time */
	uint32_t head_lnum, head_offs, head_flags;
	uint64_t sqnum, highest_inum, index_size;
	struct ff_vec lp;               /* struct uw_lprops per main LEB */
	struct uw_lst lst;
	struct ff_vec idx;              /* struct uw_ient */
	uint32_t root_lnum, root_offs, root_len;
	uint32_t ihead_lnum, ihead_offs, gc_lnum, leb_cnt;
	struct uw_lpt_pos lpt;
	uint64_t hash[2];               /* the main area's checksums, for the UUID */
	struct ff_pool *pool;
	struct uw_cz **cz;              /* per worker, and one for the submitter */
	unsigned n_cz;
	size_t queue;
	struct uw_batch *cur;           /* the batch being filled (write_pipe.c) */
	struct ff_vec spare;            /* struct uw_batch *: batches to reuse */
	struct uw_look *look;           /* nodes waiting for the head (write_pipe.c) */
	struct ff_ubifs_write_stats *st;
	uint64_t next_xinum;            /* the next xattr inode's number */
	uint32_t xs_cnt, xs_size, xs_names; /* the current host's xattr sums */
};

/* write_geom.c */
int uw_geom_init(struct uw_geom *g, const struct ff_ubifs_write_opts *o, struct ff_err *err);

/* Every node: magic, CRC, sequence number, length, type (node.c's layout). */
void uw_node_finish(uint8_t *p, uint32_t len, uint8_t type, uint64_t sqnum);
void uw_key_put(uint8_t *p, uint32_t inum, uint32_t lo);

/* write_head.c: the main area, LEB by LEB */
int uw_head_place(struct uw *w, const uint8_t *node, uint32_t len, uint32_t *lnum,
		  uint32_t *offs, struct ff_err *err);
int uw_head_flush(struct uw *w, struct ff_err *err);
int uw_head_empty_leb(struct uw *w, struct ff_err *err);
void uw_pad(uint8_t *p, uint32_t len);
void uw_lprops_total(const struct uw_geom *g, const struct uw_lprops *lp, struct uw_lst *lst);

/* The node encoders (one file each). */
uint32_t uw_super_encode(const struct uw *w, uint8_t *p);
uint32_t uw_master_encode(const struct uw *w, uint8_t *p);
uint32_t uw_cs_encode(uint8_t *p);
struct uw_ino_attr {
	uint64_t inum, size;
	int64_t mtime;
	uint32_t nlink, uid, gid, mode, flags, compr;
	const void *data;
	uint32_t data_len;
	uint32_t xattr_cnt, xattr_size, xattr_names; /* a host's xattrs (xattr.c's sums) */
};
uint32_t uw_ino_encode(const struct uw_ino_attr *a, uint8_t *p);
uint32_t uw_dent_encode(int key_hash, uint8_t ktype, uint64_t dir, const char *name, uint32_t nlen,
			uint64_t inum, uint8_t itype, uint8_t *p, uint32_t *lo);
uint32_t uw_data_encode(uint32_t inum, uint32_t block, uint32_t size, uint32_t compr,
			const uint8_t *data, uint32_t len, uint8_t *p);

/* write_compress.c: the only calls into the codecs */
struct uw_cz *uw_cz_new(const struct ff_ubifs_write_opts *o, struct ff_err *err);
void uw_cz_free(struct uw_cz *z);
/* Compresses n bytes into out (cap >= n); returns the length and the codec
 * in *compr, or stores the block as it is (UBIFS_COMPR_NONE) when no codec
 * makes it smaller. */
uint32_t uw_compress(struct uw_cz *z, const uint8_t *in, uint32_t n, uint8_t *out,
		     uint32_t *compr);

/* write_pipe.c: the node pipeline */
int uw_pipe_start(struct uw *w, struct ff_err *err);
int uw_pipe_submit(struct uw *w, const struct uw_job *j, struct ff_err *err);
/* A node made by the walk (not a data block): finished now, numbered in
 * submission order. */
int uw_pipe_made(struct uw *w, struct uw_job *j, uint8_t type, struct ff_err *err);
int uw_pipe_drain(struct uw *w, struct ff_err *err);

/* write_xattr.c: a host's extended attributes (an entry and an inode
 * each), before the host's inode; leaves their sums in w->xs_*. */
int uw_put_xattrs(struct uw *w, struct uw_job *j, const struct ff_node *host,
		  uint64_t host_inum, struct ff_err *err);
void uw_pipe_stop(struct uw *w);

/* write_index.c */
int uw_index_write(struct uw *w, struct ff_err *err);

/* write_lpt.c */
void uw_lpt_geom(struct uw_geom *g, uint32_t main_lebs);
int uw_lpt_build(const struct uw_geom *g, const struct uw_lprops *lp, uint32_t main_lebs,
		 uint8_t *area, struct uw_lpt_pos *pos, struct ff_err *err);
uint16_t uw_crc16(uint16_t crc, const uint8_t *p, size_t n);

#endif
