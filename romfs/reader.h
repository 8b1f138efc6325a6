/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The open image: every directory's chain of headers is walked once at
 * open (bounded: each header is listed at most once, each directory walked
 * once), and what was found is kept in memory, immutable after open, so
 * every operation is safe from several threads.  A handle is the offset of
 * an object's header after hard links are followed: the kernel's inode
 * number. */
#ifndef FF_ROMFS_READER_H
#define FF_ROMFS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/fs.h"
#include "common/hmap.h"
#include "common/problems.h"
#include "romfs/layout.h"

struct rf_obj {
	uint32_t off;          /* header offset: handle and inode number */
	uint32_t data;         /* where its data starts */
	uint32_t size, spec;
	uint8_t type, exec;
	uint8_t walked;        /* directories: listed under a parent (or the root) */
	uint8_t data_bad;      /* data runs past the end of the image */
	uint32_t nlink;
	uint32_t parent;       /* directories: the parent's index */
	uint32_t first, count; /* directories: their entries in ents[] */
	uint32_t meta;         /* header and padded name, the kernel's directory size */
};

struct rf_dirent {
	uint32_t name;         /* offset in names */
	uint32_t len;
	uint32_t obj;          /* index in objs */
	uint32_t hdr;          /* the entry's own header (a hard link's, for one) */
};

struct rf_counts {
	uint64_t headers, files, dirs, symlinks, blkdevs, chrdevs, sockets, fifos;
	uint64_t hardlinks, bad_header_sums;
};

#define RF_PROBLEMS_KEPT 1000

struct rf_fs {
	struct ff_fs fs;
	struct ff_bsrc *src;
	struct rf_super sb;
	uint32_t limit;        /* min(full size, source size) */
	struct rf_obj *objs;
	size_t n_objs, cap_objs;
	struct ff_hmap by_off; /* header offset -> object index + 1 */
	struct ff_hmap listed; /* header offsets already met in a chain */
	struct rf_dirent *ents;
	size_t n_ents, cap_ents;
	uint32_t *sorted;      /* each directory's slice of ents, by name */
	char *names;
	size_t names_len, names_cap;
	struct rf_counts n;
	/* Flag 1: something is missing or unreadable; 0: a checksum or a
	 * detail the kernel ignores.  Cap RF_PROBLEMS_KEPT. */
	struct ff_problem_list problems;
};

/* The walk: fills objs, ents, names, sorted, the counts and problems. */
int rf_walk(struct rf_fs *r, struct ff_err *err);
void rf_walk_free(struct rf_fs *r);

const struct rf_obj *rf_obj_of(const struct rf_fs *r, uint64_t handle);
uint32_t rf_obj_mode(const struct rf_obj *o);

void rf_info(struct rf_fs *r, ff_info_fn fn, void *ctx);

#endif
