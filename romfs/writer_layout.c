/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Where genromfs 0.5.2 puts each file header.  Facts of its layout, which
 * the output must match byte for byte:
 *  - the root directory is a "." entry after the volume name whose spec
 *    points at itself; ".." after it is a hard link to it; the root's
 *    entries follow in the same chain.  A subdirectory's own "." and ".."
 *    (where readdir lists them) are hard links to it and to its parent.
 *  - entries are written depth first: a directory's header, then its
 *    entries (and theirs), then its next sibling.
 *  - the first name of a hard-linked object holds it; later names are
 *    hard-link headers (size 0, no executable bit).
 *  - a regular file's data is aligned to -a (16) or a larger -A that
 *    matches; any other header (hard links too, by the type they name) to
 *    16 or a larger -A.  The gap is zeros before the header.
 *  - -x and -A patterns are fnmatch(FNM_PATHNAME | FNM_PERIOD) globs on the
 *    name, or on "/path" below the source when they start with "/"; the
 *    root's own "." and ".." are never excluded.
 *  - a zero-length file "@NAME,T,MAJOR,MINOR" becomes device NAME (T: c or
 *    u character, b block, p fifo). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "romfs/layout.h"
#include "romfs/writer.h"

#define RW_MAX_OFF (UINT32_MAX - 2 * RF_BLOCK)

static int match(const char *pat, const char *name, const char *path)
{
	return fnmatch(pat, pat[0] == '/' ? path : name, FNM_PATHNAME | FNM_PERIOD) == 0;
}

static int excluded(const struct rw_layout *lay, const char *name)
{
	for (size_t i = 0; i < lay->o->n_excludes; i++)
		if (match(lay->o->excludes[i], name, lay->path))
			return 1;
	return 0;
}

static uint32_t find_align(const struct rw_layout *lay, const struct rw_ent *e)
{
	uint32_t a = S_ISREG(e->mode) ? lay->o->align : 16;

	for (size_t i = 0; i < lay->o->n_aligns; i++)
		if (lay->o->aligns[i].align > a && match(lay->o->aligns[i].pattern, e->name, lay->path))
			a = lay->o->aligns[i].align;
	return a;
}

/* Pads so that the header (extra 0) or the data after it lands on the
 * entry's alignment, then takes the entry's space. */
static int place(struct rw_layout *lay, struct rw_ent *e, int data_aligned)
{
	uint32_t meta = RF_HDR_SIZE + rf_pad16(e->name_len + 1);
	uint64_t a = find_align(lay, e), d = (lay->cur + (data_aligned ? meta : 0)) & (a - 1);

	e->pad = d ? (uint32_t)(a - d) : 0;
	e->off = (uint32_t)(lay->cur + e->pad);
	lay->cur += e->pad + meta + rf_pad16(e->size);
	if (lay->cur > RW_MAX_OFF)
		return ff_err_set(lay->err, EFBIG, "%s: the image would pass 4 GiB, more than romfs"
				  " can address", lay->path);
	return 0;
}

static int64_t new_ent(struct rw_layout *lay, const struct ff_node *n, const char *name,
		       size_t len, uint32_t mode)
{
	struct rw_ent *e;

	if (lay->n == lay->cap) {
		size_t cap = lay->cap ? lay->cap * 2 : 256;
		struct rw_ent *v = realloc(lay->v, cap * sizeof(*v));

		if (!v)
			return ff_err_set(lay->err, ENOMEM, "out of memory");
		lay->v = v;
		lay->cap = cap;
	}
	e = &lay->v[lay->n];
	memset(e, 0, sizeof(*e));
	e->name = strndup(name, len);
	if (!e->name)
		return ff_err_set(lay->err, ENOMEM, "out of memory");
	e->node = n;
	e->name_len = (uint32_t)len;
	e->mode = mode;
	e->link = e->next = e->first = -1;
	return (int64_t)lay->n++;
}

/* "@NAME,T,MAJOR,MINOR": 1 and the device in e, 0 when not such a name,
 * -1 for an unknown T (genromfs leaves the entry out). */
static int at_device(struct rw_ent *e)
{
	char dev[32], type;
	int maj, min;
	dev_t rdev;

	if (e->name[0] != '@' || !S_ISREG(e->mode) || e->node->size ||
	    sscanf(e->name, "@%31[a-zA-Z0-9_+-],%c,%d,%d", dev, &type, &maj, &min) != 4)
		return 0;
	switch (type) {
	case 'c': case 'u': e->mode = S_IFCHR | (e->mode & 07777); break;
	case 'b': e->mode = S_IFBLK | (e->mode & 07777); break;
	case 'p': e->mode = S_IFIFO | (e->mode & 07777); break;
	default: return -1;
	}
	rdev = makedev((unsigned)maj, (unsigned)min);
	if (!S_ISFIFO(e->mode))
		e->spec = (uint32_t)(major(rdev) << 16 | minor(rdev));
	strcpy(e->name, dev);
	e->name_len = (uint32_t)strlen(dev);
	return 1;
}

/* The entry for child c of a directory: its type, size and device, or a
 * hard link to the entry that holds its object.  0, 1 to leave it out. */
