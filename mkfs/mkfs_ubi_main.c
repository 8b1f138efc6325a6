/* mkfs.ubi: ubinize's options and configuration file -> ubi/ writer.  With
 * the same file and -Q the image equals ubinize's byte for byte.  With
 * --squashfs DIR it also builds a SquashFS image of DIR (mkfs/ tree,
 * squashfs/ writer) into an unlinked temporary file and adds it as a
 * volume: the one place that joins the two writers, hence in the main.
 * Exit codes: 0 ok, 2 usage error or the build failed (nothing left behind). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/warn.h"
#include "common/outfile.h"
#include "compress/compress.h"
#include "tree/source_args.h"
#include "squashfs/writer.h"
#include "ubi/ini.h"
#include "ubi/writer.h"

#define PROG "mkfs.ubi"

/* The volume --squashfs DIR adds. */
struct sqfs_vol {
	const char *comp, *name, *type, *flags, *size;
	uint32_t block_size;
	int64_t id;             /* -1: the lowest ID the ini file leaves free */
	struct ff_source_args src;
};

struct args {
	const char *out, *ini;
	uint32_t peb, min_io, subpage, vid_offs;
	struct ff_ubi_write_opts wo;
	int seq_given, verbose;
	struct sqfs_vol sq;
};

enum { O_SQFS = 256, O_SQFS_COMP, O_SQFS_BLOCK, O_VOL_NAME, O_VOL_ID, O_VOL_TYPE, O_VOL_SIZE,
       O_VOL_FLAGS };

static const struct option long_opts[] = {
	{"squashfs", required_argument, NULL, O_SQFS},
	{"squashfs-comp", required_argument, NULL, O_SQFS_COMP},
	{"squashfs-block-size", required_argument, NULL, O_SQFS_BLOCK},
	{"vol-name", required_argument, NULL, O_VOL_NAME},
	{"vol-id", required_argument, NULL, O_VOL_ID},
	{"vol-type", required_argument, NULL, O_VOL_TYPE},
	{"vol-size", required_argument, NULL, O_VOL_SIZE},
	{"vol-flags", required_argument, NULL, O_VOL_FLAGS},
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
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o IMAGE -p PEB-SIZE -m MIN-IO [OPTIONS] INI-FILE\n"
	      "       " PROG " -o IMAGE -p PEB-SIZE -m MIN-IO --squashfs DIR [OPTIONS] [INI-FILE]\n"
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
	      "  -v, --verbose              print the geometry and each volume\n"
	      "  -h, --help                 this text\n"
	      "  -V, --version              print the version\n"
	      "SquashFS volume in one step:\n"
	      "  --squashfs DIR             build a SquashFS image of DIR and add it as a volume\n"
	      "  --squashfs-comp CODEC      gzip (default), lzo, xz, lz4, zstd\n"
	      "  --squashfs-block-size N    default 128K\n"
	      "  --vol-name NAME            default rootfs\n"
	      "  --vol-id N                 default: the lowest ID the ini file leaves free\n"
	      "  --vol-type static|dynamic  default dynamic\n"
	      "  --vol-size BYTES           default: the image size\n"
	      "  --vol-flags autoresize|skip-check\n"
	      "  and mkfs.squashfs's source options: --all-root, --force-uid/gid, --mtime,\n"
	      "  --all-time, --no-xattrs, --exclude, --exclude-file, --one-file-system,\n"
	      "  --spec, --pseudo-file, --pseudo, --ignore-errors (SOURCE_DATE_EPOCH too)\n\n"
	      "Exit status: 0 ok, 2 usage error or the build failed (no image).\n", f);
}

static int bad(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, PROG ": %s '%s': %s\nTry '" PROG " --help' for more information.\n",
		opt, val, what);
	return -1;
}

static int size_opt(const char *opt, const char *val, uint32_t *out)
{
	uint64_t v;

	if (ff_ubi_parse_bytes(val, &v) < 0 || !v || v > UINT32_MAX)
		return bad(opt, val, "not a size (a number, optionally with KiB, MiB or GiB)");
	*out = (uint32_t)v;
	return 0;
}

static int num_opt(const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	char what[64];

	snprintf(what, sizeof(what), "not a number from 0 to %llu", (unsigned long long)max);
	return ff_ubi_parse_num(val, max, out) < 0 ? bad(opt, val, what) : 0;
}

/* The --squashfs volume's options; 0 handled, 1 not one of them, -1 bad. */
static int sqfs_opt(struct sqfs_vol *q, int c, const char *v)
{
	uint64_t n;

	switch (c) {
	case O_SQFS: q->src.source = v; return 0;
	case O_SQFS_COMP: q->comp = v; return 0;
	case O_SQFS_BLOCK:
		if (ff_ubi_parse_bytes(v, &n) < 0 || n < 4096 || n > (1u << 20) || (n & (n - 1)))
			return bad("--squashfs-block-size", v, "not a power of two from 4K to 1M");
		q->block_size = (uint32_t)n;
		return 0;
	case O_VOL_NAME: q->name = v; return 0;
	case O_VOL_ID:
		if (num_opt("--vol-id", v, FF_UBI_MAX_VOLUMES - 1, &n) < 0)
			return -1;
		q->id = (int64_t)n;
		return 0;
	case O_VOL_TYPE: q->type = v; return 0;
	case O_VOL_SIZE: q->size = v; return 0;
	case O_VOL_FLAGS: q->flags = v; return 0;
	default: return 1;
	}
}

