/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs options that fill in attributes no source gives: the defaults
 * for implied directories (-default-mode/-uid/-gid, -pd), the owners
 * pseudo definitions keep under -pseudo-override, and -xattrs-add. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void ff_tree_implied_dir(const struct ff_tree *tree, struct ff_node *n)
{
	const struct ff_dir_defaults *d = tree->implied;

	if (!d)
		return;
	if (d->set & FF_DEF_MODE)
		n->mode = S_IFDIR | (d->mode & 07777);
	if (d->set & FF_DEF_UID)
		n->uid = d->uid;
	if (d->set & FF_DEF_GID)
		n->gid = d->gid;
	if (d->set & FF_DEF_TIME)
		n->mtime = d->mtime;
}

int ff_tree_keep_owner(struct ff_tree *tree, const char *path, uint32_t uid, uint32_t gid,
		       struct ff_err *err)
{
	struct ff_owner_keep k = { .path = strdup(path), .uid = uid, .gid = gid };

	if (!k.path || ff_vec_push(&tree->kept, &k) < 0) {
		free(k.path);
		return ff_err_set(err, ENOMEM, "-pseudo-override: out of memory");
	}
	return 0;
}

/* In definition order, so the last definition of a path wins. */
void ff_tree_restore_owners(struct ff_tree *tree)
{
	for (size_t i = 0; i < tree->kept.len; i++) {
		const struct ff_owner_keep *k = FF_VEC_AT(&tree->kept, struct ff_owner_keep, i);
		struct ff_node *n = ff_tree_lookup(tree, k->path);

		if (!n || ff_node_link(n))
			continue; /* excluded since, or a hard link (its primary counts) */
		n->uid = k->uid + tree->opts.uid_gid_offset;
		n->gid = k->gid + tree->opts.uid_gid_offset;
	}
}

void ff_tree_free_owners(struct ff_tree *tree)
{
	for (size_t i = 0; i < tree->kept.len; i++)
		free(FF_VEC_AT(&tree->kept, struct ff_owner_keep, i)->path);
	ff_vec_free(&tree->kept);
}

static int b64_digit(char c)
{
	const char *set = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(set, c) : NULL;

	return p ? (int)(p - set) : -1;
}

/* "0s" base64 (padding optional), as getfattr --encoding=base64 prints. */
static int parse_base64(const char *text, uint8_t **value, uint32_t *len, struct ff_err *err)
{
	size_t n = strlen(text);
	uint8_t *v = malloc(n / 4 * 3 + 3);
	uint32_t acc = 0, bits = 0, out = 0;

	if (!v)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n && text[i] != '='; i++) {
		int d = b64_digit(text[i]);

		if (d < 0) {
			free(v);
			return ff_err_set(err, EINVAL, "bad base64 digit in xattr value \"%.40s\"",
					  text);
		}
		acc = (acc << 6) | (uint32_t)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			v[out++] = (uint8_t)(acc >> bits);
		}
	}
	*value = v;
	*len = out;
	return 0;
}

/* One NAME=VALUE: VALUE is bytes as written, "0x" hex or "0s" base64. */
static int add_one(struct ff_tree *tree, const char *nv, struct ff_err *err)
{
	const char *eq = strchr(nv, '=');
	char name[FF_NAME_MAX + 1];
	int user = !strncmp(nv, "user.", 5);
	uint8_t *value;
	uint32_t len;
	int rc = 0;

	if (!eq || eq == nv || !memchr(nv, '.', (size_t)(eq - nv)) ||
	    (size_t)(eq - nv) > FF_NAME_MAX)
		return ff_err_set(err, EINVAL, "-xattrs-add \"%.60s\": expected "
				  "NAMESPACE.NAME=VALUE", nv);
	memcpy(name, nv, (size_t)(eq - nv));
	name[eq - nv] = '\0';
	if (!strncmp(eq + 1, "0s", 2) ? parse_base64(eq + 3, &value, &len, err)
				      : ff_xattr_parse_value(eq + 1, &value, &len, err))
		return ff_err_prefix(err, "-xattrs-add \"%s\"", name);
	for (struct ff_node *n = tree->root; n && !rc; n = ff_tree_next(tree, n)) {
		/* the kernel allows user.* only on files and directories */
		if (ff_node_link(n) || n->src_kind == FF_SRC_IMG || (user && !S_ISREG(n->mode) && !S_ISDIR(n->mode)))
			continue;
		rc = ff_node_set_xattr(n, name, value, len, err);
	}
	free(value);
	return rc;
}

int ff_tree_xattrs_add(struct ff_tree *tree, struct ff_err *err)
{
	if (tree->opts.no_xattrs)
		return 0;
	for (size_t i = 0; i < tree->opts.n_xattrs_add; i++)
		if (add_one(tree, tree->opts.xattrs_add[i], err))
			return -1;
	return 0;
}
