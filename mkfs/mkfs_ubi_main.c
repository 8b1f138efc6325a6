/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi: ubinize's options and configuration file -> ubi/ writer.  With
 * the same file and -Q the image equals ubinize's byte for byte.  With
 * --squashfs DIR [-- MKFS.SQUASHFS-OPTIONS] it also builds a SquashFS
 * volume of DIR (ubi_squashfs.c), with --ubifs DIR [-- MKFS.UBIFS-OPTIONS]
 * a UBIFS one (ubi_ubifs.c).  This file parses options and reports.
 * Exit codes: 0 ok, 2 usage error or the build failed (nothing left behind). */
#include <flashfs/version.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/json.h"
#include "common/size.h"
#include "common/warn.h"
#include "common/outfile.h"
#include "mkfs/source_args.h"
#include "mkfs/ubi_squashfs.h"
#include "mkfs/ubi_ubifs.h"
#include "mkfs/ubi_volume.h"
#include "ubi/ini.h"
#include "ubi/writer.h"

#define PROG "mkfs.ubi"

struct args {
	const char *out, *ini;
	uint32_t peb, min_io, subpage, vid_offs;
	struct ff_ubi_write_opts wo;
	int seq_given, verbose, quiet, json;
	struct ff_ubi_sqfs sq;  /* --squashfs DIR and its options */
	struct ff_ubi_ubifs ub; /* --ubifs DIR and its options */
	struct ff_ubi_newvol vol; /* the one-step volume's --vol-* */
	int ubifs;              /* --ubifs given: the source options are its */
};

/* The one-step volume's options share one code; the name tells them apart. */
enum { O_SQFS_VOL = 256, O_JSON };

static const struct option long_opts[] = {
	{"squashfs", required_argument, NULL, O_SQFS_VOL},
	{"ubifs", required_argument, NULL, O_SQFS_VOL},
	{"squashfs-comp", required_argument, NULL, O_SQFS_VOL},
	{"squashfs-block-size", required_argument, NULL, O_SQFS_VOL},
	{"vol-name", required_argument, NULL, O_SQFS_VOL},
	{"vol-id", required_argument, NULL, O_SQFS_VOL},
	{"vol-type", required_argument, NULL, O_SQFS_VOL},
	{"vol-size", required_argument, NULL, O_SQFS_VOL},
	{"vol-flags", required_argument, NULL, O_SQFS_VOL},
	FF_SOURCE_LONG_OPTIONS,
	{"output", required_argument, NULL, 'o'},
	{"peb-size", required_argument, NULL, 'p'},
	{"min-io-size", required_argument, NULL, 'm'},
	{"sub-page-size", required_argument, NULL, 's'},
	{"vid-hdr-offset", required_argument, NULL, 'O'},
	{"erase-counter", required_argument, NULL, 'e'},
	{"ubi-ver", required_argument, NULL, 'x'},
	{"image-seq", required_argument, NULL, 'Q'},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"json", no_argument, NULL, O_JSON},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o IMAGE -p PEB-SIZE -m MIN-IO [OPTIONS] INI-FILE\n"
	      "       " PROG " -o IMAGE -p PEB-SIZE -m MIN-IO [OPTIONS] --squashfs DIR [INI-FILE]\n"
	      "                [-- MKFS.SQUASHFS-OPTIONS]\n"
	      "       " PROG " -o IMAGE -p PEB-SIZE -m MIN-IO [OPTIONS] --ubifs DIR [INI-FILE]\n"
	      "                [-- MKFS.UBIFS-OPTIONS]\n"
	      "Build a UBI image from a ubinize configuration file: one [section] per\n"
	      "volume (mode=ubi, image, vol_id, vol_size, vol_type, vol_name,\n"
	      "vol_alignment, vol_flags).  Same options as ubinize; same image bytes.\n\n"
	      "  -o, --output=FILE          the image to write\n"
	      "  -p, --peb-size=BYTES       physical eraseblock size (KiB, MiB suffixes)\n"
	      "  -m, --min-io-size=BYTES    minimum I/O unit (the NAND page)\n"
	      "  -s, --sub-page-size=BYTES  unit for the headers (default: min. I/O)\n"
	      "  -O, --vid-hdr-offset=N     VID header offset (default: next sub-page)\n"
	      "  -e, --erase-counter=N      erase counter in the EC headers (default 0)\n"
	      "  -x, --ubi-ver=N            UBI version in the EC headers (default 1)\n"
	      "  -Q, --image-seq=N          32-bit image sequence number (default random)\n"
	      "  -v, --verbose              print the geometry and each volume first\n"
	      "  -q, --quiet                no summary\n"
	      "  --json                     the summary as JSON (schema mkfs.ubi/1)\n"
	      "  -h, --help                 this text\n"
	      "  -V, --version              print the version\n"
	      "SquashFS volume in one step:\n"
	      "  --squashfs DIR             build a SquashFS image of DIR and add it as a volume\n"
	      "  -- OPTIONS...              every word after it is a mkfs.squashfs option, GNU\n"
	      "                             or mksquashfs spelling (-comp xz -b 256K -e a b,\n"
	      "                             --all-root, -p LINE, -Xbcj arm ...): the same image\n"
	      "                             as mkfs.squashfs OPTIONS DIR IMAGE (see its --help)\n"
	      "  --squashfs-comp CODEC      the same as -- -comp CODEC (default gzip)\n"
	      "  --squashfs-block-size N    the same as -- -b N (default 128K)\n"
	      "UBIFS volume in one step:\n"
	      "  --ubifs DIR                build a UBIFS image of DIR and add it as a volume\n"
	      "  -- OPTIONS...              every word after it is a mkfs.ubifs option (-x zstd\n"
	      "                             -c 2048 -F ...); -e and -m default to the UBI\n"
	      "                             geometry's LEB size and min. I/O, -c to --vol-size\n"
	      "                             in LEBs (see ffmkfs.ubifs --help)\n"
	      "The one-step volume:\n"
	      "  --vol-name NAME            default rootfs\n"
	      "  --vol-id N                 default: the lowest ID the ini file leaves free\n"
	      "  --vol-type static|dynamic  default dynamic\n"
	      "  --vol-size BYTES           default: the image size\n"
	      "  --vol-flags autoresize|skip-check\n"
	      "  the builder's source options may also come before --: --all-root,\n"
	      "  --force-uid/gid, --mtime, --exclude, --spec, --pseudo ... (SOURCE_DATE_EPOCH\n"
	      "  too)\n\n"
	      "Exit status: 0 ok, 2 usage error or the build failed (no image).\n", f);
}

