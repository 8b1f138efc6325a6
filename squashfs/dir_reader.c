/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listings: runs of up to 256 entries, each run under a header
 * naming the inode metadata block and base inode number.  Entries are
 * sorted by name (byte order), and extended directories carry an index of
 * the first name in each metadata block, used by lookups to skip ahead.
 *
 * A readdir cookie is (byte offset of the run's header) * 256 + (entries of
 * that run already returned), so a resume re-reads one header and at most
 * 255 entries instead of the whole listing. */
#include <errno.h>
#include <string.h>

#include "squashfs/fs_reader.h"

struct walk {
	struct sqfs_mpos pos;
	uint64_t done, size; /* listing bytes consumed / total */
	struct sqfs_dir_header hdr;
	uint64_t hdr_off;
	uint32_t left;       /* entries left in this run */
	uint32_t index;      /* entries of this run already read */
};

static int dir_ok(const struct sqfs_node *dir, struct ff_err *err)
{
	if (sqfs_basic_type(dir->in.type) != SQFS_DIR)
		return ff_err_set(err, ENOTDIR, "inode %u is not a directory",
				  dir->in.inode_number);
	return 0;
}

static void walk_init(struct sqfs_rd *rd, const struct sqfs_node *dir, struct walk *w)
{
	*w = (struct walk){0};
	w->pos.block = rd->sb.dir_table + dir->in.dir_block;
	w->pos.offset = dir->in.dir_offset;
	w->pos.limit = rd->dir_end;
	w->size = dir->in.dir_size - 3;
}

static int walk_read(struct sqfs_rd *rd, struct walk *w, void *dst, size_t len,
		     struct ff_err *err)
{
	if (len > w->size - w->done)
		return ff_err_set(err, EIO, "listing overruns its size %llu",
				  (unsigned long long)w->size);
	w->done += len;
	return sqfs_meta_read(rd, &w->pos, dst, len, err);
}

static int next_header(struct sqfs_rd *rd, struct walk *w, struct ff_err *err)
{
	uint8_t raw[SQFS_DIR_HEADER_SIZE];

	w->hdr_off = w->done;
	if (walk_read(rd, w, raw, sizeof(raw), err) < 0 ||
	    sqfs_dir_header_decode(raw, rd->sb.order, &w->hdr, err) < 0)
		return -1;
	if (w->hdr.start >= rd->inode_end - rd->sb.inode_table)
		return ff_err_set(err, EIO, "directory header: inode block %u outside inode table",
				  w->hdr.start);
	w->left = w->hdr.count;
	w->index = 0;
	return 0;
}

/* Reads the next entry into e/name (NUL-terminated); 1 at the end. */
static int next_entry(struct sqfs_rd *rd, struct walk *w, struct sqfs_dir_entry *e,
		      char name[SQFS_NAME_MAX + 1], struct ff_err *err)
{
	uint8_t raw[SQFS_DIR_ENTRY_SIZE];

	if (!w->left) {
		if (w->done >= w->size)
			return 1;
		if (next_header(rd, w, err) < 0)
			return -1;
	}
	if (walk_read(rd, w, raw, sizeof(raw), err) < 0 ||
	    sqfs_dir_entry_decode(raw, rd->sb.order, e, err) < 0 ||
	    walk_read(rd, w, name, e->name_len, err) < 0)
		return -1;
	name[e->name_len] = '\0';
	w->left--;
	w->index++;
	return 0;
}

static int walk_seek(struct sqfs_rd *rd, struct walk *w, uint64_t hdr_off, uint32_t skip,
		     struct ff_err *err)
{
	struct sqfs_dir_entry e;
	char name[SQFS_NAME_MAX + 1];

