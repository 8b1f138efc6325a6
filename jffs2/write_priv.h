/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The write side's parts: node encoders (one file per node kind), the
 * compressors (compr_write.c, the one file that calls a codec), mkfs's
 * erase-block layout (layout.c) and sumtool's summarised layout
 * (summary_write.c). */
#ifndef FF_JFFS2_WRITE_PRIV_H
#define FF_JFFS2_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"
#include "jffs2/node.h"
#include "jffs2/writer.h"

#define J2_MIN_DATA_LEN 128u
#define J2_MAX_SYMLINK 254u

/* write_header.c: the 12-byte header (its CRC over the first 8 bytes),
 * and a cleanmarker, which is a header alone. */
void j2_hdr_encode(uint8_t *b, uint16_t type, uint32_t totlen, int big);

/* write_inode.c: 68 bytes at b for n (csize data bytes follow at data);
 * fills totlen, the node and data CRCs.  Returns 68 + csize. */
uint32_t j2_inode_encode(uint8_t *b, const struct j2_inode_node *n, const uint8_t *data,
			 int big);

/* write_dirent.c: 40 bytes + name at b; returns 40 + nsize (unpadded). */
uint32_t j2_dirent_encode(uint8_t *b, uint32_t pino, uint32_t version, uint32_t ino,
			  uint32_t mctime, uint8_t type, const uint8_t *name, uint8_t nsize,
			  int big);

/* write_xattr.c: an xattr datum (32 bytes + name + NUL + value, totlen
 * padded to 4) and an xref (28 bytes).  Return the bytes written. */
uint32_t j2_xattr_encode(uint8_t *b, uint32_t xid, uint8_t xprefix, const char *name,
			 uint8_t name_len, const uint8_t *value, uint16_t value_len, int big);
uint32_t j2_xref_encode(uint8_t *b, uint32_t ino, uint32_t xid, uint32_t xseqno, int big);

/* acl_write.c: a POSIX ACL as the host stores it (little-endian, version
 * 2, 8-byte entries) into JFFS2's form (version 1, 4-byte entries for
 * the owner/group/mask/other tags).  *len in and out; -1 for an unknown
 * tag or a value not a whole number of entries. */
int j2_acl_to_jffs2(const uint8_t *in, size_t in_len, uint8_t *out, size_t *len, int big);

/* compr_write.c.  One piece of file data: at most `space` stored bytes
 * for the len bytes at in.  Sets *used (input bytes taken) and *stored;
 * returns the compr id, J2_COMPR_NONE meaning `space` bytes are stored
 * as they are.  out holds page_size + page_size / 16 + 67 bytes; scratch
 * comes from j2_compr_scratch (one per thread). */
struct j2_compr_scratch;
struct j2_compr_scratch *j2_compr_scratch_new(uint32_t page_size);
void j2_compr_scratch_free(struct j2_compr_scratch *s);
size_t j2_compr_out_size(uint32_t page_size);
unsigned j2_compress(const struct ff_jffs2_compr *c, struct j2_compr_scratch *s,
		     const uint8_t *in, uint32_t len, uint32_t space, uint8_t *out,
		     uint32_t *used, uint32_t *stored);

/* summary_write.c: sumtool.  Takes the plain image an erase block at a
 * time and writes the summarised one to of. */
struct j2_sum;
struct j2_sum *j2_sum_new(const struct ff_jffs2_write_opts *o, struct ff_outfile *of,
			  struct ff_err *err);
int j2_sum_block(struct j2_sum *s, const uint8_t *blk, uint32_t len, struct ff_err *err);
int j2_sum_finish(struct j2_sum *s, struct ff_err *err);
void j2_sum_free(struct j2_sum *s);

/* layout.c: mkfs.jffs2's placement of nodes in erase blocks. */
struct j2_lay {
	const struct ff_jffs2_write_opts *o;
	uint8_t *blk;       /* the erase block being filled */
	uint32_t fill;      /* bytes of it written */
	uint64_t ofs;       /* image offset */
	uint8_t marker[J2_HDR_SIZE];
	struct ff_outfile *of;
	struct j2_sum *sum; /* NULL: blocks go straight to of */
};

int j2_lay_init(struct j2_lay *l, const struct ff_jffs2_write_opts *o, struct ff_outfile *of,
		struct ff_err *err);
/* Room for req bytes: a cleanmarker at a block start, the block padded
 * out when req does not fit. */
int j2_lay_reserve(struct j2_lay *l, uint32_t req, struct ff_err *err);
/* Bytes at the current offset, then 0xff up to a multiple of 4. */
int j2_lay_put(struct j2_lay *l, const uint8_t *p, uint32_t len, struct ff_err *err);
/* Space left in the current erase block. */
uint32_t j2_lay_room(const struct j2_lay *l);
/* Pads as -p asks and flushes the last block. */
int j2_lay_finish(struct j2_lay *l, struct ff_err *err);
void j2_lay_free(struct j2_lay *l);

#endif
