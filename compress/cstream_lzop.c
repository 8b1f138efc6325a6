/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The lzop file format (what `lzop` writes and `lzop -d` reads), built on
 * liblzo2's LZO1X and its lzo_adler32 / lzo_crc32.  After the magic and the
 * header (lzop_header.c) come blocks, all numbers big-endian:
 *   u32 dst_len (0 = end), u32 src_len, [dst checksums], [src checksums
 *   when src_len < dst_len], src_len bytes (stored when src_len == dst_len).
 * Checksums appear in the order adler32, crc32 as the flags select. */
#include "compress/codec.h"
#include "compress/compress.h"
#include "compress/cstream.h"
#include "compress/lzop_header.h"
#include "common/endian.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#endif

static const uint8_t lzop_magic[] = { 0x89, 'L', 'Z', 'O', 0x00, 0x0d, 0x0a, 0x1a, 0x0a };

#ifndef FF_NO_LZO
#define LZOP_BLOCK (256u * 1024) /* lzop's default block */
#define LZOP_MAX_BLOCK (64u << 20)
#define PACKED_MAX(n) ((n) + (n) / 16 + 64 + 3)

#define M_LZO1X_1 1
#define M_LZO1X_1_15 2
#define M_LZO1X_999 3

#define F_ADLER32_D 0x1u
#define F_ADLER32_C 0x2u
#define F_CRC32_D 0x100u
#define F_CRC32_C 0x200u
#define F_OS_UNIX 0x03000000u

/* What we write: adler32 of the data and of each compressed block.  (lzop
 * insists on a crc32 of the data whenever compressed blocks carry one.) */
#define WRITE_FLAGS (F_OS_UNIX | F_ADLER32_D | F_ADLER32_C)

struct lzop_priv {
	uint32_t flags;
	int method, level;
	uint8_t *raw;    /* writer: pending input; reader: decoded block */
	uint8_t *packed; /* one compressed block */
	size_t raw_cap, packed_cap;
	size_t raw_len, raw_pos;
	void *work;
	int done;
};

static int lzop_alloc(struct ff_cstream *s, struct ff_err *err)
{
	if (lzo_init() != LZO_E_OK)
		return ff_err_set(err, EIO, "lzop stream: lzo_init failed (library mismatch)");
	s->priv = calloc(1, sizeof(struct lzop_priv));
	if (!s->priv)
		return ff_err_set(err, ENOMEM, "lzop stream: out of memory");
	return 0;
}

static int writer_method(struct lzop_priv *z, int level)
{
	/* lzop's own mapping of -1..-9 to methods (default -3). */
	z->level = level < 0 ? 3 : level < 1 ? 1 : level > 9 ? 9 : level;
	z->method = z->level == 1 ? M_LZO1X_1_15 : z->level <= 6 ? M_LZO1X_1 : M_LZO1X_999;
	return z->method == M_LZO1X_999 ? LZO1X_999_MEM_COMPRESS :
	       z->method == M_LZO1X_1_15 ? LZO1X_1_15_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS;
}

static int lzop_writer_init(struct ff_cstream *s, int level, struct ff_err *err)
{
	struct ff_lzop_header h = { .version = FF_LZOP_VERSION, .version_needed = FF_LZOP_NEEDED };
	uint8_t hdr[FF_LZOP_HEADER_MAX];
	struct lzop_priv *z;
	size_t work;

	if (lzop_alloc(s, err))
		return -1;
	z = s->priv;
	work = (size_t)writer_method(z, level);
	z->flags = WRITE_FLAGS;
	z->work = malloc(work);
	if (!z->work ||
	    ff_codec_reserve(&z->raw, &z->raw_cap, LZOP_BLOCK, "lzop stream", err) ||
	    ff_codec_reserve(&z->packed, &z->packed_cap, PACKED_MAX(LZOP_BLOCK), "lzop stream",
			     err))
		return ff_err_set(err, ENOMEM, "lzop stream: out of memory");
	h.lib_version = (uint16_t)(lzo_version() & 0xffff);
	h.method = (uint8_t)z->method;
	h.level = (uint8_t)z->level;
	h.flags = z->flags;
	if (ff_cs_put(s, lzop_magic, sizeof(lzop_magic), err))
		return -1;
	return ff_cs_put(s, hdr, ff_lzop_header_encode(&h, hdr), err);
}

