/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JSON output, schema docs/schemas/bench.schema.json ("flashfs-bench/2").  Keys are
 * only ever added, never renamed, within one schema version. */
#include "bench/bench.h"
#include "compress/compress.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/info.h"
#include "common/json.h"
#include "common/pool.h"

static void corpus(struct ff_json *j, const struct bench_report *r)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.machine, "unknown");
	ff_json_kv_str(j, "schema", "flashfs-bench/2");
	ff_json_key(j, "host");
	ff_json_begin_object(j);
	ff_json_kv_str(j, "arch", u.machine);
	ff_json_key(j, "cpus");
	ff_json_int(j, ff_online_cpus());
	ff_json_end_object(j);
	ff_json_key(j, "corpus");
	ff_json_begin_object(j);
	ff_json_key(j, "sources");
	ff_json_begin_array(j);
	for (size_t i = 0; i < r->n_sources; i++)
		ff_json_str(j, r->sources[i]);
	ff_json_end_array(j);
	ff_json_kv_uint(j, "files", r->corpus->n_files);
	ff_json_kv_uint(j, "directories", r->corpus->n_dirs);
	ff_json_kv_uint(j, "nodes", r->corpus->n_nodes);
	ff_json_kv_uint(j, "bytes", r->corpus->data_len);
	ff_json_kv_uint(j, "unique_bytes", r->corpus->unique_bytes);
	ff_json_end_object(j);
}

