/* mkfs.ubi --squashfs DIR (ubi_squashfs.h). */
#include "mkfs/ubi_squashfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ff_ubi_sqfs_init(struct ff_ubi_sqfs *q)
{
	*q = (struct ff_ubi_sqfs){ .name = "rootfs", .id = -1 };
	ff_sqfs_args_init(&q->sq);
	q->sq.no_positionals = 1;
	q->sq.noappend = 1;  /* the image is a fresh temporary file */
	q->sq.progress = 0;
}

void ff_ubi_sqfs_free(struct ff_ubi_sqfs *q)
{
	if (q->kept.name)
		unlink(q->kept.name);
	free(q->kept.name);
	q->kept.name = NULL;
	ff_sqfs_args_free(&q->sq);
}

static int bad(struct ff_err *err, const char *opt, const char *val, const char *what)
{
	return ff_err_set(err, EINVAL, "--%s '%s': %s", opt, val, what);
}

/* --squashfs-block-size: ubinize's spelling of sizes (KiB), as before. */
static int block_size(struct ff_ubi_sqfs *q, const char *v, struct ff_err *err)
{
	uint64_t n;

	if (ff_ubi_parse_bytes(v, &n) < 0 || n < 4096 || n > (1u << 20) || (n & (n - 1)))
		return bad(err, "squashfs-block-size", v, "not a power of two from 4K to 1M");
	q->sq.block_size = (uint32_t)n;
	q->sq.block_given = 1;
	return 0;
}

static int vol_option(struct ff_ubi_sqfs *q, const char *name, const char *v,
		      struct ff_err *err)
{
	uint64_t n;

	if (!strcmp(name, "vol-name"))
		q->name = v;
	else if (!strcmp(name, "vol-size"))
		q->size = v;
	else if (!strcmp(name, "vol-type") && (!strcmp(v, "static") || !strcmp(v, "dynamic")))
		q->type = v;
	else if (!strcmp(name, "vol-type"))
		return bad(err, name, v, "not static or dynamic");
	else if (!strcmp(name, "vol-flags") &&
		 (!strcmp(v, "autoresize") || !strcmp(v, "skip-check")))
		q->flags = v;
	else if (!strcmp(name, "vol-flags"))
		return bad(err, name, v, "not autoresize or skip-check");
	else if (strcmp(name, "vol-id"))
		return 1;
	else if (ff_ubi_parse_num(v, FF_UBI_MAX_VOLUMES - 1, &n) < 0)
		return bad(err, name, v, "not a number from 0 to 127");
	else
		q->id = (int64_t)n;
	return 0;
}

int ff_ubi_sqfs_option(struct ff_ubi_sqfs *q, const char *name, const char *val,
		       struct ff_err *err)
{
	if (!strcmp(name, "squashfs")) {
		q->sq.src.source = val;
		return 0;
	}
	if (!strcmp(name, "squashfs-comp")) {
		q->sq.comp_name = val;
		q->sq.comp_given = 1;
		return 0;
	}
	if (!strcmp(name, "squashfs-block-size"))
		return block_size(q, val, err);
	return vol_option(q, name, val, err);
}

int ff_ubi_sqfs_parse(struct ff_ubi_sqfs *q, int argc, char **argv, struct ff_err *err)
{
	return ff_sqfs_args_parse(&q->sq, argc, argv, err);
}

int ff_ubi_sqfs_finish(struct ff_ubi_sqfs *q, const char *epoch, const char *out,
		       struct ff_err *err)
{
	int r = ff_sqfs_args_finish(&q->sq, epoch, err);

	if (r == 0 && q->sq.src.source && ff_source_args_check_image(&q->sq.src, out, err) < 0)
		return FF_SQFS_ARGS_USAGE;
	return r;
}

/* Writes the image as an unnamed file in $TMPDIR and keeps only its
 * descriptor: nothing is left behind, even by a kill -9.  The name below
 * is never created; it says where, and names the volume in messages.
 * (Where $TMPDIR refuses O_TMPFILE the image has a temporary name until
 * ff_ubi_sqfs_free.) */
static int build_fd(struct ff_ubi_sqfs *q, const struct ff_sqfs_build_hooks *h, int *fd,
		    struct ff_err *err)
{
	const char *env = getenv("TMPDIR"), *tmp = env && *env ? env : "/tmp";
	struct ff_sqfs_build_hooks keep = *h;
	char path[4200];
	int r;

	if (snprintf(path, sizeof(path), "%s/mkfs.ubi-volume.sqfs", tmp) >= (int)sizeof(path)) {
		ff_err_set(err, ENAMETOOLONG, "TMPDIR '%s': too long", tmp);
		return FF_SQFS_ARGS_ERROR;
	}
	keep.keep = &q->kept;
	q->sq.image = path;
	r = ff_sqfs_args_build(&q->sq, &keep, err);
	q->sq.image = NULL;
	*fd = r == 0 ? q->kept.fd : -1;
	return r;
}

/* The lowest volume ID the first n volumes leave free. */
static uint32_t lowest_free(const struct ff_ubi_vol *vols, size_t n)
{
	uint32_t id = 0;

	for (size_t i = 0; i < n; i++) /* after a hit, look again from the start */
		if (vols[i].id == id) {
			id++;
			i = (size_t)-1;
		}
	return id;
}

/* The volume as an ini section would describe it. */
static int fill(const struct ff_ubi_sqfs *q, const struct ff_ubi_ini *ini,
		struct ff_ubi_vol *v, struct ff_err *err)
{
	snprintf(v->where, sizeof(v->where), "--squashfs %s", q->sq.src.source);
	v->type = q->type && !strcmp(q->type, "static") ? FF_UBI_VOL_STATIC
							  : FF_UBI_VOL_DYNAMIC;
	v->flags = !q->flags ? 0 : !strcmp(q->flags, "autoresize") ? FF_UBI_FLAG_AUTORESIZE
								   : FF_UBI_FLAG_SKIP_CHECK;
	if (strlen(q->name) > FF_UBI_VOL_NAME_MAX)
		return ff_err_set(err, EINVAL, "--vol-name: longer than 127 characters");
	strcpy(v->name, q->name);
	v->alignment = 1;
	v->bytes = v->image_size;
	if (q->size && ff_ubi_parse_bytes(q->size, &v->bytes) < 0)
		return ff_err_set(err, EINVAL, "--vol-size '%s': not a size", q->size);
	v->id = q->id >= 0 ? (uint32_t)q->id : lowest_free(ini->vols, ini->n - 1);
	return 0;
}

int ff_ubi_sqfs_add(struct ff_ubi_sqfs *q, struct ff_ubi_ini *ini,
		    const struct ff_sqfs_build_hooks *h, struct ff_err *err)
{
	struct ff_ubi_vol *vols = realloc(ini->vols, (ini->n + 1) * sizeof(*vols));
	struct ff_ubi_vol *v;
	struct stat st;
	int fd = -1, r;

	if (!vols)
		return ff_err_set(err, ENOMEM, "out of memory");
	ini->vols = vols;
	r = build_fd(q, h, &fd, err);
	if (r)
		return r;
	v = &vols[ini->n++]; /* owns the fd */
	*v = (struct ff_ubi_vol){ .fd = fd };
	if (fstat(fd, &st) < 0)
		return ff_err_sys(err, errno, "--squashfs: the image");
	v->image_size = (uint64_t)st.st_size;
	return fill(q, ini, v, err) < 0 ? FF_SQFS_ARGS_USAGE : 0;
}
