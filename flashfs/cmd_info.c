/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs info [--json] IMAGE */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/fd_size.h"
#include "common/json.h"
#include "compress/compress.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"

#define INFO_SCHEMA "flashfs-info/2" /* docs/schemas/info.schema.json */

/* Text output: one "key value" line per value; a group with a line of its
 * own is one line, the others show their members. */
struct text {
	unsigned skip; /* > 0: inside a group shown as one line */
};

static void text_line(const struct ff_info_item *it, const char *value)
{
	printf("%-20s %s\n", it->text_key ? it->text_key : it->key ? it->key : "", value);
}

static void text_item(void *ctx, const struct ff_info_item *it)
{
	struct text *t = ctx;
	char num[24];

	if (t->skip) {
		t->skip += it->type == FF_INFO_OBJECT || it->type == FF_INFO_LIST;
		t->skip -= it->type == FF_INFO_END;
		return;
	}
	if (it->text && it->type != FF_INFO_END) {
		text_line(it, it->text);
		t->skip = it->type == FF_INFO_OBJECT || it->type == FF_INFO_LIST;
		return;
	}
	switch (it->type) {
	case FF_INFO_STR: text_line(it, it->str); break;
	case FF_INFO_NULL: text_line(it, it->str ? it->str : "none"); break;
	case FF_INFO_BOOL: text_line(it, it->num ? "yes" : "no"); break;
	case FF_INFO_UINT:
		snprintf(num, sizeof(num), "%llu", (unsigned long long)it->num);
		text_line(it, num);
		break;
	case FF_INFO_INT:
		snprintf(num, sizeof(num), "%lld", (long long)it->snum);
		text_line(it, num);
		break;
	default: /* a group without a line of its own, or its end */
		break;
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs info [--json] [OPTIONS] IMAGE\n\n"
		   "Show the format, compressor and options, block size, sizes and counts.\n\n"
		   "  --json           print one JSON object (schema " INFO_SCHEMA ")\n" FF_CLI_HELP
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 ok, 2 usage error or unreadable image.\n");
}

/* The file itself: its size from --offset on and the stream container
 * (xz, gzip...) it may be, which the reader opens transparently.  0, or -1
 * when the file cannot be read here (the reader's size is shown then). */
static int file_facts(const char *image, uint64_t offset, uint64_t *size,
		      const char **container)
{
	uint8_t magic[16];
	int fd = open(image, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = ff_fd_size(fd, size) == 0 && *size >= offset
		    ? pread(fd, magic, sizeof(magic), (off_t)offset) : -1;
	close(fd);
	if (n < 0)
		return -1;
	*size -= offset;
	*container = ff_cstream_detect(magic, (size_t)n);
	return 0;
}

/* image_size is the file's own size; a compressed container adds its name
 * and the size of the image inside. */
static void show_sizes(struct ff_fs *fs, const char *image, uint64_t offset, ff_info_fn fn,
		       void *ctx)
{
	struct ff_statfs sf;
	const char *container = NULL;
	uint64_t size;
	int have_sf = fs->ops->statfs(fs, &sf) == 0;

	if (file_facts(image, offset, &size, &container) < 0) {
		if (have_sf)
			ff_info_uint(fn, ctx, "image_size", sf.image_bytes);
		return;
	}
	ff_info_uint(fn, ctx, "image_size", size);
	if (container) {
		ff_info_str(fn, ctx, "container", container);
		if (have_sf)
			ff_info_uint(fn, ctx, "decompressed_size", sf.image_bytes);
	}
}

static void show(struct ff_fs *fs, const char *image, uint64_t offset, int json)
{
	struct ff_json j;
	struct text t = {0};
	ff_info_fn fn = json ? ff_info_json : text_item;
	void *ctx = json ? (void *)&j : (void *)&t;

	ff_json_init(&j, stdout, 1);
	if (json) {
		ff_json_begin_object(&j);
		ff_json_kv_str(&j, "schema", INFO_SCHEMA);
		ff_json_kv_str(&j, "image", image);
	}
	ff_info_str(fn, ctx, "format", fs->ops->format);
	show_sizes(fs, image, offset, fn, ctx);
	fs->ops->info(fs, fn, ctx);
	if (json) {
		ff_json_end_object(&j);
		ff_json_finish(&j);
	}
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct ff_fs *fs;
	int c, json = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int r = ff_cli_option("info", c, optarg, &oo);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (c == 'j') {
			json = 1;
			continue;
		}
		usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 2;
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	oo.keep_container = 1;
	if (ff_cli_open("info", argv[optind], &oo, &fs) < 0)
		return 2;
	show(fs, argv[optind], oo.offset, json);
	ff_fs_close(fs);
	return 0;
}

const struct ff_command ff_command_info = {"info", cmd_info,
	"show format, compressor, sizes and counts"};
