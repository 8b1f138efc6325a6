/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ubinize's reading of its configuration file: each section with mode=ubi
 * becomes a volume, checked in the order ubinize checks it.  Image paths
 * are relative to the working directory, as in ubinize. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ubi/ini.h"
#include "ubi/ini_file.h"

/* A C number (decimal, 0x hex, 0 octal) at the start of s, no sign or
 * blank first; *end is where it stops.  -1 when there is none. */
static int c_number(const char *s, char **end, unsigned long long *v)
{
	if (!*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t')
		return -1;
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno || *end == s ? -1 : 0;
}

int ff_ubi_parse_num(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (c_number(s, &end, &v) < 0 || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int ff_ubi_parse_bytes(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; unsigned shift; } units[] = {
		{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30},
	};
	unsigned long long v;
	char *end;

	if (c_number(s, &end, &v) < 0)
		return -1;
	end += strspn(end, " \t");
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].sfx)) {
			if (v > (UINT64_MAX >> 1) >> units[i].shift)
				return -1;
			*out = (uint64_t)v << units[i].shift;
			return 0;
		}
	return -1;
}

struct sect_ctx {
	const struct ff_ini *ini;
	const struct ff_ini_section *s;
	const struct ff_ubi_geom *g;
	struct ff_ubi_vol *v;
	struct ff_err *err;
};

static int key_err(struct sect_ctx *c, const struct ff_ini_key *k, const char *what)
{
	return ff_err_set(c->err, EINVAL, "%s:%u: [%s] %s=%s: %s", c->ini->path, k->line,
			  c->s->name, k->key, k->val, what);
}

static int sect_err(struct sect_ctx *c, const char *what)
{
	return ff_err_set(c->err, EINVAL, "%s:%u: [%s]: %s", c->ini->path, c->s->line,
			  c->s->name, what);
}

static int read_type(struct sect_ctx *c)
{
	const struct ff_ini_key *k = ff_ini_get(c->s, "vol_type");

	c->v->type = FF_UBI_VOL_DYNAMIC;
	if (!k || !strcmp(k->val, "dynamic"))
		return 0;
	if (!strcmp(k->val, "static")) {
		c->v->type = FF_UBI_VOL_STATIC;
		return 0;
	}
	return key_err(c, k, "not \"static\" or \"dynamic\"");
}

static int read_image(struct sect_ctx *c)
{
	const struct ff_ini_key *k = ff_ini_get(c->s, "image");
	struct stat st;

	if (!k)
		return c->v->type == FF_UBI_VOL_STATIC ? sect_err(c, "a static volume needs an "
								  "\"image\" key") : 0;
	c->v->fd = open(k->val, O_RDONLY | O_CLOEXEC);
	if (c->v->fd < 0 || fstat(c->v->fd, &st) < 0)
		return ff_err_sys(c->err, errno, "%s:%u: [%s] image=%s", c->ini->path, k->line,
				  c->s->name, k->val);
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return key_err(c, k, S_ISREG(st.st_mode) ? "the image is empty"
							 : "the image is not a regular file");
	c->v->image_size = (uint64_t)st.st_size;
	return 0;
}

static int read_id_size(struct sect_ctx *c)
{
	const struct ff_ini_key *id = ff_ini_get(c->s, "vol_id");
	const struct ff_ini_key *size = ff_ini_get(c->s, "vol_size");
	uint64_t v;

	if (!id)
		return sect_err(c, "\"vol_id\" key missing");
	if (ff_ubi_parse_num(id->val, UINT32_MAX, &v) < 0)
		return key_err(c, id, "not a volume ID");
	if (v >= c->g->max_volumes) {
		char msg[64];
		snprintf(msg, sizeof(msg), "volume ID too high, the maximum is %u",
			 c->g->max_volumes - 1);
		return key_err(c, id, msg);
	}
	c->v->id = (uint32_t)v;
	if (!size) {
		if (c->v->fd < 0)
			return sect_err(c, "neither \"image\" nor \"vol_size\" given");
		c->v->bytes = c->v->image_size; /* the least that holds the image */
		return 0;
	}
	if (ff_ubi_parse_bytes(size->val, &c->v->bytes) < 0 || !c->v->bytes)
		return key_err(c, size, "not a size (a number, optionally with KiB, MiB or GiB)");
	if (c->v->fd >= 0 && c->v->image_size > c->v->bytes)
		return key_err(c, size, "smaller than the image");
	return 0;
}