static int bad(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, PROG ": %s '%s': %s\nTry '" PROG " --help' for more information.\n",
		opt, val, what);
	return -1;
}

/* A byte count in the one size syntax; zero only where it means "the
 * default" (allow_zero). */
static int size_opt(const char *opt, const char *val, int allow_zero, uint32_t *out)
{
	uint64_t v;

	if (ff_parse_size(val, &v) < 0 || (!v && !allow_zero) || v > UINT32_MAX)
		return bad(opt, val, "not a size (" FF_SIZE_SYNTAX ")");
	*out = (uint32_t)v;
	return 0;
}

static int num_opt(const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	char what[64];

	snprintf(what, sizeof(what), "not a number from 0 to %llu", (unsigned long long)max);
	return ff_ubi_parse_num(val, max, out) < 0 ? bad(opt, val, what) : 0;
}

static int missing(const char *what)
{
	fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", what);
	return -1;
}

/* One option; 0 go on, 1 done (help, version), -1 bad. */
static int one_opt(struct args *a, int c, const char *v)
{
	uint64_t n;

	switch (c) {
	case 'o': a->out = v; return 0;
	case 'p': return size_opt("-p/--peb-size", v, 0, &a->peb);
	case 'm': return size_opt("-m/--min-io-size", v, 0, &a->min_io);
	case 's': return size_opt("-s/--sub-page-size", v, 0, &a->subpage);
	case 'O': return size_opt("-O/--vid-hdr-offset", v, 1, &a->vid_offs);
	case 'e':
		if (num_opt("-e/--erase-counter", v, 0x7FFFFFFF, &n) < 0)
			return -1;
		a->wo.ec = n;
		return 0;
	case 'x':
		if (num_opt("-x/--ubi-ver", v, 255, &n) < 0)
			return -1;
		a->wo.ubi_version = (uint8_t)n;
		return 0;
	case 'Q':
		if (num_opt("-Q/--image-seq", v, UINT32_MAX, &n) < 0)
			return -1;
		a->wo.image_seq = (uint32_t)n;
		a->seq_given = 1;
		return 0;
	case 'v': a->verbose = 1; return 0;
	case 'q': a->quiet = 1; return 0;
	case O_JSON: a->json = 1; return 0;
	case 'h': usage(stdout); return 1;
	case 'V': printf(PROG " (flashfs-tools) " FF_VERSION_STRING "\n"); return 1;
	default:
		fputs("Try '" PROG " --help' for more information.\n", stderr);
		return -1;
	}
}