/* One option; 0 go on, 1 done (help, version), -1 bad. */
static int one_opt(struct args *a, int c, const char *v)
{
	uint64_t n;
	int r = sqfs_opt(&a->sq, c, v);

	if (r <= 0)
		return r;
	switch (c) {
	case 'o': a->out = v; return 0;
	case 'p': return size_opt("-p/--peb-size", v, &a->peb);
	case 'm': return size_opt("-m/--min-io-size", v, &a->min_io);
	case 's': return size_opt("-s/--sub-page-size", v, &a->subpage);
	case 'O':
		if (num_opt("-O/--vid-hdr-offset", v, UINT32_MAX, &n) < 0)
			return -1;
		a->vid_offs = (uint32_t)n;
		return 0;
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
	case 'h': usage(stdout); return 1;
	case 'V': printf(PROG " (flashfs-tools) 0.1\n"); return 1;
	default:
		fputs("Try '" PROG " --help' for more information.\n", stderr);
		return -1;
	}
}

static int missing(const char *what)
{
	fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", what);
	return -1;
}

/* A source option (from FF_SOURCE_LONG_OPTIONS; --exclude shares the code
 * 'e' with -e, so the long name decides); 1 when c is not one. */
static int source_opt(struct args *a, int c, int idx, const char *v)
{
	struct ff_err err = {0, ""};
	int r;

	if (c == 'e' && (idx < 0 || strcmp(long_opts[idx].name, "exclude")))
		return 1;
	if (c != 'e' && c < FF_SRC_FIRST)
		return 1;
	r = ff_source_args_option(&a->sq.src, c, v, &err);
	if (r < 0)
		fprintf(stderr, PROG ": %s\n", err.msg);
	return r;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = {0, ""};
	int c, r, idx = -1;

	a->wo.ubi_version = FF_UBI_VERSION;
	a->sq = (struct sqfs_vol){.comp = "gzip", .name = "rootfs", .block_size = 128 * 1024,
				  .id = -1};
	ff_source_args_init(&a->sq.src);
	while ((c = getopt_long(argc, argv, "o:p:m:s:O:e:x:Q:vhV", long_opts, &idx)) != -1) {
		r = source_opt(a, c, idx, optarg);
		if (r == 1)
			r = one_opt(a, c, optarg);
		if (r)
			return r;
		idx = -1;
	}
	if (optind < argc - 1 || (optind == argc && !a->sq.src.source))
		return missing(optind == argc ? "no configuration file given"
					      : "more than one configuration file given");
	a->ini = optind < argc ? argv[optind] : NULL;
	if (a->sq.type && strcmp(a->sq.type, "static") && strcmp(a->sq.type, "dynamic"))
		return bad("--vol-type", a->sq.type, "not static or dynamic");
	if (a->sq.flags && strcmp(a->sq.flags, "autoresize") && strcmp(a->sq.flags, "skip-check"))
		return bad("--vol-flags", a->sq.flags, "not autoresize or skip-check");
	if (ff_source_args_epoch(&a->sq.src, getenv("SOURCE_DATE_EPOCH"), &err) < 0)
		return missing(err.msg);
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

static void warn_cb(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, PROG ": warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

/* Writes the SquashFS image to a fresh private directory, then keeps only
 * an open descriptor of it. */
static int write_sqfs(struct args *a, const struct ff_tree *t, const struct ff_comp *comp,
		      struct ff_err *err)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct ff_sqfs_write_opts o = {
		.comp = comp, .block_size = a->sq.block_size, .mkfs_time = a->sq.src.tree.clamp_time,
		.no_xattrs = a->sq.src.tree.no_xattrs, .warn = warn_cb,
	};
	struct ff_sqfs_write_stats st;
	char dir[4096], path[4200];
	int fd = -1;

	snprintf(dir, sizeof(dir), "%s/mkfs.ubi.XXXXXX", tmp);
	if (!mkdtemp(dir))
		return ff_err_sys(err, errno, "%s: temporary directory", tmp);
	snprintf(path, sizeof(path), "%s/volume.sqfs", dir);
	if (ff_sqfs_write(t, &o, path, &st, err) == 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		ff_err_sys(err, errno, "%s", path);
	unlink(path);
	rmdir(dir);
	return fd;
}

static int build_sqfs(struct args *a, struct ff_err *err)
{
	struct ff_comp *comp;
	struct ff_tree *t;
	int fd = -1;

	if (ff_source_args_check_image(&a->sq.src, a->out, err) < 0)
		return -1;
	comp = ff_comp_new(a->sq.comp, a->sq.block_size, err);
	if (!comp)
		return ff_err_prefix(err, "--squashfs-comp %s", a->sq.comp);
	a->sq.src.warn = warn_cb;
	t = ff_source_args_build(&a->sq.src, err);
	if (t) {
		fd = write_sqfs(a, t, comp, err);
		ff_tree_free(t);
	}
	ff_comp_free(comp);
	return fd;
}

/* The --squashfs volume (the last of ini's) as a section would describe it. */
static int sqfs_vol_fill(const struct args *a, const struct ff_ubi_ini *ini,
			 struct ff_ubi_vol *v, struct ff_err *err)
{
	const struct sqfs_vol *q = &a->sq;

	snprintf(v->where, sizeof(v->where), "--squashfs %s", q->src.source);
	v->type = !q->type || !strcmp(q->type, "dynamic") ? FF_UBI_VOL_DYNAMIC
		  : !strcmp(q->type, "static") ? FF_UBI_VOL_STATIC : 0;
	v->flags = !q->flags ? 0 : !strcmp(q->flags, "autoresize") ? FF_UBI_FLAG_AUTORESIZE
		   : !strcmp(q->flags, "skip-check") ? FF_UBI_FLAG_SKIP_CHECK : 0xFF;
	if (!v->type || v->flags == 0xFF)
		return ff_err_set(err, EINVAL, "--vol-%s: not %s", v->type ? "flags" : "type",
				  v->type ? "autoresize or skip-check" : "static or dynamic");
	if (strlen(q->name) > FF_UBI_VOL_NAME_MAX)
		return ff_err_set(err, EINVAL, "--vol-name: longer than 127 characters");
	strcpy(v->name, q->name);
	v->alignment = 1;
	v->bytes = v->image_size;
	if (q->size && ff_ubi_parse_bytes(q->size, &v->bytes) < 0)
		return ff_err_set(err, EINVAL, "--vol-size '%s': not a size", q->size);
	v->id = 0;
	for (size_t i = 0; q->id < 0 && i < ini->n - 1; i++) /* lowest free: retry after a hit */
		if (ini->vols[i].id == v->id) {
			v->id++;
			i = (size_t)-1;
		}
	if (q->id >= 0)
		v->id = (uint32_t)q->id;
	return 0;
}

static int add_sqfs(struct args *a, struct ff_ubi_ini *ini, struct ff_err *err)
{
	struct ff_ubi_vol *vols = realloc(ini->vols, (ini->n + 1) * sizeof(*vols));
	struct ff_ubi_vol *v;
	struct stat st;

	if (!vols)
		return ff_err_set(err, ENOMEM, "out of memory");
	ini->vols = vols;
	v = &vols[ini->n];
	*v = (struct ff_ubi_vol){.fd = build_sqfs(a, err)};
	if (v->fd < 0)
		return -1;
	ini->n++; /* owns the fd */
	if (fstat(v->fd, &st) < 0)
		return ff_err_sys(err, errno, "--squashfs: the image");
	v->image_size = (uint64_t)st.st_size;
	return sqfs_vol_fill(a, ini, v, err);
}

static int load(struct args *a, const struct ff_ubi_geom *g, struct ff_ubi_ini *ini,
		struct ff_err *err)
{
	*ini = (struct ff_ubi_ini){0};
	if (a->ini && ff_ubi_ini_load(a->ini, g, ini, err) < 0)
		return -1;
	if (a->sq.src.source && add_sqfs(a, ini, err) < 0) {
		ff_ubi_ini_free(ini);
		return -1;
	}
	return 0;
}

static int build(struct args *a, struct ff_err *err)
{
	struct ff_ubi_geom g;
	struct ff_ubi_ini ini;
	struct ff_outfile of;
	int rc;

	if (ff_ubi_geom_init(&g, a->peb, a->min_io, a->subpage, a->vid_offs, err) < 0 ||
	    load(a, &g, &ini, err) < 0)
		return -1;
	for (size_t i = 0; i < ini.n_notes; i++)
		fprintf(stderr, PROG ": note: %s\n", ini.notes[i]);
	if (a->verbose) {
		print_geom(a, &g);
		print_vols(&ini);
	}
	rc = ff_outfile_open(&of, a->out, err);
	if (rc == 0)
		rc = ff_ubi_write(&of, &g, &a->wo, ini.vols, ini.n, err);
	if (rc == 0)
		rc = ff_outfile_commit(&of, err);
	else
		ff_outfile_abort(&of);
	ff_ubi_ini_free(&ini);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	struct ff_err err = {0, ""};
	int r = parse_args(&a, argc, argv);

	if (r) {
		ff_source_args_free(&a.sq.src);
		return r > 0 ? 0 : 2;
	}
	r = build(&a, &err);
	ff_source_args_free(&a.sq.src);
	if (r < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	return 0;
}
