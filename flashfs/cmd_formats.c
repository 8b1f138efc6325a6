/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs formats [--json]: the registry, with what each format supports. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "flashfs/commands.h"
#include "image/registry.h"
#include "tree/build.h"

static const char *role_name(enum ff_format_role r)
{
	return r == FF_ROLE_FS ? "file system" : r == FF_ROLE_CONTAINER ? "container" : "detected";
}

static void text(void)
{
	printf("%-11s %-30s %-12s %-6s %-5s %-5s %-14s %s\n", "NAME", "FORMAT", "ROLE", "DETECT",
	       "READ", "MOUNT", "BUILDER", "BUILD HOOK");
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);
		unsigned can = ff_format_abilities(f);

		printf("%-11s %-30s %-12s %-6s %-5s %-5s %-14s %s\n", f->name, f->title,
		       role_name(f->role), "yes", can & FF_CAN_READ ? "yes" : "no",
		       can & FF_CAN_MOUNT ? "yes" : "no", f->builder ? f->builder : "no",
		       f->build ? "yes" : "no");
	}
}

/* What the build hook takes: a service (the bench) builds with it. */
static void build_json(struct ff_json *j, const struct ff_build_ops *b)
{
	ff_json_key(j, "build_options");
	ff_json_begin_object(j);
	ff_json_kv_str(j, "block_name", b->block_name);
	ff_json_kv_uint(j, "block_min", b->block_min);
	ff_json_kv_uint(j, "block_max", b->block_max);
	ff_json_key(j, "codecs");
	ff_json_begin_array(j);
	for (const char *const *c = b->codecs; c && *c; c++)
		ff_json_str(j, *c);
	ff_json_end_array(j);
	ff_json_key(j, "fixed_codecs");
	ff_json_begin_array(j);
	for (const char *const *c = b->fixed; c && *c; c++)
		ff_json_str(j, *c);
	ff_json_end_array(j);
	ff_json_key(j, "media");
	ff_json_begin_array(j);
	for (unsigned m = FF_MEDIUM_BLOCK; m <= FF_MEDIUM_NAND; m <<= 1)
		if (!b->media || (b->media & m))
			ff_json_str(j, m == FF_MEDIUM_BLOCK ? "block" : m == FF_MEDIUM_NOR ? "nor"
							      : "nand");
	ff_json_end_array(j);
	ff_json_key(j, "flags");
	ff_json_begin_array(j);
	for (const struct ff_build_flag *f = b->flags; f && f->name; f++) {
		ff_json_begin_object(j);
		ff_json_kv_str(j, "name", f->name);
		ff_json_kv_str(j, "help", f->help);
		ff_json_kv_bool(j, "variant", f->variant);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
	ff_json_end_object(j);
}

static void json(void)
{
	struct ff_json j;

	ff_json_init(&j, stdout, 1);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", "flashfs-formats/1");
	ff_json_key(&j, "formats");
	ff_json_begin_array(&j);
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);
		unsigned can = ff_format_abilities(f);

		ff_json_begin_object(&j);
		ff_json_kv_str(&j, "name", f->name);
		ff_json_kv_str(&j, "title", f->title);
		ff_json_kv_str(&j, "role", role_name(f->role));
		ff_json_kv_bool(&j, "read", !!(can & FF_CAN_READ));
		ff_json_kv_bool(&j, "mount", !!(can & FF_CAN_MOUNT));
		if (f->builder)
			ff_json_kv_str(&j, "builder", f->builder);
		else
			ff_json_key(&j, "builder"), ff_json_null(&j);
		ff_json_kv_bool(&j, "build", f->build != NULL);
		if (f->build)
			build_json(&j, f->build);
		ff_json_end_object(&j);
	}
	ff_json_end_array(&j);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

static int cmd_formats(int argc, char **argv)
{
	int as_json = argc == 2 && !strcmp(argv[1], "--json");

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: flashfs formats [--json]\n\n"
		       "List the formats flashfs detects, with what it does with each.\n");
		return 0;
	}
	if (argc > 2 || (argc == 2 && !as_json)) {
		fprintf(stderr, "usage: flashfs formats [--json]\n");
		return 2;
	}
	if (as_json)
		json();
	else
		text();
	return 0;
}

const struct ff_command ff_command_formats = {"formats", cmd_formats,
	"list the formats flashfs detects, reads, mounts and builds"};
