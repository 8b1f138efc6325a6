/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.yaffs2: options -> source tree (tree/tree.h) -> yaffs2 writer.
 * Exit codes: 0 ok, 1 built with warnings (files skipped by --ignore-errors),
 * 2 usage error or the build failed (nothing left behind). */
#include <flashfs/version.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "common/progress.h"
#include "tree/arg_value.h"
#include "mkfs/source_args.h"
#include "tree/tree.h"
#include "yaffs2/writer.h"

struct args {
	struct ff_source_args src;
	struct ff_y2_geom geom;
	const char *chip, *layout, *ecc, *tags, *endian, *codec;
	uint64_t chip_bytes;	/* --chip: its size without OOB (the image must fit) */
	int no_tags_ecc, data_ecc, quiet, json;
	int progress;		/* 0 --no-progress, 1 on a terminal (default), 2 --progress */
	struct ff_progress *bar;
	uint64_t bar_done;	/* objects the bar has counted */
	const char *image;
};

enum {
	O_PAGE = 256, O_OOB, O_PPB, O_CHIP, O_LAYOUT, O_ECC, O_TAGS, O_NO_TAGS_ECC,
	O_DATA_ECC, O_ENDIAN, O_PROGRESS, O_JSON, O_VERSION, O_YAFFS_ECC, O_NO_PROGRESS,
};

static const struct option long_opts[] = {
	{ "page-size", required_argument, NULL, O_PAGE },
	{ "oob-size", required_argument, NULL, O_OOB },
	{ "pages-per-block", required_argument, NULL, O_PPB },
	{ "chip", required_argument, NULL, O_CHIP },
	{ "oob-layout", required_argument, NULL, O_LAYOUT },
	{ "ecc", required_argument, NULL, O_ECC },
	{ "tags", required_argument, NULL, O_TAGS },
	{ "no-tags-ecc", no_argument, NULL, O_NO_TAGS_ECC },
	{ "data-ecc", no_argument, NULL, O_DATA_ECC },
	{ "endian", required_argument, NULL, O_ENDIAN },
	{ "compress", required_argument, NULL, 'z' },
	/* yaffs2utils' mkyaffs2 spellings (Buildroot's fs/yaffs2) */
	{ "chunksize", required_argument, NULL, 'c' },
	{ "pagesize", required_argument, NULL, 'c' },
	{ "sparesize", required_argument, NULL, 's' },
	{ "yaffs-ecclayout", no_argument, NULL, O_YAFFS_ECC },
	{ "verbose", no_argument, NULL, 'v' },
	FF_SOURCE_LONG_OPTIONS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
	{ "json", no_argument, NULL, O_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: mkfs.yaffs2 [OPTIONS] SOURCE IMAGE\n"
	      "       mkfs.yaffs2 [OPTIONS] --spec FILE IMAGE\n"
	      "Build a YAFFS2 image (pages + OOB) from a directory, a tar archive (plain,\n"
	      ".gz, .xz, .zst) or '-' for a tar on standard input.\n\n"
	      "Geometry:\n"
	      "  --page-size N          512..16384, a power of two; 2K = 2048 (default 2048);\n"
	      "                         512 only with inband tags (496-byte chunks)\n"
	      "  --oob-size N           spare bytes per page (default page/32)\n"
	      "  --pages-per-block N    pages per erase block (default 64)\n"
	      "  --chip NAME|list       a chip preset (nandsim-2k-256m, ...)\n"
	      "Tags:\n"
	      "  --oob-layout L         linux (default) | offset0 | inband\n"
	      "  --ecc E                hamming (default) | bch4 | bch8: the chip's ECC,\n"
	      "                         which decides the linux layout's free bytes\n"
	      "  --tags kernel|classic  header tags as the kernel (default) or\n"
	      "                         mkyaffs2image writes them (unyaffs needs classic)\n"
	      "  --no-tags-ecc          16-byte tags without the tags ECC\n"
	      "  --data-ecc             fill the OOB data ECC bytes (software Hamming);\n"
	      "                         default: left erased for the NAND driver to fill\n"
	      "  --endian little|big    byte order (default: host)\n"
	      "  -z, --compress CODEC   write the image as a gzip|lzo|xz|zstd stream\n"
	      "yaffs2utils' mkyaffs2 spellings (Buildroot): -c, --chunksize, --pagesize N\n"
	      "  = --page-size; -s, --sparesize N = --oob-size; --yaffs-ecclayout =\n"
	      "  --oob-layout offset0 (tags from OOB byte 0); -v, --verbose: ignored\n"
	      "Source tree (the same in mkfs.squashfs):\n"
	      "  --all-root             every object owned by 0:0\n"
	      "  --force-uid USER, --force-gid GROUP\n"
	      "                         one owner (number or name)\n"
	      "  --mtime T              newer mtimes are clamped to T\n"
	      "                         (SOURCE_DATE_EPOCH does the same)\n"
	      "  --all-time T           every mtime = T\n"
	      "  --no-xattrs            do not store extended attributes\n"
	      "  -e, --exclude GLOB     leave out matching paths (repeatable)\n"
	      "  --exclude-file FILE    patterns, one a line\n"
	      "  --one-file-system      do not cross mount points in SOURCE\n"
	      "  --spec FILE            add or override entries (repeatable)\n"
	      "  --pseudo-file FILE     mksquashfs pseudo definitions; --pseudo LINE: one\n"
	      "  --ignore-errors        skip unreadable files with a warning\n"
	      "  mksquashfs spellings: -all-root -root-owned -force-uid -force-gid\n"
	      "  -all-time -no-xattrs -ef -one-file-system -pf -p\n"
	      "Output:\n"
	      "  -q, --quiet            no summary\n"
	      "  --progress             a progress bar on stderr even when it is no\n"
	      "                         terminal (default: on a terminal, unless -q)\n"
	      "  --no-progress          no progress bar\n"
	      "  --json                 summary as JSON\n"
	      "  -h, --help             this text\n"
	      "  --version              the version\n\n"
	      "Exit status: 0 ok, 1 built but files were skipped (--ignore-errors) or\n"
	      "other warnings printed, 2 usage error or the build failed (no image).\n",
	      f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "mkfs.yaffs2: %s\nTry 'mkfs.yaffs2 --help' for more information.\n",
		msg);
	return -1;
}

