/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An inode's fragment map: which data node supplies each byte range of the
 * file.  JFFS2 writes a file as nodes covering byte ranges, each with a
 * version; where ranges overlap the highest version wins (between equal
 * versions, the node found first, as readinode.c keeps the node it already
 * had).  Ranges no node covers are holes and read as zeros. */
#ifndef FF_JFFS2_FRAG_H
#define FF_JFFS2_FRAG_H

#include <stddef.h>
#include <stdint.h>

struct j2_frag_in {
	uint32_t ofs, len;    /* byte range [ofs, ofs + len) */
	uint32_t version, seq;
	uint32_t node;        /* the caller's index for the node */
};

/* [start, end) of the file comes from node, at byte start - node_ofs of
 * its data. */
struct j2_frag {
	uint32_t start, end;
	uint32_t node, node_ofs;
};

/* Builds the sorted map of the covered ranges (holes left out) from n
 * nodes, in O(n log n) whatever the overlaps.  0, or -1 when out of
 * memory.  *out is malloc'ed (NULL when there are no fragments). */
int j2_frag_build(const struct j2_frag_in *in, size_t n, struct j2_frag **out, size_t *n_out);
/* Cuts the map at size (truncation by the newest isize). */
void j2_frag_truncate(struct j2_frag *f, size_t *n, uint32_t size);
/* The first fragment ending after off, or n. */
size_t j2_frag_find(const struct j2_frag *f, size_t n, uint64_t off);

#endif
