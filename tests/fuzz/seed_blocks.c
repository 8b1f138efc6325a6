/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Writes one compressed block per codec, in the decompress target's input
 * format (codec byte, cap byte, block), into the directory given:
 *   seed_blocks OUT_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress/compress.h"

#define BLOCK 131072

static int write_seed(const char *dir, const char *name, int idx, const void *blk,
		      size_t len)
{
	char path[4096];
	FILE *f;
	unsigned char head[2] = { (unsigned char)idx, 0xff };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(head, 1, 2, f) != 2 || fwrite(blk, 1, len, f) != len) {
		perror(path);
		return -1;
	}
	return fclose(f);
}

static int one_codec(const char *dir, int id, const char *text, size_t n, void *out)
{
	struct ff_err err;
	struct ff_comp *c = ff_comp_new_id(id, BLOCK, &err);
	struct ff_comp_ctx *ctx = c ? ff_comp_ctx_new(c, &err) : NULL;
	ssize_t len = ctx ? ff_comp_compress(ctx, text, n, out, BLOCK, &err) : -1;
	int ret = 0;

	if (len <= 0) {
		fprintf(stderr, "seed_blocks: codec %d: %s\n", id, err.msg);
		ret = -1;
	} else {
		ret = write_seed(dir, ff_comp_name(c), id - 1, out, (size_t)len);
	}
	ff_comp_ctx_free(ctx);
	ff_comp_free(c);
	return ret;
}

int main(int argc, char **argv)
{
	static char text[8192];
	static char out[BLOCK];
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: seed_blocks OUT_DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = "seed block, mostly compressible\n"[i % 32] ^ (char)(i % 251 == 0);
	for (int id = FF_COMP_GZIP; id <= FF_COMP_ZSTD; id++)
		bad |= one_codec(argv[1], id, text, sizeof(text), out);
	return bad ? 1 : 0;
}