static void list_chips(void)
{
	for (const struct ff_y2_chip *c = ff_y2_chips(); c->name; c++)
		printf("%-16s %5u+%-4u %4u pages/block %6llu MiB  ids %02x %02x %02x %02x  %s\n",
		       c->name, c->geom.page_size, c->geom.oob_size, c->geom.pages_per_block,
		       (unsigned long long)(c->size_bytes >> 20), c->ids[0], c->ids[1], c->ids[2],
		       c->ids[3], c->desc);
}

/* Geometry and tags options.  0 handled, 1 "--help: done", -1 bad value. */
static int parse_opt(struct args *a, int c, const char *arg, uint32_t *oob_set,
		     struct ff_err *err)
{
	switch (c) {
	case 'c':
	case O_PAGE:
		return ff_arg_size("--page-size", arg, 1, UINT32_MAX, &a->geom.page_size, err);
	case 's':
	case O_OOB:
		*oob_set = 1;
		return ff_arg_size("--oob-size", arg, 0, UINT32_MAX, &a->geom.oob_size, err);
	case O_PPB:
		return ff_arg_u32("--pages-per-block", arg, 1, UINT32_MAX,
				  &a->geom.pages_per_block, err);
	case O_CHIP: a->chip = arg; return 0;
	case O_LAYOUT: a->layout = arg; return 0;
	case O_YAFFS_ECC: a->layout = "offset0"; return 0;
	case 'v': return 0;
	case O_ECC: a->ecc = arg; return 0;
	case O_TAGS: a->tags = arg; return 0;
	case O_NO_TAGS_ECC: a->no_tags_ecc = 1; return 0;
	case O_DATA_ECC: a->data_ecc = 1; return 0;
	case O_ENDIAN: a->endian = arg; return 0;
	case 'z': a->codec = arg; return 0;
	case 'q': a->quiet = 1; return 0;
	case O_PROGRESS: a->progress = 2; return 0;
	case O_NO_PROGRESS: a->progress = 0; return 0;
	case O_JSON: a->json = 1; return 0;
	case 'h': usage(stdout); return 1;
	case O_VERSION: printf("mkfs.yaffs2 (flashfs-tools) " FF_VERSION_STRING "\n"); return 1;
	default: return ff_err_set(err, EINVAL, "bad option");
	}
}


static int apply_chip(struct args *a, const struct ff_y2_geom *explicit_geom, uint32_t mask)
{
	const struct ff_y2_chip *c;

	if (!a->chip)
		return 0;
	if (!strcmp(a->chip, "list")) {
		list_chips();
		return 1;
	}
	c = ff_y2_chip_find(a->chip);
	if (!c) {
		fprintf(stderr, "mkfs.yaffs2: --chip %s: unknown chip (see --chip list)\n", a->chip);
		return -1;
	}
	a->geom = c->geom;
	a->chip_bytes = c->size_bytes;
	if (mask & 1)
		a->geom.page_size = explicit_geom->page_size;
	if (mask & 2)
		a->geom.oob_size = explicit_geom->oob_size;
	if (mask & 4)
		a->geom.pages_per_block = explicit_geom->pages_per_block;
	return 0;
}

