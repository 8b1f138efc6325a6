/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS' build hook (tree/build.h): the generic options mapped onto
 * the writer exactly as mkfs.squashfs maps its command line
 * (mkfs/squashfs_build.c), so `-comp C -Xlevel N -b B` there and codec C,
 * "level=N", block size B here write the same bytes. */
#include <errno.h>
#include <string.h>

#include "common/format.h"
#include "compress/compress.h"
#include "squashfs/writer.h"
#include "squashfs/build.h"

static const uint32_t sqfs_block_sizes[] = { 65536, 131072, 262144, 1048576, 0 };

static const char *const sqfs_codecs[] = { "gzip", "lzo", "lz4", "xz", "zstd", NULL };

static const struct ff_build_flag sqfs_flags[] = {
	{ "no-fragments", "every file's tail is a short block of its own (-no-fragments)", 0 },
	{ "always-fragments", "pack the tails of large files too (-always-use-fragments)", 0 },
	{ "no-dedup", "store duplicate files again (-no-duplicates)", 0 },
	{ "no-exports", "no NFS export table (-no-exports)", 0 },
	{ "no-sparse", "store all-zero blocks (-no-sparse)", 0 },
	{ NULL, NULL, 0 },
};

/* The codec and its options, as mkfs.squashfs' --compressor/--comp-opt. */
static struct ff_comp *open_comp(const struct ff_build_opts *o, uint32_t block_size,
				 struct ff_err *err)
{
	char opts[256], *save = NULL;
	struct ff_comp *comp = ff_comp_new(o->codec ? o->codec : "gzip", block_size, err);

	if (!comp)
		return NULL;
	if (!o->codec_opts || !*o->codec_opts)
		return comp;
	if (strlen(o->codec_opts) >= sizeof(opts)) {
		ff_comp_free(comp);
		ff_err_set(err, EINVAL, "codec options '%.60s...': too long", o->codec_opts);
		return NULL;
	}
	strcpy(opts, o->codec_opts);
	for (char *kv = strtok_r(opts, ":", &save); kv; kv = strtok_r(NULL, ":", &save))
		if (ff_comp_set_option_str(comp, kv, err) < 0) {
			ff_comp_free(comp);
			return NULL;
		}
	return comp;
}

static int flag(const struct ff_build_opts *o, const char *name)
{
	return ff_build_flag_value(o, name) != NULL;
}

static int sqfs_build(const struct ff_tree *tree, const struct ff_build_opts *o,
		      const char *path, struct ff_build_result *res, struct ff_err *err)
{
	uint32_t bs = o->block_size ? o->block_size : 131072;
	struct ff_sqfs_write_stats st;
	struct ff_sqfs_write_opts w;
	struct ff_comp *comp;
	int r;

	if (bs < 4096 || bs > 1048576 || (bs & (bs - 1)))
		return ff_err_set(err, EINVAL, "SquashFS block size %u: a power of two from "
				  "4 KiB to 1 MiB", bs);
	if (ff_build_check_flags(&ff_squashfs_build, o, "SquashFS", err) ||
	    !(comp = open_comp(o, bs, err)))
		return -1;
	memset(&w, 0, sizeof(w));
	w.comp = comp;
	w.block_size = bs;
	w.jobs = o->jobs;
	w.mkfs_time = o->time;
	w.no_fragments = flag(o, "no-fragments");
	w.always_fragments = flag(o, "always-fragments");
	w.no_dedup = flag(o, "no-dedup");
	w.no_exports = flag(o, "no-exports");
	w.no_sparse = flag(o, "no-sparse");
	w.warn = o->warn;
	w.cb_ctx = o->warn_ctx;
	r = ff_sqfs_write(tree, &w, path, &st, err);
	ff_comp_free(comp);
	if (r == 0) {
		res->size = st.image_size;
		res->used = st.bytes_used;
	}
	return r;
}

const struct ff_build_ops ff_squashfs_build = {
	.block_name = "block size",
	.block_sizes = sqfs_block_sizes,
	.block_min = 4096,
	.block_max = 1048576,
	.codecs = sqfs_codecs,
	.flags = sqfs_flags,
	.build = sqfs_build,
};
