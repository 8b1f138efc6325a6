/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffmkfs.erofs: erofs-utils' mkfs.erofs command line (IMAGE SOURCE, -z,
 * -C, -E, -T, -U, -L, -b, -x, --all-root, --force-uid/gid ...) -> source
 * tree (tree/tree.h) -> EROFS writer (erofs/writer.h).  The shared source
 * options of mkfs.squashfs (--spec, --pseudo-file/-pf, -p, --exclude,
 * tar input, SOURCE_DATE_EPOCH ...) work too.
 * Exit codes: 0 ok, 1 warnings (entries or xattrs left out), 2 usage
 * error or the build failed (no image). */
#include <flashfs/version.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "erofs/build.h"
#include "erofs/writer.h"
#include "mkfs/mkfs_run.h"
#include "mkfs/source_args.h"
#include "tree/arg_value.h"

struct args {
	struct ff_source_args src;
	struct ff_mkfs_run run;
	struct ff_erofs_write_stats st;
	struct ff_erofs_write_opts wo;
	int64_t fixed_time;        /* -T, or -1 */
	int ignore_mtime, uuid_set, quiet;
	const char *image;
};

enum { O_HELP = 256, O_VERSION, O_EXCLUDE_PATH, O_IGNORE_MTIME, O_PRESERVE_MTIME, O_QUIET,
       O_TAR, O_WORKERS, O_CHUNKSIZE };

static const struct option long_opts[] = {
	/* before the source options: mkfs.erofs' --tar takes a mode */
	{ "tar", optional_argument, NULL, O_TAR },
	{ "help", no_argument, NULL, O_HELP },
	{ "version", no_argument, NULL, O_VERSION },
	{ "exclude-path", required_argument, NULL, O_EXCLUDE_PATH },
	{ "ignore-mtime", no_argument, NULL, O_IGNORE_MTIME },
	{ "preserve-mtime", no_argument, NULL, O_PRESERVE_MTIME },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "workers", required_argument, NULL, O_WORKERS },
	{ "chunksize", required_argument, NULL, O_CHUNKSIZE },
	FF_SOURCE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: ffmkfs.erofs [OPTIONS] IMAGE SOURCE\n"
	      "Make an EROFS image of SOURCE (a directory or a tar archive), with\n"
	      "erofs-utils' mkfs.erofs command line.\n\n"
	      "  -b#            block size (512..65536, default 4096)\n"
	      "  -zX[,Y]        compress with X = lz4, lz4hc, lzma, deflate or zstd, level Y\n"
	      "  -C#            physical cluster size in bytes (a multiple of the block size)\n"
	      "  -EX[,...]      extended options: force-inode-compact, force-inode-extended,\n"
	      "                 noinline_data, legacy-compress (full indexes; compact\n"
	      "                 ones by default), ztailpacking (a compressed file's last\n"
	      "                 pcluster behind its inode), fragments (compressed files'\n"
	      "                 tails, small files whole, packed together and compressed\n"
	      "                 as one), all-fragments (every compressed file whole),\n"
	      "                 dedupe (extents share pclusters written before, whole\n"
	      "                 or their first part, between files that differ; equal\n"
	      "                 files share theirs with fragments too)\n"
	      "  -L label       volume label (16 bytes)\n"
	      "  -T#            every file's time and the image's time = # (seconds)\n"
	      "  -U uuid        the file system's UUID (or clear, random)\n"
	      "  -x#            xattrs used by more than # inodes are shared (default 2;\n"
	      "                 < 0: no xattrs)\n"
	      "  -d#            message level (accepted, ignored)\n"
	      "  --all-root, --force-uid=#, --force-gid=#   owners\n"
	      "  --exclude-path=X  leave out X (a path below SOURCE)\n"
	      "  --ignore-mtime    every time = the image's (compact inodes)\n"
	      "  --preserve-mtime  keep each file's time (the default)\n"
	      "  --tar[=f]         SOURCE is a tar archive (detected anyway)\n"
	      "  --workers=#       compression threads (default: one per CPU)\n"
	      "  --chunksize=#     files not compressed are chunk-based, # bytes a chunk\n"
	      "                    (a power of two, at least a block, at most 64 MiB);\n"
	      "                    chunks of zeros are holes\n"
	      "  --quiet           no summary\n"
	      "  -h, --help, -V, --version\n"
	      "Source options (as in mkfs.squashfs): --spec F, --pseudo-file F (-pf F),\n"
	      "  --pseudo L (-p L), --exclude GLOB, --one-file-system, --ignore-errors, ...\n"
	      "SOURCE_DATE_EPOCH: the image's time, newer files' times clamped to it.\n\n"
	      "Exit status: 0 ok, 1 warnings, 2 usage error or the build failed (no image).\n",
	      f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ffmkfs.erofs: %s\nTry 'ffmkfs.erofs --help' for more information.\n",
		msg);
	return -1;
}

