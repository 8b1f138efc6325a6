/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The volume-identifier header: which LEB of which volume a PEB holds.
 *   0 magic "UBI!"  4 version  5 vol_type  6 copy_flag  7 compat
 *   8 vol_id  12 lnum  16 pad[4]  20 data_size  24 used_ebs  28 data_pad
 *  32 data_crc  36 pad[4]  40 sqnum (be64)  48 pad[12]  60 hdr_crc */
#include <string.h>

#include "common/endian.h"
#include "ubi/media.h"

void ff_ubi_vid_hdr_encode(const struct ff_ubi_vid_hdr *h, uint8_t *out)
{
	memset(out, 0, FF_UBI_HDR_SIZE);
	ff_put_be32(out, FF_UBI_VID_MAGIC);
	out[4] = h->version;
	out[5] = h->vol_type;
	out[6] = h->copy_flag;
	out[7] = h->compat;
	ff_put_be32(out + 8, h->vol_id);
	ff_put_be32(out + 12, h->lnum);
	ff_put_be32(out + 20, h->data_size);
	ff_put_be32(out + 24, h->used_ebs);
	ff_put_be32(out + 28, h->data_pad);
	ff_put_be32(out + 32, h->data_crc);
	ff_put_be64(out + 40, h->sqnum);
	ff_put_be32(out + 60, ff_ubi_crc32(out, 60));
}

enum ff_ubi_hdr_status ff_ubi_vid_hdr_decode(const uint8_t *in, struct ff_ubi_vid_hdr *h)
{
	if (ff_get_be32(in) != FF_UBI_VID_MAGIC)
		return ff_ubi_is_erased(in, FF_UBI_HDR_SIZE) ? FF_UBI_HDR_ERASED
							      : FF_UBI_HDR_BAD_MAGIC;
	if (ff_get_be32(in + 60) != ff_ubi_crc32(in, 60))
		return FF_UBI_HDR_BAD_CRC;
	h->version = in[4];
	h->vol_type = in[5];
	h->copy_flag = in[6];
	h->compat = in[7];
	h->vol_id = ff_get_be32(in + 8);
	h->lnum = ff_get_be32(in + 12);
	h->data_size = ff_get_be32(in + 20);
	h->used_ebs = ff_get_be32(in + 24);
	h->data_pad = ff_get_be32(in + 28);
	h->data_crc = ff_get_be32(in + 32);
	h->sqnum = ff_get_be64(in + 40);
	return FF_UBI_HDR_OK;
}
