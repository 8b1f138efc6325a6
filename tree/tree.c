/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tree object: creation, the (parent, name) hash used while building,
 * lookup and pre-order iteration. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The children set's hash: the parent's address, then the name.  Only
 * lookups use it (nothing walks the set), so no output depends on it. */
static uint32_t child_hash(const struct ff_node *dir, const char *name, size_t len)
{
	uLong h = crc32(0L, (const Bytef *)&dir, (uInt)sizeof(dir));

	return (uint32_t)crc32(h, (const Bytef *)name, (uInt)len);
}

/* Nodes are carved, each with its name after it and rounded up to 8
 * bytes, from slabs of SLAB_BYTES: a malloc per node cost 8 to 23 bytes of
 * header and rounding (10 MB at a million files).  A node taken out of
 * the tree before the end (an exclude or prune action) keeps its bytes
 * until the tree is freed.  Slabs are aligned to their size, so a node's
 * slab, and with it the node's place (node_place), is found from its
 * address alone. */
#define SLAB_BYTES (256u * 1024) /* a multiple of the page size */
/* A place: the slab's number above PLACE_OFF_BITS, the node's offset in
 * 8-byte units below (a slab holds 2^15 of them); 2^17 slabs, 32 GiB of
 * nodes, more than the set's 2^28 ids take at 128 bytes a node. */
#define PLACE_OFF_BITS 15
#define MAX_SLABS (1u << (32 - PLACE_OFF_BITS))

struct ff_node_slab {
	size_t used;
	uint32_t number;        /* its index in tree->slabs */
	_Alignas(struct ff_node) unsigned char data[];
};

#if UINTPTR_MAX == UINT64_MAX
/* ten million tar members hold ten million nodes: keep an eye on growth */
_Static_assert(sizeof(struct ff_node) == 64, "struct ff_node grew past 64 bytes on LP64");
#endif

/* A slab aligned to its size.  Mapped, not from malloc: an aligned
 * allocation there puts its chunk header in the page before the slab, a
 * page more a slab (12 MB at ten million tar members). */
static struct ff_node_slab *slab_map(void)
{
	size_t len = 2 * (size_t)SLAB_BYTES, head;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1);
	head = a - (uintptr_t)p;
	if (head)
		munmap(p, head);
	munmap((void *)(a + SLAB_BYTES), len - head - SLAB_BYTES);
	return (struct ff_node_slab *)a;
}

static struct ff_node *slab_node(struct ff_tree *tree, size_t len)
{
	size_t need = (sizeof(struct ff_node) + len + 1 + 7) & ~(size_t)7;
	size_t cap = SLAB_BYTES - sizeof(struct ff_node_slab);
	struct ff_node_slab *s =
		tree->slabs.len ? *FF_VEC_AT(&tree->slabs, struct ff_node_slab *, tree->slabs.len - 1)
				: NULL;
	struct ff_node *n;

	if (!s || cap - s->used < need) {
		if (tree->slabs.len >= MAX_SLABS)
			return NULL; /* 32 GiB of nodes: reported as out of memory */
		if (!(s = slab_map()))
			return NULL;
		s->used = 0;
		s->number = (uint32_t)tree->slabs.len;
		if (ff_vec_push(&tree->slabs, &s)) {
			munmap(s, SLAB_BYTES);
			return NULL;
		}
	}
	n = (struct ff_node *)(void *)(s->data + s->used);
	s->used += need;
	memset(n, 0, need);
	n->in_slab = 1;
	return n;
}

static void free_slabs(struct ff_tree *tree)
{
	for (size_t i = 0; i < tree->slabs.len; i++)
		munmap(*FF_VEC_AT(&tree->slabs, struct ff_node_slab *, i), SLAB_BYTES);
	ff_vec_free(&tree->slabs);
}

/* A slab node's place (see PLACE_OFF_BITS). */
static uint32_t node_place(const struct ff_node *n)
{
	uintptr_t a = (uintptr_t)n;
	const struct ff_node_slab *s = (const struct ff_node_slab *)(a & ~(uintptr_t)(SLAB_BYTES - 1));

	return s->number << PLACE_OFF_BITS | (uint32_t)((a - (uintptr_t)s) / 8);
}

static struct ff_node *place_node(const struct ff_tree *tree, uint32_t place)
{
	struct ff_node_slab *s = *FF_VEC_AT(&tree->slabs, struct ff_node_slab *,
					    place >> PLACE_OFF_BITS);

	return (struct ff_node *)(void *)((unsigned char *)s +
					  (size_t)(place & ((1u << PLACE_OFF_BITS) - 1)) * 8);
}

