/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubifs' command line (ubifs_args.h).  Where mkfs.ubifs owns a letter
 * it keeps it: -p is the orphan area, -e the LEB size, -U squashes
 * owners, -j the journal size (--threads sets the workers, --uuid the
 * UUID); every other source option (--spec, --pf, --all-root, tar input
 * ...) is the other builders'. */
#include "mkfs/ubifs_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pool.h"
#include "common/size.h"
#include "compress/compress.h"
#include "tree/arg_value.h"

enum { O_HELP = 256, O_VERSION, O_THREADS, O_UUID, O_PF, O_EXCLUDE };

static const struct option long_opts[] = {
	/* first, so that it wins over the source options' --exclude (which
	 * shares -e's code) */
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "root", required_argument, NULL, 'r' },
	{ "min-io-size", required_argument, NULL, 'm' },
	{ "leb-size", required_argument, NULL, 'e' },
	{ "max-leb-cnt", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "devtable", required_argument, NULL, 'D' },
	{ "yes", no_argument, NULL, 'y' },
	{ "help", no_argument, NULL, O_HELP },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, O_VERSION },
	{ "debug-level", required_argument, NULL, 'g' },
	{ "jrn-size", required_argument, NULL, 'j' },
	{ "reserved", required_argument, NULL, 'R' },
	{ "compr", required_argument, NULL, 'x' },
	{ "favor-percent", required_argument, NULL, 'X' },
	{ "fanout", required_argument, NULL, 'f' },
	{ "space-fixup", no_argument, NULL, 'F' },
	{ "keyhash", required_argument, NULL, 'k' },
	{ "log-lebs", required_argument, NULL, 'l' },
	{ "orph-lebs", required_argument, NULL, 'p' },
	{ "squash-uids", no_argument, NULL, 'U' },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "uuid", required_argument, NULL, O_UUID },
	{ "pf", required_argument, NULL, O_PF },
	FF_SOURCE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

void ff_ubifs_args_help(FILE *f)
{
	fputs("  -r, -d, --root=DIR       build from DIR (or a tar archive)\n"
	      "  -m, --min-io-size=SIZE   minimum I/O unit size\n"
	      "  -e, --leb-size=SIZE      logical erase block size\n"
	      "  -c, --max-leb-cnt=COUNT  maximum logical erase block count\n"
	      "  -o, --output=FILE        output to FILE\n"
	      "  -j, --jrn-size=SIZE      journal size\n"
	      "  -R, --reserved=SIZE      space reserved for the super-user\n"
	      "  -x, --compr=TYPE         lzo (default), favor_lzo, zlib, zstd or none\n"
	      "  -X, --favor-percent=N    favor_lzo: zlib must be N% smaller (default 20)\n"
	      "  -f, --fanout=NUM         index fanout (default 8)\n"
	      "  -F, --space-fixup        free space is fixed up at first mount\n"
	      "  -k, --keyhash=TYPE       r5 (default) or test\n"
	      "  -p, --orph-lebs=COUNT    erase blocks for orphans (default 1)\n"
	      "  -l, --log-lebs=COUNT     erase blocks for the log\n"
	      "  -D, --devtable=FILE      device table (mkfs.ubifs / makedevs format)\n"
	      "  -U, --squash-uids        all files owned by root\n"
	      "  -y, --yes                assume yes\n"
	      "  -v, --verbose            a summary\n"
	      "      --threads=N          compression workers (default: the CPUs)\n"
	      "      --uuid=UUID          the file system's UUID (default: from the content)\n"
	      "      --pf FILE, --pseudo-file FILE  mksquashfs pseudo definitions\n"
	      "  -h, --help;  -V, --version\n"
	      "SIZE is bytes, 0x hex, or with K, M, G (KiB, MiB, GiB) after it.\n"
	      "Source options (as in mkfs.squashfs): --all-root, --force-uid U, --spec F,\n"
	      "  --pseudo-file F, --exclude GLOB, --ignore-errors, --no-xattrs, ...; the\n"
	      "  image is the same for the same tree and options.\n",
	      f);
}

void ff_ubifs_args_init(struct ff_ubifs_args *a)
{
	memset(a, 0, sizeof(*a));
	ff_source_args_init(&a->src);
	a->wo.compr = FF_UBIFS_COMPR_LZO;
}

void ff_ubifs_args_free(struct ff_ubifs_args *a)
{
	ff_source_args_free(&a->src);
}

