/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBIFS builder (writer.h): the tree in pre-order, each directory's
 * entries then its inode, each file's data blocks then its inode, all
 * through the ordered pipeline to the head; then the GC LEB, the index,
 * and last the fixed areas (superblock, master nodes, log, LPT, orphans),
 * which depend on everything after them and go in front of the main area
 * written so far. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

static uint64_t inum_of(const struct ff_node *n)
{
	if (ff_node_link(n))
		n = ff_node_link(n);
	return n->parent ? UW_FIRST_INO + n->index - 1 : UBIFS_ROOT_INO;
}

static uint8_t itype_of(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return UBIFS_ITYPE_DIR;
	case S_IFLNK: return UBIFS_ITYPE_LNK;
	case S_IFBLK: return UBIFS_ITYPE_BLK;
	case S_IFCHR: return UBIFS_ITYPE_CHR;
	case S_IFIFO: return UBIFS_ITYPE_FIFO;
	case S_IFSOCK: return UBIFS_ITYPE_SOCK;
	default: return UBIFS_ITYPE_REG;
	}
}

static int put_inode(struct uw *w, struct uw_job *j, const struct ff_node *n, uint64_t size,
		     const void *data, uint32_t data_len, struct ff_err *err)
{
	struct uw_ino_attr a = { inum_of(n), size, n->mtime, ff_node_nlink(n), n->uid, n->gid, n->mode,
				 w->o->compr != UBIFS_COMPR_NONE ? UW_COMPR_FL : 0,
				 (uint32_t)w->o->compr, data, data_len, w->xs_cnt, w->xs_size,
				 w->xs_names };

	if (a.inum > w->highest_inum)
		w->highest_inum = a.inum;
	*j = (struct uw_job){ .inum = (uint32_t)a.inum };
	j->len = uw_ino_encode(&a, j->node);
	w->st->inodes++;
	return uw_pipe_made(w, j, UBIFS_INO_NODE, err);
}

static int put_dir(struct uw *w, struct uw_job *j, const struct ff_node *n, struct ff_err *err)
{
	uint64_t size = UBIFS_INO_NODE_SZ;

	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct ff_node *c = n->children[i];
		const struct ff_node *p = ff_node_primary(c);

		*j = (struct uw_job){ .inum = (uint32_t)inum_of(n), .name = ff_node_name(c),
				      .nlen = c->name_len };
		j->len = uw_dent_encode(w->o->key_hash, UBIFS_DENT_NODE, inum_of(n),
					ff_node_name(c), c->name_len, inum_of(c),
					itype_of(p->mode), j->node, &j->lo);
		if (uw_pipe_made(w, j, UBIFS_DENT_NODE, err))
			return -1;
		size += UW_ALIGN(UBIFS_DENT_NODE_SZ + c->name_len + 1, 8);
	}
	return put_inode(w, j, n, size, NULL, 0, err);
}

static int all_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && !memcmp(p, p + 1, n - 1));
}

#define READ_BLOCKS 16u /* a file is read 64 KiB at a time */

/* Blocks [b, b + READ_BLOCKS) of the file into w->rbuf; their bytes. */
static int read_chunk(struct uw *w, struct ff_data *d, const struct ff_node *n, uint64_t b,
		      uint32_t *got, struct ff_err *err)
{
	uint64_t off = b * UBIFS_BLOCK_SIZE, left = n->size - off;
	uint32_t want = left < READ_BLOCKS * UBIFS_BLOCK_SIZE ? (uint32_t)left
							     : READ_BLOCKS * UBIFS_BLOCK_SIZE;
	ssize_t r = ff_data_pread(d, w->rbuf, want, off, err);

	if (r != (ssize_t)want)
		return r < 0 ? -1 : ff_err_set(err, EIO, "file shrank while read");
	*got = want;
	return 0;
}

/* Each 4 KiB block not all zeros (holes have no node) to the pipeline. */
static int put_blocks(struct uw *w, struct uw_job *j, const struct ff_node *n,
		      struct ff_data *d, struct ff_err *err)
{
	uint64_t blocks = (n->size + UBIFS_BLOCK_SIZE - 1) / UBIFS_BLOCK_SIZE;
	uint32_t got = 0;