static int pack(struct lzop_priv *z, lzo_uint *len)
{
	if (z->method == M_LZO1X_999)
		return lzo1x_999_compress_level(z->raw, z->raw_len, z->packed, len, z->work, NULL,
						0, 0, z->level);
	if (z->method == M_LZO1X_1_15)
		return lzo1x_1_15_compress(z->raw, z->raw_len, z->packed, len, z->work);
	return lzo1x_1_compress(z->raw, z->raw_len, z->packed, len, z->work);
}

static int emit_block(struct ff_cstream *s, struct lzop_priv *z, struct ff_err *err)
{
	uint8_t head[16];
	lzo_uint len = 0;
	const uint8_t *data = z->packed;
	size_t hl = 12;

	if (pack(z, &len) != LZO_E_OK)
		return ff_err_set(err, EIO, "lzop stream: LZO1X compression failed");
	if (len >= z->raw_len) {
		len = z->raw_len;
		data = z->raw;
	}
	ff_put_be32(head, (uint32_t)z->raw_len);
	ff_put_be32(head + 4, (uint32_t)len);
	ff_put_be32(head + 8, lzo_adler32(1, z->raw, z->raw_len));
	if (data == z->packed)
		ff_put_be32(head + 12, lzo_adler32(1, data, len)), hl = 16;
	z->raw_len = 0;
	if (ff_cs_put(s, head, hl, err))
		return -1;
	return ff_cs_put(s, data, len, err);
}

static int lzop_write(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		      struct ff_err *err)
{
	struct lzop_priv *z = s->priv;
	static const uint8_t end[4] = { 0, 0, 0, 0 };

	while (len) {
		size_t n = LZOP_BLOCK - z->raw_len;

		if (n > len)
			n = len;
		memcpy(z->raw + z->raw_len, buf, n);
		z->raw_len += n;
		buf += n;
		len -= n;
		if (z->raw_len == LZOP_BLOCK && emit_block(s, z, err))
			return -1;
	}
	if (!finish)
		return 0;
	if (z->raw_len && emit_block(s, z, err))
		return -1;
	return ff_cs_put(s, end, sizeof(end), err);
}

static int lzop_reader_init(struct ff_cstream *s, struct ff_err *err)
{
	struct ff_lzop_header h;
	uint8_t magic[sizeof(lzop_magic)];

	if (lzop_alloc(s, err) || ff_cs_take(s, magic, sizeof(magic), "magic", err) ||
	    ff_lzop_header_read(s, &h, err))
		return -1;
	((struct lzop_priv *)s->priv)->flags = h.flags;
	return 0;
}

struct sums {
	int has_adler, has_crc;
	uint32_t adler, crc;
};

/* Checksums precede the bytes they cover: read them now, verify later. */
static int read_sums(struct ff_cstream *s, uint32_t adler_flag, uint32_t crc_flag,
		     struct sums *sum, struct ff_err *err)
{
	struct lzop_priv *z = s->priv;
	uint8_t b[4];

	memset(sum, 0, sizeof(*sum));
	if (z->flags & adler_flag) {
		if (ff_cs_take(s, b, 4, "block checksum", err))
			return -1;
		sum->has_adler = 1;
		sum->adler = ff_get_be32(b);
	}
	if (z->flags & crc_flag) {
		if (ff_cs_take(s, b, 4, "block checksum", err))
			return -1;
		sum->has_crc = 1;
		sum->crc = ff_get_be32(b);
	}
	return 0;
}

static int verify_sums(const struct sums *sum, const uint8_t *data, size_t n, const char *what,
		       struct ff_err *err)
{
	if (sum->has_adler && sum->adler != lzo_adler32(1, data, n))
		return ff_err_set(err, EIO, "lzop stream: %s block: adler32 mismatch", what);
	if (sum->has_crc && sum->crc != lzo_crc32(0, data, n))
		return ff_err_set(err, EIO, "lzop stream: %s block: crc32 mismatch", what);
	return 0;
}

static int read_block_sizes(struct ff_cstream *s, uint32_t *dst_len, uint32_t *src_len,
			    struct ff_err *err)
{
	uint8_t b[4];

