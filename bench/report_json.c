/* JSON output, schema docs/bench.schema.json ("flashfs-bench/1").  Keys are
 * only ever added, never renamed, within one schema version. */
#include "bench/bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void bench_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void corpus(FILE *out, const struct bench_report *r)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.machine, "unknown");
	fprintf(out, "  \"schema\": \"flashfs-bench/1\",\n  \"host\": {\"arch\": ");
	bench_json_str(out, u.machine);
	fprintf(out, ", \"cpus\": %ld},\n  \"corpus\": {\"sources\": [",
		sysconf(_SC_NPROCESSORS_ONLN));
	for (size_t i = 0; i < r->n_sources; i++) {
		fputs(i ? ", " : "", out);
		bench_json_str(out, r->sources[i]);
	}
	fprintf(out, "], \"files\": %zu, \"directories\": %u, \"nodes\": %zu, \"bytes\": %llu, "
		     "\"unique_bytes\": %llu},\n",
		r->corpus->n_files, r->corpus->n_dirs, r->corpus->n_nodes,
		(unsigned long long)r->corpus->data_len,
		(unsigned long long)r->corpus->unique_bytes);
}

static void settings(FILE *out, const struct bench_report *r)
{
	fprintf(out, "  \"settings\": {\"threads\": %u, \"min_time_s\": %g, \"min_repeats\": %u, "
		     "\"cpu_scale\": %g, \"target_flash_mbps\": %g, \"size_weight\": %g, "
		     "\"flash\": [",
		r->mo->threads, r->mo->min_time, r->mo->min_repeats, r->an->cpu_scale,
		r->an->target_mbps, r->an->weight);
	for (size_t f = 0; f < r->n_flash; f++) {
		fprintf(out, "%s{\"name\": ", f ? ", " : "");
		bench_json_str(out, r->flash[f].name);
		fprintf(out, ", \"mbps\": %g}", r->flash[f].mbps);
	}
	fprintf(out, "]},\n");
}

static void speed(FILE *out, const char *key, const struct bench_speed *s)
{
	fprintf(out, "\"%s_mbps\": %.3f, \"%s_spread\": {\"best\": %.3f, \"median\": %.3f, "
		     "\"worst\": %.3f, \"passes\": %u}",
		key, s->best, key, s->best, s->median, s->worst, s->passes);
}

static void result(FILE *out, const struct bench_report *r, size_t i)
{
	const struct bench_result *x = &r->res[i];

	fprintf(out, "    {\"label\": ");
	bench_json_str(out, x->codec.label);
	fprintf(out, ", \"codec\": ");
	bench_json_str(out, x->codec.name);
	fprintf(out, ", \"options\": ");
	bench_json_str(out, x->options);
	fprintf(out, ", \"block_size\": %u, \"image_size\": %llu, \"bytes_used\": %llu, "
		     "\"data_size\": %llu, "
		     "\"metadata_size\": %llu, \"input_bytes\": %llu, \"blocks\": %u, "
		     "\"fragment_blocks\": %u, \"ratio\": %.6f, ",
		x->block_size, (unsigned long long)x->image_size,
		(unsigned long long)x->bytes_used, (unsigned long long)x->data_size,
		(unsigned long long)x->meta_size, (unsigned long long)x->input_bytes, x->blocks,
		x->fragment_blocks, x->ratio);
	speed(out, "comp", &x->comp);
	fputs(", ", out);
	speed(out, "decomp", &x->decomp);
	fprintf(out, ", \"decomp_target_mbps\": %.3f, \"read_mbps\": [", x->decomp_target);
	for (size_t f = 0; f < r->n_flash; f++)
		fprintf(out, "%s{\"flash_mbps\": %g, \"mbps\": %.3f}", f ? ", " : "",
			r->flash[f].mbps,
			bench_model_speed(x->ratio, r->flash[f].mbps, x->decomp_target));
	fputs("]", out);
	if (r->sc)
		fprintf(out, ", \"self_check\": {\"comp_direct_mbps\": %.3f, "
			     "\"decomp_direct_mbps\": %.3f, \"comp_deviation\": %.4f, "
			     "\"decomp_deviation\": %.4f}",
			r->sc[i].comp_direct, r->sc[i].decomp_direct, r->sc[i].comp_dev,
			r->sc[i].decomp_dev);
	fputs("}", out);
}

static void e2e_ns(FILE *out, const struct bench_report *r, int g)
{
	const struct bench_e2e *e = r->e2e ? &r->e2e[g] : NULL;
	const struct bench_nandsim *n = r->ns ? &r->ns[g] : NULL;

	if (e && e->valid) {
		fprintf(out, ", \"e2e\": {\"image_size\": %llu, \"mkfs_s\": %.4f, "
			     "\"fuse_read_s\": %.4f, \"kernel_read_s\": %.4f, \"note\": ",
			(unsigned long long)e->image_size, e->mkfs_s, e->fuse_read_s,
			e->kernel_read_s);
		bench_json_str(out, e->note);
		fputc('}', out);
	}
	if (n && n->valid) {
		fprintf(out, ", \"nandsim\": {\"flash_mbps\": %.4f, \"measured_s\": %.4f, "
			     "\"measured_nodelay_s\": %.4f, \"predicted_s\": %.4f, "
			     "\"guest_factor\": %.4f, \"note\": ",
			n->flash_mbps, n->measured_s, n->measured_nodelay_s, n->predicted_s,
			n->guest_factor);
		bench_json_str(out, n->note);
		fputc('}', out);
	}
}

static void analysis(FILE *out, const struct bench_report *r)
{
	fprintf(out, "  \"recommendations\": [\n");
	for (int g = 0; g < BENCH_NGOALS; g++) {
		const struct bench_result *x = &r->res[r->an->reco[g].index];

		fprintf(out, "    {\"goal\": \"%s\", \"label\": ", bench_goal_name(g));
		bench_json_str(out, x->codec.label);
		fprintf(out, ", \"block_size\": %u, \"result\": %zu, \"explanation\": ",
			x->block_size, r->an->reco[g].index);
		bench_json_str(out, r->an->reco[g].why);
		e2e_ns(out, r, g);
		fprintf(out, "}%s\n", g + 1 < BENCH_NGOALS ? "," : "");
	}
	fprintf(out, "  ],\n  \"break_even\": [");
	for (size_t k = 0; k < r->an->n_be; k++)
		fprintf(out, "%s\n    {\"smaller\": %zu, \"faster\": %zu, \"flash_mbps\": %.4f}",
			k ? "," : "", r->an->be[k].a, r->an->be[k].b, r->an->be[k].flash_mbps);
	fprintf(out, "%s]\n", r->an->n_be ? "\n  " : "");
}

void bench_report_json(FILE *out, const struct bench_report *r)
{
	fprintf(out, "{\n");
	corpus(out, r);
	settings(out, r);
	fprintf(out, "  \"results\": [\n");
	for (size_t i = 0; i < r->n; i++) {
		result(out, r, i);
		fprintf(out, "%s\n", i + 1 < r->n ? "," : "");
	}
	fprintf(out, "  ],\n");
	analysis(out, r);
	fprintf(out, "}\n");
}