	for (uint64_t b = 0; b < blocks; b++) {
		uint32_t at = (uint32_t)(b % READ_BLOCKS) * UBIFS_BLOCK_SIZE;
		uint32_t want;

		if (at == 0 && read_chunk(w, d, n, b, &got, err))
			return -1;
		want = got - at < UBIFS_BLOCK_SIZE ? got - at : UBIFS_BLOCK_SIZE;
		if (all_zero(w->rbuf + at, want))
			continue;
		*j = (struct uw_job){ .inum = (uint32_t)inum_of(n),
				      .lo = ((uint32_t)UBIFS_DATA_NODE << 29) | (uint32_t)b };
		memcpy(j->in, w->rbuf + at, want);
		j->in_len = want;
		j->sqnum = ++w->sqnum;
		if (uw_pipe_submit(w, j, err))
			return -1;
	}
	return 0;
}

static int put_file(struct uw *w, struct uw_job *j, const struct ff_tree *t,
		    const struct ff_node *n, struct ff_err *err)
{
	struct ff_data *d = n->size ? ff_tree_open_data(t, n, err) : NULL;
	int r;

	if (n->size && !d)
		return -1;
	if ((n->size + UBIFS_BLOCK_SIZE - 1) / UBIFS_BLOCK_SIZE > 0x1fffffffull + 1ull) {
		ff_data_close(d);
		return ff_err_set(err, EFBIG, "file of %llu bytes: too big for UBIFS",
				  (unsigned long long)n->size);
	}
	r = n->size ? put_blocks(w, j, n, d, err) : 0;
	ff_data_close(d);
	return r ? -1 : put_inode(w, j, n, n->size, NULL, 0, err);
}

/* The kernel's new_encode_dev, as it stores a device number (4 bytes). */
static int put_special(struct uw *w, struct uw_job *j, const struct ff_node *n,
		       struct ff_err *err)
{
	uint8_t dev[4];

	if (S_ISLNK(n->mode)) {
		size_t len = strlen(n->target);

		if (len > UBIFS_MAX_INO_DATA)
			return ff_err_set(err, ENAMETOOLONG, "symlink target of %zu bytes (max %u)",
					  len, UBIFS_MAX_INO_DATA);
		return put_inode(w, j, n, len, n->target, (uint32_t)len, err);
	}
	if (S_ISCHR(n->mode) || S_ISBLK(n->mode)) {
		ff_put_le32(dev, (n->rdev_minor & 0xff) | (n->rdev_major << 8) |
				 ((n->rdev_minor & ~0xffu) << 12));
		return put_inode(w, j, n, 0, dev, 4, err);
	}
	return put_inode(w, j, n, 0, NULL, 0, err);
}