static int child_ent(struct rw_layout *lay, const struct ff_node *c, int64_t *idx)
{
	const struct ff_node *p = ff_node_primary(c);
	struct rw_ent *e;
	int at;

	if ((*idx = new_ent(lay, p, ff_node_name(c), c->name_len, p->mode)) < 0)
		return -1;
	e = &lay->v[*idx];
	if ((at = at_device(e)) < 0) {
		ff_warnf(lay->o->warn, lay->o->warn_ctx, FF_WARN_SKIPPED, lay->path,
			 "invalid special device type (left out, as genromfs does)");
		free(e->name);
		lay->n--;
		return 1;
	}
	if (p->priv) {
		e->link = (int64_t)p->priv - 1;
		return 0;
	}
	((struct ff_node *)p)->priv = (uint32_t)(*idx + 1);
	if (!at && (S_ISCHR(p->mode) || S_ISBLK(p->mode)))
		e->spec = p->rdev_major << 16 | p->rdev_minor;
	if (S_ISLNK(p->mode))
		e->size = (uint32_t)strlen(p->target);
	if (S_ISREG(p->mode) && p->size > UINT32_MAX)
		return ff_err_set(lay->err, EFBIG, "%s: %llu bytes, more than romfs can store",
				  lay->path, (unsigned long long)p->size);
	if (S_ISREG(e->mode))
		e->size = (uint32_t)p->size;
	return 0;
}

static int place_ent(struct rw_layout *lay, int64_t idx)
{
	struct rw_ent *e = &lay->v[idx];

	if (e->link >= 0)
		return place(lay, e, 0);
	return place(lay, e, S_ISREG(e->mode));
}

static int walk_dir(struct rw_layout *lay, const struct ff_node *dir, int64_t owner,
		    int64_t parent, int64_t *last, int dots);

/* One item of a directory: appended to its chain (after *last). */
static int take_item(struct rw_layout *lay, const struct ff_node *dir, int64_t item,
		     int64_t owner, int64_t parent, int64_t *last)
{
	const struct ff_node *c = item >= 0 ? dir->children[item] : NULL;
	int64_t idx;
	int rc = 0;

	if (!c) {
		if ((idx = new_ent(lay, dir, item == RW_DOT ? "." : "..", item == RW_DOT ? 1 : 2,
				   S_IFDIR)) < 0)
			return -1;
		lay->v[idx].link = item == RW_DOT ? owner : parent;
	} else if ((rc = child_ent(lay, c, &idx)) != 0) {
		return rc < 0 ? -1 : 0;
	}
	if (*last >= 0)
		lay->v[*last].next = idx;
	else
		lay->v[owner].first = idx;
	*last = idx;
	if (place_ent(lay, idx))
		return -1;
	if (lay->o->verbose)
		ff_warnf(lay->o->warn, lay->o->warn_ctx, FF_WARN_NOTE, lay->path,
			 "header at 0x%x, %u bytes", lay->v[idx].off, lay->v[idx].size);
	if (c && lay->v[idx].link < 0 && S_ISDIR(lay->v[idx].mode)) {
		int64_t sub_last = -1;

		return walk_dir(lay, c, idx, owner, &sub_last, 1);
	}
	return 0;
}

static int walk_dir(struct rw_layout *lay, const struct ff_node *dir, int64_t owner,
		    int64_t parent, int64_t *last, int dots)
{
	size_t plen = strlen(lay->path), n;
	int64_t *items;
	int rc = 0;

	if (rw_order(dir, lay->o->host_order, dots, &items, &n, lay->err))
		return -1;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = items[i] == RW_DOT ? "." : items[i] == RW_DOTDOT ? ".."
							  : ff_node_name(dir->children[items[i]]);

		if (plen + 1 + strlen(name) >= sizeof(lay->path)) {
			rc = ff_err_set(lay->err, ENAMETOOLONG, "%s/%s: path too long", lay->path, name);
			break;
		}
		snprintf(lay->path + plen, sizeof(lay->path) - plen, "/%s", name);
		if (!excluded(lay, name))
			rc = take_item(lay, dir, items[i], owner, parent, last);
		lay->path[plen] = '\0';
	}
	free(items);
	return rc;
}

static void clear_priv(const struct ff_tree *tree)
{
	for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n))
		n->priv = 0;
}

int rw_layout_build(struct rw_layout *lay)
{
	struct ff_node *root = ff_tree_root(lay->tree);
	int64_t dot, dotdot;
	int rc;

	clear_priv(lay->tree);
	lay->cur = RF_HDR_SIZE + rf_pad16(strlen(lay->volume) + 1);
	lay->path[0] = '\0';
	snprintf(lay->path, sizeof(lay->path), "/.");
	if ((dot = new_ent(lay, root, ".", 1, root->mode)) < 0 || place_ent(lay, dot))
		return -1;
	root->priv = (uint32_t)(dot + 1);
	snprintf(lay->path, sizeof(lay->path), "/..");
	if ((dotdot = new_ent(lay, root, "..", 2, root->mode)) < 0)
		return -1;
	lay->v[dotdot].link = dot;
	lay->v[dot].next = dotdot;
	if (place_ent(lay, dotdot))
		return -1;
	lay->path[0] = '\0';
	/* the root's entries continue the chain "." starts; "." lists nothing
	 * of its own, so its spec points at itself */
	rc = walk_dir(lay, root, dot, dot, &dotdot, 0);
	clear_priv(lay->tree);
	return rc;
}

void rw_layout_free(struct rw_layout *lay)
{
	for (size_t i = 0; i < lay->n; i++)
		free(lay->v[i].name);
	free(lay->v);
	lay->v = NULL;
	lay->n = lay->cap = 0;
}
