/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The facts `flashfs info` shows for a UBIFS image, in a stable order:
 * geometry and areas, format, the master node's commit state and the
 * journal replayed at open. */
#include <stdio.h>

#include "ubifs/ubifs.h"

static void put_uuid(ff_info_fn fn, void *ctx, const uint8_t *u)
{
	char s[40];

	snprintf(s, sizeof(s), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
		 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	ff_info_str(fn, ctx, "uuid", s);
}

static void put_super(const struct ubifs_fs *u, ff_info_fn fn, void *ctx)
{
	static const char *const flag_names[] = {
		"unused0", "big_lpt", "space_fixup", "double_hash", "encryption",
		"authentication", NULL,
	};
	const struct ubifs_super *sb = &u->sb;

	ff_info_uint(fn, ctx, "leb_size", sb->leb_size);
	ff_info_uint(fn, ctx, "min_io_size", sb->min_io);
	ff_info_uint(fn, ctx, "leb_count", sb->leb_cnt);
	ff_info_uint(fn, ctx, "max_leb_count", sb->max_leb_cnt);
	ff_info_uint(fn, ctx, "log_lebs", sb->log_lebs);
	ff_info_uint(fn, ctx, "lpt_lebs", sb->lpt_lebs);
	ff_info_uint(fn, ctx, "orphan_lebs", sb->orph_lebs);
	ff_info_uint(fn, ctx, "main_first_leb", u->main_first);
	ff_info_uint(fn, ctx, "journal_heads", sb->jhead_cnt);
	ff_info_uint(fn, ctx, "fanout", sb->fanout);
	ff_info_uint(fn, ctx, "format_version", sb->fmt_version);
	ff_info_uint(fn, ctx, "ro_compat_version", sb->ro_compat);
	ff_info_str(fn, ctx, "key_hash", sb->key_hash ? "test" : "r5");
	ff_info_names(fn, ctx, "flags", sb->flags & 0x3eu, flag_names, NULL);
	ff_info_str(fn, ctx, "compressor", ubifs_compr_name(sb->default_compr));
	put_uuid(fn, ctx, sb->uuid);
	ff_info_uint(fn, ctx, "time_granularity_ns", sb->time_gran);
	ff_info_uint(fn, ctx, "reserved_pool_bytes", sb->rp_size);
}

static void put_master(const struct ubifs_fs *u, ff_info_fn fn, void *ctx)
{
	const struct ubifs_master *m = &u->mst;
	char root[48];

	snprintf(root, sizeof(root), "LEB %u:%u (%u bytes)", m->root.lnum, m->root.offs,
		 m->root.len);
	ff_info_uint(fn, ctx, "commit_number", m->cmt_no);
	ff_info_uint(fn, ctx, "highest_inode", m->highest_inum);
	ff_info_bool(fn, ctx, "unclean_unmount", (m->flags & UBIFS_MST_DIRTY) != 0);
	ff_info_bool(fn, ctx, "master_copies_differ", m->copies_differ);
	ff_info_str(fn, ctx, "index_root", root);
	ff_info_uint(fn, ctx, "index_bytes", m->index_size);
	ff_info_uint(fn, ctx, "used_bytes", m->total_used);
	ff_info_uint(fn, ctx, "free_bytes", m->total_free);
	ff_info_uint(fn, ctx, "dirty_bytes", m->total_dirty);
	ff_info_uint(fn, ctx, "empty_lebs", m->empty_lebs);
	ff_info_uint(fn, ctx, "index_lebs", m->idx_lebs);
	ff_info_uint(fn, ctx, "used_lebs", m->leb_cnt - m->empty_lebs);
}

static void put_journal(const struct ubifs_fs *u, ff_info_fn fn, void *ctx)
{
	const struct ubifs_jstats *j = &u->js;

	ff_info_uint(fn, ctx, "log_start_leb", u->mst.log_lnum);
	ff_info_uint(fn, ctx, "journal_buds", j->buds);
	ff_info_uint(fn, ctx, "journal_buds_cut", j->buds_cut);
	ff_info_uint(fn, ctx, "journal_nodes", j->nodes);
	ff_info_uint(fn, ctx, "journal_nodes_applied", j->applied);
	ff_info_uint(fn, ctx, "journal_overlay_entries", u->ov.n);
	ff_info_uint(fn, ctx, "journal_removed_ranges", u->ov.nr);
	ff_info_uint(fn, ctx, "orphans", j->orphans);
	ff_info_uint(fn, ctx, "orphans_deleted", j->orphans_killed);
	ff_info_uint(fn, ctx, "sizes_recovered", j->sizes_fixed);
	ff_info_uint(fn, ctx, "max_sqnum", j->max_sqnum);
}

void ubifs_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	const struct ubifs_fs *u = (const struct ubifs_fs *)fs;

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "ubifs", NULL);
	put_super(u, fn, ctx);
	put_master(u, fn, ctx);
	put_journal(u, fn, ctx);
	ff_info_uint(fn, ctx, "problems", u->problems.total);
	ff_info_end(fn, ctx);
}