static int put_node(struct uw *w, struct uw_job *j, const struct ff_tree *t,
		    const struct ff_node *n, struct ff_err *err)
{
	char path[4096];
	int r;

	if (ff_node_link(n))
		return 0; /* another name: only its entry */
	if (uw_put_xattrs(w, j, n, inum_of(n), err))
		r = -1;
	else if (S_ISDIR(n->mode))
		r = put_dir(w, j, n, err);
	else if (S_ISREG(n->mode))
		r = put_file(w, j, t, n, err);
	else
		r = put_special(w, j, n, err);
	if (r && n->parent && ff_node_path(n, path, sizeof(path)) == 0) {
		char msg[FF_ERR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		ff_err_set(err, err->code, "%s: %s", path, msg);
	}
	return r;
}

static int write_tree(struct uw *w, const struct ff_tree *t, struct ff_err *err)
{
	struct uw_job *j = malloc(sizeof(*j));
	int r = 0;

	w->rbuf = malloc(READ_BLOCKS * UBIFS_BLOCK_SIZE);
	if (!j || !w->rbuf) {
		free(j);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	for (const struct ff_node *n = ff_tree_root(t); n && !r; n = ff_tree_next(t, n))
		r = put_node(w, j, t, n, err);
	free(j);
	return r ? -1 : uw_pipe_drain(w, err);
}

/* A fixed-area LEB holding one node, as mkfs.ubifs' write_node: the node,
 * padding to the min. I/O unit, then erased. */
static void fixed_leb(const struct uw *w, uint8_t *leb, uint32_t len)
{
	uint32_t alen = UW_ALIGN(len, 8), wlen = UW_ALIGN(len, w->g.min_io);

	uw_pad(leb + alen, wlen - alen);
}

static void make_uuid(struct uw *w)
{
	uint8_t *u = w->st->uuid;

	if (w->o->have_uuid) {
		memcpy(u, w->o->uuid, 16);
		return;
	}
	ff_put_le64(u, w->hash[0]);
	ff_put_le64(u + 8, w->hash[1]);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x80); /* version 8: made from the content */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

static int write_fixed(struct uw *w, struct ff_err *err)
{
	const struct uw_geom *g = &w->g;
	size_t size = (size_t)g->main_first * g->leb_size;
	uint8_t *a = malloc(size);
	uint8_t *lp = a + (size_t)g->lpt_first * g->leb_size;
	uint32_t len;
	int r;

	if (!a)
		return ff_err_set(err, ENOMEM, "out of memory for %zu bytes of fixed areas", size);
	memset(a, 0xff, size);
	if (uw_lpt_build(g, w->lp.data, (uint32_t)w->lp.len, lp, &w->lpt, err)) {
		free(a);
		return -1;
	}
	make_uuid(w);
	len = uw_master_encode(w, a + g->leb_size);
	uw_node_finish(a + g->leb_size, len, UBIFS_MST_NODE, ++w->sqnum);
	fixed_leb(w, a + g->leb_size, len);
	memcpy(a + 2 * (size_t)g->leb_size, a + g->leb_size, g->leb_size);
	len = uw_super_encode(w, a);
	uw_node_finish(a, len, UBIFS_SB_NODE, ++w->sqnum);
	fixed_leb(w, a, len);
	len = uw_cs_encode(a + (size_t)UBIFS_LOG_LNUM * g->leb_size);
	uw_node_finish(a + (size_t)UBIFS_LOG_LNUM * g->leb_size, len, UBIFS_CS_NODE, ++w->sqnum);
	fixed_leb(w, a + (size_t)UBIFS_LOG_LNUM * g->leb_size, len);
	r = ff_outfile_pwrite(&w->out, a, size, 0, err);
	free(a);
	return r;
}

static void totals(struct uw *w)
{
	const struct uw_lprops *lp = w->lp.data;

	for (size_t i = 0; i < w->lp.len; i++)
		uw_lprops_total(&w->g, &lp[i], &w->lst);
}

static void fill_stats(const struct uw *w, struct ff_ubifs_write_stats *st)
{
	st->leb_cnt = w->leb_cnt;
	st->main_lebs = w->leb_cnt - w->g.main_first;
	st->log_lebs = w->g.log_lebs;
	st->lpt_lebs = w->g.lpt_lebs;
	st->orph_lebs = w->g.orph_lebs;
	st->idx_lebs = w->lst.idx_lebs;
	st->max_bud_bytes = w->g.max_bud_bytes;
	st->bytes = (uint64_t)w->leb_cnt * w->g.leb_size;
	st->big_lpt = w->g.big_lpt;
}

static int build(struct uw *w, const struct ff_tree *t, const char *path, struct ff_err *err)
{
	if (ff_outfile_open(&w->out, path, err))
		return -1;
	if (ff_outfile_skip(&w->out, (uint64_t)w->g.main_first * w->g.leb_size, err) ||
	    uw_pipe_start(w, err) || write_tree(w, t, err) || uw_head_flush(w, err))
		return -1;
	uw_pipe_stop(w);
	w->gc_lnum = w->head_lnum;
	if (uw_head_empty_leb(w, err) || uw_index_write(w, err))
		return -1;
	w->leb_cnt = w->head_lnum;
	totals(w);
	if (write_fixed(w, err))
		return -1;
	fill_stats(w, w->st);
	if (w->o->keep)
		return ff_outfile_detach(&w->out, w->o->keep, err);
	return ff_outfile_commit(&w->out, err);
}

int ff_ubifs_write(const struct ff_tree *t, const struct ff_ubifs_write_opts *o,
		   const char *path, struct ff_ubifs_write_stats *st, struct ff_err *err)
{
	struct uw w;
	int r;

	memset(&w, 0, sizeof(w));
	memset(st, 0, sizeof(*st));
	w.o = o;
	w.st = st;
	w.out.fd = -1;
	ff_vec_init(&w.lp, sizeof(struct uw_lprops));
	ff_vec_init(&w.idx, sizeof(struct uw_ient));
	ff_vec_init(&w.spare, sizeof(struct uw_batch *));
	if (uw_geom_init(&w.g, o, err))
		return -1;
	w.highest_inum = UW_FIRST_INO;
	w.next_xinum = UW_FIRST_INO + ff_tree_count(t);
	w.head_lnum = w.g.main_first;
	w.leb = malloc(w.g.leb_size);
	if (!w.leb)
		return ff_err_set(err, ENOMEM, "out of memory for a LEB");
	memset(w.leb, 0xff, w.g.leb_size);
	r = build(&w, t, path, err);
	if (r)
		ff_outfile_abort(&w.out);
	uw_pipe_stop(&w);
	free(w.rbuf);
	free(w.leb);
	ff_vec_free(&w.lp);
	ff_vec_free(&w.idx);
	return r;
}