/* A one-step volume option or a source option (FF_SOURCE_LONG_OPTIONS,
 * the --ubifs builder's with --ubifs, else the --squashfs one's;
 * --exclude shares the code 'e' with -e, so the long name decides); 1
 * when c is neither. */
static int sqfs_opt(struct args *a, int c, int idx, const char *v)
{
	struct ff_err err = {0, ""};
	const char *name = idx >= 0 ? long_opts[idx].name : "";
	int r = 1;

	if (c == O_SQFS_VOL && !strcmp(name, "ubifs")) {
		a->ub.u.src.source = v;
		r = 0;
	} else if (c == O_SQFS_VOL && (r = ff_ubi_newvol_option(&a->vol, name, v, &err)) == 1)
		r = ff_ubi_sqfs_option(&a->sq, name, v, &err);
	else if ((c == 'e' && !strcmp(name, "exclude")) || c >= FF_SRC_FIRST)
		r = ff_source_args_option(a->ubifs ? &a->ub.u.src : &a->sq.sq.src, c, v, &err);
	return r < 0 ? missing(err.msg) : r;
}

/* --ubifs among the options before `--`: the source options go to it. */
static int has_ubifs(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--ubifs") || !strncmp(argv[i], "--ubifs=", 8))
			return 1;
	return 0;
}

/* A usage error or other failure from the mkfs.squashfs side. */
static int sqfs_fail(int r, const struct ff_err *err)
{
	if (r == FF_SQFS_ARGS_USAGE)
		return missing(err->msg);
	fprintf(stderr, PROG ": %s\n", err->msg);
	return -1;
}

/* The words after `--` (with --squashfs or --ubifs): the builder's options. */
static int sqfs_words(struct args *a, int argc, char **argv)
{
	struct ff_err err = {0, ""};
	int r = a->ubifs ? ff_ubi_ubifs_parse(&a->ub, argc, argv, &err)
			 : ff_ubi_sqfs_parse(&a->sq, argc, argv, &err);

	if (r == FF_SQFS_ARGS_HELP)
		usage(stdout);
	else if (r == FF_SQFS_ARGS_VERSION)
		printf(PROG " (flashfs-tools) " FF_VERSION_STRING "\n");
	if (r < 0)
		return sqfs_fail(r, &err);
	return r ? 1 : 0;
}

/* mkfs.ubi's own options, up to the first `--`; *rest is where that is. */
static int own_opts(struct args *a, int argc, char **argv, int *rest)
{
	int c, r, idx = -1;

	*rest = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			*rest = i;
			break;
		}
	while ((c = getopt_long(*rest, argv, "o:p:m:s:O:e:x:Q:vqhV", long_opts, &idx)) != -1) {
		r = sqfs_opt(a, c, idx, optarg);
		if (r == 1)
			r = one_opt(a, c, optarg);
		if (r)
			return r;
		idx = -1;
	}
	return 0;
}

/* The INI-FILE: the one word left before `--` or, without --squashfs
 * (where `--` only ends the options), after it. */
static int ini_word(struct args *a, int argc, char **argv, int rest)
{
	int n = rest - optind, sqfs = a->sq.sq.src.source != NULL || a->ubifs;

	if (!sqfs && rest < argc)
		n += argc - rest - 1;
	if (n > 1 || (n == 0 && !sqfs))
		return missing(n ? "more than one configuration file given"
				 : "no configuration file given");
	a->ini = !n ? NULL : rest > optind ? argv[optind] : argv[rest + 1];
	return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = {0, ""};
	int r, rest;

	a->wo.ubi_version = FF_UBI_VERSION;
	a->ubifs = has_ubifs(argc, argv);
	r = own_opts(a, argc, argv, &rest);
	if (r == 0 && a->ubifs && a->sq.sq.src.source)
		r = missing("--squashfs and --ubifs: one volume is built in one step");
	if (r == 0)
		r = ini_word(a, argc, argv, rest);
	if (r == 0 && (a->sq.sq.src.source || a->ubifs) && rest < argc)
		r = sqfs_words(a, argc - rest, argv + rest); /* argv[rest], "--", names them */
	if (r)
		return r;
	r = ff_ubi_sqfs_finish(&a->sq, getenv("SOURCE_DATE_EPOCH"), a->out, &err);
	if (r < 0)
		return sqfs_fail(r, &err);
	if (!a->peb)
		return missing("-p/--peb-size is required");
	if (!a->min_io)
		return missing("-m/--min-io-size is required");
	if (!a->out)
		return missing("-o/--output is required");
	if (!a->seq_given && getrandom(&a->wo.image_seq, sizeof(a->wo.image_seq), 0) !=
	    sizeof(a->wo.image_seq))
		return missing("no random image sequence number (give -Q)");
	return 0;
}

