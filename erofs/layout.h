/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The EROFS on-disk constants: offsets of fields inside the superblock,
 * inodes, dirents, xattr entries and compression indexes, and the flag
 * bits.  Everything is little-endian and decoded with common/endian.h;
 * these are facts of the format (the kernel's fs/erofs/erofs_fs.h), not
 * structures laid over bytes. */
#ifndef FF_EROFS_LAYOUT_H
#define FF_EROFS_LAYOUT_H

#define ER_SUPER_OFFSET 1024u
#define ER_SUPER_MAGIC 0xE0F5E1E2u
#define ER_SUPER_SIZE 128u      /* without extension slots */
#define ER_SB_EXTSLOT 16u

/* superblock field offsets */
#define ER_SB_MAGIC 0
#define ER_SB_CHECKSUM 4
#define ER_SB_COMPAT 8
#define ER_SB_BLKSZBITS 12
#define ER_SB_EXTSLOTS 13
#define ER_SB_ROOTNID 14
#define ER_SB_INOS 16
#define ER_SB_EPOCH 24
#define ER_SB_FIXED_NSEC 32
#define ER_SB_BLOCKS 36
#define ER_SB_META_BLKADDR 40
#define ER_SB_XATTR_BLKADDR 44
#define ER_SB_UUID 48
#define ER_SB_VOLNAME 64
#define ER_SB_INCOMPAT 80
#define ER_SB_U1 84             /* compression algorithms or lz4 distance */
#define ER_SB_EXTRA_DEVICES 86
#define ER_SB_DEVT_SLOTOFF 88
#define ER_SB_DIRBLKBITS 90
#define ER_SB_XATTR_PFX_COUNT 91
#define ER_SB_XATTR_PFX_START 92
#define ER_SB_PACKED_NID 96
#define ER_SB_BUILD_TIME 108

#define ER_COMPAT_SB_CHKSUM 0x01u
#define ER_COMPAT_MTIME 0x02u
#define ER_COMPAT_XATTR_FILTER 0x04u
#define ER_COMPAT_SHARED_EA_IN_METABOX 0x08u
#define ER_COMPAT_PLAIN_XATTR_PFX 0x10u

#define ER_INCOMPAT_LZ4_0PADDING 0x01u
#define ER_INCOMPAT_COMPR_CFGS 0x02u    /* also BIG_PCLUSTER */
#define ER_INCOMPAT_CHUNKED_FILE 0x04u
#define ER_INCOMPAT_DEVICE_TABLE 0x08u  /* also COMPR_HEAD2 */
#define ER_INCOMPAT_ZTAILPACKING 0x10u
#define ER_INCOMPAT_FRAGMENTS 0x20u     /* also DEDUPE */
#define ER_INCOMPAT_XATTR_PREFIXES 0x40u
#define ER_INCOMPAT_48BIT 0x80u
#define ER_INCOMPAT_METABOX 0x100u
/* What this reader implements; the rest is refused by name. */
#define ER_INCOMPAT_SUPPORTED 0x7fu

/* inode i_format */
#define ER_I_VERSION_MASK 0x01u
#define ER_I_DATALAYOUT_SHIFT 1
#define ER_I_DATALAYOUT_MASK 0x07u
#define ER_I_NLINK_1 0x10u      /* non-directories: nlink 1, i_nb is blocks_hi */
#define ER_I_ALL 0x1fu

enum er_layout {
	ER_FLAT_PLAIN = 0,
	ER_COMPRESSED_FULL = 1,
	ER_FLAT_INLINE = 2,
	ER_COMPRESSED_COMPACT = 3,
	ER_CHUNK_BASED = 4,
	ER_LAYOUT_MAX
};

#define ER_INODE_COMPACT_SIZE 32u
#define ER_INODE_EXTENDED_SIZE 64u

#define ER_CHUNK_BLKBITS_MASK 0x1fu
#define ER_CHUNK_INDEXES 0x20u
#define ER_CHUNK_48BIT 0x40u
#define ER_CHUNK_ALL 0x7fu
#define ER_NULL_ADDR32 0xffffffffu

#define ER_DIRENT_SIZE 12u
#define ER_NAME_LEN 255u

enum er_ftype {
	ER_FT_UNKNOWN, ER_FT_REG, ER_FT_DIR, ER_FT_CHR, ER_FT_BLK, ER_FT_FIFO, ER_FT_SOCK,
	ER_FT_LNK, ER_FT_MAX
};

#define ER_XATTR_IBODY_HEADER 12u
#define ER_XATTR_ENTRY_SIZE 4u
#define ER_XATTR_LONG_PREFIX 0x80u
#define ER_XATTR_LONG_PREFIX_MASK 0x7fu

/* compression */
enum er_alg {
	ER_ALG_LZ4 = 0,
	ER_ALG_LZMA = 1,
	ER_ALG_DEFLATE = 2,
	ER_ALG_ZSTD = 3,
	ER_ALG_MAX,
	ER_ALG_SHIFTED = ER_ALG_MAX,  /* stored: decoded bytes from the start */
	ER_ALG_INTERLACED,           /* stored: rotated inside its block */
};

#define ER_PCLUSTER_MAX_SIZE (1024u * 1024u)
#define ER_PCLUSTER_MAX_DSIZE (12u * 1024u * 1024u)
#define ER_LZMA_MAX_DICT (8u * ER_PCLUSTER_MAX_SIZE)

#define ER_ADVISE_COMPACTED_2B 0x0001u
#define ER_ADVISE_EXTENTS 0x0001u       /* COMPRESSED_FULL only */
#define ER_ADVISE_BIG_PCLUSTER_1 0x0002u
#define ER_ADVISE_BIG_PCLUSTER_2 0x0004u
#define ER_ADVISE_INLINE_PCLUSTER 0x0008u
#define ER_ADVISE_INTERLACED_PCLUSTER 0x0010u
#define ER_ADVISE_FRAGMENT_PCLUSTER 0x0020u
#define ER_ADVISE_EXTRECSZ_SHIFT 1
#define ER_ADVISE_EXTRECSZ_MASK 0x3u
#define ER_FRAGMENT_INODE_BIT 0x80u     /* in h_clusterbits: whole file packed */

#define ER_MAP_HEADER_SIZE 8u

enum er_lcluster_type {
	ER_LC_PLAIN = 0,
	ER_LC_HEAD1 = 1,
	ER_LC_NONHEAD = 2,
	ER_LC_HEAD2 = 3,
};
#define ER_LI_PARTIAL_REF 0x8000u
#define ER_LI_D0_CBLKCNT 0x0800u
#define ER_LCLUSTER_INDEX_SIZE 8u

#define ER_EXTENT_PLEN_PARTIAL 0x08000000u
#define ER_EXTENT_PLEN_FMT_SHIFT 28
#define ER_EXTENT_PLEN_MASK ((ER_PCLUSTER_MAX_SIZE << 1) - 1)

#endif
