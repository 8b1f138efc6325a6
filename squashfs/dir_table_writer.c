/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listings.  Entries (already sorted by unsigned bytes in the
 * tree) are grouped in runs behind a header; a new run starts at 256
 * entries, when the entry's inode is in another inode-table block, when
 * its number is more than 32767 from the header's, and when the listing
 * has grown 8 KiB past the last index point.  That last run gets an entry
 * in the directory index (the first run is found from the inode), so a
 * lookup reads at most about one metadata block of entries.  The 8 KiB
 * rule is mksquashfs' own, so both tools choose extended directory inodes
 * for the same directories. */
#include "squashfs/dir_table_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "squashfs/format.h"

void sqfs_dir_writer_init(struct sqfs_dir_writer *dw, struct ff_comp_ctx *ctx,
			  struct sqfs_node_info *info)
{
	sqfs_meta_init(&dw->meta, ctx);
	dw->info = info;
}

int sqfs_dir_writer_emit(struct sqfs_dir_writer *dw, struct sqfs_sink *s, uint64_t *start,
			 struct ff_err *err)
{
	return sqfs_meta_emit(s, &dw->meta, start, err);
}

void sqfs_dir_writer_free(struct sqfs_dir_writer *dw)
{
	sqfs_meta_free(&dw->meta);
}

/* Would an entry for c starting at listing offset pos end more than one
 * metadata block past the last index point? */
static int needs_index(const struct ff_node *c, uint64_t pos, uint64_t index_point)
{
	return pos + SQFS_DIR_ENTRY_SIZE + c->name_len - index_point > SQFS_META_SIZE;
}

/* Can the entry for c join the run whose header is for inode h? */
static int joins_run(const struct sqfs_dir_writer *dw, const struct ff_node *hn,
		     const struct ff_node *c)
{
	const struct sqfs_node_info *e = sqfs_info_of(dw->info, c);
	const struct sqfs_node_info *h = sqfs_info_of(dw->info, hn);
	int64_t delta = (int64_t)sqfs_ino(c) - (int64_t)sqfs_ino(hn);

	return sqfs_ref_block(sqfs_ni_ref(e)) == sqfs_ref_block(sqfs_ni_ref(h)) && delta >= -32768 &&
	       delta <= 32767;
}

/* How many entries from `first` share the header at listing offset pos. */
static uint32_t run_length(const struct sqfs_dir_writer *dw, const struct ff_node *dir,
			   uint32_t first, uint64_t pos, uint64_t index_point)
{
	const struct ff_node *h = dir->children[first];
	uint32_t i = first;

	pos += SQFS_DIR_HEADER_SIZE;
	do {
		pos += SQFS_DIR_ENTRY_SIZE + dir->children[i]->name_len;
		i++;
	} while (i < dir->n_children && i - first < SQFS_DIR_MAX_ENTRIES &&
		 joins_run(dw, h, dir->children[i]) &&
		 !needs_index(dir->children[i], pos, index_point));
	return i - first;
}

static int add_index(struct sqfs_dir_info *di, uint32_t index, uint32_t start,
		     const struct ff_node *n, struct ff_err *err)
{
	uint8_t entry[SQFS_DIR_INDEX_SIZE];

	sqfs_dir_index_encode(&(struct sqfs_dir_index){ index, start, n->name_len }, entry);
	if (ff_vec_append(&di->index, entry, sizeof(entry)) < 0 ||
	    ff_vec_append(&di->index, ff_node_name(n), n->name_len) < 0)
		return ff_err_set(err, ENOMEM, "directory index: out of memory");
	di->index_count++;
	return 0;
}

static int write_run(struct sqfs_dir_writer *dw, const struct ff_node *dir, uint32_t first,
		     uint32_t count, struct ff_err *err)
{
	const struct sqfs_node_info *h = sqfs_info_of(dw->info, dir->children[first]);
	uint8_t buf[SQFS_DIR_HEADER_SIZE];

	sqfs_dir_header_encode(&(struct sqfs_dir_header){ count, (uint32_t)sqfs_ref_block(sqfs_ni_ref(h)),
							  sqfs_ino(dir->children[first]) }, buf);
	if (sqfs_meta_write(&dw->meta, buf, sizeof(buf), err) < 0)
		return -1;
	for (uint32_t i = first; i < first + count; i++) {
		const struct ff_node *c = dir->children[i];
		const struct sqfs_node_info *e = sqfs_info_of(dw->info, c);
		struct sqfs_dir_entry de = {
			.offset = (uint16_t)sqfs_ref_offset(sqfs_ni_ref(e)),
			.inode_delta = (int16_t)((int64_t)sqfs_ino(c) -
						 (int64_t)sqfs_ino(dir->children[first])),
			.type = (uint16_t)sqfs_type_from_mode(c->mode),
			.name_len = (uint16_t)c->name_len,
		};

		sqfs_dir_entry_encode(&de, buf);
		if (sqfs_meta_write(&dw->meta, buf, SQFS_DIR_ENTRY_SIZE, err) < 0 ||
		    sqfs_meta_write(&dw->meta, ff_node_name(c), c->name_len, err) < 0)
			return -1;
	}
	return 0;
}

int sqfs_dir_write(struct sqfs_dir_writer *dw, const struct ff_node *dir,
		   struct sqfs_dir_info *di, struct ff_err *err)
{
	struct sqfs_meta_writer *mw = &dw->meta;
	uint64_t listing_start = mw->raw_pos, index_point = 0, entry_bytes = 0;

	memset(di, 0, sizeof(*di));
	ff_vec_init(&di->index, 1);
	/* mksquashfs gives a directory of more than 256 entries or 8 KiB of
	 * entries an extended inode even without an index; doing the same
	 * keeps sqfsdiff (which compares inode types) quiet. */
	for (uint32_t i = 0; i < dir->n_children; i++)
		entry_bytes += SQFS_DIR_ENTRY_SIZE + dir->children[i]->name_len;
	di->extended = dir->n_children > SQFS_DIR_MAX_ENTRIES || entry_bytes >= SQFS_META_SIZE;
	di->block = (uint32_t)(mw->base + mw->len); /* base: the spooled part */
	di->offset = (uint16_t)mw->fill;
	for (uint32_t i = 0; i < dir->n_children;) {
		uint64_t pos = mw->raw_pos - listing_start;
		uint32_t count;

		if (i && needs_index(dir->children[i], pos, index_point)) {
			if (add_index(di, (uint32_t)pos, (uint32_t)(mw->base + mw->len),
				      dir->children[i], err) < 0)
				return -1;
			index_point = pos;
		}
		count = run_length(dw, dir, i, pos, index_point);
		if (write_run(dw, dir, i, count, err) < 0)
			return -1;
		i += count;
	}
	if (mw->raw_pos - listing_start > UINT32_MAX - 3)
		return ff_err_set(err, EFBIG, "directory listing of %llu bytes is too large",
				  (unsigned long long)(mw->raw_pos - listing_start));
	di->size = (uint32_t)(mw->raw_pos - listing_start) + 3;
	return 0;
}
