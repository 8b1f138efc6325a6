/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffmkfs.jffs2: mtd-utils' mkfs.jffs2 command line -> source tree
 * (tree/tree.h) -> the JFFS2 writer, whose image is byte-identical to
 * mkfs.jffs2's for the same tree and options (and, with --summary, to
 * mkfs.jffs2's run through sumtool).  The toolkit's source options work
 * too (--spec, --pseudo-file/-pf, --pseudo, tar input, --all-root,
 * SOURCE_DATE_EPOCH ...); -p is mkfs.jffs2's pad, so a pseudo line is
 * spelt --pseudo, and -e its erase size, so an exclude is --exclude.
 * Exit codes: 0 ok, 1 built with warnings, 2 usage error or the build
 * failed (nothing left behind). */
#include <flashfs/version.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/pool.h"
#include "common/size.h"
#include "jffs2/writer.h"
#include "mkfs/mkfs_run.h"
#include "mkfs/source_args.h"

struct args {
	struct ff_source_args src;
	struct ff_mkfs_run run;
	struct ff_jffs2_write_stats st;
	struct ff_jffs2_write_opts wo;
	const char *root, *image;
	int verbose, fake_times, squash_uids;
};

enum { O_EXCLUDE = 256, O_WITH_XATTR, O_WITH_SELINUX, O_WITH_ACL, O_SUMMARY };

static const struct option long_opts[] = {
	/* before the source options: --exclude shares -e's code there */
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "pad", optional_argument, NULL, 'p' },
	{ "root", required_argument, NULL, 'r' },
	{ "pagesize", required_argument, NULL, 's' },
	{ "eraseblock", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "big-endian", no_argument, NULL, 'b' },
	{ "little-endian", no_argument, NULL, 'l' },
	{ "no-cleanmarkers", no_argument, NULL, 'n' },
	{ "cleanmarker", required_argument, NULL, 'c' },
	{ "squash", no_argument, NULL, 'q' },
	{ "squash-uids", no_argument, NULL, 'U' },
	{ "squash-perms", no_argument, NULL, 'P' },
	{ "faketime", no_argument, NULL, 'f' },
	{ "devtable", required_argument, NULL, 'D' },
	{ "compression-mode", required_argument, NULL, 'm' },
	{ "disable-compressor", required_argument, NULL, 'x' },
	{ "enable-compressor", required_argument, NULL, 'X' },
	{ "test-compression", no_argument, NULL, 't' },
	{ "compressor-priority", required_argument, NULL, 'y' },
	{ "list-compressors", no_argument, NULL, 'L' },
	{ "incremental", required_argument, NULL, 'i' },
	{ "with-xattr", no_argument, NULL, O_WITH_XATTR },
	{ "with-selinux", no_argument, NULL, O_WITH_SELINUX },
	{ "with-posix-acl", no_argument, NULL, O_WITH_ACL },
	{ "summary", no_argument, NULL, O_SUMMARY },
	{ "jobs", required_argument, NULL, 'j' },
	FF_SOURCE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: ffmkfs.jffs2 [OPTIONS] -r DIR -o FILE\n"
	      "Make a JFFS2 image, byte for byte as mtd-utils' mkfs.jffs2 makes it.\n\n"
	      "  -r, -d, --root=DIR      the source: a directory or a tar archive (default: .)\n"
	      "  -o, --output=FILE       the image (default: standard output, once complete)\n"
	      "  -e, --eraseblock=SIZE   erase block size (default 64KiB; a number below 4096\n"
	      "                          counts KiB; at least 8KiB)\n"
	      "  -s, --pagesize=SIZE     data node size (default: this host's page size)\n"
	      "  -p, --pad[=SIZE]        pad with 0xff to the erase block's end, or to SIZE\n"
	      "  -n, --no-cleanmarkers   no cleanmarker at the start of each erase block\n"
	      "  -c, --cleanmarker=SIZE  cleanmarker size (default 12)\n"
	      "  -l, --little-endian     little-endian image;  -b, --big-endian  big-endian\n"
	      "  -q, --squash            -U and -P\n"
	      "  -U, --squash-uids       everything owned by root\n"
	      "  -P, --squash-perms      no group/other write, no setuid/setgid bits\n"
	      "  -f, --faketime          every time 0\n"
	      "  -D, --devtable=FILE     device table (Buildroot's makedevs format)\n"
	      "  -m, --compression-mode=none|priority|size|favourlzo  (default priority)\n"
	      "  -x, --disable-compressor=NAME, -X, --enable-compressor=NAME\n"
	      "                          zlib (on), rtime (on), lzo (off)\n"
	      "  -y, --compressor-priority=PRIORITY:NAME  (lzo 80, zlib 60, rtime 50)\n"
	      "  -L, --list-compressors  the compressors and their priorities\n"
	      "      --with-xattr        store xattrs (user, security, trusted, POSIX ACLs)\n"
	      "      --with-selinux      store security.* xattrs\n"
	      "      --with-posix-acl    store POSIX ACLs\n"
	      "      --summary           erase-block summaries, as sumtool adds them\n"
	      "  -j, --jobs=N            compressing threads (default: the CPUs)\n"
	      "  -v, --verbose           a summary on standard error\n"
	      "  -h, --help;  -V, --version\n"
	      "Source options (as in mkfs.squashfs): --all-root, --force-uid U,\n"
	      "  --force-gid G, --exclude GLOB, --spec F, --pseudo-file F (-pf F),\n"
	      "  --pseudo LINE, --tar, --ignore-errors, ...\n\n"
	      "Sizes: 4096, 0x1000, 128K, 128KiB, 1M.\n"
	      "Exit status: 0 ok, 1 built with warnings, 2 usage error or the build failed\n"
	      "(no image).\n",
	      f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ffmkfs.jffs2: %s\nTry 'ffmkfs.jffs2 --help' for more information.\n",
		msg);
	return -1;
}