static int read_name_align_flags(struct sect_ctx *c)
{
	const struct ff_ini_key *name = ff_ini_get(c->s, "vol_name");
	const struct ff_ini_key *align = ff_ini_get(c->s, "vol_alignment");
	const struct ff_ini_key *flags = ff_ini_get(c->s, "vol_flags");
	uint64_t v = 1;

	if (!name)
		return sect_err(c, "\"vol_name\" key missing");
	if (!name->val[0] || strlen(name->val) > FF_UBI_VOL_NAME_MAX)
		return key_err(c, name, "the name must have 1 to 127 characters");
	strcpy(c->v->name, name->val);
	if (align && (ff_ubi_parse_num(align->val, UINT32_MAX, &v) < 0 || !v))
		return key_err(c, align, "not an alignment (a number from 1)");
	c->v->alignment = (uint32_t)v;
	if (!flags)
		return 0;
	if (!strcmp(flags->val, "autoresize"))
		c->v->flags = FF_UBI_FLAG_AUTORESIZE;
	else if (!strcmp(flags->val, "skip-check"))
		c->v->flags = FF_UBI_FLAG_SKIP_CHECK;
	else
		return key_err(c, flags, "not \"autoresize\" or \"skip-check\"");
	return 0;
}

static int note(struct ff_ubi_ini *out, const char *fmt, const char *path, unsigned line,
		const char *what)
{
	char **n = realloc(out->notes, (out->n_notes + 1) * sizeof(*n));
	char buf[512];

	if (!n)
		return -1;
	out->notes = n;
	snprintf(buf, sizeof(buf), fmt, path, line, what);
	if (!(n[out->n_notes] = strdup(buf)))
		return -1;
	out->n_notes++;
	return 0;
}

static int note_unknown_keys(const struct ff_ini *ini, const struct ff_ini_section *s,
			     struct ff_ubi_ini *out)
{
	static const char *known[] = {"mode", "image", "vol_id", "vol_size", "vol_type",
				      "vol_name", "vol_alignment", "vol_flags"};

	for (size_t i = 0; i < s->n; i++) {
		size_t j = 0;
		while (j < sizeof(known) / sizeof(known[0]) && strcmp(known[j], s->keys[i].key))
			j++;
		if (j == sizeof(known) / sizeof(known[0]) &&
		    note(out, "%s:%u: unknown key \"%s\" ignored", ini->path, s->keys[i].line,
			 s->keys[i].key) < 0)
			return -1;
	}
	return 0;
}

/* 0 a volume was added, 1 the section is not a UBI volume, -1 error. */
static int read_section(const struct ff_ini *ini, const struct ff_ini_section *s,
			const struct ff_ubi_geom *g, struct ff_ubi_ini *out, struct ff_err *err)
{
	const struct ff_ini_key *mode = ff_ini_get(s, "mode");
	struct ff_ubi_vol *v = &out->vols[out->n];
	struct sect_ctx c = {.ini = ini, .s = s, .g = g, .v = v, .err = err};

	*v = (struct ff_ubi_vol){.fd = -1};
	if (!mode)
		return sect_err(&c, "\"mode\" key missing (mode=ubi marks a UBI volume)");
	if (strcmp(mode->val, "ubi"))
		return note(out, "%s:%u: section [%s] is not mode=ubi, skipped", ini->path,
			    s->line, s->name) < 0 ? ff_err_set(err, ENOMEM, "out of memory") : 1;
	snprintf(v->where, sizeof(v->where), "%s:%u: [%.40s]", ini->path, s->line, s->name);
	out->n++; /* owns v->fd from here on */
	if (read_type(&c) < 0 || read_image(&c) < 0 || read_id_size(&c) < 0 ||
	    read_name_align_flags(&c) < 0)
		return -1;
	if (note_unknown_keys(ini, s, out) < 0)
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int read_sections(const struct ff_ini *ini, const struct ff_ubi_geom *g,
			 struct ff_ubi_ini *out, struct ff_err *err)
{
	if (!ini->n)
		return ff_err_set(err, EINVAL, "%s: no sections, so no volumes", ini->path);
	if (ini->n > g->max_volumes)
		return ff_err_set(err, EINVAL, "%s: %zu sections, but at most %u volumes fit",
				  ini->path, ini->n, g->max_volumes);
	out->vols = calloc(ini->n, sizeof(*out->vols));
	if (!out->vols)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < ini->n; i++)
		if (read_section(ini, &ini->sects[i], g, out, err) < 0)
			return -1;
	if (!out->n)
		return ff_err_set(err, EINVAL, "%s: no section has mode=ubi", ini->path);
	return ff_ubi_vols_check(g, out->vols, out->n, err);
}

int ff_ubi_ini_load(const char *path, const struct ff_ubi_geom *g, struct ff_ubi_ini *out,
		    struct ff_err *err)
{
	struct ff_ini ini;
	int rc;

	*out = (struct ff_ubi_ini){0};
	if (ff_ini_load(&ini, path, err) < 0)
		return -1;
	rc = read_sections(&ini, g, out, err);
	ff_ini_free(&ini);
	if (rc < 0)
		ff_ubi_ini_free(out);
	return rc;
}

void ff_ubi_ini_free(struct ff_ubi_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++)
		if (ini->vols[i].fd >= 0)
			close(ini->vols[i].fd);
	for (size_t i = 0; i < ini->n_notes; i++)
		free(ini->notes[i]);
	free(ini->vols);
	free(ini->notes);
	*ini = (struct ff_ubi_ini){0};
}
