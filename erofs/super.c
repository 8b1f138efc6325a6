/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock at byte 1024: its fields, the features this reader
 * takes (anything else is refused by name, as the kernel refuses what it
 * does not know), its crc32c, and the compression configurations that
 * follow it when the image has them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc.h"
#include "common/endian.h"
#include "erofs/reader.h"

static const char *const compat_names[] = {
	"sb_chksum", "mtime", "xattr_filter", "shared_ea_in_metabox", "plain_xattr_pfx",
	"ishare_xattrs", NULL,
};

/* Bits 1 and 3 and 5 each carry two names: one feature set each grew. */
static const char *const incompat_names[] = {
	"lz4_0padding", "compr_cfgs+big_pcluster", "chunked_file", "device_table+compr_head2",
	"ztailpacking", "fragments+dedupe", "xattr_prefixes", "48bit", "metabox", NULL,
};

static size_t count(const char *const *tab)
{
	size_t n = 0;

	while (tab[n])
		n++;
	return n;
}

/* Known bits by name, others as hex. */
static void names(uint32_t mask, const char *const *tab, char *buf, size_t cap)
{
	size_t n = 0, known = count(tab);

	buf[0] = 0;
	for (unsigned i = 0; i < 32 && n < cap; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (i < known)
			n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "," : "", tab[i]);
		else
			n += (size_t)snprintf(buf + n, cap - n, "%s0x%x", n ? "," : "", 1u << i);
	}
}

const char *const *er_compat_table(void)
{
	return compat_names;
}

const char *const *er_incompat_table(void)
{
	return incompat_names;
}

void er_compat_names(uint32_t mask, char *buf, size_t cap)
{
	names(mask, compat_names, buf, cap);
}

void er_incompat_names(uint32_t mask, char *buf, size_t cap)
{
	names(mask, incompat_names, buf, cap);
}

const char *er_alg_name(unsigned alg)
{
	static const char *const n[] = { "lz4", "lzma", "deflate", "zstd", "stored",
					 "stored-interlaced" };

	return alg < sizeof(n) / sizeof(n[0]) ? n[alg] : "unknown";
}

static void decode_fields(const uint8_t *b, struct er_super *sb)
{
	sb->checksum = ff_get_le32(b + ER_SB_CHECKSUM);
	sb->compat = ff_get_le32(b + ER_SB_COMPAT);
	sb->blkszbits = b[ER_SB_BLKSZBITS];
	sb->sb_size = ER_SUPER_SIZE + b[ER_SB_EXTSLOTS] * ER_SB_EXTSLOT;
	sb->root_nid = ff_get_le16(b + ER_SB_ROOTNID);
	sb->inos = ff_get_le64(b + ER_SB_INOS);
	sb->epoch = (int64_t)ff_get_le64(b + ER_SB_EPOCH);
	sb->fixed_nsec = ff_get_le32(b + ER_SB_FIXED_NSEC);
	sb->blocks = ff_get_le32(b + ER_SB_BLOCKS);
	sb->meta_blkaddr = ff_get_le32(b + ER_SB_META_BLKADDR);
	sb->xattr_blkaddr = ff_get_le32(b + ER_SB_XATTR_BLKADDR);
	memcpy(sb->uuid, b + ER_SB_UUID, 16);
	memcpy(sb->volume_name, b + ER_SB_VOLNAME, 16);
	sb->volume_name[16] = 0;
	sb->incompat = ff_get_le32(b + ER_SB_INCOMPAT);
	sb->extra_devices = ff_get_le16(b + ER_SB_EXTRA_DEVICES);
	sb->dirblkbits = b[ER_SB_DIRBLKBITS];
	sb->xattr_prefix_count = b[ER_SB_XATTR_PFX_COUNT];
	sb->xattr_prefix_start = ff_get_le32(b + ER_SB_XATTR_PFX_START);
	sb->packed_nid = ff_get_le64(b + ER_SB_PACKED_NID);
	sb->build_time = ff_get_le32(b + ER_SB_BUILD_TIME);
}

/* Without stored configurations the one word is LZ4's window; images
 * then only ever use LZ4 (or nothing). */
static void implied_algs(const uint8_t *b, struct er_super *sb)
{
	sb->algs = 0;
	if (sb->incompat & ER_INCOMPAT_COMPR_CFGS) {
		sb->algs = ff_get_le16(b + ER_SB_U1);
		return;
	}
	sb->lz4_max_distance = ff_get_le16(b + ER_SB_U1);
	sb->lz4_max_pclusterblks = 1;
	sb->algs = 1u << ER_ALG_LZ4;
}

