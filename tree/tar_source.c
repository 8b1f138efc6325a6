/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tar source: walks the archive's headers (ustar, GNU long names and
 * sparse files, PAX; decoded by tar/), and puts each member into the tree.  File contents go
 * to the tree's spool; a later member of the same path replaces an earlier
 * one, as extraction would. */
#include "tar/tar.h"
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define META_MAX (16u << 20) /* long names and PAX headers */

struct tar_ctx {
	struct ff_tree *tree;
	struct tar_stream s;
	struct ff_err *err;
	struct tar_pax global, local;
	char *longname, *longlink;
	uint64_t hdr_off;      /* where the current member's header started */
};

/* The member whose data we are in: its final name and attributes. */
struct member {
	struct tar_header h;
	char *path;            /* normalised, malloc'd */
	const char *link;      /* raw link name */
	uint64_t stored;       /* bytes of data in the archive */
	int sparse;            /* 0, or the map in m */
	struct tar_sparse m;
};

static uint64_t padding(uint64_t n)
{
	return (TAR_BLOCK - n % TAR_BLOCK) % TAR_BLOCK;
}

static int read_meta(struct tar_ctx *c, const struct tar_header *h, char **out)
{
	char *buf;

	if (h->size > META_MAX)
		return ff_err_set(c->err, E2BIG, "%s: header at offset %llu: extended header of %llu bytes "
				  "(max %u)", c->s.name, (unsigned long long)c->hdr_off,
				  (unsigned long long)h->size, META_MAX);
	buf = malloc(h->size + 1);
	if (!buf)
		return ff_err_set(c->err, ENOMEM, "%s: out of memory", c->s.name);
	if (tar_stream_read(&c->s, buf, h->size, 0, c->err) ||
	    tar_stream_skip(&c->s, padding(h->size), c->err)) {
		free(buf);
		return -1;
	}
	buf[h->size] = '\0';
	*out = buf;
	return 0;
}

static int long_name(struct tar_ctx *c, const struct tar_header *h, char **slot)
{
	char *v;

	if (read_meta(c, h, &v))
		return -1;
	free(*slot);
	*slot = v;
	return 0;
}

static int pax_header(struct tar_ctx *c, const struct tar_header *h, struct tar_pax *p)
{
	char *buf;
	int rc;

	if (read_meta(c, h, &buf))
		return -1;
	rc = tar_pax_parse(p, buf, h->size, c->err);
	free(buf);
	if (rc)
		ff_err_prefix(c->err, "%s: header at offset %llu", c->s.name,
			      (unsigned long long)c->hdr_off);
	return rc;
}

static int member_error(struct tar_ctx *c, const char *name)
{
	return ff_err_prefix(c->err, "%s: member \"%s\"", c->s.name, name);
}

/* Apply header < global PAX < local PAX precedence; a global header
 * cannot name one member's size or link. */
static void apply_pax(struct member *m, const struct tar_pax *p, int local)
{
	if (p->has_uid)
		m->h.uid = p->uid;
	if (p->has_gid)
		m->h.gid = p->gid;
	if (p->has_mtime)
		m->h.mtime = p->mtime;
	if (local && p->has_size)
		m->stored = p->size;
	if (local && p->linkpath)
		m->link = p->linkpath;
}

static int take_sparse(struct tar_ctx *c, struct member *m, const uint8_t *blk)
{
	struct tar_pax *p = &c->local;

	if (m->h.type == 'S') {
		m->sparse = 1;
		return tar_sparse_read_gnu(&m->m, blk, &c->s, c->err);
	}
	if (!p->sparse_seen)
		return 0;
	if (!p->sparse.has_realsize)
		return ff_err_set(c->err, EINVAL, "GNU sparse member without a real size");
	m->sparse = p->sparse_major == 1 ? 2 : 1; /* 2: map stored in the data */
	m->m = p->sparse;
	memset(&p->sparse, 0, sizeof(p->sparse));
	return 0;
}

static const char *raw_name(const struct tar_ctx *c, const struct member *m)
{
	if (c->local.sparse_seen && c->local.sparse_name)
		return c->local.sparse_name;
	if (c->local.path)
		return c->local.path;
	if (c->longname)
		return c->longname;
	return m->h.name;
}