static void print_geom(const struct args *a, const struct ff_ubi_geom *g)
{
	printf("LEB size %u, PEB size %u, min. I/O %u, sub-page %u, VID header offset %u, "
	       "data offset %u, image sequence %u\n", g->leb_size, g->peb_size, g->min_io,
	       g->subpage, g->vid_hdr_offs, g->data_offs, a->wo.image_seq);
}

static void print_vols(const struct ff_ubi_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		const struct ff_ubi_vol *v = &ini->vols[i];
		printf("volume %u \"%s\": %s, %llu bytes, image %llu bytes, alignment %u%s%s\n",
		       v->id, v->name, v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic",
		       (unsigned long long)v->bytes, (unsigned long long)v->image_size,
		       v->alignment, v->flags & FF_UBI_FLAG_AUTORESIZE ? ", autoresize" : "",
		       v->flags & FF_UBI_FLAG_SKIP_CHECK ? ", skip-check" : "");
	}
}

/* LEBs a volume reserves: its size over the LEB less the alignment's
 * waste, as the volume table counts them. */
static uint64_t vol_lebs(const struct ff_ubi_geom *g, const struct ff_ubi_vol *v)
{
	uint64_t usable = g->leb_size - g->leb_size % (v->alignment ? v->alignment : 1);

	return (v->bytes + usable - 1) / usable;
}

