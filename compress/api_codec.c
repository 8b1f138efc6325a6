/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public codec API (<flashfs/codec.h>): a struct ff_compressor is a
 * configured struct ff_comp with the one working context its thread uses. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <flashfs/codec.h>

#include "common/api_error.h"
#include "compress/api_codec.h"

struct ff_compressor {
	struct ff_comp *comp;
	struct ff_comp_ctx *ctx;
};

const char *const *ff_compressor_names(void)
{
	return ff_comp_names();
}

int ff_api_comp_set_options(struct ff_comp *comp, const char *options, struct ff_err *err)
{
	char *copy, *save = NULL;
	int r = 0;

	if (!options || !*options)
		return 0;
	copy = strdup(options);
	if (!copy)
		return ff_err_set(err, ENOMEM, "codec options: out of memory");
	for (char *kv = strtok_r(copy, ",", &save); kv && !r; kv = strtok_r(NULL, ",", &save))
		r = ff_comp_set_option_str(comp, kv, err);
	free(copy);
	return r;
}

int ff_compressor_create(const char *name, uint32_t block_size, const char *options,
			 struct ff_compressor **out, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	struct ff_compressor *c = calloc(1, sizeof(*c));

	ff_api_clear(error);
	*out = NULL;
	if (!c)
		return ff_api_errno(error, -ENOMEM, name);
	c->comp = ff_comp_new(name, block_size, &err);
	if (!c->comp || ff_api_comp_set_options(c->comp, options, &err))
		goto fail;
	c->ctx = ff_comp_ctx_new(c->comp, &err);
	if (!c->ctx)
		goto fail;
	*out = c;
	return 0;
fail:
	ff_compressor_destroy(c);
	return ff_api_error(error, &err);
}

void ff_compressor_destroy(struct ff_compressor *c)
{
	if (!c)
		return;
	ff_comp_ctx_free(c->ctx);
	ff_comp_free(c->comp);
	free(c);
}

const char *ff_compressor_name(const struct ff_compressor *c)
{
	return ff_comp_name(c->comp);
}

ssize_t ff_compressor_compress(struct ff_compressor *c, const void *src, size_t len, void *dst,
			       size_t cap, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	ssize_t r;

	ff_api_clear(error);
	r = ff_comp_compress(c->ctx, src, len, dst, cap, &err);
	return r < 0 ? ff_api_error(error, &err) : r;
}

ssize_t ff_compressor_decompress(struct ff_compressor *c, const void *src, size_t len,
				 void *dst, size_t cap, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	ssize_t r;

	ff_api_clear(error);
	r = ff_comp_decompress(c->ctx, src, len, dst, cap, &err);
	return r < 0 ? ff_api_error(error, &err) : r;
}