static int member_init(struct tar_ctx *c, struct member *m, const uint8_t *blk)
{
	const char *name;
	size_t len;

	m->link = c->longlink ? c->longlink : m->h.linkname;
	m->stored = m->h.size;
	apply_pax(m, &c->global, 0);
	apply_pax(m, &c->local, 1);
	name = raw_name(c, m);
	len = strlen(name);
	/* pre-POSIX archives mark directories by a trailing slash only */
	if ((m->h.type == '0' || m->h.type == '\0') && len && name[len - 1] == '/')
		m->h.type = '5';
	if (!(m->path = strdup(name)))
		return ff_err_set(c->err, ENOMEM, "%s: out of memory", c->s.name);
	if (ff_path_normalise(m->path, c->err) || take_sparse(c, m, blk))
		return member_error(c, name);
	return 0;
}

static uint32_t type_bits(char type)
{
	switch (type) {
	case '2': return S_IFLNK;
	case '3': return S_IFCHR;
	case '4': return S_IFBLK;
	case '5': case 'D': return S_IFDIR;
	case '6': return S_IFIFO;
	default: return S_IFREG;
	}
}

static struct ff_node *member_node(struct tar_ctx *c, struct member *m, uint32_t mode)
{
	if (!*m->path && !S_ISDIR(mode)) {
		ff_err_set(c->err, EINVAL, "the archive root must be a directory");
		return NULL;
	}
	return ff_tree_put_path(c->tree, m->path, mode, c->err);
}

static int copy_data(struct tar_ctx *c, uint64_t dst, uint64_t len)
{
	uint8_t buf[65536];

	while (len) {
		size_t k = len < sizeof(buf) ? (size_t)len : sizeof(buf);

		if (tar_stream_read(&c->s, buf, k, 0, c->err) ||
		    ff_spool_write(c->tree->spool, buf, k, dst, c->err))
			return -1;
		dst += k;
		len -= k;
	}
	return 0;
}

/* Returns the archive bytes consumed. */
static int file_data(struct tar_ctx *c, struct member *m, struct ff_node *n, uint64_t *used)
{
	uint64_t base = 0, map_bytes = 0, data = 0;

	*used = 0;
	if (m->sparse == 2 && tar_sparse_read_v1(&m->m, &c->s, &map_bytes, c->err))
		return -1;
	if (m->sparse && (map_bytes > m->stored ||
			  tar_sparse_check(&m->m, m->stored - map_bytes, c->err)))
		return map_bytes > m->stored ? ff_err_set(c->err, EINVAL, "sparse map larger than member")
					     : -1;
	n->size = m->sparse ? m->m.realsize : m->stored;
	/* a sparse member had holes; any other was stored whole (tree.h) */
	n->dense = !m->sparse;
	if (n->size && (!ff_tree_spool(c->tree, c->err) ||
			ff_spool_region(c->tree->spool, n->size, m->sparse != 0, &base, c->err)))
		return -1;
	ff_node_clear_src(n);
	n->spool_off = base;
	if (!m->sparse) {
		*used = m->stored;
		return copy_data(c, base, m->stored);
	}
	for (size_t i = 0; i < m->m.v.len; i++) {
		const struct tar_chunk *ch = FF_VEC_AT(&m->m.v, struct tar_chunk, i);

		if (copy_data(c, base + ch->off, ch->len))
			return -1;
		data += ch->len;
	}
	*used = map_bytes + data;
	return 0;
}

static int set_xattrs(struct tar_ctx *c, struct ff_node *n)
{
	if (c->tree->opts.no_xattrs)
		return 0;
	for (uint32_t i = 0; i < c->local.n_xattrs; i++) {
		const struct tar_xattr *x = &c->local.xattrs[i];

		if (ff_node_set_xattr(n, x->name, x->value, x->len, c->err))
			return -1;
	}
	return 0;
}

static int hard_link(struct tar_ctx *c, struct member *m)
{
	return ff_tree_put_link(c->tree, m->path, m->link, c->err) ? 0 : -1;
}

