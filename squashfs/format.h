/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS 4.0 on-disk format: constants, the decoded form of each on-disk
 * structure, their explicit little-endian encoders and their decoders for
 * either byte order.
 *
 * Writer and reader share these; neither casts a struct over image bytes.
 * Structure files: superblock.c, inode.c, dir_entry.c (directory header,
 * entry and index), fragment_entry.c, xattr_entry.c, meta_header.c.
 * Table logic lives in *_writer.c / *_reader.c files. */
#ifndef FF_SQUASHFS_FORMAT_H
#define FF_SQUASHFS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/endian.h"
#include "common/error.h"

#define SQFS_MAGIC 0x73717368u
#define SQFS_VERSION_MAJOR 4
#define SQFS_VERSION_MINOR 0
#define SQFS_SUPER_SIZE 96
#define SQFS_META_SIZE 8192          /* uncompressed metadata block payload */
#define SQFS_META_HEADER_SIZE 2
#define SQFS_META_UNCOMPRESSED 0x8000u
#define SQFS_BLOCK_MIN 4096u
#define SQFS_BLOCK_MAX (1024u * 1024u)
#define SQFS_BLOCK_UNCOMPRESSED (1u << 24) /* in block sizes and fragment sizes */
#define SQFS_BLOCK_SIZE_MASK ((1u << 24) - 1)
#define SQFS_INVALID_FRAG 0xffffffffu
#define SQFS_INVALID_XATTR 0xffffffffu
#define SQFS_INVALID_BLK 0xffffffffffffffffull /* absent table */
#define SQFS_DIR_MAX_ENTRIES 256       /* per directory header */
#define SQFS_NAME_MAX 256              /* name_size field stores len - 1 */
#define SQFS_MAX_IDS 65536
#define SQFS_PAD 4096                  /* images are padded to this */
#define SQFS_DIR_INDEX_EVERY SQFS_META_SIZE /* one index entry per metadata block */

/* The byte order of an image's fields.  mksquashfs and the kernel write
 * and read only little-endian 4.0 images, but some vendor toolchains for
 * big-endian MIPS and PowerPC (AVM's firmware among them) wrote every
 * field big-endian, the magic included ("sqsh" at offset 0).  The
 * superblock decoder finds the order from the magic; every other decoder
 * takes it, so one decoder serves both.  The encoders write little-endian
 * only: the writer makes images the kernel reads. */
enum sqfs_order { SQFS_LE = 0, SQFS_BE = 1 };

static inline uint16_t sqfs_get16(const uint8_t *p, enum sqfs_order o)
{
	return o == SQFS_BE ? ff_get_be16(p) : ff_get_le16(p);
}
static inline uint32_t sqfs_get32(const uint8_t *p, enum sqfs_order o)
{
	return o == SQFS_BE ? ff_get_be32(p) : ff_get_le32(p);
}
static inline uint64_t sqfs_get64(const uint8_t *p, enum sqfs_order o)
{
	return o == SQFS_BE ? ff_get_be64(p) : ff_get_le64(p);
}

/* The order whose magic buf (4 bytes or more) starts with; -1 for none. */
int sqfs_magic_order(const uint8_t *buf, size_t len);

/* Superblock flags. */
enum {
	SQFS_FLAG_UNCOMPRESSED_INODES = 0x0001,
	SQFS_FLAG_UNCOMPRESSED_DATA = 0x0002,
	SQFS_FLAG_CHECK = 0x0004,
	SQFS_FLAG_UNCOMPRESSED_FRAGMENTS = 0x0008,
	SQFS_FLAG_NO_FRAGMENTS = 0x0010,
	SQFS_FLAG_ALWAYS_FRAGMENTS = 0x0020,
	SQFS_FLAG_DUPLICATES = 0x0040,
	SQFS_FLAG_EXPORTABLE = 0x0080,
	SQFS_FLAG_UNCOMPRESSED_XATTRS = 0x0100,
	SQFS_FLAG_NO_XATTRS = 0x0200,
	SQFS_FLAG_COMPRESSOR_OPTIONS = 0x0400,
	SQFS_FLAG_UNCOMPRESSED_IDS = 0x0800,
};

struct sqfs_super {
	uint32_t inode_count;
	uint32_t mod_time;
	uint32_t block_size;
	uint32_t fragment_count;
	uint16_t compressor;
	uint16_t block_log;
	uint16_t flags;
	uint16_t id_count;
	uint64_t root_inode;
	uint64_t bytes_used;
	uint64_t id_table;
	uint64_t xattr_id_table;
	uint64_t inode_table;
	uint64_t dir_table;
	uint64_t fragment_table;
	uint64_t export_table;
	enum sqfs_order order; /* set by the decoder; the encoder writes LE */
};

