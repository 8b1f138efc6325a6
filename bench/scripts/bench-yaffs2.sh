#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-yaffs2.sh — mkfs.yaffs2 (2K pages + 64 OOB) against the floor of
# writing the same number of bytes with dd (bs=1M, fsync, the same file
# system), the two taking turns BENCH_RUNS (5) times so that a change of
# machine load hits both; medians, with peak RSS.  One untimed build first
# warms the page cache for the source tree.  The machine may be shared, so
# the CPU seconds (user + sys, median) are shown as well: with other jobs
# running, wall time follows CPU time.
set -u
. "$(dirname "$0")/lib.sh"
[ -x "$bin/mkfs.yaffs2" ] || { echo "bench-yaffs2: $bin/mkfs.yaffs2 not built" >&2; exit 2; }

runs=${BENCH_RUNS:-5}

# one_run TOOL — append "wall-seconds kb cpu-seconds" of one run to $work/TOOL
one_run() {
	local -n cmd=$1
	local t0=$EPOCHREALTIME t1
	/usr/bin/time -f '%M %U %S' -o "$work/time.out" "${cmd[@]}" > /dev/null 2>&1 || return 1
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" '{printf "%.4f %s %s\n", b - a, $1, $2 + $3}' "$work/time.out" >> "$work/$1"
}

# col_median FILE COLUMN
col_median() {
	sort -n -k "$2" "$1" | awk -v c="$2" '{t[NR] = $c} END {print t[int((NR + 1) / 2)]}'
}

machine
printf '%-9s %12s %9s %9s %6s %9s %9s %9s %9s\n' corpus "image B" "mkfs s" "dd s" ratio \
	"mkfs cpu" "dd cpu" "mkfs MB" "dd MB"
status=0
while read -r name dir; do
	mkfs=("$bin/mkfs.yaffs2" -q --page-size 2048 --oob-size 64 "$dir" "$work/y.img")
	"${mkfs[@]}" > /dev/null || { status=1; continue; }
	size=$(stat -c %s "$work/y.img")
	dd=(dd if=/dev/zero of="$work/dd.img" bs=1M count="$size" iflag=count_bytes conv=fsync)
	: > "$work/mkfs"
	: > "$work/dd"
	take_turns "$runs" "one_run mkfs" "one_run dd" || { status=1; continue; }
	ours_cpu=$(col_median "$work/mkfs" 3)
	dd_cpu=$(col_median "$work/dd" 3)
	set -- $(cut -d' ' -f1,2 "$work/mkfs" | median_rss) $(cut -d' ' -f1,2 "$work/dd" | median_rss)
	printf '%-9s %12d %9.3f %9.3f %6s %9.2f %9.2f %9.1f %9.1f\n' "$name" "$size" "$1" "$3" \
		"$(ratio "$1" "$3")" "$ours_cpu" "$dd_cpu" \
		"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')"
done < <(corpora)
exit $status
