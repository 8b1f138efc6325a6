/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over a UBIFS image.  A handle is the
 * inode number (every name of a hard link gives the same one).  Opening
 * reads the superblock and master node and replays the journal; the index
 * is read lazily after that. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/problems.h"
#include "common/xattr_query.h"
#include "ubifs/ubifs.h"

static struct ubifs_fs *U(struct ff_fs *fs)
{
	return (struct ubifs_fs *)fs;
}

static uint64_t uf_root(struct ff_fs *fs)
{
	(void)fs;
	return UBIFS_ROOT_INO;
}

static int uf_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	struct ubifs_ino ino;
	struct ubifs_dent d;
	int ret = ubifs_read_inode(U(fs), dir, &ino);

	if (ret < 0)
		return ret;
	if (!S_ISDIR(ino.mode))
		return -ENOTDIR;
	if (len == 0 || len > UBIFS_MAX_NLEN)
		return -ENOENT;
	ret = ubifs_lookup_name(U(fs), (uint32_t)dir, UBIFS_DENT_NODE, name, len, &d);
	if (ret < 0)
		return ret;
	*handle = d.inum;
	return 0;
}

static int uf_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(U(fs), h, &ino);

	if (ret < 0)
		return ret;
	memset(st, 0, sizeof(*st));
	st->ino = ino.inum;
	st->mode = ino.mode;
	st->nlink = ino.nlink;
	st->uid = ino.uid;
	st->gid = ino.gid;
	st->size = S_ISLNK(ino.mode) ? ino.data_len : ino.size;
	st->blocks = S_ISREG(ino.mode) ? (ino.size + 511) / 512 : 0;
	st->atime = ino.atime;
	st->mtime = ino.mtime;
	st->ctime = ino.ctime;
	if (S_ISCHR(ino.mode) || S_ISBLK(ino.mode))
		ubifs_ino_rdev(&ino, &st->rdev_major, &st->rdev_minor);
	return 0;
}

static int uf_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	struct ubifs_dlist *l;
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(U(fs), dir, &ino);

	if (ret < 0)
		return ret;
	if (!S_ISDIR(ino.mode))
		return -ENOTDIR;
	if ((ret = ubifs_dir_get(U(fs), dir, &l)) < 0)
		return ret;
	for (uint64_t i = start; i < l->n; i++) {
		const struct ubifs_dl_ent *e = &l->v[i];

		if (fn(ctx, e->name, e->nlen, e->inum, ubifs_itype_mode(e->type), i + 1))
			break;
	}
	ubifs_dir_put(l);
	return 0;
}

static ssize_t uf_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(U(fs), h, &ino);

	if (ret < 0)
		return ret;
	if (S_ISDIR(ino.mode))
		return -EISDIR;
	if (!S_ISREG(ino.mode))
		return -EINVAL;
	return ubifs_read_data(U(fs), &ino, buf, len, off);
}

static ssize_t uf_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(U(fs), h, &ino);

	if (ret < 0)
		return ret;
	if (!S_ISLNK(ino.mode))
		return -EINVAL;
	memcpy(buf, ino.data, ino.data_len < cap ? ino.data_len : cap);
	return (ssize_t)ino.data_len;
}

struct xwalk {
	struct ubifs_fs *u;
	ff_xattr_visit_fn visit;
	void *vctx;
	int err;
};

/* Each xattr entry leads to an inode whose data is the value. */
static int xattr_one(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		     const uint8_t *node)
{
	struct xwalk *w = ctx;
	struct ubifs_dent d;
	struct ubifs_ino ino;
	int ret = ubifs_read_dent(w->u, loc, node, &d);

	(void)k;
	if (!ret)
		ret = ubifs_read_inode(w->u, d.inum, &ino);
	if (ret < 0) {
		ff_fs_log(&w->u->fs, "xattr entry at LEB %u:%u: %s", loc->lnum, loc->offs,
			  ret == -ENOENT ? "its inode is missing" : "unreadable");
		w->err = -EIO;
		return 1;
	}
	return w->visit(w->vctx, d.name, d.nlen, ino.data, ino.data_len);
}

static int uf_xattrs(struct ff_fs *fs, uint64_t h, ff_xattr_visit_fn visit, void *vctx)
{
	struct ubifs_key lo = ubifs_key_make((uint32_t)h, UBIFS_XENT_NODE, 0);
	struct ubifs_key hi = ubifs_key_make((uint32_t)h, UBIFS_XENT_NODE, UBIFS_KEY_VAL_MASK);
	struct xwalk w = { U(fs), visit, vctx, 0 };
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(U(fs), h, &ino);

	if (ret < 0)
		return ret;
	if (!ino.xattr_cnt)
		return 0;
	ret = ubifs_walk(U(fs), &lo, &hi, xattr_one, &w);
	return ret < 0 ? ret : w.err;
}

static int count_ino(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		     const uint8_t *node)
{
	(void)loc;
	(void)node;
	if (UBIFS_KEY_TYPE(*k) == UBIFS_INO_NODE)
		(*(uint64_t *)ctx)++;
	return 0;
}

