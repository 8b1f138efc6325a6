/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* tar/: the tar archive format, knowing nothing of the source tree.
 * tar_header.c decodes the 512-byte ustar/GNU header, tar_pax.c the PAX
 * extended records, tar_sparse.c the sparse maps of every GNU flavour,
 * tar_stream.c reads the (possibly compressed) archive.  tree/tar_source.c
 * walks the members with these and puts them into the tree. */
#ifndef FF_TAR_TAR_H
#define FF_TAR_TAR_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/vec.h"

#define TAR_BLOCK 512

/* ---- the archive stream ---- */
struct ff_cstream;
struct tar_stream {
	const char *name;       /* for messages: the path or "-" (stdin) */
	int fd;
	int own_fd;
	struct ff_cstream *cs;  /* compressed container, or NULL */
	uint64_t pos;           /* bytes consumed so far (uncompressed) */
	uint8_t buf[65536];
	size_t have, at;
};

int tar_stream_open(struct tar_stream *s, const char *path, struct ff_err *err);
void tar_stream_close(struct tar_stream *s);
/* Exactly n bytes, else "ARCHIVE: unexpected end of archive at offset N".
 * Returns 1 (not an error) when the archive ends cleanly before any byte
 * was read and `eof_ok` is set. */
int tar_stream_read(struct tar_stream *s, void *dst, size_t n, int eof_ok, struct ff_err *err);
int tar_stream_skip(struct tar_stream *s, uint64_t n, struct ff_err *err);

/* ---- sparse maps ---- */
struct tar_chunk {
	uint64_t off, len;
};

/* A zeroed map is empty (tar_sparse_add sets the vector's element size). */
struct tar_sparse {
	struct ff_vec v;      /* struct tar_chunk, in map order */
	uint64_t realsize;
	int has_realsize;
};

int tar_sparse_add(struct tar_sparse *m, uint64_t off, uint64_t len, struct ff_err *err);
/* Chunks must ascend, not overlap, fit realsize, and their data must fit
 * the `stored` bytes of the member. */
int tar_sparse_check(const struct tar_sparse *m, uint64_t stored, struct ff_err *err);
void tar_sparse_free(struct tar_sparse *m);
/* GNU.sparse.map "off,len,off,len,..." (PAX 0.1). */
int tar_sparse_parse_map(struct tar_sparse *m, const char *text, size_t len, struct ff_err *err);
/* PAX 1.0: the map stored as decimal lines at the start of the data;
 * consumes it (with its padding) and returns the bytes used in *used. */
int tar_sparse_read_v1(struct tar_sparse *m, struct tar_stream *s, uint64_t *used,
		       struct ff_err *err);
/* Old GNU 'S' header: 4 entries in the header, then extension blocks. */
int tar_sparse_read_gnu(struct tar_sparse *m, const uint8_t *hdr, struct tar_stream *s,
			struct ff_err *err);

/* ---- the 512-byte header ---- */
struct tar_header {
	char name[257];       /* prefix "/" name, NUL-terminated */
	char linkname[101];
	uint32_t mode;        /* permission bits only */
	uint32_t uid, gid;
	uint64_t size;
	int64_t mtime;
	char type;
	uint32_t devmajor, devminor;
	int is_ustar;         /* "ustar\0": prefix field valid */
	int is_gnu;           /* "ustar  \0" */
};

/* 1 for an all-zero block (end of archive), 0 for a header, -1 on error. */
int tar_header_decode(const uint8_t *blk, struct tar_header *h, struct ff_err *err);
/* A numeric field: octal text or GNU base-256. */
int tar_parse_number(const uint8_t *field, size_t len, int64_t *out);

/* ---- PAX extended headers ---- */
/* SCHILY.xattr.NAME / LIBARCHIVE.xattr.NAME: the value's bytes as given. */
struct tar_xattr {
	char *name;      /* full name: "user.x", "security.capability" */
	uint8_t *value;
	uint32_t len;
};

struct tar_pax {
	char *path, *linkpath;
	int has_size, has_uid, has_gid, has_mtime;
	uint64_t size;
	uint32_t uid, gid;
	int64_t mtime;
	struct tar_xattr *xattrs;
	uint32_t n_xattrs;
	/* GNU sparse, any of the PAX flavours */
	int sparse_major, sparse_minor;   /* -1 when absent */
	int sparse_seen;                  /* some GNU.sparse.* key was present */
	char *sparse_name;
	struct tar_sparse sparse;
	uint64_t pending_off;             /* 0.0: an offset waiting for numbytes */
	int has_pending_off;
};

void tar_pax_init(struct tar_pax *p);
void tar_pax_free(struct tar_pax *p);
/* Parse a whole extended header's records into p (later keys win). */
int tar_pax_parse(struct tar_pax *p, const char *buf, size_t len, struct ff_err *err);

#endif
