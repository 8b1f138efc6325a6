/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The codec registry and the public block API of compress.h.  The codec
 * files do the work; this file owns the objects and the checks every codec
 * shares (NOSHRINK, empty input, size limits). */
#include "compress/compress.h"
#include "compress/codec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_BLOCK_SIZE (128u * 1024)

/* Bytes of a not-understood options block kept to show as stored. */
#define RAW_KEEP 32

struct ff_comp {
	const struct ff_codec *codec;
	uint32_t block_size;
	void *opts;
	/* A reader met an options block the codec could not read: the
	 * defaults stand (no codec needs its options to decode), and the
	 * block is shown as stored with the reason, never interpreted. */
	size_t raw_len;
	uint8_t raw[RAW_KEEP];
	char raw_why[FF_ERR_MSG_MAX];
};

struct ff_comp_ctx {
	const struct ff_codec *codec;
	void *state;
};

static const struct ff_codec *const codecs[] = {
	&ff_codec_gzip, &ff_codec_lzo, &ff_codec_xz, &ff_codec_lzma, &ff_codec_lz4, &ff_codec_zstd,
};
#define NCODECS (sizeof(codecs) / sizeof(codecs[0]))

static const char *const codec_names[] = { "gzip", "lzo", "xz", "lzma", "lz4", "zstd", NULL };

const char *const *ff_comp_names(void)
{
	return codec_names;
}

static const struct ff_codec *find_codec(const char *name)
{
	for (size_t i = 0; i < NCODECS; i++)
		if (!strcasecmp(codecs[i]->name, name))
			return codecs[i];
	/* mksquashfs and the kernel call SquashFS id 1 "zlib" in places. */
	if (!strcasecmp(name, "zlib"))
		return &ff_codec_gzip;
	return NULL;
}

static struct ff_comp *comp_new(const struct ff_codec *codec, uint32_t block_size,
				struct ff_err *err)
{
	struct ff_comp *comp = calloc(1, sizeof(*comp));

	if (comp)
		comp->opts = calloc(1, codec->opts_size);
	if (!comp || !comp->opts) {
		free(comp);
		ff_err_set(err, ENOMEM, "%s: out of memory", codec->name);
		return NULL;
	}
	comp->codec = codec;
	comp->block_size = block_size ? block_size : DEFAULT_BLOCK_SIZE;
	codec->defaults(comp->opts, comp->block_size);
	return comp;
}

struct ff_comp *ff_comp_new(const char *name, uint32_t block_size, struct ff_err *err)
{
	const struct ff_codec *codec = name ? find_codec(name) : NULL;

	if (!codec) {
		ff_err_set(err, EINVAL, "unknown compressor '%s' (known: gzip lzo xz lzma lz4 zstd)",
			   name ? name : "(null)");
		return NULL;
	}
	/* A writer asks by name: refuse before anything is written.  A
	 * reader (ff_comp_new_id) still gets the codec, to describe an
	 * image's options; its context then fails (lzo.c). */
	if (codec == &ff_codec_lzo && !ff_comp_has_lzo()) {
		ff_comp_no_lzo(err, "lzo");
		return NULL;
	}
	return comp_new(codec, block_size, err);
}

struct ff_comp *ff_comp_new_id(int id, uint32_t block_size, struct ff_err *err)
{
	for (size_t i = 0; i < NCODECS; i++) {
		struct ff_comp *comp;

		if (codecs[i]->id != id)
			continue;
		comp = comp_new(codecs[i], block_size, err);
		if (comp && codecs[i]->image_defaults)
			codecs[i]->image_defaults(comp->opts, comp->block_size);
		return comp;
	}
	ff_err_set(err, EINVAL, "unknown compressor id %d (known: 1..6)", id);
	return NULL;
}

void ff_comp_free(struct ff_comp *comp)
{
	if (comp) {
		free(comp->opts);
		free(comp);
	}
}

