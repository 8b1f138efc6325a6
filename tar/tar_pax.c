/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* PAX extended header records: "LEN key=value\n", LEN counting the whole
 * record.  Values may hold any bytes (xattrs), so lengths are trusted only
 * after they are checked against the buffer. */
#include "tar/tar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void tar_pax_init(struct tar_pax *p)
{
	memset(p, 0, sizeof(*p));
	p->sparse_major = p->sparse_minor = -1;
}

void tar_pax_free(struct tar_pax *p)
{
	free(p->path);
	free(p->linkpath);
	free(p->sparse_name);
	for (uint32_t i = 0; i < p->n_xattrs; i++) {
		free(p->xattrs[i].name);
		free(p->xattrs[i].value);
	}
	free(p->xattrs);
	tar_sparse_free(&p->sparse);
	tar_pax_init(p);
}

static int dup_value(char **dst, const char *v, size_t len, struct ff_err *err)
{
	char *s = malloc(len + 1);

	if (!s)
		return ff_err_set(err, ENOMEM, "PAX header: out of memory");
	memcpy(s, v, len);
	s[len] = '\0';
	if (strlen(s) != len) {
		free(s);
		return ff_err_set(err, EINVAL, "PAX header: NUL byte inside a text value");
	}
	free(*dst);
	*dst = s;
	return 0;
}

/* Decimal, optionally signed. */
static int parse_int(const char *v, size_t len, int64_t *out)
{
	char tmp[32], *end;
	long long x;

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, v, len);
	tmp[len] = '\0';
	errno = 0;
	x = strtoll(tmp, &end, 10);
	if (errno || end == tmp || *end)
		return -1;
	*out = x;
	return 0;
}

/* Seconds with an optional fraction, rounded down: -1.5 is -2. */
static int parse_mtime(const char *v, size_t len, int64_t *out)
{
	const char *dot = memchr(v, '.', len);
	size_t ilen = dot ? (size_t)(dot - v) : len;
	int frac = 0;

	if (parse_int(v, ilen, out))
		return -1;
	for (size_t i = ilen + 1; dot && i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		frac |= v[i] != '0';
	}
	if (frac && v[0] == '-')
		(*out)--;
	return 0;
}

static int add_xattr(struct tar_pax *p, const char *name, size_t nlen, const char *v,
		     size_t vlen, struct ff_err *err)
{
	struct tar_xattr *tab = realloc(p->xattrs, (p->n_xattrs + 1) * sizeof(*tab));
	struct tar_xattr *x;

	if (!tab)
		return ff_err_set(err, ENOMEM, "PAX header: out of memory");
	p->xattrs = tab;
	x = &tab[p->n_xattrs];
	x->name = malloc(nlen + 1);
	x->value = malloc(vlen ? vlen : 1);
	if (!x->name || !x->value) {
		free(x->name);
		free(x->value);
		return ff_err_set(err, ENOMEM, "PAX header: out of memory");
	}
	memcpy(x->name, name, nlen);
	x->name[nlen] = '\0';
	memcpy(x->value, v, vlen);
	x->len = (uint32_t)vlen;
	p->n_xattrs++;
	return 0;
}

static int key_is(const char *key, size_t klen, const char *want)
{
	return strlen(want) == klen && !memcmp(key, want, klen);
}

static int sparse_record(struct tar_pax *p, const char *k, size_t kl, const char *v, size_t vl,
			 struct ff_err *err)
{
	int64_t x = 0;
	int numeric = !key_is(k, kl, "GNU.sparse.name") && !key_is(k, kl, "GNU.sparse.map");

