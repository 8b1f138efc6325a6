/* Directory listings.  Entries (already sorted by unsigned bytes in the
 * tree) are grouped in runs behind a header; a new run starts at 256
 * entries, when the entry's inode is in another inode-table block, when
 * its number is more than 32767 from the header's, and when the listing
 * has grown 8 KiB past the last index point.  That last run gets an entry
 * in the directory index (the first run is found from the inode), so a
 * lookup reads at most about one metadata block of entries.  The 8 KiB
 * rule is mksquashfs' own, so both tools choose extended directory inodes
 * for the same directories. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Would an entry for c starting at listing offset pos end more than one
 * metadata block past the last index point? */
static int needs_index(const struct ff_node *c, uint64_t pos, uint64_t index_point)
{
	return pos + SQFS_DIR_ENTRY_SIZE + c->name_len - index_point > SQFS_META_SIZE;
}

/* Can the entry for c join the run whose header is for inode h? */
static int joins_run(const struct sqfs_writer *w, const struct sqfs_node_info *h,
		     const struct ff_node *c)
{
	const struct sqfs_node_info *e = sqfs_info(w, c);
	int64_t delta = (int64_t)e->ino - (int64_t)h->ino;

	return sqfs_ref_block(e->ref) == sqfs_ref_block(h->ref) && delta >= -32768 &&
	       delta <= 32767;
}

/* How many entries from `first` share the header at listing offset pos. */
static uint32_t run_length(const struct sqfs_writer *w, const struct ff_node *dir,
			   uint32_t first, uint64_t pos, uint64_t index_point)
{
	const struct sqfs_node_info *h = sqfs_info(w, dir->children[first]);
	uint32_t i = first;

	pos += SQFS_DIR_HEADER_SIZE;
	do {
		pos += SQFS_DIR_ENTRY_SIZE + dir->children[i]->name_len;
		i++;
	} while (i < dir->n_children && i - first < SQFS_DIR_MAX_ENTRIES &&
		 joins_run(w, h, dir->children[i]) &&
		 !needs_index(dir->children[i], pos, index_point));
	return i - first;
}

static int add_index(struct sqfs_dir_info *di, uint32_t index, uint32_t start,
		     const struct ff_node *n, struct ff_err *err)
{
	size_t need = di->index_len + SQFS_DIR_INDEX_SIZE + n->name_len;
	uint8_t *p = realloc(di->index, need);

	if (!p)
		return ff_err_set(err, ENOMEM, "directory index: out of memory");
	di->index = p;
	sqfs_dir_index_encode(&(struct sqfs_dir_index){ index, start, n->name_len },
			      p + di->index_len);
	memcpy(p + di->index_len + SQFS_DIR_INDEX_SIZE, n->name, n->name_len);
	di->index_len = need;
	di->index_count++;
	return 0;
}

static int write_run(struct sqfs_writer *w, const struct ff_node *dir, uint32_t first,
		     uint32_t count, struct ff_err *err)
{
	const struct sqfs_node_info *h = sqfs_info(w, dir->children[first]);
	uint8_t buf[SQFS_DIR_HEADER_SIZE];

	sqfs_dir_header_encode(&(struct sqfs_dir_header){ count, (uint32_t)sqfs_ref_block(h->ref),
							  h->ino }, buf);
	if (sqfs_meta_write(&w->dirs, buf, sizeof(buf), err) < 0)
		return -1;
	for (uint32_t i = first; i < first + count; i++) {
		const struct ff_node *c = dir->children[i];
		const struct sqfs_node_info *e = sqfs_info(w, c);
		struct sqfs_dir_entry de = {
			.offset = (uint16_t)sqfs_ref_offset(e->ref),
			.inode_delta = (int16_t)((int64_t)e->ino - (int64_t)h->ino),
			.type = (uint16_t)sqfs_type_from_mode(c->mode),
			.name_len = (uint16_t)c->name_len,
		};

		sqfs_dir_entry_encode(&de, buf);
		if (sqfs_meta_write(&w->dirs, buf, SQFS_DIR_ENTRY_SIZE, err) < 0 ||
		    sqfs_meta_write(&w->dirs, c->name, c->name_len, err) < 0)
			return -1;
	}
	return 0;
}

int sqfs_dir_write(struct sqfs_writer *w, const struct ff_node *dir, struct sqfs_dir_info *di,
		   struct ff_err *err)
{
	uint64_t listing_start = w->dirs.raw_pos, index_point = 0, entry_bytes = 0;

	memset(di, 0, sizeof(*di));
	/* mksquashfs gives a directory of more than 256 entries or 8 KiB of
	 * entries an extended inode even without an index; doing the same
	 * keeps sqfsdiff (which compares inode types) quiet. */
	for (uint32_t i = 0; i < dir->n_children; i++)
		entry_bytes += SQFS_DIR_ENTRY_SIZE + dir->children[i]->name_len;
	di->extended = dir->n_children > SQFS_DIR_MAX_ENTRIES || entry_bytes >= SQFS_META_SIZE;
	di->block = (uint32_t)w->dirs.len;
	di->offset = (uint16_t)w->dirs.fill;
	for (uint32_t i = 0; i < dir->n_children;) {
		uint64_t pos = w->dirs.raw_pos - listing_start;
		uint32_t count;

		if (i && needs_index(dir->children[i], pos, index_point)) {
			if (add_index(di, (uint32_t)pos, (uint32_t)w->dirs.len, dir->children[i],
				      err) < 0)
				return -1;
			index_point = pos;
		}
		count = run_length(w, dir, i, pos, index_point);
		if (write_run(w, dir, i, count, err) < 0)
			return -1;
		i += count;
	}
	if (w->dirs.raw_pos - listing_start > UINT32_MAX - 3)
		return ff_err_set(err, EFBIG, "directory listing of %llu bytes is too large",
				  (unsigned long long)(w->dirs.raw_pos - listing_start));
	di->size = (uint32_t)(w->dirs.raw_pos - listing_start) + 3;
	return 0;
}
