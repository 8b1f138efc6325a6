/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* CSV: one line per result, the columns of the JSON results. */
#include "bench/bench.h"

#include <stdlib.h>

void bench_report_csv(FILE *out, const struct bench_report *r)
{
	size_t *ord = bench_sorted(r->res, r->n);

	fprintf(out, "fs,flags,label,codec,options,block_size,image_size,"
		     "input_bytes,ratio,rand_4k_us,rand_amplification,stat_us,comp_mbps,comp_mbps_median,decomp_mbps,"
		     "decomp_mbps_median,decomp_mbps_worst,decomp_target_mbps");
	for (size_t f = 0; f < r->n_flash; f++)
		fprintf(out, ",read_mbps_at_%g", r->flash[f].mbps);
	fprintf(out, ",recommended\n");
	for (size_t k = 0; k < r->n; k++) {
		size_t i = ord ? ord[k] : k;
		const struct bench_result *x = &r->res[i];

		/* labels and option text never hold commas or quotes except
		 * option lists ("bcj=x86,arm"), hence the quoting */
		fprintf(out, "%s,\"%s\",%s,%s,\"%s\",%u,%llu,%llu,%.6f,%.3f,%.4f,%.3f,"
			"%.3f,%.3f,%.3f,%.3f,%.3f,%.3f",
			x->fs, x->flags, x->codec.label, x->codec.name, x->options, x->block_size,
			(unsigned long long)x->image_size, (unsigned long long)x->input_bytes,
			x->ratio, x->rand_us, x->rand_amp, x->stat_us, x->comp.best, x->comp.median, x->decomp.best, x->decomp.median,
			x->decomp.worst, x->decomp_target);
		for (size_t f = 0; f < r->n_flash; f++)
			fprintf(out, ",%.3f",
				bench_model_speed(x->ratio, r->flash[f].mbps, x->decomp_target));
		fputc(',', out);
		for (int g = 0; g < BENCH_NGOALS; g++)
			if (r->an->reco[g].index == i)
				fprintf(out, "%s;", bench_goal_name(g));
		fputc('\n', out);
	}
	free(ord);
}
