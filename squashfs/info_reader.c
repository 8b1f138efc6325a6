/* `flashfs info` facts: superblock fields plus per-type counts from one
 * sequential pass over the inode table. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "squashfs/fs_reader.h"

struct counts {
	uint64_t by_type[8];
	int complete; /* 0 when the scan stopped on a damaged inode */
};

static void scan_inodes(struct sqfs_rd *rd, struct counts *c)
{
	struct sqfs_mpos pos = {rd->sb.inode_table, 0, rd->inode_end};
	struct ff_err err = {0};
	uint32_t i;

	c->complete = 0;
	for (i = 0; i < rd->sb.inode_count; i++) {
		struct sqfs_node n;
		uint64_t ref;

		if (sqfs_meta_normalize(rd, &pos, &err) < 0)
			return;
		ref = sqfs_ref(pos.block - rd->sb.inode_table, pos.offset);
		if (sqfs_node_load(rd, ref, &n, &err) < 0 || sqfs_node_skip_tail(rd, &n, &err) < 0)
			return;
		c->by_type[sqfs_basic_type(n.in.type)]++;
		pos = n.tail;
	}
	c->complete = 1;
}

static void put_num(ff_info_fn fn, void *ctx, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	fn(ctx, key, buf, 1);
}

static void put_flags(struct sqfs_rd *rd, ff_info_fn fn, void *ctx)
{
	static const char *const names[] = {
		"uncompressed-inodes", "uncompressed-data", "check", "uncompressed-fragments",
		"no-fragments", "always-fragments", "duplicates", "exportable",
		"uncompressed-xattrs", "no-xattrs", "compressor-options", "uncompressed-ids",
	};
	char buf[512] = "";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (rd->sb.flags & (1u << i)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, names[i]);
		}
	fn(ctx, "flags", buf, 0);
}

void sqfs_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct sqfs_rd *rd = (struct sqfs_rd *)fs;
	struct counts c = {{0}, 0};
	char buf[256];
	time_t t = rd->sb.mod_time;
	struct tm tm;

	fn(ctx, "compressor", ff_comp_name(rd->comp), 0);
	/* Only what the image stores: without an options block the encoder's
	 * settings are unknown (a reader assumes the codec's defaults). */
	if (rd->sb.flags & SQFS_FLAG_COMPRESSOR_OPTIONS)
		ff_comp_describe_stored(rd->comp, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "none stored");
	fn(ctx, "compressor_options", buf, 0);
	put_num(fn, ctx, "block_size", rd->sb.block_size);
	put_num(fn, ctx, "bytes_used", rd->sb.bytes_used);
	put_num(fn, ctx, "inodes", rd->sb.inode_count);
	scan_inodes(rd, &c);
	if (c.complete) {
		put_num(fn, ctx, "directories", c.by_type[SQFS_DIR]);
		put_num(fn, ctx, "files", c.by_type[SQFS_FILE]);
		put_num(fn, ctx, "symlinks", c.by_type[SQFS_SYMLINK]);
		put_num(fn, ctx, "devices", c.by_type[SQFS_BLKDEV] + c.by_type[SQFS_CHRDEV]);
		put_num(fn, ctx, "fifos", c.by_type[SQFS_FIFO]);
		put_num(fn, ctx, "sockets", c.by_type[SQFS_SOCKET]);
	}
	put_num(fn, ctx, "fragments", rd->sb.fragment_count);
	put_num(fn, ctx, "ids", rd->sb.id_count);
	put_num(fn, ctx, "xattr_ids", rd->xattr_count);
	put_num(fn, ctx, "mod_time", rd->sb.mod_time);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fn(ctx, "created", buf, 0);
	put_flags(rd, fn, ctx);
	fn(ctx, "exportable", rd->export_blocks ? "yes" : "no", 0);
}