void sqfs_super_encode(const struct sqfs_super *sb, uint8_t out[SQFS_SUPER_SIZE]);
/* Checks magic (either order, sb->order set from it), version, block
 * size/log agreement and range, counts that the format caps; errors name
 * the field and value.  Table positions are checked by the reader against
 * the file size. */
int sqfs_super_decode(const uint8_t in[SQFS_SUPER_SIZE], struct sqfs_super *sb,
		      struct ff_err *err);

/* Metadata block header: bit 15 = stored uncompressed, low 15 bits = size. */
uint16_t sqfs_meta_header_encode(uint32_t size, int uncompressed);
/* Decodes the 2 header bytes at in: the stored size, *uncompressed set.
 * Size 0 or > 8192 is an error. */
int sqfs_meta_header_decode(const uint8_t in[SQFS_META_HEADER_SIZE], enum sqfs_order o,
			    uint32_t *size, int *uncompressed, struct ff_err *err);

/* Compressor options block (comp_options.c): puts the fields of a
 * big-endian image's block into the little-endian order compress/ reads;
 * nothing to do for SQFS_LE. */
void sqfs_comp_options_order(uint16_t compressor, enum sqfs_order o, uint8_t *buf, size_t len);

/* An inode reference: (metadata block start relative to the table) << 16 |
 * offset inside the uncompressed block. */
static inline uint64_t sqfs_ref(uint64_t block, uint32_t offset)
{
	return (block << 16) | (offset & 0xffff);
}
static inline uint64_t sqfs_ref_block(uint64_t ref) { return ref >> 16; }
static inline uint32_t sqfs_ref_offset(uint64_t ref) { return (uint32_t)(ref & 0xffff); }

enum sqfs_inode_type {
	SQFS_DIR = 1, SQFS_FILE, SQFS_SYMLINK, SQFS_BLKDEV, SQFS_CHRDEV, SQFS_FIFO, SQFS_SOCKET,
	SQFS_LDIR, SQFS_LFILE, SQFS_LSYMLINK, SQFS_LBLKDEV, SQFS_LCHRDEV, SQFS_LFIFO, SQFS_LSOCKET,
};

/* The basic type (1..7) of a basic or extended type, as directory entries
 * store it. */
static inline int sqfs_basic_type(int type) { return type > 7 ? type - 7 : type; }

/* Decoded inode.  Fields not used by a type are 0.  Variable parts
 * (block sizes, symlink target, directory index) are not in this struct:
 * they follow the fixed part in the inode table and are read/written by
 * the callers with the helpers below. */
struct sqfs_inode {
	uint16_t type;
	uint16_t mode;        /* permission bits only (12 bits) */
	uint16_t uid_idx, gid_idx;
	uint32_t mtime;
	uint32_t inode_number;

	uint32_t nlink;
	uint32_t xattr_idx;   /* SQFS_INVALID_XATTR when none (extended types) */

	/* directories */
	uint32_t dir_block;   /* listing start, relative to the directory table */
	uint16_t dir_offset;
	uint32_t dir_size;    /* listing bytes + 3 */
	uint32_t parent_inode;
	uint16_t index_count; /* extended: directory index entries that follow */

	/* files */
	uint64_t blocks_start;
	uint64_t file_size;
	uint64_t sparse;      /* extended: bytes saved by sparse blocks */
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment */
	uint32_t frag_offset;

	/* symlinks */
	uint32_t target_size;

	/* devices */
	uint32_t rdev;        /* Linux new_encode_dev() form */
};

/* The basic inode type for a file mode's S_IFMT bits. */
int sqfs_type_from_mode(uint32_t mode);

/* Size of the fixed part for a type, 0 for an unknown type. */
size_t sqfs_inode_fixed_size(int type);
void sqfs_inode_encode_fixed(const struct sqfs_inode *in, uint8_t *out);
/* Decodes the fixed part (len must be >= sqfs_inode_fixed_size(type), where
 * type is the first u16).  Rejects unknown types and impossible values. */
int sqfs_inode_decode_fixed(const uint8_t *buf, size_t len, enum sqfs_order o,
			    struct sqfs_inode *in, struct ff_err *err);
/* Number of u32 block sizes following a file inode. */
uint64_t sqfs_inode_block_count(const struct sqfs_inode *in, uint32_t block_size);
/* The extended type is needed for: nlink > 1 files, xattrs, sizes/starts
 * >= 4 GiB, sparse files, directory indexes, directories > 64 KiB. */
int sqfs_inode_needs_extended(const struct sqfs_inode *in);

static inline uint32_t sqfs_encode_dev(uint32_t major, uint32_t minor)
{
	return (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & ~0xffu) << 12);
}
static inline uint32_t sqfs_dev_major(uint32_t rdev) { return (rdev & 0xfff00) >> 8; }
static inline uint32_t sqfs_dev_minor(uint32_t rdev)
{
	return (rdev & 0xff) | ((rdev >> 12) & 0xfff00);
}

