/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBIFS on-flash constants: node types, byte offsets of every field this
 * reader decodes, and the fixed areas (superblock, master, log, LPT,
 * orphans, main).  Facts from the kernel's fs/ubifs/ubifs-media.h; every
 * structure is decoded from bytes with the endian helpers, never cast. */
#ifndef FF_UBIFS_MEDIA_H
#define FF_UBIFS_MEDIA_H

#define UBIFS_MAGIC 0x06101831u
#define UBIFS_BLOCK_SIZE 4096u
#define UBIFS_MAX_NLEN 255u
#define UBIFS_MAX_INO_DATA 4096u
#define UBIFS_PAD_BYTE 0xCEu
#define UBIFS_ROOT_INO 1u
#define UBIFS_MIN_LEB_SIZE (15u * 1024u)
#define UBIFS_MAX_LEVELS 64u /* the kernel allows 512; a real index is far lower */

/* Node types (also key types for the first four). */
enum {
	UBIFS_INO_NODE, UBIFS_DATA_NODE, UBIFS_DENT_NODE, UBIFS_XENT_NODE,
	UBIFS_TRUN_NODE, UBIFS_PAD_NODE, UBIFS_SB_NODE, UBIFS_MST_NODE,
	UBIFS_REF_NODE, UBIFS_IDX_NODE, UBIFS_CS_NODE, UBIFS_ORPH_NODE,
	UBIFS_AUTH_NODE, UBIFS_NODE_TYPES,
};

/* Node group flags (recovery drops an unfinished group). */
enum { UBIFS_NO_GROUP, UBIFS_IN_GROUP, UBIFS_LAST_OF_GROUP };

/* Inode types in directory entries. */
enum {
	UBIFS_ITYPE_REG, UBIFS_ITYPE_DIR, UBIFS_ITYPE_LNK, UBIFS_ITYPE_BLK,
	UBIFS_ITYPE_CHR, UBIFS_ITYPE_FIFO, UBIFS_ITYPE_SOCK, UBIFS_ITYPES,
};

enum { UBIFS_COMPR_NONE, UBIFS_COMPR_LZO, UBIFS_COMPR_ZLIB, UBIFS_COMPR_ZSTD,
       UBIFS_COMPR_TYPES };

/* Superblock flags. */
#define UBIFS_FLG_BIGLPT 0x02u
#define UBIFS_FLG_SPACE_FIXUP 0x04u
#define UBIFS_FLG_DOUBLE_HASH 0x08u
#define UBIFS_FLG_ENCRYPTION 0x10u
#define UBIFS_FLG_AUTHENTICATION 0x20u

/* Master node flags. */
#define UBIFS_MST_DIRTY 1u
#define UBIFS_MST_NO_ORPHS 2u
#define UBIFS_MST_RCVRY 4u

/* Inode flags. */
#define UBIFS_XATTR_FL 0x20u
#define UBIFS_CRYPT_FL 0x40u

/* Journal heads: nodes of the GC head are not grouped. */
#define UBIFS_GC_HEAD 0u

/* Fixed LEBs. */
#define UBIFS_SB_LNUM 0u
#define UBIFS_MST_LNUM 1u
#define UBIFS_LOG_LNUM 3u

/* Common header: magic, crc, sqnum, len, type, group, 2 pad. */
#define UBIFS_CH_SZ 24u
#define CH_CRC 4
#define CH_SQNUM 8
#define CH_LEN 16
#define CH_TYPE 20
#define CH_GROUP 21
#define UBIFS_KEY_OFF 24 /* the key of every keyed node */

