/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The erase-counter header: first bytes of every PEB UBI has formatted.
 *   0 magic "UBI#"  4 version  5 pad[3]  8 ec (be64)  16 vid_hdr_offset
 *  20 data_offset  24 image_seq  28 pad[32]  60 hdr_crc over bytes 0..59 */
#include <string.h>

#include "common/endian.h"
#include "ubi/media.h"

void ff_ubi_ec_hdr_encode(const struct ff_ubi_ec_hdr *h, uint8_t *out)
{
	memset(out, 0, FF_UBI_HDR_SIZE);
	ff_put_be32(out, FF_UBI_EC_MAGIC);
	out[4] = h->version;
	ff_put_be64(out + 8, h->ec);
	ff_put_be32(out + 16, h->vid_hdr_offset);
	ff_put_be32(out + 20, h->data_offset);
	ff_put_be32(out + 24, h->image_seq);
	ff_put_be32(out + 60, ff_ubi_crc32(out, 60));
}

enum ff_ubi_hdr_status ff_ubi_ec_hdr_decode(const uint8_t *in, struct ff_ubi_ec_hdr *h)
{
	if (ff_get_be32(in) != FF_UBI_EC_MAGIC)
		return ff_ubi_is_erased(in, FF_UBI_HDR_SIZE) ? FF_UBI_HDR_ERASED
							      : FF_UBI_HDR_BAD_MAGIC;
	if (ff_get_be32(in + 60) != ff_ubi_crc32(in, 60))
		return FF_UBI_HDR_BAD_CRC;
	h->version = in[4];
	h->ec = ff_get_be64(in + 8);
	h->vid_hdr_offset = ff_get_be32(in + 16);
	h->data_offset = ff_get_be32(in + 20);
	h->image_seq = ff_get_be32(in + 24);
	return FF_UBI_HDR_OK;
}