static int uf_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct ubifs_fs *u = U(fs);
	struct ubifs_key lo = { 0, 0 }, hi = { UINT32_MAX, UINT32_MAX };
	uint64_t n = 0;

	memset(sf, 0, sizeof(*sf));
	sf->block_size = UBIFS_BLOCK_SIZE;
	sf->total_bytes = (uint64_t)u->sb.leb_cnt * u->sb.leb_size;
	sf->image_bytes = u->src->size;
	sf->name_max = UBIFS_MAX_NLEN;
	pthread_mutex_lock(&u->lock);
	n = u->inode_count;
	pthread_mutex_unlock(&u->lock);
	if (!n && ubifs_walk(u, &lo, &hi, count_ino, &n) == 0) {
		pthread_mutex_lock(&u->lock);
		u->inode_count = n;
		pthread_mutex_unlock(&u->lock);
	}
	sf->inodes = n;
	return 0;
}

static void uf_close(struct ff_fs *fs)
{
	struct ubifs_fs *u = U(fs);

	if (!u)
		return;
	ubifs_zcache_clear(u);
	ubifs_wcache_free(u);
	ubifs_zstd_dctx_clear(u);
	ubifs_icache_free(u);
	ubifs_dircache_free(u);
	ff_hmap_free(&u->damaged, NULL);
	ubifs_ov_free(&u->ov);
	ff_problem_list_free(&u->problems);
	free(u->bud_lnum);
	pthread_mutex_destroy(&u->lock);
	ff_bsrc_unref(u->src);
	free(u);
}

static const struct ff_fs_ops ubifs_ops = {
	.format = "ubifs",
	.root = uf_root,
	.lookup = uf_lookup,
	.getattr = uf_getattr,
	.readdir = uf_readdir,
	.read = uf_read,
	.readlink = uf_readlink,
	.xattr_walk = uf_xattrs,
	.listxattr = ff_xattr_walk_list,
	.getxattr = ff_xattr_walk_get,
	.statfs = uf_statfs,
	.info = ubifs_info,
	.check = ubifs_check,
	.open_problems = ubifs_open_problems,
	.close = uf_close,
};

static int refuse_flags(const struct ubifs_super *sb, struct ff_err *err)
{
	if (sb->flags & UBIFS_FLG_AUTHENTICATION)
		return ff_err_set(err, ENOTSUP, "UBIFS: authenticated file system (HMAC, "
				  "superblock flag 0x20): its index carries node hashes this "
				  "reader does not read; not supported");
	if (sb->flags & UBIFS_FLG_ENCRYPTION)
		return ff_err_set(err, ENOTSUP, "UBIFS: encrypted file system (fscrypt, "
				  "superblock flag 0x10): names and data need the owner's keys; "
				  "not supported");
	return 0;
}

static int setup(struct ubifs_fs *u, struct ff_err *err)
{
	uint8_t sbuf[UBIFS_SB_NODE_SZ];

	if (ff_bsrc_read(u->src, sbuf, sizeof(sbuf), 0, err) < 0)
		return -1;
	if (ubifs_super_decode(sbuf, sizeof(sbuf), u->src->size, &u->sb, err) < 0 ||
	    refuse_flags(&u->sb, err) < 0)
		return -1;
	u->orph_first = UBIFS_LOG_LNUM + u->sb.log_lebs + u->sb.lpt_lebs;
	u->main_first = u->orph_first + u->sb.orph_lebs;
	u->max_znode_len = UBIFS_IDX_NODE_SZ + u->sb.fanout * (UBIFS_BRANCH_SZ + UBIFS_SK_LEN);
	if (ubifs_master_read(u, err) < 0 || ubifs_replay(u, err) < 0)
		return -1;
	return 0;
}

static int root_ok(struct ubifs_fs *u, struct ff_err *err)
{
	struct ubifs_ino ino;
	int ret = ubifs_read_inode(u, UBIFS_ROOT_INO, &ino);

	if (ret < 0)
		return ff_err_set(err, EIO, "UBIFS: the root directory (inode 1) %s",
				  ret == -ENOENT ? "is missing" : "cannot be read");
	if (!S_ISDIR(ino.mode))
		return ff_err_set(err, EIO, "UBIFS: inode 1 (the root) is not a directory "
				  "(mode 0%o)", ino.mode);
	return 0;
}

int ubifs_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
	       struct ff_err *err)
{
	struct ubifs_fs *u = calloc(1, sizeof(*u));

	*fs = NULL;
	if (u)
		ff_problem_list_init(&u->problems, UBIFS_PROBLEMS_KEPT);
	/* All the room up front: a reader thread that meets a damaged entry
	 * adds to the list (under u->lock), which then never moves. */
	if (!u || ff_vec_reserve(&u->problems.kept, UBIFS_PROBLEMS_KEPT) < 0) {
		free(u);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	u->fs.ops = &ubifs_ops;
	u->fs.log = opts ? opts->log : NULL;
	u->fs.log_ctx = opts ? opts->log_ctx : NULL;
	u->src = ff_bsrc_ref(src);
	u->cache_budget = opts && opts->cache_bytes ? opts->cache_bytes / 2 : 32u << 20;
	pthread_mutex_init(&u->lock, NULL);
	if (setup(u, err) < 0 || root_ok(u, err) < 0) {
		ff_err_prefix(err, "%s", src->name ? src->name : "image");
		uf_close(&u->fs);
		return -1;
	}
	*fs = &u->fs;
	return 0;
}