/* -z NAME[,LEVEL] or NAME,level=LEVEL; one algorithm. */
static int parse_codec(struct args *a, const char *v, struct ff_err *err)
{
	static const struct { const char *name; enum ff_erofs_codec c; int max; } tab[] = {
		{ "lz4", FF_EROFS_LZ4, 0 }, { "lz4hc", FF_EROFS_LZ4HC, 12 },
		{ "lzma", FF_EROFS_LZMA, 109 }, { "deflate", FF_EROFS_DEFLATE, 9 },
		{ "zstd", FF_EROFS_ZSTD, 22 },
	};
	size_t nlen = strcspn(v, ",:");
	const char *lv = v[nlen] == ',' ? v + nlen + 1 : NULL;
	uint32_t level;

	if (v[nlen] == ':')
		return ff_err_set(err, EINVAL, "-z %s: one algorithm only", v);
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) != nlen || strncmp(v, tab[i].name, nlen))
			continue;
		a->wo.codec = tab[i].c;
		a->wo.level = -1;
		if (!lv)
			return 0;
		if (!strncmp(lv, "level=", 6))
			lv += 6;
		if (ff_parse_u32(lv, 10, (uint32_t)tab[i].max, &level) || !tab[i].max)
			return ff_err_set(err, EINVAL, "-z %s: bad level (%s takes 0..%d)", v,
					  tab[i].name, tab[i].max);
		a->wo.level = (int)level;
		return 0;
	}
	return ff_err_set(err, EINVAL, "-z %s: unknown algorithm (lz4, lz4hc, lzma, deflate, "
			  "zstd)", v);
}