/* Returns 0 to go on, 1 for "done, exit 0", -1 for a usage error. */
static int parse_options(struct args *a, int argc, char **argv, uint32_t *mask)
{
	struct ff_err err = { 0, "" };
	uint32_t oob_set = 0;
	int c, r;

	while ((c = getopt_long(argc, argv, "z:e:c:s:vqh", long_opts, NULL)) != -1) {
		if (c == '?')
			return usage_error("bad option");
		*mask |= c == O_PAGE || c == 'c' ? 1 : c == O_PPB ? 4 : 0;
		r = ff_source_args_option(&a->src, c, optarg, &err);
		if (r == 1)
			r = parse_opt(a, c, optarg, &oob_set, &err);
		if (r)
			return r > 0 ? r : usage_error(err.msg);
	}
	*mask |= oob_set ? 2 : 0;
	return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	struct ff_y2_geom given;
	uint32_t mask = 0;
	int r;

	ff_y2_geom_default(&a->geom);
	ff_source_args_init(&a->src);
	ff_source_map_single_dash(argc, argv, NULL);
	r = parse_options(a, argc, argv, &mask);
	if (r)
		return r;
	given = a->geom;
	r = apply_chip(a, &given, mask);
	if (r)
		return r;
	if (!(mask & 2) && !a->chip)
		a->geom.oob_size = ff_y2_default_oob(a->geom.page_size);
	if (ff_source_args_epoch(&a->src, getenv("SOURCE_DATE_EPOCH"), &err) ||
	    ff_source_args_positional(&a->src, argc - optind, argv + optind, &a->image, &err) ||
	    ff_source_args_check_image(&a->src, a->image, &err))
		return usage_error(err.msg);
	return 0;
}

/* A warning gets a line of its own, never the end of the bar's. */
static void warn_cb(void *ctx, const struct ff_warning *w)
{
	const struct args *a = ctx;
	char text[1536], line[1600];

	snprintf(line, sizeof(line), "mkfs.yaffs2: warning: %s\n",
		 ff_warning_text(w, text, sizeof(text)));
	ff_progress_message(a->bar, stderr, line);
}

/* The writer reports objects written: the same bar as mkfs.squashfs and
 * extract draw (common/progress.h), counted in objects. */
static void progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	struct args *a = ctx;

	ff_progress_set_total(a->bar, 0, total);
	ff_progress_add(a->bar, 0, done - a->bar_done);
	a->bar_done = done;
}

static int setup_layout(const struct args *a, struct ff_y2_write_opts *wo, struct ff_err *err)
{
	uint16_t probe = 1;

	if (ff_y2_layout_init(&wo->layout, &a->geom, a->layout, a->ecc, !a->no_tags_ecc, err))
		return -1;
	wo->big_endian = *(uint8_t *)&probe == 0;
	if (a->endian && !strcmp(a->endian, "big"))
		wo->big_endian = 1;
	else if (a->endian && !strcmp(a->endian, "little"))
		wo->big_endian = 0;
	else if (a->endian)
		return ff_err_set(err, EINVAL, "--endian %s: expected little or big", a->endian);
	if (a->tags && strcmp(a->tags, "kernel") && strcmp(a->tags, "classic"))
		return ff_err_set(err, EINVAL, "--tags %s: expected kernel or classic", a->tags);
	wo->classic_tags = a->tags && !strcmp(a->tags, "classic");
	wo->root_header = 1;
	wo->data_ecc = a->data_ecc;
	return 0;
}

static int write_tree(struct args *a, const struct ff_tree *t,
		      struct ff_y2_write_stats *st, struct ff_y2_write_opts *wo,
		      struct ff_err *err)
{
	if (a->progress == 2 || (a->progress == 1 && !a->quiet && !a->json && isatty(2)))
		a->bar = ff_progress_new(2, "objects", a->progress == 2);
	if (a->bar) {
		wo->progress = progress_cb;
		wo->progress_ctx = a;
	}
	if (a->chip_bytes)
		wo->max_blocks = a->chip_bytes /
				 ((uint64_t)a->geom.page_size * a->geom.pages_per_block);
	if (ff_y2_write_file(t, wo, a->image, a->codec, st, err) == 0)
		return 0;
	if (wo->max_blocks && st->blocks > wo->max_blocks)
		ff_err_prefix(err, "--chip %s (%llu MiB)", a->chip,
			      (unsigned long long)(a->chip_bytes >> 20));
	return -1;
}

static int build(struct args *a, struct ff_y2_write_stats *st, struct ff_y2_write_opts *wo,
		 struct ff_err *err)
{
	struct ff_tree *t;
	int r;

