/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2's stored POSIX ACL (fs/jffs2/acl.h as facts): a 4-byte version
 * (1), then entries of tag and permissions (2 bytes each), followed by a
 * 4-byte id only for the named user and group tags; all in the image's
 * byte order.  The xattr form the VFS shows is little-endian: version 2,
 * then 8-byte entries (tag, perm, id; id -1 where there is none). */
#include "common/endian.h"
#include "jffs2/xattr.h"

#define ACL_USER 0x02
#define ACL_GROUP 0x08
#define ACL_UNDEFINED_ID 0xffffffffu
#define J2_ACL_VERSION 1u
#define XATTR_ACL_VERSION 2u

long j2_acl_to_xattr(const uint8_t *acl, size_t n, int big, uint8_t *out)
{
	size_t in = 4, o = 4;

	if (n < 4 || ff_get32(acl, big) != J2_ACL_VERSION)
		return -1;
	ff_put_le32(out, XATTR_ACL_VERSION);
	while (in < n) {
		uint16_t tag, perm;
		uint32_t id = ACL_UNDEFINED_ID;

		if (n - in < 4)
			return -1;
		tag = ff_get16(acl + in, big);
		perm = ff_get16(acl + in + 2, big);
		in += 4;
		if (tag == ACL_USER || tag == ACL_GROUP) {
			if (n - in < 4)
				return -1;
			id = ff_get32(acl + in, big);
			in += 4;
		}
		ff_put_le16(out + o, tag);
		ff_put_le16(out + o + 2, perm);
		ff_put_le32(out + o + 4, id);
		o += 8;
	}
	return (long)o;
}