/* The node the set's id stands for. */
static struct ff_node *id_node(const struct ff_tree *tree, uint32_t id)
{
	return place_node(tree, *FF_VEC_AT(&tree->by_id, uint32_t, id));
}

/* The set's hash of an id, to grow it: its node's parent and name as they
 * are now.  A renamed node's old entry moves to its new name, where the
 * lookups, which check the name they find, want it; a node taken out of
 * the tree keeps its slab bytes (an empty name, ff_node_free). */
static uint32_t id_hash(void *ctx, uint32_t id)
{
	const struct ff_tree *tree = ctx;
	const struct ff_node *n = id_node(tree, id);

	return child_hash(n->parent, ff_node_name(n), n->name_len);
}

/* Puts n into the set under its parent and current name.  A node may be
 * there more than once (a rename adds its new name; the old entry stays,
 * and lookups check the name they find). */
static int child_index(struct ff_tree *tree, struct ff_node *n)
{
	size_t id = tree->by_id.len;
	uint32_t place;

	if (!n->in_slab)
		return -1; /* only the root is not, and it has no parent */
	place = node_place(n);
	if (id > FF_HSET_ID_MAX || id != tree->children.n || ff_vec_push(&tree->by_id, &place))
		return -1;
	/* the set's ids are the vector's indices, 0..n-1 */
	if (ff_hset_add_next(&tree->children, child_hash(n->parent, ff_node_name(n), n->name_len),
			     id_hash, tree)) {
		tree->by_id.len--;
		return -1;
	}
	return 0;
}

struct child_want {
	const struct ff_tree *tree;
	const struct ff_node *dir;
	const char *name;
	size_t len;
	struct ff_node *found;
};

static int child_match(void *ctx, uint32_t id)
{
	struct child_want *w = ctx;
	struct ff_node *n = id_node(w->tree, id);

	if (n->parent != w->dir || n->name_len != w->len ||
	    memcmp(ff_node_name(n), w->name, w->len))
		return 0;
	w->found = n;
	return 1;
}

/* A directory scan adds a fresh directory's entries without putting them
 * in the map (readdir names are unique, so it never looks them up); a
 * million-file scan would otherwise hold a million map slots and keys.
 * Later sources that do look names up in such a directory index it here,
 * once. */
static int index_children(struct ff_tree *tree, struct ff_node *dir)
{
	if (!dir || !dir->unindexed)
		return 0;
	for (uint32_t i = 0; i < dir->n_children; i++)
		if (child_index(tree, dir->children[i]))
			return -1;
	dir->unindexed = 0;
	return 0;
}

/* Renames are rare (append collisions at the root).  The map cannot
 * forget the old name, so lookups check the name they find (find_child). */
int ff_tree_rename(struct ff_tree *tree, struct ff_node *n, const char *name, size_t len,
		   struct ff_err *err)
{
	char *copy = len <= FF_NAME_MAX ? malloc(len + 1) : NULL;
	struct ff_node_ext *e = copy ? ff_node_ext(n) : NULL;
	char *old;
	uint8_t old_len = n->name_len;

	if (!e || index_children(tree, n->parent) || ff_node_own_src(n, err)) {
		free(copy);
		return ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
	}
	memcpy(copy, name, len);
	copy[len] = '\0';
	old = e->name;
	e->name = copy;
	n->name_len = (uint8_t)len;
	if (child_index(tree, n)) {
		e->name = old;
		n->name_len = old_len;
		free(copy);
		return ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
	}
	free(old);
	return 0;
}

/* The slow lookup, when the map cannot take a directory's names. */
static struct ff_node *child_scan(const struct ff_node *dir, const char *name, size_t len)
{
	for (uint32_t i = 0; i < dir->n_children; i++) {
		struct ff_node *c = dir->children[i];

		if (c->name_len == len && !memcmp(ff_node_name(c), name, len))
			return c;
	}
	return NULL;
}

struct ff_node *ff_tree_child(struct ff_tree *tree, struct ff_node *dir,
			      const char *name, size_t len)
{
	struct child_want w = { tree, dir, name, len, NULL };
	uint32_t id;

	if (len > FF_NAME_MAX)
		return NULL;
	if (index_children(tree, dir))
		return child_scan(dir, name, len); /* no memory for the set */
	/* a renamed node keeps its old entry too (ff_tree_rename): the
	 * match checks the node's name as it is now */
	if (ff_hset_find(&tree->children, child_hash(dir, name, len), child_match, &w, &id) != 1)
		return NULL;
	return w.found;
}

