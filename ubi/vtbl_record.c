/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One record of the volume table (172 bytes; the table fills the layout
 * volume's LEBs with min(128, LEB size / 172) of them, empty slots zeroed
 * but with their CRC).
 *   0 reserved_pebs  4 alignment  8 data_pad  12 vol_type  13 upd_marker
 *  14 name_len (be16)  16 name[128]  144 flags  145 pad[23]  168 crc */
#include <string.h>

#include "common/endian.h"
#include "ubi/media.h"

void ff_ubi_vtbl_record_encode(const struct ff_ubi_vtbl_record *r, uint8_t *out)
{
	size_t n = r->name_len > FF_UBI_VOL_NAME_MAX ? FF_UBI_VOL_NAME_MAX : r->name_len;

	memset(out, 0, FF_UBI_VTBL_RECORD_SIZE);
	ff_put_be32(out, r->reserved_pebs);
	ff_put_be32(out + 4, r->alignment);
	ff_put_be32(out + 8, r->data_pad);
	out[12] = r->vol_type;
	out[13] = r->upd_marker;
	ff_put_be16(out + 14, (uint16_t)n);
	memcpy(out + 16, r->name, n);
	out[144] = r->flags;
	ff_put_be32(out + 168, ff_ubi_crc32(out, 168));
}

int ff_ubi_vtbl_record_decode(const uint8_t *in, struct ff_ubi_vtbl_record *r)
{
	if (ff_get_be32(in + 168) != ff_ubi_crc32(in, 168))
		return -1;
	r->reserved_pebs = ff_get_be32(in);
	r->alignment = ff_get_be32(in + 4);
	r->data_pad = ff_get_be32(in + 8);
	r->vol_type = in[12];
	r->upd_marker = in[13];
	r->name_len = ff_get_be16(in + 14);
	if (r->name_len > FF_UBI_VOL_NAME_MAX)
		r->name_len = FF_UBI_VOL_NAME_MAX;
	memcpy(r->name, in + 16, r->name_len);
	r->name[r->name_len] = '\0';
	r->flags = in[144];
	return 0;
}
