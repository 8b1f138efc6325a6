/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Test helper: read a SquashFS image's compressor and options block
 * through compress/, and decode its first inode- or directory-table
 * metadata block with our codec.
 *   sqfs_comp_probe IMAGE info          codec name and canonical options
 *   sqfs_comp_probe IMAGE inode|dir     the decoded block to stdout
 *   sqfs_comp_probe IMAGE packed        the inode block as stored
 *   sqfs_comp_probe IMAGE pack < RAW    RAW compressed with the image's codec
 *                                       and options, as we would store it */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "compress/compress.h"
#include "squashfs/format.h"

#define META 8192

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The options block sits right after the superblock as one metadata
 * block, stored uncompressed by every writer we know. */
static int load_options(int fd, const struct sqfs_super *sb, struct ff_comp *comp,
			struct ff_err *err)
{
	uint8_t hdr[2], buf[META];
	uint32_t size;
	int raw;

	if (!(sb->flags & SQFS_FLAG_COMPRESSOR_OPTIONS))
		return 0;
	if (read_at(fd, hdr, 2, SQFS_SUPER_SIZE) ||
	    sqfs_meta_header_decode(hdr, sb->order, &size, &raw, err) < 0 ||
	    read_at(fd, buf, size, SQFS_SUPER_SIZE + 2))
		return ff_err_set(err, 5, "options block unreadable");
	if (!raw)
		return ff_err_set(err, 5, "compressed options block");
	return ff_comp_options_decode(comp, buf, size, err);
}

static int pack_stdin(struct ff_comp *comp, struct ff_err *err)
{
	uint8_t in[META], out[META];
	size_t n = fread(in, 1, sizeof(in), stdin);
	struct ff_comp_ctx *ctx = ff_comp_ctx_new(comp, err);
	ssize_t c = ctx ? ff_comp_compress(ctx, in, n, out, sizeof(out), err) : -1;

	ff_comp_ctx_free(ctx);
	if (c <= 0)
		return c < 0 ? -1 : ff_err_set(err, 5, "did not shrink");
	return fwrite(out, 1, (size_t)c, stdout) == (size_t)c ? 0 : -1;
}

static int dump_block(int fd, uint64_t at, struct ff_comp *comp, int packed, struct ff_err *err)
{
	uint8_t hdr[2], in[META], out[META + 64];
	struct ff_comp_ctx *ctx;
	uint32_t size;
	ssize_t n;
	int raw;

	if (read_at(fd, hdr, 2, at) || sqfs_meta_header_decode(hdr, SQFS_LE, &size, &raw, err) < 0 ||
	    read_at(fd, in, size, at + 2))
		return ff_err_set(err, 5, "metadata block at %llu unreadable", (unsigned long long)at);
	if (raw || packed) {
		memcpy(out, in, size);
		n = (ssize_t)size;
	} else {
		ctx = ff_comp_ctx_new(comp, err);
		n = ctx ? ff_comp_decompress(ctx, in, size, out, META, err) : -1;
		ff_comp_ctx_free(ctx);
		if (n < 0)
			return -1;
	}
	return fwrite(out, 1, (size_t)n, stdout) == (size_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct ff_err err = { 0 };
	uint8_t raw[SQFS_SUPER_SIZE];
	struct sqfs_super sb;
	struct ff_comp *comp = NULL;
	char desc[256];
	int fd, rc = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: sqfs_comp_probe IMAGE info|inode|dir|packed|pack\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read_at(fd, raw, sizeof(raw), 0) || sqfs_super_decode(raw, &sb, &err) ||
	    !(comp = ff_comp_new_id(sb.compressor, sb.block_size, &err)) ||
	    load_options(fd, &sb, comp, &err))
		goto out;
	if (!strcmp(argv[2], "info")) {
		ff_comp_describe(comp, desc, sizeof(desc));
		printf("%s %s\n", ff_comp_name(comp), desc);
		rc = 0;
	} else if (!strcmp(argv[2], "pack")) {
		rc = pack_stdin(comp, &err) ? 1 : 0;
	} else {
		rc = dump_block(fd, strcmp(argv[2], "dir") ? sb.inode_table : sb.dir_table, comp,
				!strcmp(argv[2], "packed"), &err) ? 1 : 0;
	}
out:
	if (rc)
		fprintf(stderr, "sqfs_comp_probe: %s: %s\n", argv[1], err.msg[0] ? err.msg : "failed");
	ff_comp_free(comp);
	if (fd >= 0)
		close(fd);
	return rc;
}
