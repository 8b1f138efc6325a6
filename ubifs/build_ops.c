/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBIFS' build hook (tree/build.h): the generic options mapped onto the
 * builder as ffmkfs.ubifs maps mkfs.ubifs' command line, so that
 *
 *   codec lzo, gzip, zstd, none     -x lzo, -x zlib, -x zstd, -x none
 *   page size P (default 2048)      -m P
 *   erase block E (default 128 KiB) -e E-2P  (UBI's two headers take a
 *                                   page each: the LEB is what is left)
 *   flash size S (default 256 MiB)  -c S/E
 *
 * give the same bytes.  The codecs' levels are the builder's (zlib's
 * default, zstd 3, lzo1x_999 at level 7).  Images suit NAND flash. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/format.h"
#include "common/pool.h"
#include "ubifs/writer.h"
#include "ubifs/build_ops.h"

#define UB_PAGE 2048u
#define UB_PEB (128u << 10)
#define UB_FLASH (256ull << 20)

static const uint32_t ub_sizes[] = { 4096, 0 };

static const char *const ub_codecs[] = { "lzo", "gzip", "zstd", "none", NULL };

static const char *const ub_fixed[] = {
	"lzo:algorithm=lzo1x_999:level=7@lzo1x_999-7", "gzip:zlib:level=6:window=11@zlib-6",
	"zstd:level=3@zstd-3", "none", NULL,
};

static const struct ff_build_flag ub_flags[] = { { NULL, NULL, 0 } };

static int map_codec(const char *codec)
{
	return !strcmp(codec, "lzo") ? FF_UBIFS_COMPR_LZO : !strcmp(codec, "gzip")
	       ? FF_UBIFS_COMPR_ZLIB : !strcmp(codec, "zstd") ? FF_UBIFS_COMPR_ZSTD
	       : FF_UBIFS_COMPR_NONE;
}

/* Page, erase block and flash size -> min. I/O, LEB size, max LEB count. */
static int geometry(const struct ff_build_opts *o, struct ff_ubifs_write_opts *w,
		    struct ff_err *err)
{
	uint32_t page = o->page_size ? o->page_size : UB_PAGE;
	uint32_t peb = o->erase_block ? o->erase_block : UB_PEB;
	uint64_t flash = o->flash_size ? o->flash_size : UB_FLASH;

	if (o->block_size && o->block_size != 4096)
		return ff_err_set(err, EINVAL, "UBIFS block size %u: UBIFS' data blocks are 4096",
				  o->block_size);
	if (page < 8 || (page & (page - 1)) || peb % page || peb < 8 * page)
		return ff_err_set(err, EINVAL, "UBIFS on NAND: page %u and erase block %u: a "
				  "power-of-two page, at least 8 of them per erase block", page, peb);
	if (flash / peb < 17 || flash / peb > UINT32_MAX)
		return ff_err_set(err, EINVAL, "UBIFS: flash size %llu holds %llu erase blocks of "
				  "%u; at least 17", (unsigned long long)flash,
				  (unsigned long long)(flash / peb), peb);
	w->min_io = page;
	w->leb_size = peb - 2 * page;
	w->max_leb_cnt = (uint32_t)(flash / peb);
	return 0;
}

static int ub_build(const struct ff_tree *tree, const struct ff_build_opts *o, const char *path,
		    struct ff_build_result *res, struct ff_err *err)
{
	struct ff_ubifs_write_stats st;
	struct ff_ubifs_write_opts w;
	struct ff_build_opts co = *o;

	if (!co.codec)
		co.codec = "lzo";
	memset(&w, 0, sizeof(w));
	if (ff_build_check_flags(&ff_ubifs_build, o, "UBIFS", err) ||
	    ff_build_fixed_check(&ff_ubifs_build, &co, "UBIFS", err) || geometry(o, &w, err))
		return -1;
	w.compr = map_codec(co.codec);
	w.threads = o->jobs ? o->jobs : ff_online_cpus(); /* the bytes never depend on it */
	if (ff_ubifs_write_check(&w, err))
		return -1;
	memset(&st, 0, sizeof(st));
	if (ff_ubifs_write(tree, &w, path, &st, err))
		return -1;
	res->size = res->used = st.bytes;  /* whole LEBs */
	return 0;
}

const struct ff_build_ops ff_ubifs_build = {
	.block_name = "block size",
	.block_sizes = ub_sizes,
	.block_min = 4096,
	.block_max = 4096,
	.codecs = ub_codecs,
	.fixed = ub_fixed,
	.media = FF_MEDIUM_NAND,
	.flags = ub_flags,
	.build = ub_build,
};
