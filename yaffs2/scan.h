/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The YAFFS2 full scan, as the kernel mounts: every page's tags are read,
 * pages are taken in (sequence number, position) order so the newest copy
 * of each chunk wins, headers are applied in that order (deletions,
 * unlinks, shadowing and shrink headers included), and the object tree is
 * rebuilt.  The result is immutable and read by reader.c. */
#ifndef FF_YAFFS2_SCAN_H
#define FF_YAFFS2_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/problems.h"
#include "yaffs2/end_record.h"
#include "yaffs2/obj_header.h"
#include "yaffs2/oob_layout.h"

struct ff_y2_chunk {
	uint32_t chunk_id;
	uint32_t page;
	uint32_t n_bytes;
	uint32_t order;   /* scan order, to keep the newest copy */
};

struct ff_y2_dirent {
	const char *name;
	uint32_t name_len;
	uint32_t handle;  /* object id (hard links resolved) */
};

struct ff_y2_obj {
	uint32_t id;
	uint32_t type;      /* enum ff_y2_obj_type */
	int has_header, deleted, visible;
	int fake;           /* root or lost+found made up without a header */
	uint32_t parent;
	char *name;
	char *alias;
	uint32_t mode, uid, gid, rdev, equiv_id;
	int64_t atime, mtime, ctime;
	uint64_t size;
	uint32_t hdr_page;
	struct ff_y2_chunk *chunks;  /* after the scan: sorted, one per chunk id */
	uint32_t n_chunks, cap_chunks;
	struct ff_y2_dirent *children; /* directories: sorted by name */
	uint32_t n_children, cap_children;
	uint32_t nlink;
};

struct ff_y2_scan_stats {
	uint64_t pages, used_pages, erased_pages;
	uint64_t blocks, bad_blocks;
	uint64_t ecc_fixed, ecc_unfixed;
	uint64_t kernel_headers, classic_headers;
	uint64_t objects, files, dirs, symlinks, hardlinks, specials, deleted;
	uint32_t seq_min, seq_max;
};

struct ff_y2_scan {
	struct ff_bsrc *src;      /* the image from its first byte (one reference) */
	uint64_t image_bytes;     /* src->size */
	struct ff_y2_layout lay;
	int big;                  /* FF_Y2_BIG_* bits */
	struct ff_y2_obj **objs;  /* indexed by id, FF_Y2_OBJID_MAX + 1 entries */
	struct ff_y2_scan_stats st;
	struct ff_y2_end_record rec; /* from the newest root header, if ours */
	struct ff_problem_list problems; /* cap FF_Y2_MAX_PROBLEMS, set by the scan */
};

#define FF_Y2_MAX_PROBLEMS 1000

/* The byte orders of an image, as bits: tags and object headers may
 * differ, as in Aleph One's own mkyaffs2image -c, which writes big-endian
 * headers beside little-endian tags (its tag swap is compiled out). */
#define FF_Y2_BIG_TAGS 1
#define FF_Y2_BIG_HDR 2
#define FF_Y2_BIG_BOTH (FF_Y2_BIG_TAGS | FF_Y2_BIG_HDR)
static inline int ff_y2_tags_big(int big)
{
	return !!(big & FF_Y2_BIG_TAGS);
}
static inline int ff_y2_hdr_big(int big)
{
	return !!(big & FF_Y2_BIG_HDR);
}

/* Newer drivers address 22 bits of chunk ids (older ones and our writer 20,
 * FF_Y2_MAX_CHUNK_ID): the scan and detection accept the larger range. */
#define FF_Y2_READ_MAX_CHUNK_ID 0x3fffffu

/* Scan an open file (not closed by ff_y2_scan_free). */
int ff_y2_scan_run(struct ff_y2_scan *s, struct ff_err *err);
void ff_y2_scan_free(struct ff_y2_scan *s);

/* objtree.c: after the scan, resolve hard links and parents, sort chunks
 * and directory entries, and hide deleted objects. */
int ff_y2_tree_build(struct ff_y2_scan *s, struct ff_err *err);

/* complete.c: for images carrying our end record (end_record.h), report
 * lost blocks, objects, chunks and files cut short.  recs/n are the used
 * pages' sequence numbers in rising order. */
void ff_y2_check_complete(struct ff_y2_scan *s, const uint32_t *seqs, size_t n);

/* info.c: the facts `flashfs info` prints. */
void ff_y2_info(const struct ff_y2_scan *s, ff_info_fn fn, void *ctx);

/* The chunk holding chunk_id, or NULL for a hole. */
const struct ff_y2_chunk *ff_y2_obj_chunk(const struct ff_y2_obj *o, uint32_t chunk_id);

/* Read one page's data area (chunk_bytes) at page index. */
int ff_y2_read_page_data(const struct ff_y2_scan *s, uint32_t page, uint8_t *buf,
			 struct ff_err *err);

struct ff_yaffs2_opts;

/* Detection: fill lay/big from opts (yaffs2/reader.h; NULL = detect all) or by trying known geometries, layouts
 * and byte orders on a sample of pages.  Returns 0, or -1 with err. */
int ff_y2_detect(struct ff_bsrc *src, uint64_t offset, uint64_t bytes, const struct ff_yaffs2_opts *opts,
		 struct ff_y2_layout *lay, int *big, struct ff_err *err);

#endif