int ff_comp_set_option(struct ff_comp *comp, const char *key, const char *value,
		       struct ff_err *err)
{
	if (!key || !*key)
		return ff_err_set(err, EINVAL, "%s: empty option name", comp->codec->name);
	/* Accept mksquashfs' spelling "-Xfoo" / "Xfoo" as well as "foo". */
	key += strspn(key, "-");
	if (key[0] == 'X' && key[1])
		key++;
	return comp->codec->set_option(comp->opts, comp->block_size, key, value, err);
}

int ff_comp_set_option_str(struct ff_comp *comp, const char *kv, struct ff_err *err)
{
	const char *eq = strchr(kv, '=');
	char key[64];

	if (!eq)
		return ff_comp_set_option(comp, kv, NULL, err);
	if ((size_t)(eq - kv) >= sizeof(key))
		return ff_err_set(err, EINVAL, "%s: option name too long in '%s'",
				  comp->codec->name, kv);
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	return ff_comp_set_option(comp, key, eq + 1, err);
}

const char *ff_comp_option_help(const char *name)
{
	const struct ff_codec *codec = name ? find_codec(name) : NULL;

	return codec ? codec->help : NULL;
}

const char *ff_comp_name(const struct ff_comp *comp)
{
	return comp->codec->name;
}

int ff_comp_id(const struct ff_comp *comp)
{
	return comp->codec->id;
}

/* A not-understood block: its bytes in hex (the first RAW_KEEP, then
 * "..."), and why it was not read. */
static void raw_options(const struct ff_comp *comp, ff_info_fn fn, void *ctx)
{
	char hex[RAW_KEEP * 2 + 4];
	size_t n = comp->raw_len < RAW_KEEP ? comp->raw_len : RAW_KEEP;

	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", comp->raw[i]);
	hex[2 * n] = '\0';
	if (n < comp->raw_len)
		strcat(hex, "...");
	ff_info_str(fn, ctx, "stored", hex);
	ff_info_uint(fn, ctx, "bytes", comp->raw_len);
	ff_info_str(fn, ctx, "not_understood", comp->raw_why);
}

void ff_comp_options(const struct ff_comp *comp, int stored, ff_info_fn fn, void *ctx)
{
	if (stored && comp->raw_len)
		raw_options(comp, fn, ctx);
	else
		comp->codec->options(comp->opts, stored, fn, ctx);
}

/* The text form of the typed options: "key=value" joined by commas, a
 * list's names joined by commas, a true flag as its bare name (a false one
 * left out), the encoder as its bare name, "default" for nothing. */
struct text {
	char *buf;
	size_t cap, used;
	const char *list_key; /* inside a list: its key */
	int list_items;
};

static void text_add(struct text *t, const char *key, const char *value)
{
	if (t->used < t->cap)
		t->used += (size_t)snprintf(t->buf + t->used, t->cap - t->used, "%s%s%s%s",
					    t->used ? "," : "", key ? key : "", key ? "=" : "",
					    value);
}

static void text_item(void *ctx, const struct ff_info_item *it)
{
	struct text *t = ctx;
	char num[24];

	if (t->list_key) {
		if (it->type == FF_INFO_END)
			t->list_key = NULL;
		else if (t->list_items++)
			text_add(t, NULL, it->str);
		else
			text_add(t, t->list_key, it->str);
		return;
	}
	switch (it->type) {
	case FF_INFO_STR:
		text_add(t, strcmp(it->key, "encoder") ? it->key : NULL, it->str);
		break;
	case FF_INFO_UINT:
		snprintf(num, sizeof(num), "%llu", (unsigned long long)it->num);
		text_add(t, it->key, num);
		break;
	case FF_INFO_INT:
		snprintf(num, sizeof(num), "%lld", (long long)it->snum);
		text_add(t, it->key, num);
		break;
	case FF_INFO_BOOL:
		if (it->num)
			text_add(t, NULL, it->key);
		break;
	case FF_INFO_LIST:
		t->list_key = it->key;
		t->list_items = 0;
		break;
	default:
		break;
	}
}