static int append_child(struct ff_node *dir, struct ff_node *n)
{
	uint32_t k = dir->n_children;

	/* capacity is implied: the array doubles whenever k is a power of two */
	if (k == 0 || (k & (k - 1)) == 0) {
		size_t cap = k ? 2 * (size_t)k : 4;
		struct ff_node **c = realloc(dir->children, cap * sizeof(*c));

		if (!c)
			return -1;
		dir->children = c;
	}
	dir->children[dir->n_children++] = n;
	return 0;
}

struct ff_node *ff_tree_add_child(struct ff_tree *tree, struct ff_node *dir,
				  const char *name, size_t len, uint32_t mode,
				  struct ff_err *err)
{
	struct ff_node *n;

	if (len == 0 || len > FF_NAME_MAX) {
		ff_err_set(err, ENAMETOOLONG, "%.*s: name is %zu bytes (allowed 1..%d)",
			   (int)(len > 64 ? 64 : len), name, len, FF_NAME_MAX);
		return NULL;
	}
	if (!S_ISDIR(dir->mode)) {
		ff_err_set(err, ENOTDIR, "%.*s: parent is not a directory", (int)len, name);
		return NULL;
	}
	/* the name lives just after the node */
	n = slab_node(tree, len);
	if (!n)
		goto oom;
	memcpy(n + 1, name, len); /* slab_node zeroed the NUL and the rest */
	n->name_len = (uint16_t)len; /* <= FF_NAME_MAX */
	n->parent = dir;
	n->mode = mode;
	n->mtime = ff_tree_default_mtime(tree);
	if (append_child(dir, n))
		goto oom_node;
	if (!dir->unindexed && child_index(tree, n)) {
		dir->n_children--; /* the node is freed below */
		goto oom_node;
	}
	tree->count++;
	return n;
oom_node:
	ff_node_free(n); /* its slab bytes stay until the tree is freed */
oom:
	ff_err_set(err, ENOMEM, "%.*s: out of memory", (int)len, name);
	return NULL;
}

struct ff_node *ff_tree_lookup(struct ff_tree *tree, const char *path)
{
	struct ff_node *n = tree->root;

	while (n && *path) {
		const char *slash;
		size_t len;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		slash = strchr(path, '/');
		len = slash ? (size_t)(slash - path) : strlen(path);
		n = ff_tree_child(tree, n, path, len);
		path += len;
	}
	return n;
}

void ff_tree_drop_index(struct ff_tree *tree)
{
	ff_hset_free(&tree->children);
	ff_vec_free(&tree->by_id);
}

int64_t ff_tree_default_mtime(const struct ff_tree *tree)
{
	if (tree->opts.all_time >= 0)
		return tree->opts.all_time;
	if (tree->opts.clamp_time >= 0)
		return tree->opts.clamp_time;
	return 0;
}

void ff_tree_warn(const struct ff_tree *tree, enum ff_warn_kind kind, const char *path,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ff_vwarnf(tree->opts.warn, tree->opts.warn_ctx, kind, path, fmt, ap);
	va_end(ap);
}

int ff_tree_check_open(const struct ff_tree *tree, struct ff_err *err)
{
	if (tree->finished)
		return ff_err_set(err, EINVAL, "source tree: already finished, no more sources");
	return 0;
}

static int copy_excludes(struct ff_tree *tree, const struct ff_tree_opts *opts)
{
	size_t n = opts->n_excludes;

	if (!opts->excludes)
		return 0;
	if (n == 0)
		while (opts->excludes[n])
			n++;
	tree->excludes = calloc(n + 1, sizeof(char *));
	if (!tree->excludes)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *p = opts->excludes[i];

		/* patterns are relative to the source, like mksquashfs -e */
		while (p[0] == '/' || (p[0] == '.' && p[1] == '/'))
			p += p[0] == '/' ? 1 : 2;
		if (!(tree->excludes[i] = strdup(p)))
			return -1;
		tree->n_excludes++;
	}
	tree->opts.excludes = (const char *const *)tree->excludes;
	tree->opts.n_excludes = tree->n_excludes;
	return 0;
}

struct ff_tree *ff_tree_new(const struct ff_tree_opts *opts, struct ff_err *err)
{
	struct ff_tree *tree = calloc(1, sizeof(*tree));