int er_super_decode(const uint8_t *b, struct er_super *sb, struct ff_err *err)
{
	char buf[256];
	uint32_t bad;

	memset(sb, 0, sizeof(*sb));
	if (ff_get_le32(b + ER_SB_MAGIC) != ER_SUPER_MAGIC)
		return ER_BAD(err, "superblock: no EROFS magic at offset %u", ER_SUPER_OFFSET);
	decode_fields(b, sb);
	if (sb->blkszbits < 9 || sb->blkszbits > 16)
		return ER_BAD(err, "superblock: block size bits %u outside 9..16", sb->blkszbits);
	sb->blksz = 1u << sb->blkszbits;
	if (sb->sb_size > 4096 - ER_SUPER_OFFSET)
		return ER_BAD(err, "superblock: %u extension slots make it %u bytes (at most %u)",
			      b[ER_SB_EXTSLOTS], sb->sb_size, 4096 - ER_SUPER_OFFSET);
	bad = sb->incompat & ~ER_INCOMPAT_SUPPORTED;
	if (bad) {
		er_incompat_names(bad, buf, sizeof(buf));
		return ER_UNSUP(err, "superblock: incompatible features this reader lacks: %s",
				buf);
	}
	implied_algs(b, sb);
	if (sb->algs & ~((1u << ER_ALG_MAX) - 1))
		return ER_UNSUP(err, "superblock: unknown compression algorithms 0x%x",
				sb->algs & ~((1u << ER_ALG_MAX) - 1));
	if (sb->extra_devices)
		return ER_UNSUP(err, "superblock: %u extra devices (a multi-device image; only "
				"single-device images are read)", sb->extra_devices);
	if (sb->dirblkbits)
		return ER_UNSUP(err, "superblock: directory block size bits %u (not supported)",
				sb->dirblkbits);
	sb->csum_state = sb->compat & ER_COMPAT_SB_CHKSUM ? 1 : -1;
	return 0;
}

/* The kernel's span: the rest of the superblock's block from byte 1024
 * (a whole 512-byte block when blocks are smaller than 1 KiB), with the
 * checksum field read as zero. */
static int verify_csum(struct ff_bsrc *src, struct er_super *sb, struct ff_err *err)
{
	uint32_t len = sb->blksz > ER_SUPER_OFFSET ? sb->blksz - ER_SUPER_OFFSET : sb->blksz;
	uint8_t *b = malloc(len);
	uint32_t crc;

	if (!b)
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	if (ff_bsrc_read(src, b, len, ER_SUPER_OFFSET, err) < 0) {
		free(b);
		return -EIO;
	}
	memset(b + ER_SB_CHECKSUM, 0, 4);
	crc = ff_crc32c(~0u, b, len);
	free(b);
	sb->csum_state = crc == sb->checksum;
	if (!sb->csum_state)
		return ER_BAD(err, "superblock: crc32c 0x%08x, stored 0x%08x", crc, sb->checksum);
	return 0;
}

/* One configuration record: 4-aligned, a le16 length, the payload. */
static int cfg_record(struct ff_bsrc *src, uint64_t *pos, uint8_t *out, size_t cap,
		      size_t *len, struct ff_err *err)
{
	uint8_t l[2];

	*pos = (*pos + 3) & ~(uint64_t)3;
	if (ff_bsrc_read(src, l, 2, *pos, err) < 0)
		return -EIO;
	*len = ff_get_le16(l);
	if (!*len || *len > cap)
		return ER_BAD(err, "compression configuration at offset %llu: length %zu "
			      "(1..%zu)", (unsigned long long)*pos, *len, cap);
	if (ff_bsrc_read(src, out, *len, *pos + 2, err) < 0)
		return -EIO;
	*pos += 2 + *len;
	return 0;
}

static void apply_cfg(struct er_super *sb, unsigned alg, const uint8_t *p, size_t len)
{
	uint8_t b[16] = {0};

	memcpy(b, p, len < sizeof(b) ? len : sizeof(b));
	if (alg == ER_ALG_LZ4) {
		sb->lz4_max_distance = ff_get_le16(b);
		sb->lz4_max_pclusterblks = ff_get_le16(b + 2) ? ff_get_le16(b + 2) : 1;
	} else if (alg == ER_ALG_LZMA) {
		sb->lzma_dict = ff_get_le32(b);
	} else if (alg == ER_ALG_DEFLATE) {
		sb->deflate_windowbits = b[0];
	} else if (alg == ER_ALG_ZSTD) {
		sb->zstd_windowlog = b[1];
	}
}

static int read_cfgs(struct ff_bsrc *src, struct er_super *sb, struct ff_err *err)
{
	uint64_t pos = ER_SUPER_OFFSET + sb->sb_size;
	uint8_t rec[256];
	size_t len;

	if (!(sb->incompat & ER_INCOMPAT_COMPR_CFGS))
		return 0;
	for (unsigned alg = 0; alg < ER_ALG_MAX; alg++) {
		if (!(sb->algs & (1u << alg)))
			continue;
		if (cfg_record(src, &pos, rec, sizeof(rec), &len, err) < 0) {
			ff_err_prefix(err, "%s", er_alg_name(alg));
			return -EIO;
		}
		apply_cfg(sb, alg, rec, len);
	}
	if (sb->lzma_dict > ER_LZMA_MAX_DICT)
		return ER_BAD(err, "lzma configuration: dictionary %u bytes (at most %u)",
			      sb->lzma_dict, ER_LZMA_MAX_DICT);
	return 0;
}

int er_super_read(struct ff_bsrc *src, struct er_super *sb, struct ff_err *err)
{
	uint8_t b[ER_SUPER_SIZE];
	int ret;

	if (ff_bsrc_read(src, b, sizeof(b), ER_SUPER_OFFSET, err) < 0)
		return -EIO;
	ret = er_super_decode(b, sb, err);
	if (ret < 0)
		return ret;
	if (sb->csum_state >= 0 && (ret = verify_csum(src, sb, err)) < 0)
		return ret;
	return read_cfgs(src, sb, err);
}