/* Directory listing: header followed by up to 256 entries. */
#define SQFS_DIR_HEADER_SIZE 12
#define SQFS_DIR_ENTRY_SIZE 8   /* plus the name */
#define SQFS_DIR_INDEX_SIZE 12  /* plus the name */

struct sqfs_dir_header {
	uint32_t count;        /* entries that follow (stored as count - 1) */
	uint32_t start;        /* inode metadata block, relative to inode table */
	uint32_t inode_number; /* base for the entries' deltas */
};

struct sqfs_dir_entry {
	uint16_t offset;       /* of the inode inside its metadata block */
	int16_t inode_delta;   /* inode number - header base */
	uint16_t type;         /* basic type */
	uint16_t name_len;     /* 1..256 (stored as len - 1) */
};

struct sqfs_dir_index {
	uint32_t index;        /* byte offset of the header in the listing */
	uint32_t start;        /* its metadata block, relative to dir table */
	uint32_t name_len;     /* 1..256 (stored as len - 1) */
};

void sqfs_dir_header_encode(const struct sqfs_dir_header *h, uint8_t out[SQFS_DIR_HEADER_SIZE]);
int sqfs_dir_header_decode(const uint8_t in[SQFS_DIR_HEADER_SIZE], enum sqfs_order o,
			   struct sqfs_dir_header *h, struct ff_err *err);
void sqfs_dir_entry_encode(const struct sqfs_dir_entry *e, uint8_t out[SQFS_DIR_ENTRY_SIZE]);
int sqfs_dir_entry_decode(const uint8_t in[SQFS_DIR_ENTRY_SIZE], enum sqfs_order o,
			  struct sqfs_dir_entry *e, struct ff_err *err);
void sqfs_dir_index_encode(const struct sqfs_dir_index *x, uint8_t out[SQFS_DIR_INDEX_SIZE]);
int sqfs_dir_index_decode(const uint8_t in[SQFS_DIR_INDEX_SIZE], enum sqfs_order o,
			  struct sqfs_dir_index *x, struct ff_err *err);

/* Fragment table entry (16 bytes). */
#define SQFS_FRAGMENT_ENTRY_SIZE 16
struct sqfs_fragment_entry {
	uint64_t start;
	uint32_t size; /* with SQFS_BLOCK_UNCOMPRESSED */
};
void sqfs_fragment_entry_encode(const struct sqfs_fragment_entry *f,
				uint8_t out[SQFS_FRAGMENT_ENTRY_SIZE]);
int sqfs_fragment_entry_decode(const uint8_t in[SQFS_FRAGMENT_ENTRY_SIZE], enum sqfs_order o,
			       struct sqfs_fragment_entry *f, uint32_t block_size,
			       struct ff_err *err);

/* Extended attributes. */
enum {
	SQFS_XATTR_USER = 0,
	SQFS_XATTR_TRUSTED = 1,
	SQFS_XATTR_SECURITY = 2,
	SQFS_XATTR_VALUE_OOL = 0x100, /* value is a u64 reference to another value */
};
#define SQFS_XATTR_KEY_SIZE 4      /* plus the name without prefix */
#define SQFS_XATTR_ID_SIZE 16
#define SQFS_XATTR_TABLE_HEADER 16 /* u64 kv start, u32 ids, u32 unused */

struct sqfs_xattr_key {
	uint16_t type;     /* prefix id | SQFS_XATTR_VALUE_OOL */
	uint16_t name_len; /* without the prefix */
};
struct sqfs_xattr_id {
	uint64_t ref;      /* key/value list: block << 16 | offset */
	uint32_t count;    /* key/value pairs */
	uint32_t size;     /* bytes of the list, uncompressed */
};
void sqfs_xattr_key_encode(const struct sqfs_xattr_key *k, uint8_t out[SQFS_XATTR_KEY_SIZE]);
int sqfs_xattr_key_decode(const uint8_t in[SQFS_XATTR_KEY_SIZE], enum sqfs_order o,
			  struct sqfs_xattr_key *k, struct ff_err *err);
void sqfs_xattr_id_encode(const struct sqfs_xattr_id *x, uint8_t out[SQFS_XATTR_ID_SIZE]);
void sqfs_xattr_id_decode(const uint8_t in[SQFS_XATTR_ID_SIZE], enum sqfs_order o,
			  struct sqfs_xattr_id *x);
/* "user." / "trusted." / "security." for a type, NULL if unknown. */
const char *sqfs_xattr_prefix(int type);
/* Split a full name into prefix type and the stored suffix; -1 for a
 * namespace SquashFS cannot store (e.g. "system."). */
int sqfs_xattr_split(const char *name, const char **suffix);

#endif