/* mkfs.ubifs' sizes: "KiB", "MiB", "GiB" suffixes, and ours (common/size.h). */
static int parse_bytes(const char *opt, const char *s, uint64_t *out, struct ff_err *err)
{
	char buf[64];
	size_t n = strlen(s);

	if (n >= sizeof(buf))
		return ff_err_set(err, EINVAL, "%s %s: is not a size", opt, s);
	memcpy(buf, s, n + 1);
	if (n > 3 && !strcmp(buf + n - 2, "iB") && strchr("KMG", buf[n - 3]))
		buf[n - 2] = 0;
	if (ff_parse_size(buf, out))
		return ff_err_set(err, EINVAL, "%s %s: is not a size (%s)", opt, s, FF_SIZE_SYNTAX);
	return 0;
}

static int parse_u32_size(const char *opt, const char *s, uint32_t *out, struct ff_err *err)
{
	uint64_t v;

	if (parse_bytes(opt, s, &v, err))
		return -1;
	if (v == 0 || v > UINT32_MAX)
		return ff_err_set(err, EINVAL, "%s %s: out of range", opt, s);
	*out = (uint32_t)v;
	return 0;
}

static int parse_compr(struct ff_ubifs_args *a, const char *v, struct ff_err *err)
{
	static const char *const names[] = { "none", "lzo", "zlib", "zstd" };

	a->have_compr = 1;
	a->wo.favor_lzo = !strcmp(v, "favor_lzo");
	if (a->wo.favor_lzo) {
		a->wo.compr = FF_UBIFS_COMPR_LZO;
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			a->wo.compr = i;
			return 0;
		}
	return ff_err_set(err, EINVAL, "-x %s: must be lzo, favor_lzo, zlib, zstd or none", v);
}

static int parse_uuid(struct ff_ubifs_args *a, const char *s, struct ff_err *err)
{
	unsigned n = 0;

	for (const char *p = s; *p && n < 32; p++) {
		unsigned v;

		if (*p == '-')
			continue;
		if (sscanf(p, "%1x", &v) != 1)
			break;
		a->wo.uuid[n / 2] = (uint8_t)(n % 2 ? a->wo.uuid[n / 2] | v : v << 4);
		n++;
	}
	if (n != 32 || strlen(s) != 36)
		return ff_err_set(err, EINVAL, "--uuid %s: not a UUID "
				  "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)", s);
	a->wo.have_uuid = 1;
	return 0;
}

static int parse_keyhash(struct ff_ubifs_args *a, const char *v, struct ff_err *err)
{
	if (!strcmp(v, "r5"))
		a->wo.key_hash = 0;
	else if (!strcmp(v, "test"))
		a->wo.key_hash = 1;
	else
		return ff_err_set(err, EINVAL, "-k %s: must be r5 or test", v);
	return 0;
}

/* -r and -o name the source and the image: mkfs.ubi --ubifs has both. */
static int place_opt(struct ff_ubifs_args *a, int c, const char *arg, struct ff_err *err)
{
	if (a->no_positionals)
		return ff_err_set(err, EINVAL, "-%c %s: %s here", c, arg,
				  c == 'o' ? "the UBI image is the output" : "--ubifs names the source");
	if (c == 'o')
		a->image = arg;
	else
		a->root = arg;
	return 0;
}

/* 0 handled, HELP/VERSION, -1 bad value. */
static int parse_opt(struct ff_ubifs_args *a, int c, const char *arg, struct ff_err *err)
{
	switch (c) {
	case 'r':
	case 'd':
	case 'o': return place_opt(a, c == 'd' ? 'r' : c, arg, err);
	case 'm': return parse_u32_size("-m", arg, &a->wo.min_io, err);
	case 'e': return parse_u32_size("-e", arg, &a->wo.leb_size, err);
	case 'c': return parse_u32_size("-c", arg, &a->wo.max_leb_cnt, err);
	case 'j': return parse_bytes("-j", arg, &a->wo.jrn_size, err);
	case 'R': return parse_bytes("-R", arg, &a->wo.reserved, err);
	case 'x': return parse_compr(a, arg, err);
	case 'X': return ff_arg_u32("-X", arg, 1, 99, &a->wo.favor_percent, err);
	case 'f': return ff_arg_u32("-f", arg, 3, 65535, &a->wo.fanout, err);
	case 'F': a->wo.space_fixup = 1; return 0;
	case 'k': return parse_keyhash(a, arg, err);
	case 'p': return ff_arg_u32("-p", arg, 1, UINT32_MAX, &a->wo.orph_lebs, err);
	case 'l': return ff_arg_u32("-l", arg, 2, UINT32_MAX, &a->wo.log_lebs, err);
	case 'D': return ff_source_args_option(&a->src, FF_SRC_DEVICE_TABLE, arg, err);
	case 'U': a->src.tree.all_root = 1; return 0;
	case 'y':
	case 'g': return 0;
	case 'v': a->verbose = 1; return 0;
	case O_THREADS:
		a->have_threads = 1;
		return ff_arg_u32("--threads", arg, 1, 1024, &a->wo.threads, err);
	case O_UUID: return parse_uuid(a, arg, err);
	case O_EXCLUDE: return ff_source_args_option(&a->src, FF_SRC_EXCLUDE, arg, err);
	case O_PF: return ff_source_args_option(&a->src, FF_SRC_PSEUDO_FILE, arg, err);
	case 'h':
	case O_HELP: return FF_UBIFS_ARGS_HELP;
	case 'V':
	case O_VERSION: return FF_UBIFS_ARGS_VERSION;
	default: return ff_err_set(err, EINVAL, "bad option");
	}
}