static void settings(struct ff_json *j, const struct bench_report *r)
{
	ff_json_key(j, "settings");
	ff_json_begin_object(j);
	ff_json_kv_uint(j, "threads", r->mo->threads);
	ff_json_kv_real(j, "min_time_s", r->mo->min_time, -1);
	ff_json_kv_uint(j, "min_repeats", r->mo->min_repeats);
	ff_json_kv_real(j, "cpu_scale", r->an->cpu_scale, -1);
	ff_json_kv_real(j, "target_flash_mbps", r->an->target_mbps, -1);
	ff_json_kv_real(j, "size_weight", r->an->weight, -1);
	ff_json_kv_str(j, "flash_type", bench_medium_name(r->medium));
	ff_json_key(j, "flash");
	ff_json_begin_array(j);
	for (size_t f = 0; f < r->n_flash; f++) {
		ff_json_begin_object(j);
		ff_json_kv_str(j, "name", r->flash[f].name);
		ff_json_kv_real(j, "mbps", r->flash[f].mbps, -1);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
	ff_json_end_object(j);
}

struct real {
	const char *key;
	double v;
	int decimals;
};

/* Members that are reals with a fixed number of decimals. */
static void reals(struct ff_json *j, const struct real *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ff_json_kv_real(j, f[i].key, f[i].v, f[i].decimals);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void speed(struct ff_json *j, const char *key, const struct bench_speed *s)
{
	char name[32];

	snprintf(name, sizeof(name), "%s_mbps", key);
	ff_json_kv_real(j, name, s->best, 3);
	snprintf(name, sizeof(name), "%s_spread", key);
	ff_json_key(j, name);
	const struct real f[] = {{"best", s->best, 3}, {"median", s->median, 3},
				 {"worst", s->worst, 3}};

	ff_json_begin_object(j);
	reals(j, f, N(f));
	ff_json_kv_uint(j, "passes", s->passes);
	ff_json_end_object(j);
}

/* One phase of the paired self-check: the medians, the ratio's interval
 * and the verdict. */
static void paired(struct ff_json *j, const char *key, const struct bench_paired *p)
{
	static const char *const verdict[] = {[BENCH_AGREE] = "agree",
					      [BENCH_INCONCLUSIVE] = "inconclusive",
					      [BENCH_DIFFERS] = "differs"};
	const struct real f[] = {{"harness_mbps", p->harness_mbps, 3},
				 {"direct_mbps", p->direct_mbps, 3},
				 {"ratio_median", p->ratio.median, 4},
				 {"ratio_low", p->ratio.lo, 4},
				 {"ratio_high", p->ratio.hi, 4},
				 {"confidence", p->ratio.coverage, 4}};

	ff_json_key(j, key);
	ff_json_begin_object(j);
	reals(j, f, N(f));
	ff_json_kv_uint(j, "rounds", p->rounds);
	ff_json_kv_uint(j, "passes_per_round", p->passes_per_round);
	ff_json_kv_str(j, "verdict", verdict[p->verdict]);
	ff_json_end_object(j);
}

static double deviation(const struct bench_paired *p)
{
	return p->ratio.median > 1 ? p->ratio.median - 1 : 1 - p->ratio.median;
}

static void self_check(struct ff_json *j, const struct bench_selfcheck *sc)
{
	const struct real f[] = {{"comp_direct_mbps", sc->comp.direct_best, 3},
				 {"decomp_direct_mbps", sc->decomp.direct_best, 3},
				 {"comp_deviation", deviation(&sc->comp), 4},
				 {"decomp_deviation", deviation(&sc->decomp), 4},
				 {"band", BENCH_SELFCHECK_BAND, 2},
				 {"differs_factor", BENCH_SELFCHECK_DIFFERS, 2}};

	ff_json_key(j, "self_check");
	ff_json_begin_object(j);
	reals(j, f, N(f));
	paired(j, "comp", &sc->comp);
	paired(j, "decomp", &sc->decomp);
	ff_json_key(j, "kernel");
	ff_json_begin_object(j);
	ff_json_kv_bool(j, "ran", sc->kernel.ran);
	ff_json_kv_bool(j, "same", sc->kernel.same);
	ff_json_kv_uint(j, "bytes", sc->kernel.bytes);
	ff_json_kv_real(j, "kernel_s", sc->kernel.kernel_s, 4);
	ff_json_kv_real(j, "ours_s", sc->kernel.ours_s, 4);
	ff_json_kv_str(j, "note", sc->kernel.note);
	ff_json_end_object(j);
	ff_json_end_object(j);
}

/* The options as typed members: the codec set up again as measured. */
static void comp_options(struct ff_json *j, const struct bench_result *x)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = bench_codec_open(&x->codec, x->block_size, &err);

	ff_json_key(j, "compressor_options");
	ff_json_begin_object(j);
	if (comp)
		ff_comp_options(comp, 0, ff_info_json, j);
	ff_json_end_object(j);
	ff_comp_free(comp);
}

static void result(struct ff_json *j, const struct bench_report *r, size_t i)
{
	const struct bench_result *x = &r->res[i];

	ff_json_begin_object(j);
	ff_json_kv_str(j, "fs", x->fs);
	ff_json_kv_str(j, "block_name", x->block_name);
	ff_json_kv_str(j, "flags", x->flags);
	if (x->image[0])
		ff_json_kv_str(j, "image", x->image);
	ff_json_kv_str(j, "label", x->codec.label);
	ff_json_kv_str(j, "codec", x->codec.name);
	ff_json_kv_str(j, "options", x->options);
	comp_options(j, x);
	ff_json_kv_uint(j, "block_size", x->block_size);
	ff_json_kv_uint(j, "image_size", x->image_size);
	ff_json_kv_uint(j, "bytes_used", x->bytes_used);
	ff_json_kv_uint(j, "input_bytes", x->input_bytes);
	ff_json_kv_real(j, "ratio", x->ratio, 6);
	ff_json_kv_real(j, "build_s", x->build_s, 4);
	ff_json_key(j, "read_cost");
	ff_json_begin_object(j);
	ff_json_kv_uint(j, "sequential_bytes", x->read_bytes);
	ff_json_kv_real(j, "random_4k_us", x->rand_us, 3);
	ff_json_kv_real(j, "random_amplification", x->rand_amp, 4);
	ff_json_kv_uint(j, "stat_entries", x->entries);
	ff_json_kv_real(j, "stat_us", x->stat_us, 4);
	ff_json_end_object(j);
	speed(j, "comp", &x->comp);
	speed(j, "decomp", &x->decomp);
	ff_json_kv_real(j, "decomp_target_mbps", x->decomp_target, 3);
	ff_json_key(j, "read_mbps");
	ff_json_begin_array(j);
	for (size_t f = 0; f < r->n_flash; f++) {
		ff_json_begin_object(j);
		ff_json_kv_real(j, "flash_mbps", r->flash[f].mbps, -1);
		ff_json_kv_real(j, "mbps",
				bench_model_speed(x->ratio, r->flash[f].mbps, x->decomp_target), 3);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
	if (r->sc)
		self_check(j, &r->sc[i]);
	ff_json_end_object(j);
}

static void e2e_ns(struct ff_json *j, const struct bench_report *r, int g)
{
	const struct bench_e2e *e = r->e2e ? &r->e2e[g] : NULL;
	const struct bench_nandsim *n = r->ns ? &r->ns[g] : NULL;

	if (e && e->valid) {
		const struct real f[] = {{"mkfs_s", e->mkfs_s, 4},
					 {"fuse_read_s", e->fuse_read_s, 4},
					 {"kernel_read_s", e->kernel_read_s, 4}};

		ff_json_key(j, "e2e");
		ff_json_begin_object(j);
		ff_json_kv_uint(j, "image_size", e->image_size);
		reals(j, f, N(f));
		ff_json_kv_str(j, "note", e->note);
		ff_json_end_object(j);
	}
	if (n && n->valid) {
		const struct real f[] = {{"flash_mbps", n->flash_mbps, 4},
					 {"measured_s", n->measured_s, 4},
					 {"measured_nodelay_s", n->measured_nodelay_s, 4},
					 {"predicted_s", n->predicted_s, 4},
					 {"guest_factor", n->guest_factor, 4}};

		ff_json_key(j, "nandsim");
		ff_json_begin_object(j);
		reals(j, f, N(f));
		ff_json_kv_str(j, "note", n->note);
		ff_json_end_object(j);
	}
}

static void analysis(struct ff_json *j, const struct bench_report *r)
{
	ff_json_key(j, "recommendations");
	ff_json_begin_array(j);
	for (int g = 0; g < BENCH_NGOALS; g++) {
		const struct bench_result *x = &r->res[r->an->reco[g].index];

		ff_json_begin_object(j);
		ff_json_kv_str(j, "goal", bench_goal_name(g));
		ff_json_kv_str(j, "label", x->codec.label);
		ff_json_kv_uint(j, "block_size", x->block_size);
		ff_json_kv_uint(j, "result", r->an->reco[g].index);
		ff_json_kv_str(j, "explanation", r->an->reco[g].why);
		e2e_ns(j, r, g);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
	ff_json_key(j, "break_even");
	ff_json_begin_array(j);
	for (size_t k = 0; k < r->an->n_be; k++) {
		ff_json_begin_object(j);
		ff_json_kv_uint(j, "smaller", r->an->be[k].a);
		ff_json_kv_uint(j, "faster", r->an->be[k].b);
		ff_json_kv_real(j, "flash_mbps", r->an->be[k].flash_mbps, 4);
		ff_json_end_object(j);
	}
	ff_json_end_array(j);
}

void bench_report_json(FILE *out, const struct bench_report *r)
{
	struct ff_json j;

	ff_json_init(&j, out, 1);
	ff_json_begin_object(&j);
	corpus(&j, r);
	settings(&j, r);
	ff_json_key(&j, "results");
	ff_json_begin_array(&j);
	for (size_t i = 0; i < r->n; i++)
		result(&j, r, i);
	ff_json_end_array(&j);
	analysis(&j, r);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}
