/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "flashfs/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/size.h"
#include "image/image.h"

/* --endian, --oob-layout, --tags: words, checked where they are used
 * except the byte order. */
static int word_option(const char *cmd, int c, const char *arg, struct ff_open_opts *o)
{
	if (c == FF_OPT_OOB_LAYOUT)
		o->flash.oob_layout = arg;
	else if (c == FF_OPT_TAGS)
		o->flash.tags = arg;
	else if (!strcmp(arg, "little") || !strcmp(arg, "le"))
		o->flash.byte_order = FF_ORDER_LITTLE;
	else if (!strcmp(arg, "big") || !strcmp(arg, "be"))
		o->flash.byte_order = FF_ORDER_BIG;
	else if (!strcmp(arg, "auto"))
		o->flash.byte_order = FF_ORDER_DETECT;
	else {
		fprintf(stderr, "flashfs %s: --endian: '%s' is not little, big or auto\n", cmd, arg);
		return -1;
	}
	return 1;
}

int ff_cli_option(const char *cmd, int c, const char *arg, struct ff_open_opts *o)
{
	uint64_t *dst;
	const char *opt;

	uint64_t peb;
	uint32_t *dst32 = c == FF_OPT_PEB_SIZE ? &o->flash.erase_size
			  : c == FF_OPT_PAGE_SIZE ? &o->flash.page_size
			  : c == FF_OPT_OOB_SIZE ? &o->flash.oob_size
			  : c == FF_OPT_PPB ? &o->flash.pages_per_block : NULL;

	if (c == FF_OPT_VOLUME) {
		o->ubi_volume = arg;
		return 1;
	}
	if (c == FF_OPT_ENDIAN || c == FF_OPT_OOB_LAYOUT || c == FF_OPT_TAGS)
		return word_option(cmd, c, arg, o);
	if (dst32) {
		opt = c == FF_OPT_PEB_SIZE ? "--peb-size" : c == FF_OPT_PAGE_SIZE ? "--page-size"
			: c == FF_OPT_PPB ? "--pages-per-block" : "--oob-size";
		if (ff_parse_size(arg, &peb) < 0) {
			fprintf(stderr, "flashfs %s: %s: '%s' is not a size (" FF_SIZE_SYNTAX
				")\n", cmd, opt, arg);
			return -1;
		}
		if (!peb || peb > UINT32_MAX ||
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

void ff_cli_log(struct ff_open_opts *o, const char *image)
{
	o->log = log_stderr;
	o->log_ctx = (void *)image;
}

int ff_cli_open(const char *cmd, const char *image, struct ff_open_opts *o, struct ff_fs **fs)
{
	struct ff_err err = {0};

	ff_cli_log(o, image);
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
	char found[256];
	uint64_t at;

	if (err->code != FF_IMAGE_UNKNOWN || o->offset != 0) {
		if (!strncmp(err->msg, image, len) && err->msg[len] == ':')
			fprintf(stderr, "flashfs %s: %s\n", cmd, err->msg);
		else
			fprintf(stderr, "flashfs %s: %s: %s\n", cmd, image, err->msg);
		return;
	}
	what = ff_image_locate(image, o, &at, found, sizeof(found));
	if (!what) {
		fprintf(stderr, "flashfs %s: %s: %s, at offset 0 or anywhere in its first %llu MiB\n",
			cmd, image, err->msg, FF_IMAGE_SCAN_BYTES >> 20);
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
