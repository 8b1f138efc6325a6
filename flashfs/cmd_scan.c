/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs scan [--json] BLOB: every image found inside a firmware blob or
 * a flash dump, with its offset, format, version, byte order and size
 * (image/scan.h: every offset its format's magic allows, each candidate
 * validated by the format's probe). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"
#include "image/image.h"
#include "image/scan.h"

#define SCAN_SCHEMA "flashfs-scan/1"

static const char *order(const struct ff_probe *p)
{
	return p->big_endian < 0 ? NULL : p->big_endian ? "big" : "little";
}

/* A container's parts (UBI volumes) in text: the lines info gives them. */
static void text_part(void *ctx, const struct ff_info_item *it)
{
	(void)ctx;
	if (it->text && it->text_key && it->type == FF_INFO_OBJECT && it->key == NULL)
		printf("%-36s %s %s\n", "", it->text_key, it->text);
}

/* The container found at off: its own layer, through a window there. */
static void container(struct ff_bsrc *src, uint64_t off, ff_info_fn fn, void *ctx)
{
	struct ff_bsrc *w = ff_bsrc_window(src, off, UINT64_MAX, NULL);

	if (w)
		ff_image_container_info(w, NULL, fn, ctx, NULL);
	ff_bsrc_unref(w);
}

static void print_text(struct ff_bsrc *src, const struct ff_scan_result *r)
{
	char what[256];

	printf("%-12s %-10s %-10s %-12s %s\n", "OFFSET", "HEX", "FORMAT", "SIZE", "DESCRIPTION");
	for (size_t i = 0; i < r->n; i++) {
		const struct ff_scan_hit *h = &r->hits[i];
		char size[24] = "?";

		if (h->found.probe.size)
			snprintf(size, sizeof(size), "%" PRIu64, h->found.probe.size);
		ff_found_describe(&h->found, what, sizeof(what));
		printf("%-12" PRIu64 " 0x%-8" PRIx64 " %-10s %-12s %s\n", h->off, h->off,
		       h->found.fmt->name, size, what);
		if (h->found.fmt->role == FF_ROLE_CONTAINER)
			container(src, h->off, text_part, NULL);
	}
	printf("%zu image%s found\n", r->n, r->n == 1 ? "" : "s");
}

static void print_json(struct ff_bsrc *src, const char *blob, const struct ff_scan_result *r)
{
	struct ff_json j;
	char what[256];

	ff_json_init(&j, stdout, 1);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", SCAN_SCHEMA);
	ff_json_kv_str(&j, "file", blob);
	ff_json_kv_uint(&j, "file_size", src->size);
	ff_json_key(&j, "images");
	ff_json_begin_array(&j);
	for (size_t i = 0; i < r->n; i++) {
		const struct ff_found *f = &r->hits[i].found;

		ff_found_describe(f, what, sizeof(what));
		ff_json_begin_object(&j);
		ff_json_kv_uint(&j, "offset", r->hits[i].off);
		ff_json_kv_str(&j, "format", f->fmt->name);
		ff_json_kv_str(&j, "title", f->fmt->title);
		ff_json_key(&j, "version");
		*f->probe.version ? ff_json_str(&j, f->probe.version) : ff_json_null(&j);
		ff_json_key(&j, "byte_order");
		order(&f->probe) ? ff_json_str(&j, order(&f->probe)) : ff_json_null(&j);
		ff_json_key(&j, "size");
		f->probe.size ? ff_json_uint(&j, f->probe.size) : ff_json_null(&j);
		ff_json_kv_str(&j, "detail", f->probe.detail);
		ff_json_kv_str(&j, "description", what);
		if (f->fmt->role == FF_ROLE_CONTAINER) {
			ff_json_key(&j, "contents");
			ff_json_begin_object(&j);
			container(src, r->hits[i].off, ff_info_json, &j);
			ff_json_end_object(&j);
		}
		ff_json_end_object(&j);
	}
	ff_json_end_array(&j);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs scan [--json] BLOB\n\n"
		   "List every image found inside BLOB (a firmware file, a flash dump): its\n"
		   "offset, format, version, byte order and size.  Each candidate is checked\n"
		   "by its format's probe (superblock, CRC, sizes) before it is listed.\n\n"
		   "  --json           print one JSON object (schema " SCAN_SCHEMA ")\n"
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 at least one image found, 1 none, 2 usage error or unreadable.\n");
}

static int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct ff_scan_result r;
	struct ff_err err = {0};
	struct ff_bsrc *src;
	int c, json = 0, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
	if (!(src = ff_image_source(argv[optind], 0, &err))) {
		fprintf(stderr, "flashfs scan: %s\n", err.msg);
		return 2;
	}
	rc = ff_scan(src, 0, UINT64_MAX, &oo, &r);
	if (rc < 0) {
		fprintf(stderr, "flashfs scan: %s: %s\n", argv[optind], strerror(-rc));
		ff_bsrc_unref(src);
		return 2;
	}
	if (json)
		print_json(src, argv[optind], &r);
	else
		print_text(src, &r);
	rc = r.n ? 0 : 1;
	ff_scan_result_free(&r);
	ff_bsrc_unref(src);
	return rc;
}

const struct ff_command ff_command_scan = {"scan", cmd_scan,
	"list every image found inside a firmware blob or flash dump"};