	if (ff_cs_take(s, b, 4, "block header", err))
		return -1;
	*dst_len = ff_get_be32(b);
	if (!*dst_len)
		return 0;
	if (ff_cs_take(s, b, 4, "block header", err))
		return -1;
	*src_len = ff_get_be32(b);
	if (*dst_len > LZOP_MAX_BLOCK)
		return ff_err_set(err, EIO, "lzop stream: block of %u bytes (max %u)", *dst_len,
				  LZOP_MAX_BLOCK);
	if (!*src_len || *src_len > *dst_len)
		return ff_err_set(err, EIO, "lzop stream: block claims %u bytes packed into %u",
				  *dst_len, *src_len);
	return 0;
}

static int unpack(struct lzop_priv *z, uint32_t src_len, uint32_t dst_len, struct ff_err *err)
{
	lzo_uint out = dst_len;
	int ret = lzo1x_decompress_safe(z->packed, src_len, z->raw, &out, NULL);

	if (ret != LZO_E_OK || out != dst_len)
		return ff_err_set(err, EIO, "lzop stream: corrupt block (LZO error %d, %lu of %u "
			"bytes)", ret, (unsigned long)out, dst_len);
	return 0;
}

static int next_block(struct ff_cstream *s, struct lzop_priv *z, struct ff_err *err)
{
	uint32_t dst_len, src_len = 0;
	struct sums dsum, csum = { 0, 0, 0, 0 };

	if (read_block_sizes(s, &dst_len, &src_len, err))
		return -1;
	if (!dst_len) {
		z->done = 1;
		return 0;
	}
	if (read_sums(s, F_ADLER32_D, F_CRC32_D, &dsum, err) ||
	    (src_len < dst_len && read_sums(s, F_ADLER32_C, F_CRC32_C, &csum, err)) ||
	    ff_codec_reserve(&z->raw, &z->raw_cap, dst_len, "lzop stream", err) ||
	    ff_codec_reserve(&z->packed, &z->packed_cap, src_len, "lzop stream", err))
		return -1;
	if (src_len == dst_len) {
		if (ff_cs_take(s, z->raw, dst_len, "stored block", err))
			return -1;
	} else if (ff_cs_take(s, z->packed, src_len, "compressed block", err) ||
		   verify_sums(&csum, z->packed, src_len, "compressed", err) ||
		   unpack(z, src_len, dst_len, err)) {
		return -1;
	}
	if (verify_sums(&dsum, z->raw, dst_len, "decompressed", err))
		return -1;
	z->raw_len = dst_len;
	z->raw_pos = 0;
	return 0;
}

static ssize_t lzop_read(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err)
{
	struct lzop_priv *z = s->priv;
	size_t n;

	while (z->raw_pos == z->raw_len && !z->done)
		if (next_block(s, z, err))
			return -1;
	n = z->raw_len - z->raw_pos;
	if (n > len)
		n = len;
	if (!n)
		return 0;
	memcpy(buf, z->raw + z->raw_pos, n);
	z->raw_pos += n;
	return (ssize_t)n;
}

static void lzop_free(struct ff_cstream *s)
{
	struct lzop_priv *z = s->priv;

	free(z->raw);
	free(z->packed);
	free(z->work);
	free(z);
}

#else /* FF_NO_LZO: the magic is still known, so an .lzo file is named */

static int lzop_writer_init(struct ff_cstream *s, int level, struct ff_err *err)
{
	(void)s, (void)level;
	return ff_comp_no_lzo(err, "lzop stream");
}

static int lzop_reader_init(struct ff_cstream *s, struct ff_err *err)
{
	(void)s;
	return ff_comp_no_lzo(err, "lzop stream");
}

static int lzop_write(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		      struct ff_err *err)
{
	(void)s, (void)buf, (void)len, (void)finish;
	return ff_comp_no_lzo(err, "lzop stream");
}

static ssize_t lzop_read(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err)
{
	(void)s, (void)buf, (void)len;
	return ff_comp_no_lzo(err, "lzop stream");
}

static void lzop_free(struct ff_cstream *s)
{
	(void)s;
}
#endif

const struct ff_cstream_ops ff_cs_lzop = {
	.name = "lzop",
	.magic = lzop_magic,
	.magic_len = sizeof(lzop_magic),
	.writer_init = lzop_writer_init,
	.reader_init = lzop_reader_init,
	.write = lzop_write,
	.read = lzop_read,
	.free = lzop_free,
};