/* common/size.h's syntax, plus mkfs.jffs2's "KiB" and "MiB". */
static int parse_size(const char *opt, const char *s, uint64_t *out, struct ff_err *err)
{
	char buf[64];
	size_t n = strlen(s);

	if (n >= 4 && n < sizeof(buf) && (!strcmp(s + n - 3, "KiB") || !strcmp(s + n - 3, "MiB"))) {
		memcpy(buf, s, n - 2);
		buf[n - 2] = 0;
		s = buf;
	}
	if (ff_parse_size(s, out))
		return ff_err_set(err, EINVAL, "%s %s: not a size (%s, or KiB, MiB)", opt, s,
				  FF_SIZE_SYNTAX);
	return 0;
}

/* mkfs.jffs2's -e: a bare number below 0x1000 counts KiB; below 8 KiB
 * is raised to 8 KiB (with its warning). */
static int parse_erase(struct args *a, const char *s, struct ff_err *err)
{
	uint64_t v;

	if (parse_size("-e", s, &v, err))
		return -1;
	if (strspn(s, "0123456789abcdefxABCDEFX") == strlen(s) && v < 0x1000)
		v *= 1024;
	if (v == 0 || v > 0x40000000)
		return ff_err_set(err, EINVAL, "-e %s: erase size out of range", s);
	if (v < 0x2000) {
		fprintf(stderr, "ffmkfs.jffs2: erase size 0x%x too small, increasing to 8KiB "
			"minimum\n", (unsigned)v);
		v = 0x2000;
	}
	a->wo.erase_size = (uint32_t)v;
	return 0;
}

static int parse_u32_size(const char *opt, const char *s, uint32_t min, uint32_t max,
			  uint32_t *out, struct ff_err *err)
{
	uint64_t v;

	if (parse_size(opt, s, &v, err))
		return -1;
	if (v < min || v > max)
		return ff_err_set(err, EINVAL, "%s %s: must be %u to %u", opt, s, min, max);
	*out = (uint32_t)v;
	return 0;
}

static int parse_pad(struct args *a, const char *s, struct ff_err *err)
{
	uint64_t v;

	if (!s) {
		a->wo.pad = -1;
		return 0;
	}
	if (parse_size("-p", s, &v, err))
		return -1;
	if (v > INT64_MAX)
		return ff_err_set(err, EINVAL, "-p %s: too large", s);
	a->wo.pad = (int64_t)v;
	return 0;
}

