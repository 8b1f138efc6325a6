/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ff_cramfs_write: plan the header (pad, superblock, inserted file,
 * listings), stream the data after it, then fill in the superblock and
 * its CRC (the header's CRC combined with the data's) and write the
 * header over the room left for it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/endian.h"
#include "cramfs/inode.h"
#include "cramfs/super.h"
#include "cramfs/write_priv.h"

/* -i FILE: its bytes, padded to 4, between the superblock and the root
 * listing; *len is the padded length. */
static int read_insert(const char *path, uint8_t **buf, uint32_t *len, struct ff_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return ff_err_sys(err, errno, "-i %s", path);
	}
	if (st.st_size > (off_t)CR_OFFSET_MAX) {
		close(fd);
		return ff_err_set(err, EFBIG, "-i %s: %lld bytes, too large", path,
				  (long long)st.st_size);
	}
	*len = ((uint32_t)st.st_size + 3) & ~3u;
	*buf = calloc(1, *len ? *len : 1);
	got = *buf ? pread(fd, *buf, (size_t)st.st_size, 0) : -1;
	close(fd);
	if (got != st.st_size) {
		free(*buf);
		return ff_err_sys(err, got < 0 ? errno : EIO, "-i %s: read", path);
	}
	return 0;
}

static void warn_limits(struct cw *w)
{
	static const char *const what[] = {
		"names cut to 255 bytes",
		("names of 253-255 bytes, whose length field (6 bits) overflows as mkfs.cramfs'"
		 " does"),
		"file sizes cut to 16 MiB - 1",
		"uids cut to 16 bits", "gids cut to 8 bits", "device numbers cut to 12 bits each",
	};
	unsigned hit = 0;

	for (const struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		const struct ff_node *m = cw_meta(n);

		/* bit 0 (names cut) stays clear: a tree name is at most
		 * FF_NAME_MAX = CW_NAME_MAX bytes (cw_name_len) */
		hit |= (n->name_len > 252) << 1;
		hit |= (S_ISREG(m->mode) && m->size > 0xffffff) << 2 | (m->uid > 0xffff) << 3;
		hit |= (m->gid > 0xff) << 4;
		hit |= ((S_ISCHR(m->mode) || S_ISBLK(m->mode)) &&
			(m->rdev_major > 0xfff || m->rdev_minor > 0xfff)) << 5;
	}
	for (unsigned i = 0; i < 6; i++)
		if (hit >> i & 1) {
			ff_warnf(w->o->warn, w->o->warn_ctx, FF_WARN_CONVERTED, NULL, "%s", what[i]);
			w->st->warnings++;
		}
}

static void fill_super(struct cw *w, uint32_t insert_len, uint64_t total)
{
	const struct ff_node *root = ff_tree_root(w->tree);
	const char *name = w->o->name ? w->o->name : "Compressed";
	struct cr_super sb = { .big = w->o->big_endian, .size = (uint32_t)total,
			       .edition = w->o->edition, .blocks = w->st->blocks,
			       .files = w->n };

	sb.flags = CR_FLAG_FSID_V2 | CR_FLAG_SORTED_DIRS | (w->o->holes ? CR_FLAG_HOLES : 0) |
		   (insert_len ? CR_FLAG_SHIFTED_ROOT : 0);
	memcpy(sb.signature, CR_SIGNATURE, 16);
	/* up to 16 bytes with the NUL when it fits, as mkfs.cramfs copies */
	memcpy(sb.name, name, strlen(name) + 1 < 16 ? strlen(name) + 1 : 16);
	sb.root = (struct cr_inode){ .mode = root->mode, .uid = root->uid, .gid = root->gid,
				     .size = w->root_size, .offset = w->listings_at };
	cr_super_encode(&sb, w->hdr + (w->o->pad ? CR_PAD_SIZE : 0));
}

static int finish(struct cw *w, uint32_t insert_len, struct ff_err *err)
{
	uint32_t start = w->o->pad ? CR_PAD_SIZE : 0, bs = w->o->blksize;
	uint64_t total = (w->pos + bs - 1) / bs * bs;
	uLong crc;

	if (cw_zeros(w, total - w->pos, err))
		return -1;
	if (total > UINT32_MAX)
		return ff_err_set(err, EFBIG, "image of %llu bytes: too large",
				  (unsigned long long)total);
	cw_fill_listings(w); /* now that the data offsets are known */
	fill_super(w, insert_len, total);
	crc = crc32(crc32(0L, Z_NULL, 0), w->hdr + start, w->hdr_len - start);
	crc = crc32_combine(crc, w->crc, (z_off_t)(total - w->hdr_len));
	ff_put32(w->hdr + start + CR_CRC_AT, (uint32_t)crc, w->o->big_endian);
	w->st->crc = (uint32_t)crc;
	w->st->bytes = total;
	return ff_outfile_pwrite(&w->out, w->hdr, w->hdr_len, 0, err);
}

static int setup(struct cw *w, uint8_t **insert, uint32_t *insert_len, struct ff_err *err)
{
	uint32_t start = w->o->pad ? CR_PAD_SIZE : 0, bs = w->o->blksize;

	if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
		return ff_err_set(err, EINVAL, "block size %u: a power of two 512..65536", bs);
	if (w->o->insert && read_insert(w->o->insert, insert, insert_len, err))
		return -1;
	w->n = ff_tree_count(w->tree);
	w->e = calloc((size_t)w->n + 1, sizeof(*w->e));
	w->in2 = malloc(2 * 65536);
	if (!w->e || !w->in2)
		return ff_err_set(err, ENOMEM, "out of memory");
	w->listings_at = start + CR_SUPER_SIZE + *insert_len;
	if (cw_plan(w, err))
		return -1;
	w->hdr = calloc(1, w->hdr_len);
	if (!w->hdr)
		return ff_err_set(err, ENOMEM, "out of memory (%u bytes of listings)", w->hdr_len);
	if (*insert_len)
		memcpy(w->hdr + start + CR_SUPER_SIZE, *insert, *insert_len);
	return 0;
}

static void release(struct cw *w, uint8_t *insert)
{
	free(insert);
	free(w->e);
	free(w->in2);
	free(w->hdr);
	ff_vec_free(&w->buf);
	ff_hmap_clear(&w->sizes, NULL);
	ff_hmap_clear(&w->reps, NULL);
}

int ff_cramfs_write(const struct ff_tree *tree, const struct ff_cramfs_write_opts *o,
		    const char *path, struct ff_cramfs_write_stats *st, struct ff_err *err)
{
	struct cw w = { .tree = tree, .o = o, .st = st, .buf = FF_VEC_INIT(uint8_t) };
	uint8_t *insert = NULL;
	uint32_t insert_len = 0;
	int r;

	memset(st, 0, sizeof(*st));
	w.crc = crc32(0L, Z_NULL, 0);
	r = setup(&w, &insert, &insert_len, err);
	if (!r)
		warn_limits(&w);
	if (!r)
		r = ff_outfile_open(&w.out, path, err);
	if (!r) {
		w.pos = w.hdr_len;
		r = ff_outfile_skip(&w.out, w.hdr_len, err) || cw_write_data(&w, err) ||
		    finish(&w, insert_len, err) ? -1 : ff_outfile_commit(&w.out, err);
		if (r)
			ff_outfile_abort(&w.out);
	}
	st->inodes = w.n;
	release(&w, insert);
	return r;
}