static void describe(const struct ff_comp *comp, int stored, char *buf, size_t cap)
{
	struct text t = { buf, cap, 0, NULL, 0 };

	if (cap)
		buf[0] = '\0';
	ff_comp_options(comp, stored, text_item, &t);
	if (!t.used && cap)
		snprintf(buf, cap, "default");
}

void ff_comp_describe(const struct ff_comp *comp, char *buf, size_t cap)
{
	describe(comp, 0, buf, cap);
}

void ff_comp_describe_stored(const struct ff_comp *comp, char *buf, size_t cap)
{
	describe(comp, 1, buf, cap);
}

int ff_comp_kernel_unsupported(const struct ff_comp *comp)
{
	return comp->codec->kernel_unsupported;
}

ssize_t ff_comp_options_encode(const struct ff_comp *comp, uint8_t *buf, size_t cap)
{
	return comp->codec->options_encode(comp->opts, comp->block_size, buf, cap);
}

int ff_comp_options_decode(struct ff_comp *comp, const uint8_t *buf, size_t len,
			   struct ff_err *err)
{
	return comp->codec->options_decode(comp->opts, comp->block_size, buf, len, err);
}

int ff_comp_options_read(struct ff_comp *comp, const uint8_t *buf, size_t len,
			 struct ff_err *note)
{
	struct ff_err why = {0};

	if (comp->codec->options_decode(comp->opts, comp->block_size, buf, len, &why) == 0)
		return 0;
	comp->codec->defaults(comp->opts, comp->block_size);
	if (comp->codec->image_defaults)
		comp->codec->image_defaults(comp->opts, comp->block_size);
	comp->raw_len = len ? len : 1;
	memcpy(comp->raw, buf, len < RAW_KEEP ? len : RAW_KEEP);
	snprintf(comp->raw_why, sizeof(comp->raw_why), "%s", why.msg);
	ff_err_set(note, 0, "%s; read anyway (each %s block carries what its decoder needs)",
		   why.msg, comp->codec->name);
	return 1;
}

const char *ff_comp_options_unread(const struct ff_comp *comp)
{
	return comp->raw_len ? comp->raw_why : NULL;
}

struct ff_comp_ctx *ff_comp_ctx_new(const struct ff_comp *comp, struct ff_err *err)
{
	struct ff_comp_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx) {
		ff_err_set(err, ENOMEM, "%s: out of memory for a context", comp->codec->name);
		return NULL;
	}
	ctx->codec = comp->codec;
	ctx->state = comp->codec->ctx_new(comp->opts, comp->block_size, err);
	if (!ctx->state) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

void ff_comp_ctx_free(struct ff_comp_ctx *ctx)
{
	if (ctx) {
		ctx->codec->ctx_free(ctx->state);
		free(ctx);
	}
}

ssize_t ff_comp_compress(struct ff_comp_ctx *ctx, const void *src, size_t n, void *dst,
			 size_t cap, struct ff_err *err)
{
	/* Anything not smaller than the input is useless to the caller, so
	 * the codec never needs room for more than n - 1 bytes. */
	if (n < 2 || cap == 0)
		return FF_COMP_NOSHRINK;
	if (n > INT32_MAX)
		return ff_err_set(err, EFBIG, "%s: block of %zu bytes is too large to compress",
				  ctx->codec->name, n);
	if (cap > n - 1)
		cap = n - 1;
	return ctx->codec->compress(ctx->state, src, n, dst, cap, err);
}

ssize_t ff_comp_decompress(struct ff_comp_ctx *ctx, const void *src, size_t n, void *dst,
			   size_t cap, struct ff_err *err)
{
	if (n == 0)
		return ff_err_set(err, EINVAL, "%s: compressed block is empty", ctx->codec->name);
	if (n > INT32_MAX || cap > INT32_MAX)
		return ff_err_set(err, EFBIG, "%s: block too large (%zu -> up to %zu bytes)",
				  ctx->codec->name, n, cap);
	return ctx->codec->decompress(ctx->state, src, n, dst, cap, err);
}
