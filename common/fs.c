#include "common/fs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ff_fs_log(struct ff_fs *fs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ff_vwarnf(fs->log, fs->log_ctx, FF_WARN_DAMAGED, NULL, fmt, ap);
	va_end(ap);
}

int ff_fs_resolve(struct ff_fs *fs, const char *path, uint64_t *handle)
{
	uint64_t cur = fs->ops->root(fs);

	while (*path) {
		const char *end;
		size_t len;
		int ret;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		end = strchr(path, '/');
		len = end ? (size_t)(end - path) : strlen(path);
		if (len == 1 && path[0] == '.') {
			path += len;
			continue;
		}
		ret = fs->ops->lookup(fs, cur, path, len, &cur);
		if (ret < 0)
			return ret;
		path += len;
	}
	*handle = cur;
	return 0;
}

static int list_one(void *ctx, const char *name, size_t len, uint64_t handle, uint32_t mode,
		    uint64_t cookie)
{
	struct ff_dirlist *l = ctx;
	char *copy;

	(void)cookie;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct ff_dirent *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return l->oom = 1;
		l->v = v;
		l->cap = cap;
	}
	copy = malloc(len + 1);
	if (!copy)
		return l->oom = 1;
	memcpy(copy, name, len);
	copy[len] = '\0';
	l->v[l->n++] = (struct ff_dirent){.name = copy, .len = len, .handle = handle, .mode = mode};
	return 0;
}

int ff_dirent_cmp(const struct ff_dirent *a, const struct ff_dirent *b)
{
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int dirent_cmp(const void *a, const void *b)
{
	return ff_dirent_cmp(a, b);
}

int ff_fs_list_dir(struct ff_fs *fs, uint64_t dir, int sort, struct ff_dirlist *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = fs->ops->readdir(fs, dir, 0, list_one, out);
	if (r >= 0 && out->oom)
		r = -ENOMEM;
	if (r < 0) {
		ff_dirlist_free(out);
		return r;
	}
	if (sort && out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), dirent_cmp);
	return 0;
}

void ff_dirlist_free(struct ff_dirlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