static int parse_priority(struct args *a, const char *s, struct ff_err *err)
{
	char *end;
	long prio = strtol(s, &end, 10);

	if (end == s || *end != ':' || prio < 0 || prio > 1000000)
		return ff_err_set(err, EINVAL, "-y %s: not PRIORITY:NAME", s);
	return ff_jffs2_compr_priority(&a->wo.compr, end + 1, (int)prio, err);
}

static void list_compressors(const struct ff_jffs2_compr *c)
{
	static const char *const names[] = { "zlib", "rtime", "lzo" };

	for (int k = 0; k < FF_J2C_COUNT; k++) {
		int i = c->order[k];

		printf("%10s priority:%d %s\n", names[i], c->prio[i],
		       c->disabled[i] ? "disabled" : "enabled");
	}
}

static int parse_jobs(struct args *a, const char *s, struct ff_err *err)
{
	uint64_t v;

	if (ff_parse_uint(s, &v) || v < 1 || v > 1024)
		return ff_err_set(err, EINVAL, "-j %s: must be 1 to 1024", s);
	a->wo.threads = (unsigned)v;
	return 0;
}

/* 0 handled, 1 done (help, version, list), -1 bad value. */
static int parse_opt(struct args *a, int c, const char *arg, struct ff_err *err)
{
	switch (c) {
	case 'r':
	case 'd':
		if (a->root)
			return ff_err_set(err, EINVAL, "root directory specified more than once");
		a->root = arg;
		return 0;
	case 'o':
		if (a->image)
			return ff_err_set(err, EINVAL, "output filename specified more than once");
		a->image = arg;
		return 0;
	case 'e': return parse_erase(a, arg, err);
	case 's': return parse_u32_size("-s", arg, 1, 1u << 20, &a->wo.page_size, err);
	case 'p': return parse_pad(a, arg, err);
	case 'n': a->wo.cleanmarkers = 0; return 0;
	case 'c': return parse_u32_size("-c", arg, 12, UINT32_MAX, &a->wo.cleanmarker_size, err);
	case 'l': a->wo.big_endian = 0; return 0;
	case 'b': a->wo.big_endian = 1; return 0;
	case 'q': a->squash_uids = a->wo.squash_perms = 1; return 0;
	case 'U': a->squash_uids = 1; return 0;
	case 'P': a->wo.squash_perms = 1; return 0;
	case 'f': a->fake_times = 1; return 0;
	case 'D': return ff_source_args_option(&a->src, FF_SRC_DEVICE_TABLE, arg, err);
	case 'i':
		return ff_err_set(err, ENOTSUP, "-i %s: incremental images are not supported", arg);
	case 'm': return ff_jffs2_compr_mode(&a->wo.compr, arg, err);
	case 'x': return ff_jffs2_compr_enable(&a->wo.compr, arg, 0, err);
	case 'X': return ff_jffs2_compr_enable(&a->wo.compr, arg, 1, err);
	case 'y': return parse_priority(a, arg, err);
	case 't': return 0; /* mkfs.jffs2's self-test of its compressors */
	case 'L': list_compressors(&a->wo.compr); return 1;
	case 'j': return parse_jobs(a, arg, err);
	case 'v': a->verbose = 1; return 0;
	case O_WITH_XATTR:
		a->wo.xattrs |= FF_J2X_USER | FF_J2X_SECURITY | FF_J2X_ACL | FF_J2X_TRUSTED;
		return 0;
	case O_WITH_SELINUX: a->wo.xattrs |= FF_J2X_SECURITY; return 0;
	case O_WITH_ACL: a->wo.xattrs |= FF_J2X_ACL; return 0;
	case O_SUMMARY: a->wo.summary = 1; return 0;
	case O_EXCLUDE: return ff_source_args_option(&a->src, FF_SRC_EXCLUDE, arg, err);
	case 'h': usage(stdout); return 1;
	case 'V': printf("ffmkfs.jffs2 (flashfs-tools) " FF_VERSION_STRING ", as mkfs.jffs2 2.1.5\n"); return 1;
	default: return ff_err_set(err, EINVAL, "bad option");
	}
}

