/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The scan of a JFFS2 image: geometry (byte order, erase-block size), then
 * every erase block read node by node as the kernel's scan.c reads it,
 * each node's CRCs checked, the sound ones kept as records in memory and
 * every bad one counted and reported.  build.c makes the file tree from
 * the records. */
#ifndef FF_JFFS2_SCAN_H
#define FF_JFFS2_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/problems.h"

/* Problems found, for check and open_problems: the first J2_MAX_PROBLEMS
 * kept as text, all counted. */
#define J2_MAX_PROBLEMS 1000

/* One inode node that passed its checks. */
struct j2_inode_rec {
	uint64_t pos;          /* node offset in the image */
	uint32_t seq;          /* scan order, for ties between equal versions */
	uint32_t ino, version, mode, isize, atime, mtime, ctime;
	uint32_t offset, csize, dsize;
	uint16_t uid, gid;
	uint8_t compr;
};

struct j2_dirent_rec {
	uint64_t pos;
	uint32_t seq;
	uint32_t pino, ino, version, mctime;
	uint8_t type, nsize;
	char *name;            /* nsize bytes and a NUL */
};

struct j2_xattr_rec {
	uint64_t pos;
	uint32_t seq;
	uint32_t xid, version;
	uint8_t xprefix, name_len;
	uint16_t value_len;
	uint8_t *data;         /* name, NUL, value */
};

struct j2_xref_rec {
	uint64_t pos;
	uint32_t seq;
	uint32_t ino, xid, xseqno;
};

struct j2_counts {
	uint64_t inode, dirent, xattr, xref, cleanmarker, padding, summary, unknown, obsolete;
	uint64_t bad_crc, bad_other, straddling, garbage_bytes;
	uint64_t blocks, empty_blocks;
	uint32_t compr_mask;   /* bit per compr id seen in a sound node */
	uint32_t compr_unknown;
};

/* How the erase-block size was found. */
enum j2_erase_how { J2_ERASE_GIVEN, J2_ERASE_SUMMARY, J2_ERASE_CLEANMARKERS, J2_ERASE_LAYOUT };

struct j2_geometry {
	int big;
	uint32_t erase;
	enum j2_erase_how how;
};

/* Finds the byte order (the order under which nodes with sound header
 * CRCs are found) and the erase-block size: from the hint, a summary's
 * marker, the spacing of cleanmarkers, or else the smallest size from 4 to
 * 256 KiB under which no node straddles an erase-block boundary (the
 * kernel rejects those), the one with the fewest when none is clean.  0,
 * or -1 with err when no node is found at all. */
int j2_geometry_detect(struct ff_bsrc *src, const struct ff_flash_hint *hint,
		       struct j2_geometry *g, struct ff_err *err);
const char *j2_erase_how_name(enum j2_erase_how how);

struct j2_scan {
	struct ff_bsrc *src;
	uint64_t size;
	struct j2_geometry geo;
	struct j2_inode_rec *inodes;
	size_t n_inodes, cap_inodes;
	struct j2_dirent_rec *dirents;
	size_t n_dirents, cap_dirents;
	struct j2_xattr_rec *xattrs;
	size_t n_xattrs, cap_xattrs;
	struct j2_xref_rec *xrefs;
	size_t n_xrefs, cap_xrefs;
	uint32_t seq;
	struct j2_counts c;
	struct ff_problem_list prob; /* cap J2_MAX_PROBLEMS, set by j2_open */
};

/* Scans every erase block of s->src with s->geo; 0, or -1 with err when
 * the image cannot be read or memory runs out (damage is not an error: it
 * is counted and reported in s->prob). */
int j2_scan_run(struct j2_scan *s, struct ff_err *err);
void j2_scan_free(struct j2_scan *s);

#endif
