#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-ubifs.sh — ffmkfs.ubifs against mtd-utils' mkfs.ubifs (Debian's,
# 2.1.5 at the time of writing) on a Debian minbase rootfs when one is
# there (BENCH_UBIFS_SRC, else /var/tmp/minbase, else build/rootfs/minbase
# from `make bench-rootfs`), else on a generated ~50 MB tree; with -x lzo
# and -x zstd, 2 KiB pages and 124 KiB LEBs.  The two tools take turns,
# BENCH_RUNS (3) runs each, so a change of load hits both; printed: the
# median wall time, CPU seconds, their ratios, the image sizes and their
# ratio.  Issue 29's goal: time ratio <= 0.50, size ratio <= 1.00.
#
# Then `flashfs extract` of our UBIFS image against `flashfs extract` of a
# SquashFS image (our mkfs.squashfs, the same codec, its default 128 KiB
# blocks) of the same tree, into fresh directories on a tmpfs
# (BENCH_EXTRACT_DIR, else /dev/shm, else the work directory): MB of
# output per second for both, taking turns, and their ratio (goal: UBIFS
# >= 1.00 of SquashFS).  Not a test: the machine may be shared (the load is
# printed).  BENCH_UBIFS_ONLY=extract skips the builders' comparison (our
# images are still built, untimed) for the extract part alone.
set -u
. "$(dirname "$0")/lib.sh"
command -v mkfs.ubifs > /dev/null || { echo "bench-ubifs: mkfs.ubifs not installed" >&2; exit 2; }
src=$(BENCH_SRC=${BENCH_UBIFS_SRC:-${BENCH_SRC:-}} rootfs_or_tree)
G="-m 2048 -e 126976 -c 8000"

# turns NAME_A NAME_B — runs "$a_cmd[@]" and "$b_cmd[@]" in turn $runs
# times, "$pre[@]" before each (untimed); leaves each one's "wall cpu rss"
# lines in $work/NAME.runs
pre=(true)
turns() {
	local i
	: > "$work/$1.runs"
	: > "$work/$2.runs"
	for i in $(seq "$runs"); do
		"${pre[@]}"
		runs=1 runs_of "${a_cmd[@]}" >> "$work/$1.runs" || { echo "failed: ${a_cmd[*]}"; return 1; }
		"${pre[@]}"
		runs=1 runs_of "${b_cmd[@]}" >> "$work/$2.runs" || { echo "failed: ${b_cmd[*]}"; return 1; }
	done
}
med() { sort -n "$work/$1.runs" | awk '{v[NR] = $0} END {if (NR) print v[int((NR + 1) / 2)]}'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "source: $src ($(du -sh "$src" | cut -f1), $(find "$src" | wc -l) entries)," \
	"$(nproc) CPUs, load $(load); $(mkfs.ubifs --version 2>&1 | head -n 1)"
printf '%-6s %-13s %9s %9s %9s %12s\n' codec tool "wall s" "cpu s" "rss KiB" "image bytes"
fail=0
for x in lzo zstd; do
	if [ "${BENCH_UBIFS_ONLY:-}" = extract ]; then # our image only, untimed
		"$bin/ffmkfs.ubifs" $G -x "$x" -r "$src" -o "$work/ubifs-$x.img" > /dev/null 2>&1 ||
			{ echo "ffmkfs.ubifs -x $x failed"; exit 2; }
		continue
	fi
	a_cmd=(mkfs.ubifs $G -x "$x" -r "$src" -o "$work/ref.img")
	b_cmd=("$bin/ffmkfs.ubifs" $G -x "$x" -r "$src" -o "$work/ubifs-$x.img")
	turns ref our || exit 2
	ref=$(med ref)
	our=$(med our)
	rs=$(stat -c %s "$work/ref.img")
	os=$(stat -c %s "$work/ubifs-$x.img")
	printf '%-6s %-13s %9s %9s %9s %12s\n' "$x" mkfs.ubifs $ref "$rs" "$x" ffmkfs.ubifs $our "$os"
	awk -v a="$ref" -v b="$our" -v rs="$rs" -v os="$os" -v x="$x" -v l="$(load)" 'BEGIN {
		split(a, A, " "); split(b, B, " ")
		t = B[1] / A[1]; c = B[2] / A[2]; s = os / rs
		printf "%-6s time ratio ffmkfs/mkfs %.2f (goal <= 0.50: %s), cpu ratio %.2f, size ratio %.4f (goal <= 1.00: %s); load %s\n",
			x, t, (t <= 0.5 ? "met" : "MISSED"), c, s, (s <= 1.0 ? "met" : "MISSED"), l }'
	"$bin/flashfs" check "$work/ubifs-$x.img" > /dev/null 2>&1 || { echo "$x: our image is not clean"; fail=1; }
done

# extract: UBIFS against SquashFS, per MB of output
xdir=${BENCH_EXTRACT_DIR:-}
[ -n "$xdir" ] || { [ -d /dev/shm ] && [ -w /dev/shm ] && xdir=/dev/shm; } || xdir=$work
xdir=$(mktemp -d "$xdir/ff-bench-extract.XXXXXX")
trap 'rm -rf "$work" "$xdir"' EXIT
pre=(rm -rf "$xdir/out") # each extract into a new directory, removed untimed
echo
echo "extract to $xdir (flashfs extract, default workers), load $(load)"
printf '%-6s %-26s %9s %9s %9s %9s\n' codec image "wall s" "cpu s" "rss KiB" "MB/s"
for x in lzo zstd; do
	"$bin/mkfs.squashfs" "$src" "$work/sq-$x.img" -comp "$x" -noappend > /dev/null 2>&1 ||
		{ echo "mkfs.squashfs -comp $x failed"; exit 2; }
	a_cmd=("$bin/flashfs" extract -C "$xdir/out" "$work/sq-$x.img")
	b_cmd=("$bin/flashfs" extract -C "$xdir/out" "$work/ubifs-$x.img")
	turns sq ub || exit 2
	bytes=$(du -sb --apparent-size "$xdir/out" | cut -f1)
	sq=$(med sq)
	ub=$(med ub)
	for t in "squashfs $(stat -c %s "$work/sq-$x.img") B:$sq" "ubifs $(stat -c %s "$work/ubifs-$x.img") B:$ub"; do
		set -- ${t#*:}
		printf '%-6s %-26s %9s %9s %9s %9.1f\n' "$x" "${t%%:*}" "$1" "$2" "$3" \
			"$(awk -v b="$bytes" -v s="$1" 'BEGIN {print b / 1e6 / s}')"
	done
	awk -v a="$sq" -v b="$ub" -v x="$x" -v mb="$bytes" -v l="$(load)" 'BEGIN {
		split(a, A, " "); split(b, B, " ")
		r = A[1] / B[1]; c = A[2] / B[2]
		printf "%-6s extract MB/s UBIFS/SquashFS %.2f (goal >= 1.00: %s), per CPU second %.2f; %.1f MB out; load %s\n",
			x, r, (r >= 1.0 ? "met" : "MISSED"), c, mb / 1e6, l }'
done
exit $fail
