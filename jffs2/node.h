/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2 nodes as they lie on flash (include/uapi/linux/jffs2.h): a log of
 * nodes, each starting with a 12-byte header (magic, node type, total
 * length, header CRC) and 4-byte aligned, in the byte order the image was
 * made for.  Each kind of node is decoded from bytes into a struct in
 * memory by its own file (node_header.c, inode_node.c, dirent_node.c,
 * xattr_node.c, summary_node.c); nothing here is ever cast over image
 * bytes. */
#ifndef FF_JFFS2_NODE_H
#define FF_JFFS2_NODE_H

#include <stddef.h>
#include <stdint.h>

#define J2_MAGIC 0x1985u
#define J2_MAGIC_OLD 0x1984u
#define J2_MAGIC_SWAPPED 0x8519u
#define J2_ACCURATE 0x2000u
#define J2_COMPAT_MASK 0xc000u
#define J2_FEATURE_INCOMPAT 0xc000u
#define J2_FEATURE_ROCOMPAT 0x8000u
#define J2_FEATURE_RWCOMPAT_COPY 0x4000u

#define J2_NT_DIRENT 0xe001u
#define J2_NT_INODE 0xe002u
#define J2_NT_CLEANMARKER 0x2003u
#define J2_NT_PADDING 0x2004u
#define J2_NT_SUMMARY 0x2006u
#define J2_NT_XATTR 0xe008u
#define J2_NT_XREF 0xe009u

#define J2_HDR_SIZE 12u
#define J2_INODE_SIZE 68u
#define J2_DIRENT_SIZE 40u
#define J2_XATTR_SIZE 32u
#define J2_XREF_SIZE 28u
#define J2_SUMMARY_SIZE 32u
#define J2_SUM_MARKER_SIZE 8u
#define J2_SUM_MAGIC 0x02851885u
#define J2_MAX_NAME 254u

/* Compression ids of an inode node (0-7 the kernel's, 8 OpenWrt's LZMA). */
enum j2_compr {
	J2_COMPR_NONE = 0,
	J2_COMPR_ZERO = 1,
	J2_COMPR_RTIME = 2,
	J2_COMPR_RUBINMIPS = 3,
	J2_COMPR_COPY = 4,
	J2_COMPR_DYNRUBIN = 5,
	J2_COMPR_ZLIB = 6,
	J2_COMPR_LZO = 7,
	J2_COMPR_LZMA = 8,
	J2_COMPR_COUNT = 9,
};

static inline uint32_t j2_pad(uint32_t x)
{
	return (x + 3u) & ~3u;
}

/* The kernel's crc32(0, p, n): zlib's crc32 seeded with all ones and
 * inverted again (crc32_le without the pre/post inversion zlib adds). */
uint32_t j2_crc(const uint8_t *p, size_t n);

struct j2_hdr {
	uint16_t magic, type;
	uint32_t totlen, hdr_crc;
};

/* The header at b (12 bytes); returns 1 when its magic is JFFS2's and its
 * CRC matches (computed with the ACCURATE bit set, so obsoleted nodes pass
 * too, as the kernel's scan computes it), else 0. */
int j2_hdr_decode(const uint8_t *b, int big, struct j2_hdr *h);
uint32_t j2_hdr_crc_calc(const uint8_t *b, int big);

struct j2_inode_node {
	uint32_t ino, version, mode;
	uint16_t uid, gid;
	uint32_t isize, atime, mtime, ctime, offset, csize, dsize;
	uint8_t compr, usercompr;
	uint16_t flags;
	uint32_t data_crc, node_crc;
};

/* Decodes the 68-byte inode node at b; the check functions return NULL or
 * what is wrong, filling calc with the CRC computed. */
void j2_inode_decode(const uint8_t *b, int big, struct j2_inode_node *n);
const char *j2_inode_check(const uint8_t *b, uint32_t totlen, const struct j2_inode_node *n,
			   uint32_t *want, uint32_t *calc);

struct j2_dirent_node {
	uint32_t pino, version, ino, mctime;
	uint8_t nsize, type;
	uint32_t node_crc, name_crc;
	const uint8_t *name; /* nsize bytes, in the caller's buffer */
};

void j2_dirent_decode(const uint8_t *b, int big, struct j2_dirent_node *n);
const char *j2_dirent_check(const uint8_t *b, uint32_t totlen, const struct j2_dirent_node *n,
			    uint32_t *want, uint32_t *calc);

struct j2_xattr_node {
	uint32_t xid, version;
	uint8_t xprefix, name_len;
	uint16_t value_len;
	uint32_t data_crc, node_crc;
	const uint8_t *data; /* name, NUL, value: name_len + 1 + value_len bytes */
};

#define J2_XDATUM_DELETED 0xffffffffu
#define J2_XREF_DELETED 1u

void j2_xattr_decode(const uint8_t *b, int big, struct j2_xattr_node *n);
const char *j2_xattr_check(const uint8_t *b, uint32_t totlen, const struct j2_xattr_node *n,
			   uint32_t *want, uint32_t *calc);

struct j2_xref_node {
	uint32_t ino, xid, xseqno, node_crc;
};

void j2_xref_decode(const uint8_t *b, int big, struct j2_xref_node *n);
const char *j2_xref_check(const uint8_t *b, uint32_t totlen, const struct j2_xref_node *n,
			  uint32_t *want, uint32_t *calc);

struct j2_summary_node {
	uint32_t sum_num, cln_mkr, padded, sum_crc, node_crc;
};

void j2_summary_decode(const uint8_t *b, int big, struct j2_summary_node *n);
const char *j2_summary_check(const uint8_t *b, uint32_t totlen, const struct j2_summary_node *n,
			     uint32_t *want, uint32_t *calc);
/* The marker ending a summarised erase block (its last 8 bytes): 1 and
 * the summary's offset in the block when the magic is there. */
int j2_summary_marker(const uint8_t *end8, int big, uint32_t *sum_offset);

#endif