	if (!tree)
		goto oom;
	ff_vec_init(&tree->by_id, sizeof(uint32_t));
	ff_vec_init(&tree->slabs, sizeof(struct ff_node_slab *));
	ff_vec_init(&tree->kept, sizeof(struct ff_owner_keep));
	if (opts) {
		tree->opts = *opts;
	} else {
		tree->opts.force_uid = tree->opts.force_gid = -1;
		tree->opts.all_time = tree->opts.clamp_time = -1;
	}
	tree->opts.excludes = NULL;
	tree->opts.n_excludes = 0;
	if (opts && copy_excludes(tree, opts))
		goto oom;
	if (ff_tree_compile_excludes(tree, err)) {
		ff_tree_free(tree);
		return NULL;
	}
	/* its name "" after it, room for a pointer as ff_node_name wants */
	tree->root = calloc(1, sizeof(*tree->root) + sizeof(char *));
	if (!tree->root)
		goto oom;
	tree->root->mode = S_IFDIR | 0755;
	tree->root->mtime = ff_tree_default_mtime(tree);
	tree->count = 1;
	return tree;
oom:
	ff_tree_free(tree);
	ff_err_set(err, ENOMEM, "source tree: out of memory");
	return NULL;
}

void ff_tree_free_subtree(struct ff_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		ff_tree_free_subtree(n->children[i]);
	ff_node_free(n);
}

void ff_tree_free(struct ff_tree *tree)
{
	if (!tree)
		return;
	if (tree->root)
		ff_tree_free_subtree(tree->root);
	free_slabs(tree);
	ff_tree_free_excludes(tree);
	for (size_t i = 0; i < tree->n_excludes; i++)
		free(tree->excludes[i]);
	free(tree->excludes);
	ff_tree_free_owners(tree);
	ff_tree_drop_index(tree);
	ff_hmap_clear(&tree->sort_prio, NULL);
	ff_spool_free(tree->spool);
	free(tree);
}

struct ff_spool *ff_tree_spool(struct ff_tree *tree, struct ff_err *err)
{
	if (!tree->spool)
		tree->spool = ff_spool_new(err);
	return tree->spool;
}

struct ff_node *ff_tree_root(const struct ff_tree *tree)
{
	return tree->root;
}

uint32_t ff_tree_count(const struct ff_tree *tree)
{
	return tree->count;
}

uint64_t ff_tree_data_bytes(const struct ff_tree *tree)
{
	return tree->data_bytes;
}

int ff_node_path(const struct ff_node *n, char *buf, size_t cap)
{
	size_t len = 0, pos;

	for (const struct ff_node *p = n; p->parent; p = p->parent)
		len += p->name_len + (p->parent->parent ? 1 : 0);
	if (len + 1 > cap)
		return -1;
	buf[len] = '\0';
	pos = len;
	for (const struct ff_node *p = n; p->parent; p = p->parent) {
		pos -= p->name_len;
		memcpy(buf + pos, ff_node_name(p), p->name_len);
		if (p->parent->parent)
			buf[--pos] = '/';
	}
	return (int)len;
}

static int name_cmp(const struct ff_node *a, const struct ff_node *b)
{
	size_t l = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(ff_node_name(a), ff_node_name(b), l);

	if (c)
		return c;
	return (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

/* Position of n among its (sorted) siblings.  Once the nodes are numbered
 * in pre-order, siblings' numbers rise with their position: comparing them
 * instead of names took a quarter of the instructions of a small-file build
 * (the builders walk the tree several times, ten name compares a step in a
 * directory of a thousand files). */
static uint32_t child_pos(const struct ff_tree *tree, const struct ff_node *n)
{
	const struct ff_node *dir = n->parent;
	uint32_t lo = 0, hi = dir->n_children;
	/* In pre-order, when every earlier sibling is a leaf (the common
	 * case), n's index less its parent's, less one, is its position.  The
	 * guess is checked against the children array, so a stale number only
	 * costs the search; the search reads ten siblings scattered over the
	 * heap, which in a million-file walk was 7% of a build. */
	uint32_t guess = n->index - dir->index - 1;

	if (n->index > dir->index && guess < hi && dir->children[guess] == n)
		return guess;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct ff_node *m = dir->children[mid];
		int c = tree->numbered ? (m->index > n->index) - (m->index < n->index)
				       : name_cmp(m, n);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct ff_node *ff_tree_next(const struct ff_tree *tree, const struct ff_node *n)
{
	if (!n)
		return NULL;
	if (n->n_children)
		return n->children[0];
	for (; n->parent; n = n->parent) {
		uint32_t i = child_pos(tree, n);

		if (i + 1 < n->parent->n_children)
			return n->parent->children[i + 1];
	}
	return NULL;
}

int ff_node_name_cmp(const void *a, const void *b)
{
	return name_cmp(*(struct ff_node *const *)a, *(struct ff_node *const *)b);
}