static void json_vols(struct ff_json *j, const struct ff_ubi_geom *g,
		      const struct ff_ubi_ini *ini)
{
	ff_json_key(j, "volumes");
	ff_json_begin_array(j);
	for (size_t i = 0; i < ini->n; i++) {
		const struct ff_ubi_vol *v = &ini->vols[i];

		ff_json_begin_object(j);
		ff_json_kv_uint(j, "id", v->id);
		ff_json_kv_str(j, "name", v->name);
		ff_json_kv_str(j, "type", v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic");
		ff_json_kv_uint(j, "size", v->bytes);
		ff_json_kv_uint(j, "lebs", vol_lebs(g, v));
		ff_json_kv_uint(j, "data_size", v->image_size);
		ff_json_kv_uint(j, "alignment", v->alignment);
		ff_json_kv_bool(j, "autoresize", (v->flags & FF_UBI_FLAG_AUTORESIZE) != 0);
		ff_json_kv_bool(j, "skip_check", (v->flags & FF_UBI_FLAG_SKIP_CHECK) != 0);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
}

static void summary_json(const struct args *a, const struct ff_ubi_geom *g,
			 const struct ff_ubi_ini *ini, uint64_t size)
{
	const struct { const char *key; uint64_t v; } nums[] = {
		{"image_size", size}, {"pebs", size / g->peb_size}, {"peb_size", g->peb_size},
		{"leb_size", g->leb_size}, {"min_io_size", g->min_io},
		{"sub_page_size", g->subpage}, {"vid_hdr_offset", g->vid_hdr_offs},
		{"data_offset", g->data_offs}, {"image_seq", a->wo.image_seq},
	};
	struct ff_json j;

	ff_json_init(&j, stdout, 0);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", "mkfs.ubi/1"); /* docs/schemas/mkfs.ubi.schema.json */
	ff_json_kv_str(&j, "image", a->out);
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		ff_json_kv_uint(&j, nums[i].key, nums[i].v);
	json_vols(&j, g, ini);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

/* What was written, as mkfs.squashfs and mkfs.yaffs2 end: the image, its
 * geometry, a line per volume. */
static void summary(const struct args *a, const struct ff_ubi_geom *g,
		    const struct ff_ubi_ini *ini, uint64_t size)
{
	if (a->json) {
		summary_json(a, g, ini, size);
		return;
	}
	if (a->quiet)
		return;
	printf("%s: UBI, %llu bytes, %llu PEBs of %u (LEB %u), min. I/O %u, sub-page %u, "
	       "image sequence %u\n", a->out, (unsigned long long)size,
	       (unsigned long long)(size / g->peb_size), g->peb_size, g->leb_size, g->min_io,
	       g->subpage, a->wo.image_seq);
	for (size_t i = 0; i < ini->n; i++) {
		const struct ff_ubi_vol *v = &ini->vols[i];

		printf("  volume %u \"%s\": %s, %llu bytes in %llu LEBs, %llu bytes of data%s\n",
		       v->id, v->name, v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic",
		       (unsigned long long)v->bytes, (unsigned long long)vol_lebs(g, v),
		       (unsigned long long)v->image_size,
		       v->flags & FF_UBI_FLAG_AUTORESIZE ? ", autoresize" : "");
	}
}

/* The SquashFS build's warnings (silenced by its -q). */
static void warn_cb(void *ctx, const struct ff_warning *w)
{
	const struct args *a = ctx;
	char line[1536];

	if (!a->sq.sq.quiet)
		fprintf(stderr, PROG ": warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

/* --log-action lines. */
static void log_cb(void *ctx, const char *msg)
{
	(void)ctx;
	printf("action: %s\n", msg);
}

/* -info: every entry of the SquashFS tree, to standard output or its file. */
static int info_cb(void *ctx, const struct ff_tree *tree)
{
	const struct ff_sqfs_args *q = &((const struct args *)ctx)->sq.sq;
	FILE *f;

	if (!q->info)
		return 0;
	f = q->info_file ? fopen(q->info_file, "w") : stdout;
	if (!f || (ff_sqfs_info_write(tree, f) | (f != stdout && fclose(f)))) {
		fprintf(stderr, PROG ": %s: cannot write the -info file\n", q->info_file);
		return 2;
	}
	return 0;
}

static void print_notes(const struct args *a)
{
	const struct ff_sqfs_args *q = &a->sq.sq;

	for (size_t i = 0; !q->quiet && i + 1 < q->notes.n; i += 2)
		fprintf(stderr, PROG ": note: %s: %s\n", q->notes.v[i], q->notes.v[i + 1]);
}

/* The UBIFS build's warnings. */
static void ubifs_warn_cb(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, PROG ": warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

/* The ini file's volumes, then the --squashfs or --ubifs one.  -1 with
 * err, -2 when the reason is printed already. */
static int load(struct args *a, const struct ff_ubi_geom *g, struct ff_ubi_ini *ini,
		struct ff_err *err)
{
	struct ff_sqfs_build_hooks h = { .warn = warn_cb, .log = log_cb, .tree = info_cb,
					 .ctx = a };
	int r = 0;

	*ini = (struct ff_ubi_ini){0};
	if (a->ini && ff_ubi_ini_load(a->ini, g, ini, err) < 0)
		return -1;
	if (a->sq.sq.src.source) {
		print_notes(a);
		r = ff_ubi_sqfs_add(&a->sq, &a->vol, ini, &h, err);
	} else if (a->ubifs) {
		r = ff_ubi_ubifs_add(&a->ub, &a->vol, ini, ubifs_warn_cb, a, err);
	}
	if (r)
		ff_ubi_ini_free(ini);
	if (r < 0)
		sqfs_fail(r, err);
	return r ? -2 : 0;
}

/* 0 written; -1 with err; -2 when the reason is printed already. */
static int build(struct args *a, struct ff_err *err)
{
	struct ff_ubi_geom g;
	struct ff_ubi_ini ini;
	struct ff_outfile of;
	uint64_t size;
	int rc;

	if (ff_ubi_geom_init(&g, a->peb, a->min_io, a->subpage, a->vid_offs, err) < 0)
		return -1;
	if (a->ubifs && ff_ubi_ubifs_finish(&a->ub, &g, &a->vol, getenv("SOURCE_DATE_EPOCH"),
					    a->out, err) < 0) {
		missing(err->msg);
		return -2;
	}
	rc = load(a, &g, &ini, err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < ini.n_notes; i++)
		fprintf(stderr, PROG ": note: %s\n", ini.notes[i]);
	if (a->verbose) {
		print_geom(a, &g);
		print_vols(&ini);
	}
	rc = ff_outfile_open(&of, a->out, err);
	if (rc == 0)
		rc = ff_ubi_write(&of, &g, &a->wo, ini.vols, ini.n, err);
	size = of.size;
	if (rc == 0)
		rc = ff_outfile_commit(&of, err);
	else
		ff_outfile_abort(&of);
	if (rc == 0)
		summary(a, &g, &ini, size);
	ff_ubi_ini_free(&ini);
	return rc;
}

int main(int argc, char **argv)
{
	static struct args a;
	struct ff_err err = {0, ""};
	int r;

	ff_ubi_sqfs_init(&a.sq);
	ff_ubi_ubifs_init(&a.ub);
	ff_ubi_newvol_init(&a.vol);
	r = parse_args(&a, argc, argv); /* prints its own errors */
	if (r == 0 && (r = build(&a, &err)) == -1)
		fprintf(stderr, PROG ": %s\n", err.msg);
	ff_ubi_sqfs_free(&a.sq);
	ff_ubi_ubifs_free(&a.ub);
	return r > 0 ? 0 : r < 0 ? 2 : 0;
}