static int ours(int c)
{
	return c < 256 || c == O_HELP || c == O_VERSION || c == O_THREADS || c == O_UUID ||
	       c == O_PF || c == O_EXCLUDE;
}

static int parse_words(struct ff_ubifs_args *a, int n, char **words, struct ff_err *err)
{
	if (a->no_positionals && n)
		return ff_err_set(err, EINVAL, "'%s': no file names after --ubifs DIR --", words[0]);
	if (n > 1 || (n == 1 && a->image))
		return ff_err_set(err, EINVAL, "one output, got %d words after the options",
				  n + !!a->image);
	if (n == 1)
		a->image = words[0];
	return 0;
}

int ff_ubifs_args_parse(struct ff_ubifs_args *a, int argc, char **argv, struct ff_err *err)
{
	int c, r;

	opterr = 0;
	optind = 0; /* glibc: a full restart, also of its permutation state */
	while ((c = getopt_long(argc, argv, "r:d:m:e:c:o:D:yhvVg:j:R:x:X:f:Fk:p:l:U", long_opts,
				NULL)) != -1) {
		if (c == '?' || c == ':') {
			ff_err_set(err, EINVAL, "bad option '%s'", argv[optind - 1]);
			return FF_UBIFS_ARGS_USAGE;
		}
		r = ours(c) ? parse_opt(a, c, optarg, err)
			    : ff_source_args_option(&a->src, c, optarg, err);
		if (r == 1 && !ours(c))
			r = ff_err_set(err, EINVAL, "bad option '%s'", argv[optind - 1]);
		if (r)
			return r > 0 ? r : FF_UBIFS_ARGS_USAGE;
	}
	return parse_words(a, argc - optind, argv + optind, err) ? FF_UBIFS_ARGS_USAGE : 0;
}

static int required(const struct ff_ubifs_args *a, struct ff_err *err)
{
	if (!a->no_positionals && !a->image)
		return ff_err_set(err, EINVAL, "no output file given");
	if (!a->wo.min_io)
		return ff_err_set(err, EINVAL, "min. I/O unit was not specified (-m)");
	if (!a->wo.leb_size)
		return ff_err_set(err, EINVAL, "LEB size was not specified (-e)");
	if (!a->wo.max_leb_cnt)
		return ff_err_set(err, EINVAL, "maximum count of LEBs was not specified (-c)");
	return 0;
}

/* Built with `make LZO=0`: refuse lzo and favor_lzo, and the default
 * (mkfs.ubifs' lzo) too rather than change the output behind the user's
 * back, before anything is written. */
static int lzo_check(const struct ff_ubifs_args *a, struct ff_err *err)
{
	struct ff_err why;

	if (a->wo.compr != FF_UBIFS_COMPR_LZO || ff_comp_has_lzo())
		return 0;
	ff_comp_no_lzo(&why, a->wo.favor_lzo ? "-x favor_lzo"
			     : a->have_compr ? "-x lzo" : "-x lzo (the default)");
	return ff_err_set(err, ENOTSUP, "%s; give -x zlib, -x zstd or -x none", why.msg);
}

int ff_ubifs_args_finish(struct ff_ubifs_args *a, const char *epoch, struct ff_err *err)
{
	if (!a->have_threads)
		a->wo.threads = ff_online_cpus();
	if (!a->no_positionals)
		a->src.source = a->root;
	if (ff_source_args_epoch(&a->src, epoch, err) || required(a, err) || lzo_check(a, err) ||
	    ff_ubifs_write_check(&a->wo, err) ||
	    (a->image && ff_source_args_check_image(&a->src, a->image, err)))
		return FF_UBIFS_ARGS_USAGE;
	return 0;
}
