/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The xz BCJ filter for a corpus: the machine most of its ELF bytes are
 * for (e_machine of each unique file), not the host's — a bench run on an
 * x86 PC for an ARM rootfs must try the ARM filter. */
#include "bench/bench.h"
#include "common/endian.h"

#include <stdio.h>
#include <string.h>

/* ELF e_machine values (the ELF specification's numbering). */
enum {
	EM_SPARC = 2, EM_386 = 3, EM_PPC = 20, EM_PPC64 = 21, EM_ARM = 40, EM_SPARCV9 = 43,
	EM_IA_64 = 50, EM_X86_64 = 62, EM_AARCH64 = 183, EM_RISCV = 243,
};

static const struct {
	uint16_t machine;
	const char *name;   /* the machine, for the note */
	const char *filter; /* the xz BCJ filter SquashFS (and the kernel) decode, or NULL */
} machines[] = {
	{ EM_386, "x86", "x86" },         { EM_X86_64, "x86-64", "x86" },
	{ EM_ARM, "arm", "arm" },         { EM_PPC, "powerpc", "powerpc" },
	{ EM_PPC64, "powerpc64", "powerpc" }, { EM_IA_64, "ia64", "ia64" },
	{ EM_SPARC, "sparc", "sparc" },   { EM_SPARCV9, "sparc64", "sparc" },
	{ EM_AARCH64, "aarch64", NULL },  { EM_RISCV, "riscv", NULL },
};

#define N_MACHINES (sizeof(machines) / sizeof(machines[0]))

/* The table index of an ELF file's machine, or -1 (no ELF, or unknown). */
static int elf_machine(const uint8_t *p, uint64_t len)
{
	uint16_t m;

	if (len < 20 || memcmp(p, "\177ELF", 4) || (p[5] != 1 && p[5] != 2))
		return -1;
	m = ff_get16(p + 18, p[5] == 2); /* EI_DATA: 1 little, 2 big endian */
	for (size_t i = 0; i < N_MACHINES; i++)
		if (machines[i].machine == m)
			return (int)i;
	return -1;
}

const char *bench_corpus_bcj(const struct bench_corpus *c, char *note, size_t cap)
{
	uint64_t bytes[N_MACHINES] = { 0 };
	size_t best = 0;

	for (size_t i = 0; i < c->n_files; i++) {
		const struct bench_file *f = &c->files[i];
		int m = f->dup_of < 0 ? elf_machine(c->data + f->off, f->size) : -1;

		if (m >= 0)
			bytes[m] += f->size;
	}
	for (size_t i = 1; i < N_MACHINES; i++)
		best = bytes[i] > bytes[best] ? i : best;
	if (!bytes[best]) {
		snprintf(note, cap, "no ELF files in the corpus: xz+bcj not tried");
		return NULL;
	}
	if (!machines[best].filter) {
		snprintf(note, cap, "the corpus' ELF files are %s: SquashFS's xz (and the Linux "
			 "kernel's decoder) has no BCJ filter for it, xz+bcj not tried",
			 machines[best].name);
		return NULL;
	}
	snprintf(note, cap, "xz+bcj uses the %s filter: the corpus' ELF files are %s",
		 machines[best].filter, machines[best].name);
	return machines[best].filter;
}
