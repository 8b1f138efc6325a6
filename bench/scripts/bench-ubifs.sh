#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-ubifs.sh — ffmkfs.ubifs against mtd-utils' mkfs.ubifs (Debian's,
# 2.1.5 at the time of writing) on a Debian minbase rootfs when one is
# there (BENCH_UBIFS_SRC, else /var/tmp/minbase, else build/rootfs/minbase
# from `make bench-rootfs`), else on a generated ~50 MB tree; with -x lzo
# and -x zstd, 2 KiB pages and 124 KiB LEBs: the median wall time of
# BENCH_RUNS (3) runs of each, CPU seconds, their ratio, the image sizes
# and their ratio.  Issue 29's goal: time ratio <= 0.50, size ratio <=
# 1.00.  Not a test: the machine may be shared (the load is printed).
set -u
. "$(dirname "$0")/lib.sh"
command -v mkfs.ubifs > /dev/null || { echo "bench-ubifs: mkfs.ubifs not installed" >&2; exit 2; }
src=$(BENCH_SRC=${BENCH_UBIFS_SRC:-${BENCH_SRC:-}} rootfs_or_tree)
G="-m 2048 -e 126976 -c 8000"

echo "source: $src ($(du -sh "$src" | cut -f1), $(find "$src" | wc -l) entries)," \
	"$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(mkfs.ubifs --version 2>&1 | head -n 1)"
printf '%-6s %-13s %9s %9s %9s %12s\n' codec tool "wall s" "cpu s" "rss KiB" "image bytes"
fail=0
for x in lzo zstd; do
	ref=$(median mkfs.ubifs $G -x "$x" -r "$src" -o "$work/ref.img") || { echo "mkfs.ubifs -x $x failed"; exit 2; }
	our=$(median "$bin/ffmkfs.ubifs" $G -x "$x" -r "$src" -o "$work/our.img") || { echo "ffmkfs.ubifs -x $x failed"; exit 2; }
	rs=$(stat -c %s "$work/ref.img")
	os=$(stat -c %s "$work/our.img")
	printf '%-6s %-13s %9s %9s %9s %12s\n' "$x" mkfs.ubifs $ref "$rs" "$x" ffmkfs.ubifs $our "$os"
	awk -v a="${ref%% *}" -v b="${our%% *}" -v rs="$rs" -v os="$os" -v x="$x" 'BEGIN {
		t = b / a; s = os / rs
		printf "%-6s time ratio ffmkfs/mkfs %.2f (goal <= 0.50: %s), size ratio %.4f (goal <= 1.00: %s)\n",
			x, t, t <= 0.5 ? "met" : "MISSED", s, s <= 1.0 ? "met" : "MISSED" }'
	"$bin/flashfs" check "$work/our.img" > /dev/null 2>&1 || { echo "$x: our image is not clean"; fail=1; }
done
exit $fail
