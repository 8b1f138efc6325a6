/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* EROFS' build hook (tree/build.h): a thin call into the writer
 * (ff_erofs_write) with the generic options mapped as ffmkfs.erofs maps
 * its command line: codec C level N is `-zC,N`, the block size is `-C`
 * (the physical cluster; the file system block stays 4096, ffmkfs.erofs'
 * default), and each flag is one word of `-E`.  The image time is the
 * given one and the UUID null, as ffmkfs.erofs does under
 * SOURCE_DATE_EPOCH, so the bytes equal that run's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/format.h"
#include "erofs/writer.h"
#include "erofs/build.h"

static const uint32_t er_pclusters[] = { 4096, 16384, 65536, 0 };

static const char *const er_codecs[] = { "lz4", "gzip", "xz", "zstd", NULL };

static void set_compact(struct ff_erofs_write_opts *w) { w->inode_form = FF_EROFS_INODE_COMPACT; }
static void set_extended(struct ff_erofs_write_opts *w) { w->inode_form = FF_EROFS_INODE_EXTENDED; }
static void set_noinline(struct ff_erofs_write_opts *w) { w->no_inline = 1; }
static void set_legacy(struct ff_erofs_write_opts *w) { w->full_indexes = 1; }
static void set_ztailpacking(struct ff_erofs_write_opts *w) { w->ztailpacking = 1; }
static void set_fragments(struct ff_erofs_write_opts *w) { w->fragments = 1; }
static void set_all_fragments(struct ff_erofs_write_opts *w) { w->fragments = w->all_fragments = 1; }
static void set_dedupe(struct ff_erofs_write_opts *w) { w->dedupe = 1; }

/* -E's words, each with what it sets in er_set (same order).  A new -E
 * word of the writer is one line in each: ffmkfs.erofs parses -E through
 * ff_erofs_extended_word, the bench asks for the list, and tries a flag
 * marked variant (a layout choice trading size against read cost:
 * ztailpacking, fragments) with and without it. */
static const struct ff_build_flag er_flags[] = {
	{ "force-inode-compact", "compact inodes only (-E force-inode-compact)", 0 },
	{ "force-inode-extended", "extended inodes only (-E force-inode-extended)", 0 },
	{ "noinline_data", "file tails in blocks of their own (-E noinline_data)", 0 },
	{ "legacy-compress", "full compression indexes (-E legacy-compress)", 0 },
	{ "ztailpacking", "a compressed file's tail inline after its inode (-E ztailpacking)", 1 },
	{ "fragments", "compressed files' tails (small files whole) packed together (-E fragments)", 0 },
	{ "all-fragments", "compressed files whole in the packed inode (-E all-fragments)", 0 },
	{ "dedupe", "identical compressed files share their pclusters (-E dedupe)", 0 },
	{ NULL, NULL, 0 },
};

static void (*const er_set[])(struct ff_erofs_write_opts *w) = {
	set_compact, set_extended, set_noinline, set_legacy, set_ztailpacking,
	set_fragments, set_all_fragments, set_dedupe,
};

#define N_EXTS (sizeof(er_set) / sizeof(er_set[0]))
_Static_assert(N_EXTS + 1 == sizeof(er_flags) / sizeof(er_flags[0]),
	       "one setter per -E word");

int ff_erofs_extended_word(struct ff_erofs_write_opts *w, const char *word)
{
	for (size_t i = 0; i < N_EXTS; i++)
		if (!strcmp(word, er_flags[i].name)) {
			er_set[i](w);
			return 0;
		}
	return -1;
}

/* compress/'s name and options -> the writer's codec and level; ENOTSUP
 * for what EROFS cannot store (a bench skips those quietly). */
static int map_codec(const struct ff_build_opts *o, struct ff_erofs_write_opts *w,
		     struct ff_err *err)
{
	const char *c = o->codec ? o->codec : "lz4", *opts = o->codec_opts ? o->codec_opts : "";
	char buf[128], *save = NULL;
	int hc = 0;

	w->codec = !strcmp(c, "lz4") ? FF_EROFS_LZ4 : !strcmp(c, "gzip") ? FF_EROFS_DEFLATE
		   : !strcmp(c, "xz") ? FF_EROFS_LZMA : !strcmp(c, "zstd") ? FF_EROFS_ZSTD
		   : FF_EROFS_NONE;
	if (w->codec == FF_EROFS_NONE)
		return ff_err_set(err, ENOTSUP, "EROFS cannot store codec '%s' (lz4, gzip as "
				  "deflate, xz as lzma, zstd)", c);
	if (strlen(opts) >= sizeof(buf))
		return ff_err_set(err, EINVAL, "codec options '%.60s...': too long", opts);
	strcpy(buf, opts);
	for (char *kv = strtok_r(buf, ":", &save); kv; kv = strtok_r(NULL, ":", &save)) {
		char *end;

		if (!strcmp(kv, "hc") && w->codec == FF_EROFS_LZ4)
			hc = 1;
		else if (!strncmp(kv, "level=", 6) && (w->level = (int)strtol(kv + 6, &end, 10),
						       *end == '\0' && end > kv + 6))
			continue;
		else
			return ff_err_set(err, ENOTSUP, "EROFS %s: no codec option '%s' (level=N%s)",
					  c, kv, w->codec == FF_EROFS_LZ4 ? ", hc" : "");
	}
	if (hc)
		w->codec = FF_EROFS_LZ4HC;
	if (w->codec == FF_EROFS_LZ4 && w->level >= 0)
		return ff_err_set(err, EINVAL, "EROFS lz4: no level (lz4 with hc takes one)");
	return 0;
}

static int er_build(const struct ff_tree *tree, const struct ff_build_opts *o, const char *path,
		    struct ff_build_result *res, struct ff_err *err)
{
	struct ff_erofs_write_stats st;
	struct ff_erofs_write_opts w;

	ff_erofs_write_opts_init(&w);
	if (ff_build_check_flags(&ff_erofs_build, o, "EROFS", err) || map_codec(o, &w, err))
		return -1;
	w.pcluster = o->block_size;
	if (w.pcluster && (w.pcluster % w.blksize || w.pcluster > (1u << 20)))
		return ff_err_set(err, EINVAL, "EROFS pcluster size %u: a multiple of the block "
				  "size %u, at most 1 MiB", w.pcluster, w.blksize);
	for (size_t i = 0; i < N_EXTS; i++)
		if (ff_build_flag_value(o, er_flags[i].name))
			er_set[i](&w);
	w.build_time = o->time >= 0 ? o->time : (int64_t)time(NULL);
	w.threads = o->jobs;
	w.warn = o->warn;
	w.warn_ctx = o->warn_ctx;
	if (ff_erofs_write(tree, &w, path, &st, err))
		return -1;
	res->size = res->used = st.bytes;  /* whole blocks, no padding */
	return 0;
}

const struct ff_build_ops ff_erofs_build = {
	.block_name = "pcluster size",
	.block_sizes = er_pclusters,
	.block_min = 4096,
	.block_max = 1u << 20,
	.codecs = er_codecs,
	.flags = er_flags,
	.build = er_build,
};
