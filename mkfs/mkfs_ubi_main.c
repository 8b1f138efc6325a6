/* mkfs.ubi: ubinize's options and configuration file -> ubi/ writer.  With
 * the same file and -Q the image equals ubinize's byte for byte.
 * Exit codes: 0 ok, 2 usage error or the build failed (nothing left behind). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/outfile.h"
#include "ubi/ini.h"
#include "ubi/writer.h"

#define PROG "mkfs.ubi"

struct args {
	const char *out, *ini;
	uint32_t peb, min_io, subpage, vid_offs;
	struct ff_ubi_write_opts wo;
	int seq_given, verbose;
};

static const struct option long_opts[] = {
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
	      "  -V, --version              print the version\n\n"
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

/* One option; 0 go on, 1 done (help, version), -1 bad. */
static int one_opt(struct args *a, int c, const char *v)
{
	uint64_t n;

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

static int parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	a->wo.ubi_version = FF_UBI_VERSION;
	while ((c = getopt_long(argc, argv, "o:p:m:s:O:e:x:Q:vhV", long_opts, NULL)) != -1)
		if ((r = one_opt(a, c, optarg)) != 0)
			return r;
	if (optind != argc - 1)
		return missing(optind == argc ? "no configuration file given"
					      : "more than one configuration file given");
	a->ini = argv[optind];
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

static int build(const struct args *a, struct ff_err *err)
{
	struct ff_ubi_geom g;
	struct ff_ubi_ini ini;
	struct ff_outfile of;
	int rc;

	if (ff_ubi_geom_init(&g, a->peb, a->min_io, a->subpage, a->vid_offs, err) < 0 ||
	    ff_ubi_ini_load(a->ini, &g, &ini, err) < 0)
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

	if (r)
		return r > 0 ? 0 : 2;
	if (build(&a, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	return 0;
}
