/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The romfs on-disk layout (Documentation/filesystems/romfs.rst,
 * include/uapi/linux/romfs_fs.h), decoded and encoded byte by byte.
 * Every number is a big-endian 32-bit word and every structure starts on a
 * 16-byte boundary:
 *
 *   superblock   "-rom1fs-", full size, checksum, volume name (NUL, padded)
 *   file header  next|exec|type, spec, size, checksum, name (NUL, padded),
 *                then the data (regular files and symlink targets)
 *
 * The low 4 bits of `next` hold the type (0..2) and the executable bit (3);
 * `spec` is a hard link's target header, a directory's first entry, or a
 * device's major << 16 | minor.  Checksums make the 32-bit word sum of the
 * first 512 bytes (superblock) or of header and padded name (file) zero. */
#ifndef FF_ROMFS_LAYOUT_H
#define FF_ROMFS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"

#define RF_MAGIC "-rom1fs-"
#define RF_HDR_SIZE 16
#define RF_SUM_BYTES 512     /* the superblock checksum covers these (or less) */
#define RF_BLOCK 1024        /* the kernel's block size; genromfs pads to it */
#define RF_KERNEL_NAME_MAX 128 /* the kernel reads no more of a name */
#define RF_NAME_MAX 255      /* what a host directory entry can hold */
#define RF_VOLUME_MAX 1023   /* a longer volume name is taken as damage */
#define RF_TYPE_MASK 7
#define RF_EXEC 8
#define RF_OFF_MASK 0xfffffff0u

enum rf_type {
	RF_HARDLINK, RF_DIR, RF_REG, RF_SYMLINK, RF_BLKDEV, RF_CHRDEV, RF_SOCKET, RF_FIFO,
};

static inline uint32_t rf_pad16(uint64_t n)
{
	return (uint32_t)((n + 15) & ~(uint64_t)15);
}

/* The superblock. */
struct rf_super {
	uint32_t full_size;      /* bytes the file system spans */
	uint32_t checksum;       /* as stored */
	uint32_t sum_bytes;      /* bytes the checksum covers: min(full size, 512) */
	int sum_ok;
	char volume[RF_VOLUME_MAX + 1];
	uint32_t volume_len;
	uint32_t root;           /* the first file header: the root directory */
};

/* One file header with its name. */
struct rf_header {
	uint32_t off;            /* where it starts */
	uint32_t next;           /* the next entry of the directory (0: none) */
	uint8_t type, exec;
	uint32_t spec, size, checksum;
	int sum_ok;
	char name[RF_NAME_MAX + 1];
	uint32_t name_len;
	uint32_t data;           /* header + padded name: where the data starts */
};

/* The sum of the big-endian words in p (len rounded down to words). */
uint32_t rf_sum(const uint8_t *p, size_t len);

/* Reads and checks the superblock of src: magic, a full size of at least
 * one header, a terminated volume name.  The checksum and a full size past
 * the source are reported in sb (sum_ok) and left to the caller. */
int rf_super_read(struct ff_bsrc *src, struct rf_super *sb, struct ff_err *err);
/* Decodes what a probe holds (buf: len bytes from the start); 0 ok. */
int rf_super_decode(const uint8_t *buf, size_t len, struct rf_super *sb, struct ff_err *err);

/* Reads the header at off; everything it covers must lie below limit. */
int rf_header_read(struct ff_bsrc *src, uint32_t limit, uint32_t off, struct rf_header *h,
		   struct ff_err *err);

/* Encodes a header and its padded name into buf (room for RF_HDR_SIZE +
 * rf_pad16(len + 1)), checksum included; returns the bytes used. */
size_t rf_header_encode(uint8_t *buf, uint32_t next, uint32_t spec, uint32_t size,
			const char *name, size_t len);

#endif