/* Node sizes without their variable part. */
#define UBIFS_INO_NODE_SZ 160u
#define UBIFS_DATA_NODE_SZ 48u
#define UBIFS_DENT_NODE_SZ 56u
#define UBIFS_TRUN_NODE_SZ 56u
#define UBIFS_PAD_NODE_SZ 28u
#define UBIFS_SB_NODE_SZ 4096u
#define UBIFS_MST_NODE_SZ 512u
#define UBIFS_REF_NODE_SZ 64u
#define UBIFS_IDX_NODE_SZ 28u
#define UBIFS_CS_NODE_SZ 32u
#define UBIFS_ORPH_NODE_SZ 32u
#define UBIFS_BRANCH_SZ 12u
#define UBIFS_SK_LEN 8u

/* Inode node. */
#define INO_CREAT_SQNUM 40
#define INO_SIZE 48
#define INO_ATIME 56
#define INO_CTIME 64
#define INO_MTIME 72
#define INO_NLINK 92
#define INO_UID 96
#define INO_GID 100
#define INO_MODE 104
#define INO_FLAGS 108
#define INO_DATA_LEN 112
#define INO_XATTR_CNT 116
#define INO_XATTR_SIZE 120
#define INO_XATTR_NAMES 128
#define INO_COMPR 132

/* Directory / xattr entry node. */
#define DENT_INUM 40
#define DENT_TYPE 49
#define DENT_NLEN 50
#define DENT_COOKIE 52

/* Data node. */
#define DATA_SIZE 40
#define DATA_COMPR 44

/* Truncation node. */
#define TRUN_INUM 24
#define TRUN_OLD 40
#define TRUN_NEW 48

/* Padding node. */
#define PAD_LEN 24

/* Superblock node. */
#define SB_KEY_HASH 26
#define SB_KEY_FMT 27
#define SB_FLAGS 28
#define SB_MIN_IO 32
#define SB_LEB_SIZE 36
#define SB_LEB_CNT 40
#define SB_MAX_LEB_CNT 44
#define SB_MAX_BUD_BYTES 48
#define SB_LOG_LEBS 56
#define SB_LPT_LEBS 60
#define SB_ORPH_LEBS 64
#define SB_JHEAD_CNT 68
#define SB_FANOUT 72
#define SB_LSAVE_CNT 76
#define SB_FMT_VERSION 80
#define SB_DEFAULT_COMPR 84
#define SB_RP_UID 88
#define SB_RP_GID 92
#define SB_RP_SIZE 96
#define SB_TIME_GRAN 104
#define SB_UUID 108
#define SB_RO_COMPAT 124
#define SB_HASH_ALGO 256

/* Master node. */
#define MST_HIGHEST_INUM 24
#define MST_CMT_NO 32
#define MST_FLAGS 40
#define MST_LOG_LNUM 44
#define MST_ROOT_LNUM 48
#define MST_ROOT_OFFS 52
#define MST_ROOT_LEN 56
#define MST_GC_LNUM 60
#define MST_IHEAD_LNUM 64
#define MST_IHEAD_OFFS 68
#define MST_INDEX_SIZE 72
#define MST_TOTAL_FREE 80
#define MST_TOTAL_DIRTY 88
#define MST_TOTAL_USED 96
#define MST_TOTAL_DEAD 104
#define MST_TOTAL_DARK 112
#define MST_LPT_LNUM 120
#define MST_LPT_OFFS 124
#define MST_NHEAD_LNUM 128
#define MST_NHEAD_OFFS 132
#define MST_LTAB_LNUM 136
#define MST_LTAB_OFFS 140
#define MST_LSAVE_LNUM 144
#define MST_LSAVE_OFFS 148
#define MST_EMPTY_LEBS 156
#define MST_IDX_LEBS 160
#define MST_LEB_CNT 164

/* Reference node (log). */
#define REF_LNUM 24
#define REF_OFFS 28
#define REF_JHEAD 32

/* Index node: child count, level, then branches (lnum, offs, len, key). */
#define IDX_CHILD_CNT 24
#define IDX_LEVEL 26
#define IDX_BRANCHES 28

/* Commit start and orphan nodes. */
#define CS_CMT_NO 24
#define ORPH_CMT_NO 24
#define ORPH_INOS 32

#endif