	p->sparse_seen = 1;
	if (numeric && (parse_int(v, vl, &x) || x < 0))
		return ff_err_set(err, EINVAL, "PAX header: %.*s: not a number", (int)kl, k);
	if (key_is(k, kl, "GNU.sparse.name"))
		return dup_value(&p->sparse_name, v, vl, err);
	if (key_is(k, kl, "GNU.sparse.map"))
		return tar_sparse_parse_map(&p->sparse, v, vl, err);
	if (key_is(k, kl, "GNU.sparse.major"))
		p->sparse_major = (int)(x > 100 ? 100 : x);
	else if (key_is(k, kl, "GNU.sparse.minor"))
		p->sparse_minor = (int)(x > 100 ? 100 : x);
	else if (key_is(k, kl, "GNU.sparse.size") || key_is(k, kl, "GNU.sparse.realsize"))
		p->sparse.realsize = (uint64_t)x, p->sparse.has_realsize = 1;
	else if (key_is(k, kl, "GNU.sparse.offset"))
		p->pending_off = (uint64_t)x, p->has_pending_off = 1;
	else if (key_is(k, kl, "GNU.sparse.numbytes")) {
		if (!p->has_pending_off)
			return ff_err_set(err, EINVAL, "PAX header: GNU.sparse.numbytes without offset");
		p->has_pending_off = 0;
		return tar_sparse_add(&p->sparse, p->pending_off, (uint64_t)x, err);
	}
	return 0;
}

static int id_value(const char *v, size_t vl, const char *what, uint32_t *out,
		    struct ff_err *err)
{
	int64_t x;

	if (parse_int(v, vl, &x) || x < 0 || x > UINT32_MAX)
		return ff_err_set(err, EINVAL, "PAX header: %s=%.*s is not a valid id", what,
				  (int)(vl > 20 ? 20 : vl), v);
	*out = (uint32_t)x;
	return 0;
}

static int record(struct tar_pax *p, const char *k, size_t kl, const char *v, size_t vl,
		  struct ff_err *err)
{
	int64_t x;

	if (key_is(k, kl, "path"))
		return dup_value(&p->path, v, vl, err);
	if (key_is(k, kl, "linkpath"))
		return dup_value(&p->linkpath, v, vl, err);
	if (key_is(k, kl, "uid"))
		return p->has_uid = 1, id_value(v, vl, "uid", &p->uid, err);
	if (key_is(k, kl, "gid"))
		return p->has_gid = 1, id_value(v, vl, "gid", &p->gid, err);
	if (key_is(k, kl, "size")) {
		if (parse_int(v, vl, &x) || x < 0)
			return ff_err_set(err, EINVAL, "PAX header: size is not a valid number");
		p->size = (uint64_t)x;
		p->has_size = 1;
		return 0;
	}
	if (key_is(k, kl, "mtime")) {
		if (parse_mtime(v, vl, &p->mtime))
			return ff_err_set(err, EINVAL, "PAX header: mtime is not a valid number");
		p->has_mtime = 1;
		return 0;
	}
	if (kl > 12 && !memcmp(k, "SCHILY.xattr.", 13))
		return add_xattr(p, k + 13, kl - 13, v, vl, err);
	if (kl > 11 && !memcmp(k, "GNU.sparse.", 11))
		return sparse_record(p, k, kl, v, vl, err);
	return 0; /* atime, ctime, uname, gname, comments...: not kept */
}

int tar_pax_parse(struct tar_pax *p, const char *buf, size_t len, struct ff_err *err)
{
	size_t pos = 0;

	while (pos < len) {
		const char *rec = buf + pos, *sp, *eq;
		size_t rlen = 0, i;

		for (i = 0; pos + i < len && rec[i] >= '0' && rec[i] <= '9' && i < 19; i++)
			rlen = rlen * 10 + (size_t)(rec[i] - '0');
		if (rec[0] == '\0')
			break; /* NUL padding after the last record */
		if (i == 0 || pos + i >= len || rec[i] != ' ' || rlen <= i + 1 || rlen > len - pos)
			return ff_err_set(err, EINVAL, "PAX header: malformed record at byte %zu", pos);
		if (rec[rlen - 1] != '\n')
			return ff_err_set(err, EINVAL, "PAX header: record at byte %zu does not end in a newline",
					  pos);
		sp = rec + i + 1;
		eq = memchr(sp, '=', rlen - i - 2);
		if (!eq)
			return ff_err_set(err, EINVAL, "PAX header: record at byte %zu has no '='", pos);
		if (record(p, sp, (size_t)(eq - sp), eq + 1, (size_t)(rec + rlen - 1 - eq - 1), err))
			return -1;
		pos += rlen;
	}
	return 0;
}
