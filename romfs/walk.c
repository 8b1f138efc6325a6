/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The open-time walk over every directory chain, breadth first from the
 * root.  Bounds: a header offset is listed in at most one chain (a second
 * meeting is a loop), a directory is walked under one parent only, and a
 * hard link is followed at most RF_LINK_HOPS times, so the work is bounded
 * by the image's size / 32 headers whatever the image says. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/problems.h"
#include "romfs/reader.h"

#define RF_LINK_HOPS 32

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

static void count_type(struct rf_counts *n, uint8_t type)
{
	uint64_t *by[8] = { NULL, &n->dirs, &n->files, &n->symlinks, &n->blkdevs, &n->chrdevs,
			    &n->sockets, &n->fifos };

	if (by[type])
		(*by[type])++;
}

/* The object of a resolved header, created on first sight: *idx. */
static int get_obj(struct rf_fs *r, const struct rf_header *h, uint32_t *idx)
{
	struct rf_obj *o;
	uint64_t v;

	if (ff_hmap_find(&r->by_off, &h->off, sizeof(h->off), &v)) {
		*idx = (uint32_t)(v - 1);
		return 0;
	}
	if (grow((void **)&r->objs, &r->cap_objs, r->n_objs + 1, sizeof(*r->objs)))
		return -1;
	*idx = (uint32_t)r->n_objs;
	o = &r->objs[r->n_objs++];
	memset(o, 0, sizeof(*o));
	*o = (struct rf_obj){ .off = h->off, .data = h->data, .size = h->size, .spec = h->spec,
			      .type = h->type, .exec = h->exec, .meta = h->data - h->off,
			      .nlink = h->type == RF_DIR ? 2 : 0 };
	count_type(&r->n, h->type);
	if (ff_hmap_set(&r->by_off, &h->off, sizeof(h->off), (uint64_t)*idx + 1))
		return -1;
	if ((h->type == RF_REG || h->type == RF_SYMLINK) && (uint64_t)h->data + h->size > r->limit) {
		o->data_bad = 1;
		return ff_problem_add_flag(&r->problems, 1,
					   "%s at offset %u: %u data bytes at offset %u run past"
					   " the end of the image (%u bytes)",
					   h->type == RF_REG ? "file" : "symlink", h->off, h->size,
					   h->data, r->limit);
	}
	return 0;
}

/* Follows hard links from the header h (read at its offset) to the object. */
static int resolve(struct rf_fs *r, const struct rf_header *h, struct rf_header *t,
		   struct ff_err *err)
{
	*t = *h;
	for (int hops = 0; t->type == RF_HARDLINK; hops++) {
		uint32_t to = t->spec & RF_OFF_MASK;

		if (hops == RF_LINK_HOPS)
			return ff_err_set(err, EIO, "hard link at offset %u: more than %d links in a"
					  " chain (a loop?)", h->off, RF_LINK_HOPS);
		if (to >= r->limit)
			return ff_err_set(err, EIO, "hard link at offset %u: target %u past the end of"
					  " the image (%u bytes)", t->off, to, r->limit);
		if (rf_header_read(r->src, r->limit, to, t, err))
			return ff_err_prefix(err, "hard link at offset %u", h->off);
	}
	return 0;
}

static int add_name(struct rf_fs *r, const struct rf_header *h, uint32_t obj)
{
	struct rf_dirent *e;

	if (grow((void **)&r->ents, &r->cap_ents, r->n_ents + 1, sizeof(*r->ents)) ||
	    grow((void **)&r->names, &r->names_cap, r->names_len + h->name_len, 1))
		return -1;
	e = &r->ents[r->n_ents++];
	e->name = (uint32_t)r->names_len;
	e->len = h->name_len;
	e->obj = obj;
	e->hdr = h->off;
	memcpy(r->names + r->names_len, h->name, h->name_len);
	r->names_len += h->name_len;
	return 0;
}

/* "." must name the directory, ".." its parent: only checked, never listed. */
static int check_dot(struct rf_fs *r, uint32_t dir, const struct rf_header *h,
		     const struct rf_header *t)
{
	const struct rf_obj *d = &r->objs[dir];
	uint32_t want = h->name_len == 1 ? d->off : r->objs[d->parent].off;

	if (t->off == want)
		return 0;
	return ff_problem_add_flag(&r->problems, 0,
				   "directory at offset %u: \"%s\" at offset %u names offset %u,"
				   " not %u", d->off, h->name, h->off, t->off, want);
}

static int is_dot(const struct rf_header *h)
{
	return (h->name_len == 1 && h->name[0] == '.') ||
	       (h->name_len == 2 && h->name[0] == '.' && h->name[1] == '.');
}

/* One entry of directory dir: listed, or a problem.  *queue gets a
 * subdirectory to walk later. */
