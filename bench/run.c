/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The run loop, blind to formats: every format of the registry with a
 * build hook (tree/build.h), or those --fs names, and for each its block
 * sizes × layout variants × the codecs it can store.  Each setting is a
 * real image, built by the format's writer from the corpus and read back
 * through image/ (readcost.c).  The hook says which codecs, sizes and
 * flags exist; a flag it marks as a variant (a layout choice trading size
 * against read cost) is tried without, alone, and with all the others.
 * A codec option a format cannot store (ENOTSUP) is counted, not warned
 * about; any other failure is reported through warn and skipped, so one
 * missing backend does not lose the rest of a long run. */
#include "bench/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "common/vec.h"
#include "compress/compress.h"
#include "image/registry.h"
#include "tree/build.h"

#define MAX_FLAGS 24
#define MAX_CODECS 64

/* The results as they come (moved into struct bench_run at the end). */
struct run_vecs {
	struct ff_vec res;  /* struct bench_result */
	struct ff_vec sc;   /* struct bench_selfcheck */
};

/* One format's settings: the flags every build gets, and its variants. */
struct plan {
	const struct ff_format *f;
	const char *base[MAX_FLAGS];
	size_t n_base;
	const char *var[MAX_FLAGS];
	size_t n_var;
};

static int wanted(const struct bench_run_opts *o, const struct ff_format *f)
{
	if (!f->build || !f->build->build)
		return 0;
	for (size_t i = 0; i < o->n_fs; i++)
		if (!strcmp(o->fs[i], f->name))
			return 1;
	/* without --fs: the formats whose images suit the target's storage */
	return o->n_fs == 0 && (!f->build->media ||
				(f->build->media & (o->medium ? o->medium : FF_MEDIUM_BLOCK)));
}

static void make_plan(const struct bench_run_opts *o, const struct ff_format *f, struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	for (size_t i = 0; i < o->n_flags && p->n_base < MAX_FLAGS; i++)
		if (ff_build_flag_find(f->build, o->flags[i]))
			p->base[p->n_base++] = o->flags[i];
	for (const struct ff_build_flag *fl = f->build->flags; fl && fl->name; fl++) {
		int given = 0;

		for (size_t i = 0; i < p->n_base; i++)
			given |= ff_build_flag_find(f->build, p->base[i]) == fl;
		if (fl->variant && !given && !o->no_variants && p->n_var < MAX_FLAGS)
			p->var[p->n_var++] = fl->name;
	}
}

/* Variant k: 0 none, 1..n one each, n+1 all of them (when n >= 2). */
static size_t n_variants(const struct plan *p)
{
	return p->n_var == 0 ? 1 : p->n_var == 1 ? 2 : p->n_var + 2;
}

static size_t variant_flags(const struct plan *p, size_t k, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_base; i++)
		out[n++] = p->base[i];
	for (size_t i = 0; i < p->n_var && k; i++)
		if (k == i + 1 || k == p->n_var + 1)
			out[n++] = p->var[i];
	return n;
}

static int size_ok(const struct ff_build_ops *b, uint32_t bs)
{
	return bs >= b->block_min && bs <= b->block_max;
}

/* The sizes for a format: the user's within its range, or its defaults. */
static size_t sizes(const struct bench_run_opts *o, const struct ff_build_ops *b, uint32_t *out,
		    size_t cap)
{
	size_t n = 0;

	if (b->block_min == b->block_max && cap) {
		out[0] = b->block_min;  /* one size only (UBIFS' 4 KiB blocks): whatever -b says */
		return 1;
	}
	for (size_t i = 0; i < o->n_block_sizes && n < cap; i++)
		if (size_ok(b, o->block_sizes[i]))
			out[n++] = o->block_sizes[i];
	for (size_t i = 0; !o->n_block_sizes && b->block_sizes && b->block_sizes[i] && n < cap; i++)
		out[n++] = b->block_sizes[i];
	return n;
}

static int in_run(const struct bench_run_opts *o, const char *name, size_t len)
{
	for (size_t k = 0; k < o->n_codecs; k++)
		if (strlen(o->codecs[k].name) == len && !strncmp(o->codecs[k].name, name, len))
			return 1;
	return 0;
}

/* The codec settings a format runs: the run's that it stores or, for a
 * format whose builder fixes its codecs' levels (ff_build_ops.fixed), its
 * own setting of each codec the run has (JFFS2's zlib-3 for the run's
 * gzip settings), once. */
static size_t fs_codecs(const struct bench_run_opts *o, const struct ff_build_ops *b,
			struct bench_codec *out, size_t cap)
{
	struct ff_err e = { 0 };
	size_t n = 0;

