/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The byte stream of a laid-out image: each entry's padding, header, name
 * and data in order, then zeros to a 1 KiB boundary (genromfs pads the
 * file; the superblock's full size does not count the padding).  The first
 * 512 bytes are held until complete, since the superblock checksum covers
 * them, so the image can go to a pipe as well as a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/endian.h"
#include "common/outfile.h"
#include "romfs/layout.h"
#include "romfs/writer.h"

struct sink {
	struct ff_outfile of;
	int to_stdout;
	uint8_t head[RF_SUM_BYTES];
	uint64_t at;               /* bytes emitted */
	uint32_t sum_bytes;        /* min(full size, 512) */
	struct ff_err *err;
};

static int raw_write(struct sink *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!s->to_stdout)
		return ff_outfile_write(&s->of, buf, len, s->err);
	while (len) {
		ssize_t w = write(1, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return ff_err_sys(s->err, errno, "standard output: write failed");
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The superblock checksum once the first 512 bytes are known. */
static int flush_head(struct sink *s)
{
	ff_put_be32(s->head + 12, 0);
	ff_put_be32(s->head + 12, 0u - rf_sum(s->head, s->sum_bytes));
	return raw_write(s, s->head, RF_SUM_BYTES);
}

static int emit(struct sink *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (s->at < RF_SUM_BYTES) {
		size_t n = RF_SUM_BYTES - s->at < len ? RF_SUM_BYTES - s->at : len;

		memcpy(s->head + s->at, p, n);
		s->at += n;
		p += n;
		len -= n;
		if (s->at == RF_SUM_BYTES && flush_head(s))
			return -1;
	}
	s->at += len;
	return len ? raw_write(s, p, len) : 0;
}

static int emit_zeros(struct sink *s, uint64_t len)
{
	static const uint8_t zero[4096];

	while (len) {
		size_t n = len < sizeof(zero) ? (size_t)len : sizeof(zero);

		if (emit(s, zero, n))
			return -1;
		len -= n;
	}
	return 0;
}

static uint32_t type_of(const struct rw_ent *e)
{
	if (e->link >= 0)
		return RF_HARDLINK;
	switch (e->mode & S_IFMT) {
	case S_IFDIR: return RF_DIR;
	case S_IFREG: return RF_REG;
	case S_IFLNK: return RF_SYMLINK;
	case S_IFBLK: return RF_BLKDEV;
	case S_IFCHR: return RF_CHRDEV;
	case S_IFSOCK: return RF_SOCKET;
	default: return RF_FIFO;
	}
}

static int emit_header(struct sink *s, const struct rw_layout *lay, const struct rw_ent *e)
{
	uint8_t buf[RF_HDR_SIZE + RF_NAME_MAX + 1 + 16];
	uint32_t type = type_of(e), next = e->next >= 0 ? lay->v[e->next].off : 0, spec = e->spec;
	size_t len;

	if (e->name_len > RF_NAME_MAX)
		return ff_err_set(s->err, ENAMETOOLONG, "%s: name longer than %d bytes", e->name,
				  RF_NAME_MAX);
	next |= type;
	if ((type == RF_DIR || type == RF_REG) && (e->mode & 0111))
		next |= RF_EXEC;
	if (type == RF_HARDLINK)
		spec = lay->v[e->link].off;
	else if (type == RF_DIR)
		spec = e->first >= 0 ? lay->v[e->first].off : e->off;
	len = rf_header_encode(buf, next, spec, type == RF_HARDLINK ? 0 : e->size, e->name,
			       e->name_len);
	return emit(s, buf, len);
}

static int emit_file(struct sink *s, const struct ff_tree *tree, const struct rw_ent *e)
{
	uint8_t buf[65536];
	struct ff_data *d = ff_tree_open_data(tree, e->node, s->err);
	uint64_t off = 0;

	if (!d)
		return -1;
	while (off < e->size) {
		size_t want = e->size - off < sizeof(buf) ? (size_t)(e->size - off) : sizeof(buf);
		ssize_t got = ff_data_pread(d, buf, want, off, s->err);

		if (got <= 0 || emit(s, buf, (size_t)got)) {
			ff_data_close(d);
			return got == 0 ? ff_err_set(s->err, EIO, "file shrank while read") : -1;
		}
		off += (uint64_t)got;
	}
	ff_data_close(d);
	return emit_zeros(s, rf_pad16(e->size) - e->size);
}

static int emit_ent(struct sink *s, const struct rw_layout *lay, const struct rw_ent *e)
{
	if (emit_zeros(s, e->pad) || emit_header(s, lay, e))
		return -1;
	if (e->link >= 0)
		return 0;
	if (S_ISREG(e->mode) && e->size)
		return emit_file(s, lay->tree, e);
	if (S_ISLNK(e->mode))
		return emit(s, e->node->target, e->size) ||
		       emit_zeros(s, rf_pad16(e->size) - e->size);
	return 0;
}

static int emit_super(struct sink *s, const struct rw_layout *lay)
{
	uint8_t buf[RF_HDR_SIZE + 256 + 16];
	size_t len = strlen(lay->volume), meta = RF_HDR_SIZE + rf_pad16(len + 1);

	memset(buf, 0, meta);
	memcpy(buf, RF_MAGIC, 8);
	ff_put_be32(buf + 8, (uint32_t)lay->cur);
	memcpy(buf + RF_HDR_SIZE, lay->volume, len);
	return emit(s, buf, meta);
}

static int write_all(struct sink *s, const struct rw_layout *lay)
{
	uint64_t end = lay->cur;

	if (emit_super(s, lay))
		return -1;
	for (size_t i = 0; i < lay->n; i++)
		if (emit_ent(s, lay, &lay->v[i]))
			return -1;
	if (end % RF_BLOCK && emit_zeros(s, RF_BLOCK - end % RF_BLOCK))
		return -1;
	/* an image shorter than 512 bytes cannot be: the padding makes 1 KiB */
	return 0;
}

static void count(const struct rw_layout *lay, struct ff_romfs_write_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->entries = lay->n;
	for (size_t i = 0; i < lay->n; i++) {
		const struct rw_ent *e = &lay->v[i];

		if (e->link >= 0)
			st->hardlinks += e->name[0] != '.' || e->name_len > 2 ||
					 (e->name_len == 2 && e->name[1] != '.');
		else if (S_ISDIR(e->mode))
			st->dirs++;
		else if (S_ISREG(e->mode))
			st->files++;
		else if (S_ISLNK(e->mode))
			st->symlinks++;
		else
			st->specials++;
	}
	st->fs_size = lay->cur;
	st->image_bytes = (lay->cur + RF_BLOCK - 1) / RF_BLOCK * RF_BLOCK;
}

static int set_volume(struct rw_layout *lay, const struct ff_romfs_write_opts *o,
		      struct ff_err *err)
{
	const char *v = o->volume;

	if (!v) {
		snprintf(lay->volume, sizeof(lay->volume), "rom %08lx",
			 o->have_volume_time ? (unsigned long)o->volume_time
					     : (unsigned long)time(NULL));
		return 0;
	}
	if (strlen(v) >= sizeof(lay->volume))
		return ff_err_set(err, EINVAL, "volume name longer than %zu bytes",
				  sizeof(lay->volume) - 1);
	strcpy(lay->volume, v);
	return 0;
}

int ff_romfs_write_file(const struct ff_tree *tree, const struct ff_romfs_write_opts *o,
			const char *path, struct ff_romfs_write_stats *st, struct ff_err *err)
{
	struct rw_layout lay = { .tree = tree, .o = o, .err = err };
	struct sink *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return ff_err_set(err, ENOMEM, "out of memory");
	s->err = err;
	s->of.fd = -1;
	s->to_stdout = !strcmp(path, "-");
	rc = set_volume(&lay, o, err) || rw_layout_build(&lay);
	if (!rc) {
		s->sum_bytes = lay.cur < RF_SUM_BYTES ? (uint32_t)lay.cur : RF_SUM_BYTES;
		rc = (!s->to_stdout && ff_outfile_open(&s->of, path, err)) || write_all(s, &lay);
		if (!rc && !s->to_stdout)
			rc = ff_outfile_commit(&s->of, err);
		else if (!s->to_stdout)
			ff_outfile_abort(&s->of);
	}
	if (!rc && st)
		count(&lay, st);
	rw_layout_free(&lay);
	free(s);
	return rc ? -1 : 0;
}
