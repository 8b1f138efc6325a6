/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Turning the scanned objects into a directory tree the way the kernel's
 * yaffs does after a scan: hard links point at their target, objects under
 * the unlinked/deleted pseudo directories are gone, orphans go to
 * lost+found, and an empty lost+found without a header stays hidden (the
 * driver's hide_lost_n_found). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "common/problems.h"
#include "yaffs2/scan.h"

static int chunk_cmp(const void *a, const void *b)
{
	const struct ff_y2_chunk *x = a, *y = b;

	if (x->chunk_id != y->chunk_id)
		return x->chunk_id < y->chunk_id ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Sort by chunk id and keep only the newest copy of each. */
static void finish_chunks(struct ff_y2_obj *o)
{
	uint32_t out = 0;

	qsort(o->chunks, o->n_chunks, sizeof(*o->chunks), chunk_cmp);
	for (uint32_t i = 0; i < o->n_chunks; i++) {
		if (out && o->chunks[out - 1].chunk_id == o->chunks[i].chunk_id)
			out--;
		o->chunks[out++] = o->chunks[i];
	}
	o->n_chunks = out;
}

static int fake_dir(struct ff_y2_scan *s, uint32_t id, uint32_t perm, const char *name)
{
	struct ff_y2_obj *o = s->objs[id];

	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return -1;
		o->id = id;
		s->objs[id] = o;
	}
	if (o->has_header && o->type == FF_Y2_TYPE_DIRECTORY)
		return 0;
	if (o->has_header)
		ff_problem_add(&s->problems,
			       "object %u: reserved directory has a header of type %u",
			       id, o->type);
	o->type = FF_Y2_TYPE_DIRECTORY;
	o->fake = !o->has_header;
	o->mode = S_IFDIR | perm;
	o->parent = FF_Y2_OBJID_ROOT;
	free(o->name);
	o->name = strdup(name);
	o->deleted = 0;
	return o->name ? 0 : -1;
}

static int is_live(const struct ff_y2_obj *o)
{
	return o && o->has_header && !o->deleted && o->parent != FF_Y2_OBJID_UNLINKED &&
	       o->parent != FF_Y2_OBJID_DELETED;
}

static int add_child(struct ff_y2_obj *dir, const char *name, uint32_t handle)
{
	if (dir->n_children == dir->cap_children) {
		uint32_t nc = dir->cap_children ? dir->cap_children * 2 : 8;
		struct ff_y2_dirent *nv = realloc(dir->children, nc * sizeof(*nv));

		if (!nv)
			return -1;
		dir->children = nv;
		dir->cap_children = nc;
	}
	dir->children[dir->n_children++] =
		(struct ff_y2_dirent){ name, (uint32_t)strlen(name), handle };
	return 0;
}

/* The object a directory entry for o names (a hard link's target), or 0. */
static uint32_t entry_target(struct ff_y2_scan *s, const struct ff_y2_obj *o)
{
	const struct ff_y2_obj *t;

	if (o->type != FF_Y2_TYPE_HARDLINK)
		return o->id;
	t = o->equiv_id <= FF_Y2_OBJID_MAX ? s->objs[o->equiv_id] : NULL;
	if (!is_live(t) || t->type == FF_Y2_TYPE_HARDLINK || t->type == FF_Y2_TYPE_DIRECTORY) {
		ff_problem_add(&s->problems, "object %u (%s): hard link to missing object %u",
			       o->id, o->name, o->equiv_id);
		return 0;
	}
	return t->id;
}

static struct ff_y2_obj *parent_dir(struct ff_y2_scan *s, struct ff_y2_obj *o)
{
	struct ff_y2_obj *p = o->parent <= FF_Y2_OBJID_MAX ? s->objs[o->parent] : NULL;

	if ((p && p->id <= FF_Y2_OBJID_LOSTNFOUND) ||
	    (is_live(p) && p->type == FF_Y2_TYPE_DIRECTORY))
		return p;
	ff_problem_add(&s->problems,
		       "object %u (%s): parent %u is not a directory; shown in lost+found",
		       o->id, o->name, o->parent);
	return s->objs[FF_Y2_OBJID_LOSTNFOUND];
}

static int link_obj(struct ff_y2_scan *s, struct ff_y2_obj *o)
{
	struct ff_y2_obj *dir;
	uint32_t target;

	if (!o->name[0]) {
		ff_problem_add(&s->problems, "object %u: empty name; not shown", o->id);
		return 0;
	}
	target = entry_target(s, o);
	if (!target)
		return 0;
	dir = parent_dir(s, o);
	s->objs[target]->nlink++;
	if (o->type == FF_Y2_TYPE_DIRECTORY) {
		dir->nlink++; /* its ".." */
		o->nlink++;   /* its "." */
	}
	return add_child(dir, o->name, target);
}

static int dirent_cmp(const void *a, const void *b)
{
	const struct ff_y2_dirent *x = a, *y = b;
	return ff_bytes_cmp(x->name, x->name_len, y->name, y->name_len);
}

static void count(struct ff_y2_scan *s, const struct ff_y2_obj *o)
{
	s->st.objects++;
	switch (o->type) {
	case FF_Y2_TYPE_FILE: s->st.files++; break;
	case FF_Y2_TYPE_DIRECTORY: s->st.dirs++; break;
	case FF_Y2_TYPE_SYMLINK: s->st.symlinks++; break;
	case FF_Y2_TYPE_HARDLINK: s->st.hardlinks++; break;
	default: s->st.specials++; break;
	}
}

/* Mark what the root reaches; directories in a parent loop are not. */
static void mark_visible(struct ff_y2_scan *s, struct ff_y2_obj *dir, unsigned depth)
{
	if (dir->visible || depth > 4096)
		return;
	dir->visible = 1;
	for (uint32_t i = 0; i < dir->n_children; i++) {
		struct ff_y2_obj *c = s->objs[dir->children[i].handle];

		if (c->type == FF_Y2_TYPE_DIRECTORY)
			mark_visible(s, c, depth + 1);
		else
			c->visible = 1;
	}
}

static int link_all(struct ff_y2_scan *s)
{
	for (uint32_t id = FF_Y2_OBJID_LOSTNFOUND + 1; id <= FF_Y2_OBJID_MAX; id++) {
		struct ff_y2_obj *o = s->objs[id];

		if (!o)
			continue;
		if (o->n_chunks)
			finish_chunks(o);
		if (!is_live(o)) {
			if (!o->has_header && o->n_chunks && !o->deleted)
				ff_problem_add(&s->problems,
					       "object %u: %u data chunks but no header;"
					       " not shown", id, o->n_chunks);
			s->st.deleted += o->has_header;
			continue;
		}
		count(s, o);
		if (link_obj(s, o))
			return -1;
	}
	return 0;
}

int ff_y2_tree_build(struct ff_y2_scan *s, struct ff_err *err)
{
	struct ff_y2_obj *root, *lnf;

	if (fake_dir(s, FF_Y2_OBJID_ROOT, 0755, "") ||
	    fake_dir(s, FF_Y2_OBJID_LOSTNFOUND, 0700, "lost+found") || link_all(s))
		return ff_err_set(err, ENOMEM, "out of memory");
	root = s->objs[FF_Y2_OBJID_ROOT];
	lnf = s->objs[FF_Y2_OBJID_LOSTNFOUND];
	if (lnf->n_children || lnf->has_header) {
		if (add_child(root, "lost+found", FF_Y2_OBJID_LOSTNFOUND))
			return ff_err_set(err, ENOMEM, "out of memory");
		root->nlink++;
	}
	root->has_header = lnf->has_header = 1; /* live from here on */
	root->nlink += 2;
	lnf->nlink += 2;
	for (uint32_t id = 1; id <= FF_Y2_OBJID_MAX; id++)
		if (s->objs[id] && s->objs[id]->n_children > 1)
			qsort(s->objs[id]->children, s->objs[id]->n_children,
			      sizeof(struct ff_y2_dirent), dirent_cmp);
	mark_visible(s, root, 0);
	for (uint32_t id = FF_Y2_OBJID_LOSTNFOUND + 1; id <= FF_Y2_OBJID_MAX; id++) {
		struct ff_y2_obj *o = s->objs[id];

		if (is_live(o) && o->type == FF_Y2_TYPE_DIRECTORY && !o->visible)
			ff_problem_add(&s->problems,
				       "directory %u (%s): not reachable from the root"
				       " (parent loop)", id, o->name);
	}
	return 0;
}
