/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The completeness record our writer keeps in the root directory's header.
 *
 * A YAFFS2 image has no superblock and no object count, so an image cut on
 * an erase-block boundary is, page for page, a valid smaller file system.
 * The writer therefore writes the root's header twice: first (before any
 * other object) with a begin record, and last (the newest copy, in the
 * image's last block) with an end record.  The record lives in the header's
 * alias field, which the Linux driver, unyaffs and our reader read only for
 * symlinks, so other readers see an ordinary root directory:
 *
 *   begin:  "flashfs-yaffs2 1 objects=N last=L"
 *   end:    "flashfs-yaffs2 1 objects=N last=L seq=S chunks=C"
 *
 * N is the number of objects with an id of 257 or more, L the highest
 * such id, S the sequence number of the image's last block (blocks use
 * every number from 0x1000 to S) and C the number of chunks written,
 * this header included.  The writer also always writes a file's last
 * chunk, even when it is all zeros, so a file cut short shows.  The scan
 * applies headers oldest first, so the newest root header's record is the
 * one that counts: a begin record there means the end was lost. */
#ifndef FF_YAFFS2_END_RECORD_H
#define FF_YAFFS2_END_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct ff_y2_end_record {
	int present;       /* a record was found */
	int is_end;        /* seq and chunks are valid */
	uint32_t objects, last_obj;
	uint32_t seq;
	uint64_t chunks;
};

/* Writes the record as a NUL-terminated string into alias[cap]. */
void ff_y2_end_record_encode(const struct ff_y2_end_record *r, char *alias, size_t cap);

/* Parses an alias; present stays 0 for anything that is not a record. */
void ff_y2_end_record_decode(const char *alias, struct ff_y2_end_record *r);

#endif