static int parse_extended(struct args *a, const char *v, struct ff_err *err)
{
	char buf[256], *save = NULL;

	if (strlen(v) >= sizeof(buf))
		return ff_err_set(err, EINVAL, "-E: too long");
	strcpy(buf, v);
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (ff_erofs_extended_word(&a->wo, o) < 0)
			return ff_err_set(err, EINVAL, "-E %s: unknown or unsupported extended "
					  "option", o);
	return 0;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, "clear" (all zero) or "random". */
static int parse_uuid(struct args *a, const char *v, struct ff_err *err)
{
	size_t k = 0;

	a->uuid_set = strcmp(v, "random") != 0;
	memset(a->wo.uuid, 0, 16);
	if (!strcmp(v, "clear") || !strcmp(v, "random"))
		return 0;
	for (const char *p = v; *p; p++) {
		int hi, lo;

		if (*p == '-' && (p - v == 8 || p - v == 13 || p - v == 18 || p - v == 23))
			continue;
		hi = hexval(p[0]);
		lo = hi < 0 || k == 16 ? -1 : hexval(p[1]);
		if (lo < 0)
			return ff_err_set(err, EINVAL, "-U %s: not a UUID", v);
		a->wo.uuid[k++] = (uint8_t)(hi << 4 | lo);
		p++;
	}
	return k == 16 ? 0 : ff_err_set(err, EINVAL, "-U %s: not a UUID", v);
}

static int parse_label(struct args *a, const char *v, struct ff_err *err)
{
	if (strlen(v) > sizeof(a->wo.label))
		return ff_err_set(err, EINVAL, "-L %s: at most 16 bytes", v);
	memcpy(a->wo.label, v, strlen(v));
	return 0;
}

/* 0 handled, 1 done (help, version), -1 bad value. */
static int parse_opt(struct args *a, int c, const char *arg, struct ff_err *err)
{
	uint32_t v;
	int64_t t;

	switch (c) {
	case 'b': return ff_arg_size("-b", arg, 512, 65536, &a->wo.blksize, err);
	case 'z': return parse_codec(a, arg, err);
	case 'C': return ff_arg_size("-C", arg, 512, 1u << 20, &a->wo.pcluster, err);
	case 'E': return parse_extended(a, arg, err);
	case 'L': return parse_label(a, arg, err);
	case 'T': return ff_arg_time("-T", arg, &a->fixed_time, err);
	case 'U': return parse_uuid(a, arg, err);
	case 'x':
		if (ff_parse_i64(arg, &t) || t < -1 || t > 65535)
			return ff_err_set(err, EINVAL, "-x %s: not a number -1..65535", arg);
		a->wo.xattr_tolerance = (int)t;
		return 0;
	case 'd': return 0;
	case O_EXCLUDE_PATH: return ff_source_args_option(&a->src, FF_SRC_EXCLUDE, arg, err);
	case O_IGNORE_MTIME: a->ignore_mtime = 1; return 0;
	case O_PRESERVE_MTIME: a->ignore_mtime = 0; return 0;
	case O_QUIET: a->quiet = 1; return 0;
	case O_TAR:
		if (arg && strcmp(arg, "f"))
			return ff_err_set(err, EINVAL, "--tar=%s: only f (a tar file) is supported",
					  arg);
		return 0;
	case O_CHUNKSIZE:
		if (ff_arg_size("--chunksize", arg, 512, 64u << 20, &a->wo.chunksize, err))
			return -1;
		if (a->wo.chunksize & (a->wo.chunksize - 1))
			return ff_err_set(err, EINVAL, "--chunksize %s: not a power of two", arg);
		return 0;
	case O_WORKERS:
		if (ff_arg_u32("--workers", arg, 1, 1024, &v, err))
			return -1;
		a->wo.threads = v;
		return 0;
	case 'h':
	case O_HELP: usage(stdout); return 1;
	case 'V':
	case O_VERSION: printf("ffmkfs.erofs (flashfs-tools) " FF_VERSION_STRING "\n"); return 1;
	default: return ff_err_set(err, EINVAL, "bad option");
	}
}

/* mkfs.erofs takes IMAGE SOURCE; the source options want SOURCE IMAGE. */
static int positional(struct args *a, int n, char **words, struct ff_err *err)
{
	char *w[2];

	if (n < 1)
		return ff_err_set(err, EINVAL, "missing the image file (IMAGE SOURCE)");
	if (n > 2)
		return ff_err_set(err, EINVAL, "too many arguments (IMAGE SOURCE)");
	w[0] = n == 2 ? words[1] : words[0];
	w[1] = words[0];
	return ff_source_args_positional(&a->src, n, n == 2 ? w : words, &a->image, err);
}

/* -T: every time and the image's; else SOURCE_DATE_EPOCH (clamping,
 * through the source options) or now.  The UUID is random unless given,
 * or null when SOURCE_DATE_EPOCH asks for a reproducible image. */
static int times_and_uuid(struct args *a, struct ff_err *err)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (ff_source_args_epoch(&a->src, sde, err))
		return -1;
	if (a->fixed_time >= 0)
		a->wo.build_time = a->fixed_time;
	else if (a->src.tree.clamp_time >= 0)
		a->wo.build_time = a->src.tree.clamp_time;
	else
		a->wo.build_time = (int64_t)time(NULL);
	if (a->fixed_time >= 0 || a->ignore_mtime)
		a->src.tree.all_time = a->wo.build_time;
	if (a->uuid_set || (sde && *sde))
		return 0;
	if (getrandom(a->wo.uuid, 16, 0) != 16)
		return ff_err_sys(err, errno, "random UUID");
	a->wo.uuid[6] = (uint8_t)((a->wo.uuid[6] & 0x0f) | 0x40);
	a->wo.uuid[8] = (uint8_t)((a->wo.uuid[8] & 0x3f) | 0x80);
	return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	int c, r;

	ff_source_args_init(&a->src);
	ff_erofs_write_opts_init(&a->wo);
	a->fixed_time = -1;
	ff_source_map_single_dash(argc, argv, NULL);
	while ((c = getopt_long(argc, argv, "b:C:d:E:hL:T:U:Vx:z:", long_opts, NULL)) != -1) {
		if (c == '?')
			return usage_error("bad option");
		r = ff_source_args_option(&a->src, c, optarg, &err);
		if (r == 1)
			r = parse_opt(a, c, optarg, &err);
		if (r)
			return r > 0 ? r : usage_error(err.msg);
	}
	if (a->wo.chunksize && a->wo.chunksize < a->wo.blksize) {
		ff_err_set(&err, EINVAL, "--chunksize %u: less than the block size %u",
			   a->wo.chunksize, a->wo.blksize);
		return usage_error(err.msg);
	}
	if (a->wo.pcluster && a->wo.pcluster % a->wo.blksize) {
		ff_err_set(&err, EINVAL, "-C %u: not a multiple of the block size %u",
			   a->wo.pcluster, a->wo.blksize);
		return usage_error(err.msg);
	}
	if (positional(a, argc - optind, argv + optind, &err) ||
	    ff_source_args_check_image(&a->src, a->image, &err) || times_and_uuid(a, &err))
		return usage_error(err.msg);
	return 0;
}

static int write_image(void *ctx, struct ff_tree *t, struct ff_err *err)
{
	struct args *a = ctx;

	return ff_erofs_write(t, &a->wo, a->image, &a->st, err);
}

static void report(void *ctx)
{
	const struct args *a = ctx;
	const struct ff_erofs_write_stats *st = &a->st;

	if (a->quiet)
		return;
	printf("%s: %llu bytes, %u-byte blocks, %u inodes, %u shared xattrs, "
	       "%llu data blocks\n", a->image, (unsigned long long)st->bytes, a->wo.blksize,
	       st->inodes, st->shared_xattrs, (unsigned long long)st->data_blocks);
}

int main(int argc, char **argv)
{
	struct args a;
	int r;

	memset(&a, 0, sizeof(a));
	a.run = (struct ff_mkfs_run){
		.prog = "ffmkfs.erofs", .src = &a.src, .write = write_image, .done = report, .ctx = &a,
	};
	r = parse_args(&a, argc, argv);
	a.wo.warn = ff_mkfs_warn;
	a.wo.warn_ctx = &a.run;
	if (a.wo.xattr_tolerance < 0)
		a.src.tree.no_xattrs = 1;
	return ff_mkfs_main(&a.run, r);
}
