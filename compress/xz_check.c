/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The check field of a .xz stream (the format is the xz file format
 * specification's, 1.0.4).
 *
 * Why: a block's check is a CRC32 of its decompressed bytes.  liblzma 5.4
 * computes it from tables (about 2 GB/s on the test machines), libdeflate
 * with carry-less multiplication (about 9 GB/s): on an xz image the check
 * was 2.4% of a whole extraction's CPU.  So xz.c decodes a CRC32 stream
 * with liblzma's check turned off (LZMA_IGNORE_CHECK, which still checks
 * the headers, the index and the footer) and compares the CRC32 itself.
 *
 * Layout: stream header (magic 6 bytes, flags 2, CRC32 4), the blocks,
 * the index, the stream footer (CRC32 4, backward size 4, flags 2, magic
 * 2).  The backward size is the index's size / 4 - 1.  The index starts
 * with an indicator byte 0 and the number of records as a variable-length
 * integer, one record per block.  A block ends with its check: with one
 * block, the 4 bytes right before the index. */
#include "compress/xz_check.h"

#include "common/endian.h"

#define XZ_HEADER 12
#define XZ_FOOTER 12
#define XZ_CHECK_CRC32 0x01
#define XZ_CRC32_SIZE 4

int ff_xz_has_crc32(const uint8_t *src, size_t n)
{
	/* flags: a zero byte, then the check type in the low four bits
	 * (the high four must be zero, or liblzma refuses the stream) */
	return n >= XZ_HEADER + XZ_FOOTER && src[6] == 0 && src[7] == XZ_CHECK_CRC32;
}

int ff_xz_stored_crc32(const uint8_t *src, size_t n, uint32_t *crc)
{
	const uint8_t *footer = src + n - XZ_FOOTER;
	uint64_t index = ((uint64_t)ff_get_le32(footer + 4) + 1) * 4;
	const uint8_t *records;

	/* liblzma has matched these sizes already; checked again so that a
	 * wrong call cannot read outside src */
	if (n < XZ_HEADER + XZ_FOOTER + XZ_CRC32_SIZE + 2 ||
	    index > n - XZ_HEADER - XZ_FOOTER - XZ_CRC32_SIZE)
		return -1;
	records = footer - index + 1;
	if (*records == 0)
		return 0;
	if (*records != 1)
		return -1;
	*crc = ff_get_le32(footer - index - XZ_CRC32_SIZE);
	return 1;
}
