#include "common/fs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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
