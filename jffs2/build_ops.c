/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2's build hook (tree/build.h): the generic options mapped onto the
 * writer as ffmkfs.jffs2 maps mkfs.jffs2's command line, so that
 *
 *   codec gzip   -x rtime          (zlib alone; its level is fixed at 3)
 *   codec lzo    -X lzo -x zlib -x rtime
 *   codec none   -m none
 *   erase block  -e SIZE           (64 KiB by default: NOR)
 *   page size    -n                (a NAND target: cleanmarkers live in OOB)
 *   flags        rtime: not -x rtime; summary: --summary;
 *                big-endian: -b (else -l); xattrs: --with-xattr
 *
 * with -s 4096 (the data node size, a 4 KiB-page kernel's) give the same
 * bytes.  Images suit NOR flash. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/format.h"
#include "common/pool.h"
#include "compress/compress.h"
#include "jffs2/writer.h"
#include "jffs2/build_ops.h"

static const uint32_t j2_sizes[] = { 4096, 0 };

static const char *const j2_codecs[] = { "gzip", "lzo", "none", NULL };

/* mkfs.jffs2's own settings: zlib at level 3, lzo1x_999 */
static const char *const j2_fixed[] = {
	"gzip:zlib:level=3@zlib-3", "lzo:algorithm=lzo1x_999@lzo1x_999", "none", NULL,
};

static const struct ff_build_flag j2_flags[] = {
	{ "rtime", "also rtime where the codec does not shrink a page (mkfs.jffs2's default)", 0 },
	{ "summary", "erase-block summaries, as sumtool adds them (--summary)", 0 },
	{ "big-endian", "a big-endian image (-b)", 0 },
	{ "xattrs", "store extended attributes and POSIX ACLs (--with-xattr)", 0 },
	{ NULL, NULL, 0 },
};

static int flag(const struct ff_build_opts *o, const char *name)
{
	return ff_build_flag_value(o, name) != NULL;
}

/* The compressor list for the codec: that one alone (rtime after it with
 * the flag), none as -m none. */
static int map_codec(const struct ff_build_opts *o, struct ff_jffs2_compr *c, struct ff_err *err)
{
	const char *codec = o->codec ? o->codec : "gzip";

	if (!strcmp(codec, "none"))
		return ff_jffs2_compr_mode(c, "none", err);
	if (!strcmp(codec, "lzo") && (ff_jffs2_compr_enable(c, "lzo", 1, err) ||
				      ff_jffs2_compr_enable(c, "zlib", 0, err)))
		return -1;
	return flag(o, "rtime") ? 0 : ff_jffs2_compr_enable(c, "rtime", 0, err);
}

static int geometry(const struct ff_build_opts *o, struct ff_jffs2_write_opts *w,
		    struct ff_err *err)
{
	if (o->block_size && o->block_size != 4096)
		return ff_err_set(err, EINVAL, "JFFS2 page size %u: the data node size is 4096 "
				  "(a 4 KiB-page kernel's)", o->block_size);
	if (o->erase_block) {
		if (o->erase_block < 8192 || o->erase_block > (1u << 30))
			return ff_err_set(err, EINVAL, "JFFS2 erase block %u: 8 KiB to 1 GiB",
					  o->erase_block);
		w->erase_size = o->erase_block;
	}
	if (o->page_size > 1)
		w->cleanmarkers = 0;
	return 0;
}

static int j2_build(const struct ff_tree *tree, const struct ff_build_opts *o, const char *path,
		    struct ff_build_result *res, struct ff_err *err)
{
	struct ff_jffs2_write_stats st;
	struct ff_jffs2_write_opts w;
	struct ff_build_opts co = *o;

	if (!co.codec)
		co.codec = "gzip";
	ff_jffs2_write_opts_init(&w);
	if (ff_build_check_flags(&ff_jffs2_build, o, "JFFS2", err) ||
	    ff_build_fixed_check(&ff_jffs2_build, &co, "JFFS2", err) || geometry(o, &w, err) ||
	    map_codec(o, &w.compr, err))
		return -1;
	w.page_size = 4096;
	w.big_endian = flag(o, "big-endian");
	w.summary = flag(o, "summary");
	if (flag(o, "xattrs"))
		w.xattrs = FF_J2X_USER | FF_J2X_SECURITY | FF_J2X_ACL | FF_J2X_TRUSTED;
	w.threads = o->jobs ? o->jobs : ff_online_cpus(); /* the bytes never depend on it */
	w.warn = o->warn;
	w.warn_ctx = o->warn_ctx;
	memset(&st, 0, sizeof(st));
	if (ff_jffs2_write(tree, &w, path, -1, &st, err))
		return -1;
	res->size = res->used = st.bytes;  /* no padding */
	return 0;
}

const struct ff_build_ops ff_jffs2_build = {
	.block_name = "page size",
	.block_sizes = j2_sizes,
	.block_min = 4096,
	.block_max = 4096,
	.codecs = j2_codecs,
	.fixed = j2_fixed,
	.media = FF_MEDIUM_NOR,
	.flags = j2_flags,
	.build = j2_build,
};