	if (hdr_off >= w->size)
		return ff_err_set(err, EINVAL, "readdir cookie past the listing");
	if (walk_read(rd, w, NULL, hdr_off, err) < 0 || next_header(rd, w, err) < 0)
		return -1;
	if (skip > w->hdr.count)
		return ff_err_set(err, EINVAL, "readdir cookie past its run");
	while (skip--)
		if (next_entry(rd, w, &e, name, err) != 0)
			return -1;
	return 0;
}

int sqfs_dir_iterate(struct sqfs_rd *rd, const struct sqfs_node *dir, uint64_t start,
		     sqfs_dirent_fn fn, void *ctx, struct ff_err *err)
{
	struct walk w;
	struct sqfs_dir_entry e;
	char name[SQFS_NAME_MAX + 1];
	int ret;

	if (dir_ok(dir, err) < 0)
		return -1;
	walk_init(rd, dir, &w);
	if (start && walk_seek(rd, &w, start / 256, (uint32_t)(start % 256), err) < 0)
		goto bad;
	while ((ret = next_entry(rd, &w, &e, name, err)) == 0) {
		uint64_t ref = sqfs_ref(w.hdr.start, e.offset);
		uint32_t ino = (uint32_t)((int64_t)w.hdr.inode_number + e.inode_delta);

		if (fn(ctx, name, e.name_len, ref, ino, e.type, w.hdr_off * 256 + w.index))
			return 0;
	}
	if (ret > 0)
		return 0;
bad:
	return ff_err_prefix(err, "directory inode %u", dir->in.inode_number);
}

static int name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

/* Positions w at the last indexed run whose first name is <= name. */
static int use_index(struct sqfs_rd *rd, const struct sqfs_node *dir, struct walk *w,
		     const char *name, size_t len, struct ff_err *err)
{
	struct sqfs_mpos p = dir->tail;
	uint8_t raw[SQFS_DIR_INDEX_SIZE];
	char iname[SQFS_NAME_MAX + 1];
	uint32_t i, best_off = 0, best_block = 0;
	int found = 0;

	for (i = 0; i < dir->in.index_count; i++) {
		struct sqfs_dir_index x;

		if (sqfs_meta_read(rd, &p, raw, sizeof(raw), err) < 0 ||
		    sqfs_dir_index_decode(raw, rd->sb.order, &x, err) < 0 ||
		    sqfs_meta_read(rd, &p, iname, x.name_len, err) < 0)
			return -1;
		if (name_cmp(iname, x.name_len, name, len) > 0)
			break;
		if (x.index >= w->size || (found && x.index < best_off))
			return ff_err_set(err, EIO, "directory index %u: offset %u out of order or past listing size %llu",
					  i, x.index, (unsigned long long)w->size);
		best_off = x.index;
		best_block = x.start;
		found = 1;
	}
	if (!found)
		return 0;
	w->pos.block = rd->sb.dir_table + best_block;
	w->pos.offset = (uint32_t)((dir->in.dir_offset + best_off) % SQFS_META_SIZE);
	w->done = best_off;
	return 0;
}

int sqfs_dir_find(struct sqfs_rd *rd, const struct sqfs_node *dir, const char *name,
		  size_t len, uint64_t *ref, struct ff_err *err)
{
	struct walk w;
	struct sqfs_dir_entry e;
	char ename[SQFS_NAME_MAX + 1];
	int ret;

	if (dir_ok(dir, err) < 0)
		return -1;
	if (len == 0 || len > SQFS_NAME_MAX)
		return 1;
	walk_init(rd, dir, &w);
	if (dir->in.index_count && use_index(rd, dir, &w, name, len, err) < 0)
		goto bad;
	while ((ret = next_entry(rd, &w, &e, ename, err)) == 0) {
		int c = name_cmp(ename, e.name_len, name, len);

		if (c == 0) {
			*ref = sqfs_ref(w.hdr.start, e.offset);
			return 0;
		}
		if (c > 0)
			return 1;
	}
	if (ret > 0)
		return 1;
bad:
	return ff_err_prefix(err, "directory inode %u", dir->in.inode_number);
}