static int fill_node(struct tar_ctx *c, struct member *m, uint64_t *used)
{
	uint32_t mode = type_bits(m->h.type) | m->h.mode;
	struct ff_node *n = member_node(c, m, mode);

	*used = 0;
	if (!n)
		return -1;
	n->mode = mode;
	n->uid = m->h.uid;
	n->gid = m->h.gid;
	n->mtime = m->h.mtime;
	if (S_ISLNK(mode) && ff_node_set_target(n, m->link, strlen(m->link), c->err))
		return -1;
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		n->rdev_major = m->h.devmajor;
		n->rdev_minor = m->h.devminor;
	}
	if (set_xattrs(c, n))
		return -1;
	return S_ISREG(mode) ? file_data(c, m, n, used) : 0;
}

static int known_type(char t)
{
	return strchr("01234567DS", t) != NULL || t == '\0';
}

static int member(struct tar_ctx *c, const uint8_t *blk, const struct tar_header *h)
{
	struct member m = { .h = *h };
	uint64_t used = 0;
	int rc;

	if (member_init(c, &m, blk)) {
		free(m.path);
		tar_sparse_free(&m.m);
		return -1;
	}
	if (!known_type(m.h.type))
		ff_tree_warn(c->tree, FF_WARN_CONVERTED, NULL, "%s: member \"%s\": unknown type '%c', stored as a regular file",
			     c->s.name, m.path, m.h.type);
	if (ff_tree_excluded(c->tree, m.path))
		rc = 0;
	else if (m.h.type == '1')
		rc = hard_link(c, &m);
	else
		rc = fill_node(c, &m, &used);
	if (rc)
		member_error(c, m.path);
	else if (tar_stream_skip(&c->s, m.stored - used + padding(m.stored), c->err))
		rc = -1;
	free(m.path);
	tar_sparse_free(&m.m);
	return rc;
}

static void reset_local(struct tar_ctx *c)
{
	tar_pax_free(&c->local);
	free(c->longname);
	free(c->longlink);
	c->longname = c->longlink = NULL;
}

/* One header; returns 1 at the end of the archive. */
static int step(struct tar_ctx *c)
{
	uint8_t blk[TAR_BLOCK];
	struct tar_header h;
	int rc;

	c->hdr_off = c->s.pos;
	rc = tar_stream_read(&c->s, blk, TAR_BLOCK, 1, c->err);
	if (rc)
		return rc;
	rc = tar_header_decode(blk, &h, c->err);
	if (rc < 0)
		return ff_err_prefix(c->err, "%s: header at offset %llu", c->s.name,
				     (unsigned long long)c->hdr_off);
	if (rc == 1)
		return 1; /* a zero block: what follows is padding */
	switch (h.type) {
	case 'L': return long_name(c, &h, &c->longname);
	case 'K': return long_name(c, &h, &c->longlink);
	case 'x': return pax_header(c, &h, &c->local);
	case 'g': return pax_header(c, &h, &c->global);
	case 'V': return tar_stream_skip(&c->s, h.size + padding(h.size), c->err);
	case 'M': case 'N':
		return ff_err_set(c->err, ENOTSUP, "%s: header at offset %llu: GNU type '%c' "
				  "(multi-volume or old long names) is not supported",
				  c->s.name, (unsigned long long)c->hdr_off, h.type);
	}
	rc = member(c, blk, &h);
	reset_local(c);
	return rc;
}

int ff_tree_add_tar(struct ff_tree *tree, const char *path, struct ff_err *err)
{
	struct tar_ctx c = { .tree = tree, .err = err };
	int rc;

	if (ff_tree_check_open(tree, err))
		return -1;
	tar_pax_init(&c.global);
	tar_pax_init(&c.local);
	if (tar_stream_open(&c.s, path, err))
		return -1;
	tree->implied = &tree->opts.tar_dirs; /* -default-mode/-uid/-gid */
	while ((rc = step(&c)) == 0)
		;
	tree->implied = NULL;
	reset_local(&c);
	tar_pax_free(&c.global);
	tar_stream_close(&c.s);
	return rc < 0 ? -1 : 0;
}