static int take_entry(struct rf_fs *r, uint32_t dir, const struct rf_header *h,
		      uint32_t **queue, size_t *qn, size_t *qcap)
{
	struct ff_err err = { 0, "" };
	struct rf_header t;
	uint32_t idx;
	struct rf_obj *o;

	if (!h->name_len || memchr(h->name, '/', h->name_len))
		return ff_problem_add_flag(&r->problems, 1,
					   "directory at offset %u: entry at offset %u has the name"
					   " \"%s\", which no path can hold", r->objs[dir].off,
					   h->off, h->name);
	if (resolve(r, h, &t, &err))
		return ff_problem_add_flag(&r->problems, 1, "directory at offset %u: %s",
					   r->objs[dir].off, err.msg);
	if (is_dot(h))
		return check_dot(r, dir, h, &t);
	if (get_obj(r, &t, &idx))
		return -1;
	o = &r->objs[idx];
	if (o->type == RF_DIR && o->walked)
		return ff_problem_add_flag(&r->problems, 1,
					   "directory at offset %u: entry \"%s\" names the directory"
					   " at offset %u, already listed elsewhere (a loop or a"
					   " second name)", r->objs[dir].off, h->name, o->off);
	if (o->type == RF_DIR) {
		o->walked = 1;
		o->parent = dir;
		r->objs[dir].nlink++;
		if (grow((void **)queue, qcap, *qn + 1, sizeof(**queue)))
			return -1;
		(*queue)[(*qn)++] = idx;
	} else {
		o->nlink++;
	}
	r->n.hardlinks += h->type == RF_HARDLINK;
	return add_name(r, h, idx);
}

/* Lists directory dir's chain of entries. */
static int walk_dir(struct rf_fs *r, uint32_t dir, uint32_t **queue, size_t *qn, size_t *qcap)
{
	struct ff_err err = { 0, "" };
	uint32_t off = r->objs[dir].spec & RF_OFF_MASK, d_off = r->objs[dir].off;
	struct rf_header h;

	r->objs[dir].first = (uint32_t)r->n_ents;
	/* genromfs points an empty directory (no "." or "..", left out by -x)
	 * at itself: its own header, already listed under its parent */
	if (off == d_off && ff_hmap_find(&r->listed, &off, sizeof(off), NULL))
		return 0;
	while (off) {
		if (off >= r->limit)
			return ff_problem_add_flag(&r->problems, 1,
						   "directory at offset %u: entry offset %u past the"
						   " end of the image (%u bytes)", d_off, off, r->limit);
		if (ff_hmap_find(&r->listed, &off, sizeof(off), NULL))
			return ff_problem_add_flag(&r->problems, 1,
						   "directory at offset %u: entry at offset %u"
						   " already listed (a loop in the chain)", d_off, off);
		if (ff_hmap_set(&r->listed, &off, sizeof(off), 1))
			return -1;
		if (rf_header_read(r->src, r->limit, off, &h, &err))
			return ff_problem_add_flag(&r->problems, 1, "directory at offset %u: %s",
						   d_off, err.msg);
		r->n.headers++;
		if (!h.sum_ok) {
			r->n.bad_header_sums++;
			if (ff_problem_add_flag(&r->problems, 0,
						"header at offset %u (\"%s\"): bad checksum 0x%08x",
						off, h.name, h.checksum))
				return -1;
		}
		if (take_entry(r, dir, &h, queue, qn, qcap))
			return -1;
		/* entries are counted as listed so far, whatever follows */
		r->objs[dir].count = (uint32_t)r->n_ents - r->objs[dir].first;
		off = h.next;
	}
	return 0;
}

static int root_dir(struct rf_fs *r, uint32_t *idx, struct ff_err *err)
{
	struct rf_header h, t;

	if (rf_header_read(r->src, r->limit, r->sb.root, &h, err) || resolve(r, &h, &t, err))
		return ff_err_prefix(err, "root directory");
	if (t.type != RF_DIR)
		return ff_err_set(err, EIO, "root directory: the header at offset %u is of type %u,"
				  " not a directory", t.off, t.type);
	if (get_obj(r, &t, idx))
		return ff_err_set(err, ENOMEM, "out of memory");
	r->objs[*idx].walked = 1;
	r->objs[*idx].parent = *idx;
	return 0;
}

static int cmp_ent(const void *a, const void *b, void *ctx)
{
	const struct rf_fs *r = ctx;
	const struct rf_dirent *x = &r->ents[*(const uint32_t *)a];
	const struct rf_dirent *y = &r->ents[*(const uint32_t *)b];
	return ff_bytes_cmp(r->names + x->name, x->len, r->names + y->name, y->len);
}

/* Each directory's entries by name, for lookup. */
static int sort_dirs(struct rf_fs *r)
{
	r->sorted = malloc((r->n_ents ? r->n_ents : 1) * sizeof(*r->sorted));
	if (!r->sorted)
		return -1;
	for (size_t i = 0; i < r->n_ents; i++)
		r->sorted[i] = (uint32_t)i;
	for (size_t i = 0; i < r->n_objs; i++) {
		const struct rf_obj *o = &r->objs[i];

		if (o->type == RF_DIR && o->count > 1)
			qsort_r(r->sorted + o->first, o->count, sizeof(*r->sorted), cmp_ent, r);
	}
	return 0;
}

int rf_walk(struct rf_fs *r, struct ff_err *err)
{
	uint32_t *queue = NULL, root;
	size_t qn = 0, qcap = 0;
	int rc = 0;

	if (root_dir(r, &root, err))
		return -1;
	if (grow((void **)&queue, &qcap, 1, sizeof(*queue)))
		return ff_err_set(err, ENOMEM, "out of memory");
	queue[qn++] = root;
	for (size_t i = 0; i < qn && !rc; i++)
		rc = walk_dir(r, queue[i], &queue, &qn, &qcap);
	free(queue);
	if (rc || sort_dirs(r))
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}

void rf_walk_free(struct rf_fs *r)
{
	ff_problem_list_free(&r->problems);
	free(r->objs);
	free(r->ents);
	free(r->names);
	free(r->sorted);
	ff_hmap_clear(&r->by_off, NULL);
	ff_hmap_clear(&r->listed, NULL);
}