static void defaults(struct args *a)
{
	uint16_t probe = 1;
	long page = sysconf(_SC_PAGESIZE);

	ff_source_args_init(&a->src);
	ff_jffs2_write_opts_init(&a->wo);
	a->wo.big_endian = *(uint8_t *)&probe == 0;
	a->wo.page_size = page > 0 ? (uint32_t)page : 4096;
	a->wo.threads = ff_online_cpus();
}

static int parse_options(struct args *a, int argc, char **argv, struct ff_err *err)
{
	int c, r;

	ff_source_map_single_dash(argc, argv, "-p");
	while ((c = getopt_long(argc, argv, "D:d:r:s:o:qUPfhvVe:lbp::nc:m:x:X:Lty:i:j:", long_opts,
				NULL)) != -1) {
		if (c == '?')
			return usage_error("bad option");
		r = strchr("eps", c) ? 1 : ff_source_args_option(&a->src, c, optarg, err);
		if (r == 1)
			r = parse_opt(a, c, optarg, err);
		if (r)
			return r > 0 ? r : usage_error(err->msg);
	}
	/* mkfs.jffs2 ignores them ("-p 4M" pads to the erase block, the 4M
	 * being an argument of its own); so does a drop-in, but says so */
	for (int i = optind; i < argc; i++)
		fprintf(stderr, "ffmkfs.jffs2: warning: argument '%s' ignored (the source is -r DIR,"
			" the image -o FILE, a pad size -pSIZE or --pad=SIZE)\n", argv[i]);
	return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	int r;

	defaults(a);
	if ((r = parse_options(a, argc, argv, &err)) != 0)
		return r;
	if (a->wo.cleanmarker_size >= a->wo.erase_size)
		return usage_error("cleanmarker size must be < eraseblock size");
	if (!a->image && isatty(1))
		return usage_error("no -o FILE, and standard output is a terminal");
	if (a->root || !(a->src.specs.n || a->src.pseudo_files.n || a->src.pseudo_lines.n))
		a->src.source = a->root ? a->root : ".";
	a->src.tree.no_xattrs = !a->wo.xattrs;
	if (a->squash_uids)
		a->src.tree.all_root = 1;
	if (a->fake_times)
		a->src.tree.all_time = 0;
	if (ff_source_args_epoch(&a->src, getenv("SOURCE_DATE_EPOCH"), &err) ||
	    (a->image && ff_source_args_check_image(&a->src, a->image, &err)))
		return usage_error(err.msg);
	return 0;
}

static int write_image(void *ctx, struct ff_tree *t, struct ff_err *err)
{
	struct args *a = ctx;

	return ff_jffs2_write(t, &a->wo, a->image, 1, &a->st, err);
}

static void report(void *ctx)
{
	const struct args *a = ctx;
	const struct ff_jffs2_write_stats *st = &a->st;

	if (!a->verbose)
		return;
	fprintf(stderr, "%s: %llu bytes, %s endian, erase block %u, page %u%s%s\n",
		a->image ? a->image : "(stdout)", (unsigned long long)st->bytes,
		a->wo.big_endian ? "big" : "little", a->wo.erase_size, a->wo.page_size,
		a->wo.cleanmarkers ? "" : ", no cleanmarkers", a->wo.summary ? ", summaries" : "");
	fprintf(stderr, "%u inodes, %llu data nodes (%llu compressed), %llu file bytes stored"
		" in %llu\n", st->inodes, (unsigned long long)st->data_nodes,
		(unsigned long long)st->compressed_nodes, (unsigned long long)st->data_in,
		(unsigned long long)st->data_out);
}

int main(int argc, char **argv)
{
	struct args a;
	int r;

	memset(&a, 0, sizeof(a));
	a.run = (struct ff_mkfs_run){
		.prog = "ffmkfs.jffs2", .src = &a.src, .write = write_image, .done = report, .ctx = &a,
	};
	r = parse_args(&a, argc, argv);
	a.wo.warn = ff_mkfs_warn;
	a.wo.warn_ctx = &a.run;
	return ff_mkfs_main(&a.run, r);
}
