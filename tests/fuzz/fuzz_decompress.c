/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every decompressor wrapper behind compress/compress.h, plus the
 * compressor-options block decoder.  Byte 0 picks the codec (and options
 * mode), byte 1 the output cap, the rest is the compressed block. */
#include <stdint.h>
#include <stdlib.h>

#include "compress/compress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BLOCK (128u * 1024)
#define N_CODECS 6

/* One codec and context per id for the life of the fuzzing process:
 * contexts are built to be reused, and reuse after an error is part of
 * what is being tested. */
static struct ff_comp *comps[N_CODECS];
static struct ff_comp_ctx *ctxs[N_CODECS];
static uint8_t out[BLOCK + 64];

static int setup(int i)
{
	struct ff_err err;

	if (ctxs[i])
		return 0;
	comps[i] = ff_comp_new_id(i + 1, BLOCK, &err);
	if (!comps[i])
		return -1;
	ctxs[i] = ff_comp_ctx_new(comps[i], &err);
	return ctxs[i] ? 0 : -1;
}

static void options(int i, const uint8_t *data, size_t size)
{
	struct ff_err err;
	struct ff_comp *c = ff_comp_new_id(i + 1, BLOCK, &err);
	uint8_t buf[256];

	if (!c)
		return;
	if (ff_comp_options_decode(c, data, size, &err) == 0) {
		char text[256];

		ff_comp_describe(c, text, sizeof(text));
		ff_comp_options_encode(c, buf, sizeof(buf));
	}
	ff_comp_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_err err;
	size_t cap;
	ssize_t n;
	int i;

	if (size < 2)
		return 0;
	i = (data[0] & 0x7f) % N_CODECS;
	if (data[0] & 0x80) {
		options(i, data + 2, size - 2);
		return 0;
	}
	if (setup(i))
		return 0;
	/* Mostly a full block; sometimes a cap too small for the data. */
	cap = data[1] >= 0x80 ? BLOCK : (size_t)data[1] * 97 + 1;
	n = ff_comp_decompress(ctxs[i], data + 2, size - 2, out, cap, &err);
	if (n > (ssize_t)cap)
		abort(); /* the contract: never more than cap */
	return 0;
}
