/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes (xattr.c as facts).  Per xid the datum with the
 * highest version counts (version 0xffffffff marks a deleted one); per
 * inode and xid the xref with the highest xseqno (an odd xseqno deletes
 * the binding); per inode and name the binding with the highest xseqno.
 * A binding to a missing datum or inode is dropped, as the kernel drops
 * it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/problems.h"
#include "jffs2/node.h"
#include "jffs2/tree.h"
#include "jffs2/xattr.h"

static int cmp_xattr_rec(const void *a, const void *b)
{
	const struct j2_xattr_rec *x = a, *y = b;

	if (x->xid != y->xid)
		return x->xid < y->xid ? -1 : 1;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq); /* the later found wins a tie */
}

static int cmp_xref_rec(const void *a, const void *b)
{
	const struct j2_xref_rec *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->xid != y->xid)
		return x->xid < y->xid ? -1 : 1;
	if (x->xseqno != y->xseqno)
		return x->xseqno < y->xseqno ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The live datum for xid (the last of its sorted group), or -1. */
static long find_datum(const struct j2_scan *s, uint32_t xid)
{
	size_t lo = 0, hi = s->n_xattrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->xattrs[mid].xid <= xid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || s->xattrs[lo - 1].xid != xid || s->xattrs[lo - 1].version == J2_XDATUM_DELETED)
		return -1;
	return (long)(lo - 1);
}

/* A live binding before de-duplication by name. */
struct binding {
	uint32_t ino, datum, xseqno;
};

static int cmp_binding(const void *a, const void *b, void *scan)
{
	const struct binding *x = a, *y = b;
	const struct j2_scan *s = scan;
	const struct j2_xattr_rec *dx = &s->xattrs[x->datum];
	const struct j2_xattr_rec *dy = &s->xattrs[y->datum];
	int c;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (dx->xprefix != dy->xprefix)
		return dx->xprefix < dy->xprefix ? -1 : 1;
	c = memcmp(dx->data, dy->data, dx->name_len < dy->name_len ? dx->name_len : dy->name_len);
	if (c || dx->name_len != dy->name_len)
		return c ? c : (dx->name_len < dy->name_len ? -1 : 1);
	return (x->xseqno > y->xseqno) - (x->xseqno < y->xseqno);
}

/* The newest xref of each (inode, xid) that is live and whose datum and
 * inode exist. */
static size_t live_bindings(struct j2_scan *s, struct j2_tree *t, struct binding *out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_xrefs; i++) {
		const struct j2_xref_rec *r = &s->xrefs[i];
		struct j2_ino *in;
		long d;

		if (i + 1 < s->n_xrefs && r[1].ino == r->ino && r[1].xid == r->xid)
			continue; /* a newer binding follows */
		if (r->xseqno & J2_XREF_DELETED)
			continue;
		in = j2_tree_find(t, r->ino);
		d = find_datum(s, r->xid);
		if (!in || !in->meta || d < 0) {
			ff_problem_add(&s->prob, "xref at offset %llu binds xattr %u to inode %u: %s is missing",
				       (unsigned long long)r->pos, r->xid, r->ino,
				       d < 0 ? "the xattr" : "the inode");
			continue;
		}
		out[n++] = (struct binding){ r->ino, (uint32_t)d, r->xseqno };
	}
	return n;
}

static int same_name(const struct j2_scan *s, const struct binding *a, const struct binding *b)
{
	const struct j2_xattr_rec *x = &s->xattrs[a->datum], *y = &s->xattrs[b->datum];

	return a->ino == b->ino && x->xprefix == y->xprefix && x->name_len == y->name_len &&
	       !memcmp(x->data, y->data, x->name_len);
}

/* Per inode and name the binding with the highest xseqno (the last of its
 * sorted run) goes to the inode's list, allocated once per inode. */
static int attach(struct j2_scan *s, struct j2_tree *t, const struct binding *b, size_t n)
{
	size_t i = 0;

	while (i < n) {
		struct j2_ino *in = j2_tree_find(t, b[i].ino);
		size_t end = i;

		while (end < n && b[end].ino == b[i].ino)
			end++;
		in->xattrs = malloc((end - i) * sizeof(*in->xattrs));
		if (!in->xattrs)
			return -1;
		for (; i < end; i++)
			if (i + 1 == end || !same_name(s, &b[i], &b[i + 1]))
				in->xattrs[in->n_xattrs++] = (struct j2_xattr_ref){ b[i].datum,
										   b[i].xseqno };
	}
	return 0;
}

int j2_xattrs_build(struct j2_scan *s, struct j2_tree *t)
{
	struct binding *b;
	size_t n;
	int ret;

	if (s->n_xattrs)
		qsort(s->xattrs, s->n_xattrs, sizeof(*s->xattrs), cmp_xattr_rec);
	if (!s->n_xrefs)
		return 0;
	qsort(s->xrefs, s->n_xrefs, sizeof(*s->xrefs), cmp_xref_rec);
	b = malloc(s->n_xrefs * sizeof(*b));
	if (!b)
		return -1;
	n = live_bindings(s, t, b);
	if (n)
		qsort_r(b, n, sizeof(*b), cmp_binding, s);
	ret = attach(s, t, b, n);
	free(b);
	for (size_t i = 0; i < t->n; i++)
		t->xattr_names += t->inos[i].reachable ? t->inos[i].n_xattrs : 0;
	return ret;
}

static const char *prefix_name(uint8_t id)
{
	switch (id) {
	case 1: return "user.";
	case 2: return "security.";
	case 3: return "system.posix_acl_access";
	case 4: return "system.posix_acl_default";
	case 5: return "trusted.";
	default: return NULL;
	}
}

static int visit_one(const struct j2_scan *s, const struct j2_xattr_rec *x,
		     j2_xattr_visit_fn fn, void *ctx)
{
	const char *pre = prefix_name(x->xprefix);
	const uint8_t *value = x->data + x->name_len + 1;
	char name[300];
	uint8_t *conv = NULL;
	long len = x->value_len;
	size_t nl;
	int stop;

	if (!pre)
		return 0; /* a namespace the kernel has no handler for: not listed */
	nl = strlen(pre);
	memcpy(name, pre, nl);
	if (x->xprefix == 3 || x->xprefix == 4) {
		conv = malloc(4 + 2 * (size_t)x->value_len);
		if (!conv)
			return -ENOMEM;
		len = j2_acl_to_xattr(value, x->value_len, s->geo.big, conv);
		value = conv;
	} else {
		memcpy(name + nl, x->data, x->name_len);
		nl += x->name_len;
	}
	stop = len < 0 ? 0 : fn(ctx, name, nl, value, (size_t)len);
	free(conv);
	return stop;
}

int j2_xattr_walk(const struct j2_scan *s, const struct j2_ino *in, j2_xattr_visit_fn fn,
		  void *ctx)
{
	for (size_t i = 0; i < in->n_xattrs; i++) {
		int r = visit_one(s, &s->xattrs[in->xattrs[i].datum], fn, ctx);

		if (r < 0)
			return r;
		if (r)
			break;
	}
	return 0;
}
