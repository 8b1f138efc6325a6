#include "flashfs/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/size.h"
#include "image/image.h"

int ff_cli_option(const char *cmd, int c, const char *arg, struct ff_open_opts *o)
{
	uint64_t *dst;
	const char *opt;

	uint64_t peb;
	uint32_t *dst32 = c == FF_OPT_PEB_SIZE ? &o->ubi_peb_size
			  : c == FF_OPT_PAGE_SIZE ? &o->ubi_page_size
			  : c == FF_OPT_OOB_SIZE ? &o->ubi_oob_size : NULL;

	if (c == FF_OPT_VOLUME) {
		o->ubi_volume = arg;
		return 1;
	}
	if (dst32) {
		opt = c == FF_OPT_PEB_SIZE ? "--peb-size" : c == FF_OPT_PAGE_SIZE ? "--page-size"
										   : "--oob-size";
		if (ff_parse_size(arg, &peb) < 0 || !peb || peb > UINT32_MAX ||
		    (c == FF_OPT_PAGE_SIZE && (peb < 512 || (peb & (peb - 1))))) {
			fprintf(stderr, "flashfs %s: %s: bad size '%s'%s\n", cmd, opt, arg,
				c == FF_OPT_PAGE_SIZE ? " (a power of two, 512 or more)" : "");
			return -1;
		}
		*dst32 = (uint32_t)peb;
		return 1;
	}
	if (c == FF_OPT_OFFSET)
		dst = &o->offset, opt = "--offset";
	else if (c == FF_OPT_CACHE)
		dst = &o->cache_bytes, opt = "--cache";
	else
		return 0;
	if (ff_parse_size(arg, dst) < 0) {
		fprintf(stderr, "flashfs %s: %s: '%s' is not a size (" FF_SIZE_SYNTAX ")\n", cmd,
			opt, arg);
		return -1;
	}
	return 1;
}

static void log_stderr(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	fprintf(stderr, "flashfs: %s: %s\n", (const char *)ctx,
		ff_warning_text(w, line, sizeof(line)));
}

int ff_cli_open(const char *cmd, const char *image, struct ff_open_opts *o, struct ff_fs **fs)
{
	struct ff_err err = {0};

	o->log = log_stderr;
	o->log_ctx = (void *)image;
	if (ff_image_open(image, o, fs, &err) < 0) {
		ff_cli_open_error(cmd, image, o, &err, "--offset ");
		return -1;
	}
	return 0;
}

/* Readers often name the image themselves; it is not printed twice. */
void ff_cli_open_error(const char *cmd, const char *image, const struct ff_open_opts *o,
		       const struct ff_err *err, const char *offset_option)
{
	size_t len = strlen(image);
	const char *what;
	uint64_t at;

	if (err->code != FF_IMAGE_UNKNOWN || o->offset != 0) {
		if (!strncmp(err->msg, image, len) && err->msg[len] == ':')
			fprintf(stderr, "flashfs %s: %s\n", cmd, err->msg);
		else
			fprintf(stderr, "flashfs %s: %s: %s\n", cmd, image, err->msg);
		return;
	}
	what = ff_image_locate(image, o, &at);
	if (!what) {
		fprintf(stderr, "flashfs %s: %s: %s, at offset 0 or at any %u-byte step of its first "
			"%llu MiB\n", cmd, image, err->msg, FF_IMAGE_SCAN_STEP,
			FF_IMAGE_SCAN_BYTES >> 20);
		return;
	}
	fprintf(stderr, "flashfs %s: %s: no image at offset 0; %s is at offset %llu: try %s%llu\n",
		cmd, image, what, (unsigned long long)at, offset_option, (unsigned long long)at);
}

void ff_mode_string(uint32_t mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	switch (mode & S_IFMT) {
	case S_IFDIR: out[0] = 'd'; break;
	case S_IFLNK: out[0] = 'l'; break;
	case S_IFCHR: out[0] = 'c'; break;
	case S_IFBLK: out[0] = 'b'; break;
	case S_IFIFO: out[0] = 'p'; break;
	case S_IFSOCK: out[0] = 's'; break;
	default: out[0] = '-'; break;
	}
	for (i = 0; i < 9; i++)
		out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
	if (mode & S_ISUID)
		out[3] = out[3] == 'x' ? 's' : 'S';
	if (mode & S_ISGID)
		out[6] = out[6] == 'x' ? 's' : 'S';
	if (mode & S_ISVTX)
		out[9] = out[9] == 'x' ? 't' : 'T';
	out[10] = '\0';
}