	if (setup_layout(a, wo, err))
		return -1;
	a->src.warn = warn_cb;
	a->src.warn_ctx = a;
	t = ff_source_args_build(&a->src, err);
	if (!t)
		return -1;
	r = write_tree(a, t, st, wo, err);
	ff_tree_free(t);
	return r;
}

static void report_json(const struct args *a, const struct ff_y2_write_opts *wo,
			const struct ff_y2_write_stats *st)
{
	const struct ff_y2_layout *l = &wo->layout;
	const struct { const char *key; uint64_t v; } counts[] = {
		/* not "objects": flashfs info counts neither the root nor lost+found */
		{"objects_written", st->objects},
		{"header_chunks", st->header_chunks},
		{"data_chunks", st->data_chunks}, {"hole_chunks", st->hole_chunks},
		{"blocks", st->blocks}, {"nand_bytes", st->bytes},
	};
	struct ff_json j;
	struct stat sb;

	ff_json_init(&j, stdout, 0);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", "mkfs.yaffs2/1"); /* docs/schemas/mkfs.yaffs2.schema.json */
	ff_json_kv_str(&j, "image", a->image);
	/* the file written: smaller than nand_bytes in a --compress stream */
	ff_json_kv_uint(&j, "image_size", stat(a->image, &sb) == 0 ? (uint64_t)sb.st_size : st->bytes);
	ff_json_kv_str(&j, "compress", a->codec ? a->codec : "none");
	ff_json_kv_uint(&j, "page_size", l->geom.page_size);
	ff_json_kv_uint(&j, "oob_size", l->geom.oob_size);
	ff_json_kv_uint(&j, "pages_per_block", l->geom.pages_per_block);
	ff_json_kv_str(&j, "oob_layout", ff_y2_layout_name(l->kind));
	ff_json_kv_bool(&j, "inband_fallback", l->fallback);
	ff_json_kv_uint(&j, "tags_bytes", l->tags_size);
	ff_json_kv_str(&j, "endian", wo->big_endian ? "big" : "little");
	ff_json_kv_str(&j, "tags", wo->classic_tags ? "classic" : "kernel");
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ff_json_kv_uint(&j, counts[i].key, counts[i].v);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

static void report(const struct args *a, const struct ff_y2_write_opts *wo,
		   const struct ff_y2_write_stats *st)
{
	const struct ff_y2_layout *l = &wo->layout;

	if (a->json) {
		report_json(a, wo, st);
		return;
	}
	if (a->quiet)
		return;
	if (l->fallback)
		printf("note: %u+%u with %s ECC leaves %u free OOB bytes, fewer than the %u tag"
		       " bytes: using inband tags, as the kernel does\n",
		       l->geom.page_size, l->geom.oob_size, ff_y2_ecc_name(l->ecc),
		       l->mtd_free_bytes,
		       a->no_tags_ecc ? FF_Y2_TAGS_SIZE_PLAIN : FF_Y2_TAGS_SIZE_ECC);
	printf("%s: %u+%u, %u pages/block, %s tags (%u bytes), %s endian, %s headers\n", a->image,
	       l->geom.page_size, l->kind == FF_Y2_LAYOUT_INBAND ? 0 : l->geom.oob_size,
	       l->geom.pages_per_block, ff_y2_layout_name(l->kind), l->tags_size,
	       wo->big_endian ? "big" : "little", wo->classic_tags ? "classic" : "kernel");
	printf("%llu objects, %llu header + %llu data chunks, %llu zero chunks left as holes,"
	       " %llu blocks, %llu bytes\n",
	       (unsigned long long)st->objects, (unsigned long long)st->header_chunks,
	       (unsigned long long)st->data_chunks, (unsigned long long)st->hole_chunks,
	       (unsigned long long)st->blocks, (unsigned long long)st->bytes);
}

int main(int argc, char **argv)
{
	struct args a;
	struct ff_err err = { 0, "" };
	struct ff_y2_write_opts wo;
	struct ff_y2_write_stats st;
	int r;

	memset(&a, 0, sizeof(a));
	memset(&wo, 0, sizeof(wo));
	a.progress = 1;
	r = parse_args(&a, argc, argv);
	if (r == 0 && build(&a, &st, &wo, &err)) {
		ff_progress_message(a.bar, stderr, "");
		fprintf(stderr, "mkfs.yaffs2: %s\n", err.msg);
		r = -1;
	}
	if (r == 0 && a.bar)
		ff_progress_finish(a.bar);
	ff_progress_free(a.bar);
	if (r == 0)
		report(&a, &wo, &st);
	ff_source_args_free(&a.src);
	if (r)
		return r > 0 ? 0 : 2;
	return a.src.warnings ? 1 : 0;
}