	for (size_t k = 0; !b->fixed && k < o->n_codecs && n < cap; k++)
		if (ff_build_has_codec(b, o->codecs[k].name))
			out[n++] = o->codecs[k];
	for (const char *const *f = b->fixed; f && *f && n < cap; f++)
		if (in_run(o, *f, strcspn(*f, ":@")) && bench_codec_parse(*f, &out[n], &e) == 0)
			n++;
	return n;
}

static size_t n_codecs(const struct bench_run_opts *o, const struct ff_build_ops *b)
{
	struct bench_codec bc[MAX_CODECS];

	return fs_codecs(o, b, bc, MAX_CODECS);
}

size_t bench_run_count(const struct bench_corpus *c, const struct bench_run_opts *o)
{
	size_t total = 0;
	uint32_t bs[64];

	(void)c;
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);
		struct plan p;

		if (!wanted(o, f))
			continue;
		make_plan(o, f, &p);
		total += sizes(o, f->build, bs, 64) * n_variants(&p) * n_codecs(o, f->build);
	}
	return total;
}

int bench_run_check_flags(const struct bench_run_opts *o, struct ff_err *err)
{
	for (size_t k = 0; k < o->n_flags; k++) {
		int taken = 0;

		for (size_t i = 0; i < ff_format_count(); i++) {
			const struct ff_format *f = ff_format_at(i);

			taken |= wanted(o, f) && ff_build_flag_find(f->build, o->flags[k]);
		}
		if (!taken)
			return ff_err_set(err, EINVAL, "-O %s: no file system run takes it (see "
					  "flashfs formats --json, build_options)", o->flags[k]);
	}
	return 0;
}

static void join_flags(const char *const *v, size_t n, char *out, size_t cap)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && k < cap; i++)
		k += (size_t)snprintf(out + k, cap - k, "%s%s", i ? "," : "", v[i]);
}

/* The image's name in the work directory: format, codec, size, flags. */
static void image_name(const struct bench_run_opts *o, const struct bench_result *r, char *buf,
		       size_t cap)
{
	char label[sizeof(r->codec.label)];

	snprintf(label, sizeof(label), "%s", r->codec.label + strlen(r->fs) + 1);
	for (char *p = label; *p; p++)
		*p = *p == '/' || *p == ',' || *p == '=' ? '+' : *p;
	snprintf(buf, cap, "%s/%s-%s-%uK.img", o->work_dir, r->fs, label, r->block_size >> 10);
}

static void fill_identity(struct bench_result *r, const struct ff_format *f,
			  const struct bench_codec *bc, uint32_t bs, const char *const *flags,
			  size_t n_flags)
{
	struct ff_err e = { 0 };
	struct ff_comp *comp = bench_codec_open(bc, bs, &e);

	memset(r, 0, sizeof(*r));
	snprintf(r->fs, sizeof(r->fs), "%s", f->name);
	snprintf(r->fs_title, sizeof(r->fs_title), "%s", f->title);
	snprintf(r->block_name, sizeof(r->block_name), "%s", f->build->block_name);
	join_flags(flags, n_flags, r->flags, sizeof(r->flags));
	r->codec = *bc;
	/* the label every report shows: file system, codec, flags */
	snprintf(r->codec.label, sizeof(r->codec.label), "%.15s/%.24s%s%.6s", f->name, bc->label,
		 r->flags[0] ? "+" : "", r->flags);
	for (char *p = r->codec.label; *p; p++)
		*p = *p == ',' ? '+' : *p;
	r->block_size = bs;
	if (comp)
		ff_comp_describe(comp, r->options, sizeof(r->options));
	ff_comp_free(comp);
}

/* Builds and measures one setting into r: 0, or -1 with err. */
static int measure_one(const struct bench_corpus *c, const struct bench_run_opts *o,
		       const struct ff_format *f, struct bench_result *r, struct bench_selfcheck *sc,
		       const char *const *flags, size_t n_flags, struct ff_err *err)
{
	struct ff_build_opts bo;
	char path[sizeof(r->image)];
	struct ff_build_result br = { 0, 0 };
	struct stat st;
	double t0;
	int rc;

	ff_build_opts_init(&bo);
	bo.codec = r->codec.name;
	bo.codec_opts = r->codec.opts;
	bo.block_size = r->block_size;
	bo.time = o->time;
	bo.flags = flags;
	bo.n_flags = n_flags;
	bo.jobs = o->measure.threads;
	bo.erase_block = o->erase_block;
	bo.page_size = o->page_size;
	bo.flash_size = o->flash_size;
	image_name(o, r, path, sizeof(path));
	t0 = bench_wall_now();
	if (f->build->build(c->tree, &bo, path, &br, err))
		return -1;
	r->build_s = bench_wall_now() - t0;
	if (stat(path, &st))
		rc = ff_err_sys(err, errno, "%s", path);
	else
		rc = bench_read_cost(path, &o->measure, r, err);
	r->image_size = (uint64_t)st.st_size;
	r->bytes_used = br.used;
	r->input_bytes = c->data_len;
	r->ratio = c->data_len ? (double)r->image_size / (double)c->data_len : 1.0;
	r->comp.best = r->comp.median = r->comp.worst =
		r->build_s > 0 ? (double)c->data_len / 1e6 / r->build_s : 0;
	r->comp.passes = 1;
	if (!rc && o->self_check)
		rc = bench_selfcheck_result(c, r, path, o, sc, err);
	if (o->keep_images && !rc)
		snprintf(r->image, sizeof(r->image), "%s", path);
	else
		unlink(path);
	return rc;
}

