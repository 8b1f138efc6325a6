/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The CramFS superblock: 76 bytes at offset 0, or at 512 when the image
 * leaves room for boot code (mkfs.cramfs -p).  Its byte order is the
 * image's, told by how the magic reads.  The root inode (inode.h) is its
 * last 12 bytes. */
#ifndef FF_CRAMFS_SUPER_H
#define FF_CRAMFS_SUPER_H

#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "cramfs/inode.h"

#define CR_MAGIC 0x28cd3d45u
#define CR_SIGNATURE "Compressed ROMFS"
#define CR_SUPER_SIZE 76u
#define CR_ROOT_AT 64u      /* the root inode inside the superblock */
#define CR_CRC_AT 32u       /* fsid.crc inside the superblock */
#define CR_PAD_SIZE 512u    /* the only other place the kernel looks */

#define CR_FLAG_FSID_V2 0x001u
#define CR_FLAG_SORTED_DIRS 0x002u
#define CR_FLAG_HOLES 0x100u
#define CR_FLAG_WRONG_SIGNATURE 0x200u
#define CR_FLAG_SHIFTED_ROOT 0x400u
#define CR_FLAG_EXT_BLOCK_PTRS 0x800u
/* What today's kernel mounts: the low byte (features old kernels ignore)
 * and the four named above it. */
#define CR_FLAGS_SUPPORTED (0xffu | CR_FLAG_HOLES | CR_FLAG_WRONG_SIGNATURE | \
			    CR_FLAG_SHIFTED_ROOT | CR_FLAG_EXT_BLOCK_PTRS)

struct cr_super {
	uint32_t start;          /* 0, or 512: where the superblock is */
	int big;                 /* byte order of every field of the image */
	uint32_t size;           /* bytes from offset 0 (fsid v2 only) */
	uint32_t flags, future;
	uint8_t signature[16];
	uint32_t crc, edition, blocks, files;
	uint8_t name[16];
	struct cr_inode root;
};

/* 1 when the 4 bytes are the magic in either order (*big says which). */
int cr_magic_at(const uint8_t *p, int *big);
/* Decodes 76 bytes whose magic has been recognised. */
void cr_super_decode(const uint8_t *b, int big, uint32_t start, struct cr_super *sb);
/* Encodes sb (start and big are not stored) into 76 bytes. */
void cr_super_encode(const struct cr_super *sb, uint8_t *b);
/* Finds the superblock at 0 or 512 of src and checks what the kernel
 * checks before mounting (flags, root inode, root offset, sizes). */
int cr_super_read(struct ff_bsrc *src, struct cr_super *sb, struct ff_err *err);
/* The CRC of [start, size) with the stored CRC taken as 0, as mkfs.cramfs
 * computes it; -1 with err when the bytes cannot be read. */
int cr_super_crc(struct ff_bsrc *src, const struct cr_super *sb, uint32_t *crc,
		 struct ff_err *err);
/* Bytes of the image from offset 0: the stored size for fsid v2, else
 * the source's. */
uint64_t cr_super_span(const struct cr_super *sb, uint64_t src_size);

#endif
