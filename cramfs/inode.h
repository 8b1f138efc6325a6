/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A CramFS inode: 12 bytes, three 32-bit words of bit fields.
 *
 *   word 0: mode 16, uid 16      word 1: size 24, gid 8
 *   word 2: namelen 6 (in 4-byte units), offset 26 (in 4-byte units)
 *
 * A little-endian image stores each word little-endian with the first
 * field in the low bits (mode = w0 & 0xffff).  A big-endian image is what
 * a big-endian compiler makes of the same bit fields: each word
 * big-endian with the first field in the HIGH bits (mode = w0 >> 16,
 * namelen = w2 >> 26).  Only 16 bits of uid, 8 of gid and 24 of size
 * (a device's number for devices) are kept. */
#ifndef FF_CRAMFS_INODE_H
#define FF_CRAMFS_INODE_H

#include <stdint.h>

#define CR_INODE_SIZE 12u
#define CR_NAME_MAX 252u   /* 63 units of 4 bytes */
#define CR_OFFSET_MAX (((1u << 26) - 1) << 2)

struct cr_inode {
	uint32_t mode, uid, gid;
	uint32_t size;          /* 24 bits */
	uint32_t name_bytes;    /* namelen * 4: the padded name that follows */
	uint32_t offset;        /* in bytes (stored / 4) */
};

void cr_inode_decode(const uint8_t *b, int big, struct cr_inode *in);
/* Stores the fields, each cut to its width (mkfs.cramfs' bit fields do
 * the same): name_bytes / 4 in 6 bits, offset / 4 in 26. */
void cr_inode_encode(const struct cr_inode *in, int big, uint8_t *b);
/* The device number a device inode's size field holds, as Linux's dev_t
 * keeps it (12-bit major at bit 8, minor in bits 0-7 and 20-23): what
 * mkfs.cramfs stores from st_rdev and fsck.cramfs gives mknod. */
void cr_rdev_decode(uint32_t size, uint32_t *major, uint32_t *minor);
uint32_t cr_rdev_encode(uint32_t major, uint32_t minor);

#endif