static int run_one(const struct bench_corpus *c, const struct bench_run_opts *o,
		   const struct plan *p, uint32_t bs, size_t var, const struct bench_codec *bc,
		   struct run_vecs *rv, struct bench_run *out, struct ff_err *err)
{
	const char *flags[MAX_FLAGS * 2];
	size_t nf = variant_flags(p, var, flags);
	struct bench_result r;
	struct bench_selfcheck sc;
	struct ff_err e = { 0 };

	fill_identity(&r, p->f, bc, bs, flags, nf);
	memset(&sc, 0, sizeof(sc));
	if (measure_one(c, o, p->f, &r, &sc, flags, nf, &e) == 0) {
		if (ff_vec_push(&rv->res, &r) || ff_vec_push(&rv->sc, &sc))
			return ff_err_set(err, ENOMEM, "bench: out of memory for results");
	} else if (e.code == ENOTSUP) {
		out->not_applicable++;
	} else {
		out->failed++;
		ff_warnf(o->warn, o->ctx, FF_WARN_FAILED, NULL, "%s %s, %s %u: %s", p->f->title,
			 bc->label, p->f->build->block_name, bs, e.msg);
	}
	if (o->progress)
		o->progress(o->ctx, c->unique_bytes, 0);
	return 0;
}

static int run_format(const struct bench_corpus *c, const struct bench_run_opts *o,
		      const struct ff_format *f, struct run_vecs *rv, struct bench_run *out,
		      struct ff_err *err)
{
	uint32_t bs[64];
	size_t nb = sizes(o, f->build, bs, 64);
	struct bench_codec bc[MAX_CODECS];
	size_t nc = fs_codecs(o, f->build, bc, MAX_CODECS);
	struct plan p;

	make_plan(o, f, &p);
	for (size_t b = 0; b < nb; b++)
		for (size_t v = 0; v < n_variants(&p); v++)
			for (size_t k = 0; k < nc; k++)
				if (run_one(c, o, &p, bs[b], v, &bc[k], rv, out, err))
					return -1;
	return 0;
}

/* A codec setting no file system of the run stores is a setting that
 * could not be measured: said once, and counted. */
static void unstored_codecs(const struct bench_run_opts *o, struct bench_run *out)
{
	for (size_t k = 0; k < o->n_codecs; k++) {
		int stored = 0;

		for (size_t i = 0; i < ff_format_count() && !stored; i++) {
			const struct ff_format *f = ff_format_at(i);

			stored = wanted(o, f) && ff_build_has_codec(f->build, o->codecs[k].name);
		}
		if (stored)
			continue;
		out->failed++;
		ff_warnf(o->warn, o->ctx, FF_WARN_FAILED, NULL, "%s: no file system of the run "
			 "stores codec '%s'", o->codecs[k].label, o->codecs[k].name);
	}
}

int bench_run(const struct bench_corpus *c, const struct bench_run_opts *o,
	      struct bench_run *out, struct ff_err *err)
{
	struct run_vecs rv = { FF_VEC_INIT(struct bench_result),
			       FF_VEC_INIT(struct bench_selfcheck) };
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (bench_run_check_flags(o, err))
		return -1;
	unstored_codecs(o, out);
	for (size_t i = 0; i < ff_format_count() && !rc; i++) {
		const struct ff_format *f = ff_format_at(i);

		if (wanted(o, f))
			rc = run_format(c, o, f, &rv, out, err);
	}
	out->res = FF_VEC_DATA(&rv.res, struct bench_result);
	out->sc = FF_VEC_DATA(&rv.sc, struct bench_selfcheck);
	out->n = rv.res.len;
	if (rc) {
		bench_run_free(out);
		return -1;
	}
	if (!out->n) {
		bench_run_free(out);
		return ff_err_set(err, EINVAL, "no setting could be measured (file systems that "
				  "build: see flashfs formats)");
	}
	return 0;
}

unsigned bench_fs_media(const char *fs)
{
	const struct ff_format *f = ff_format_find(fs);
	unsigned m = f && f->build ? f->build->media : 0;

	return m ? m : FF_MEDIUM_BLOCK | FF_MEDIUM_NOR | FF_MEDIUM_NAND;
}

void bench_run_free(struct bench_run *r)
{
	free(r->res);
	free(r->sc);
	memset(r, 0, sizeof(*r));
}
