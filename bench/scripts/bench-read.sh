#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-read.sh — whole-image extraction: `flashfs extract` against
# Debian's `unsquashfs -d` and, when ANCHORS=DIR names a build-anchors.sh
# output, the newest one (4.7.5), all with the same number of processors,
# on images of each corpus built by Debian's mksquashfs (every codec the
# kernel mounts; 128K blocks).  The tools take turns, BENCH_RUNS (5) times
# each, so that a change of machine load hits all; the figure is the
# median with min-max, then the ratios, the median CPU seconds (user +
# system: on a loaded machine the wall time waits for a core), the peak RSS and the load average
# after the row.  Each run extracts into a fresh directory, and removing
# earlier extractions is not timed.
#
# For the codecs in BENCH_READ_FLOORS (lzo xz) the row also has the decoder
# floor: tests/tools/codec_floor decompresses every data block of the tree
# once (the blocks our build writes: for lzo the same bytes as mksquashfs',
# for xz within 0.01% of them) and sums the CPU time; floor = that / the
# cores, and "÷floor" is our median wall time over it.
#
# The target is a tmpfs of its own (as root; BENCH_TARGET=disk extracts
# under $TMPDIR instead): on ext4, creating files right after an `rm -rf`
# of the last run spends most of the kernel time scanning for recently
# deleted inodes, which measures the file system's history, not the tool.
set -u
. "$(dirname "$0")/lib.sh"
command -v unsquashfs > /dev/null || { echo "bench-read: unsquashfs not installed" >&2; exit 2; }
floor_tool=${FF_TOOLS:-${FF_BUILD:-$top/build}/tests/tools}/codec_floor
floors=${BENCH_READ_FLOORS:-lzo xz}
[ -z "$floors" ] || [ -x "$floor_tool" ] ||
	{ echo "bench-read: $floor_tool not built (make $floor_tool)" >&2; exit 2; }
head=$(anchor unsquashfs) || head=
tools="ours unsq${head:+ head}"
procs=$(nproc)
runs=${BENCH_RUNS:-5}
out=$work/out
mkdir -p "$out"
if [ "${BENCH_TARGET:-tmpfs}" = tmpfs ] && [ "$(id -u)" = 0 ] &&
	mount -t tmpfs -o size=2g ff-bench "$out"; then
	trap 'umount "$out"; rm -rf "$work"' EXIT
	target="tmpfs"
else
	target="disk ($(df -T "$out" | awk 'NR == 2 {print $2}'))"
fi
machine
anchors_note unsquashfs
echo "target: $target; unsq: unsquashfs $(tool_version unsquashfs)${head:+; head: unsquashfs $(tool_version "$head")};" \
	"$runs runs each, taking turns; median (min-max) s; floor: decoder CPU s / $procs cores"
printf '%-8s %-5s %-20s %-20s %-20s %5s %5s %7s %6s %17s %15s %5s %5s %s\n' corpus codec "ours s" "unsq s" \
	"head s" "÷unsq" "÷head" "floor s" "÷floor" "CPU s o/u/h" "RSS MB o/u/h" "÷unsq" "÷head" load

# one_run TOOL — append "wall cpu kb" of one extraction of $work/img to $work/TOOL
one_run() {
	local d=$out/$1
	rm -rf "$d"
	case $1 in
	ours) timed "$bin/flashfs" extract --no-progress -j "$procs" -C "$d" "$work/img" ;;
	unsq) timed unsquashfs -q -n -processors "$procs" -d "$d" "$work/img" ;;
	head) timed "$head" -q -n -processors "$procs" -d "$d" "$work/img" ;;
	esac >> "$work/$1"
}
one_run_ours() { one_run ours; }
one_run_unsq() { one_run unsq; }
one_run_head() { one_run head; }

# cpu_s T — tool T's median CPU seconds, "-" when it did not run
cpu_s() { local v; v=$(cell "$1" 4); echo "${v:--}"; }
# cell T FIELD — field (1 median, 2 min, 3 max, 4 cpu, 5 kb) of tool T's spread
cell() { awk -v f="$2" '{print $f}' "$work/$1.sp"; }
mb() { [ -n "$1" ] || { echo -; return; }; awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

# dfloor — the decoder floor in seconds for codec $c on $dir, or "-"
dfloor() {
	case " $floors " in
	*" $c "*) "$floor_tool" -c "$c" -b 128K "$dir" |
		awk -F= -v p="$procs" '$1 == "decomp_cpu" {printf "%.3f", $2 / p}' ;;
	*) echo - ;;
	esac
}

status=0
while read -r name dir; do
	for c in $codecs; do
		mksquashfs "$dir" "$work/img" -comp "$c" -b 128K -noappend -no-progress -quiet > /dev/null 2>&1 ||
			{ echo "bench-read: mksquashfs -comp $c failed" >&2; status=1; continue; }
		: > "$work/head.sp"
		for t in $tools; do : > "$work/$t"; done
		# shellcheck disable=SC2046
		take_turns "$runs" $(for t in $tools; do echo "one_run_$t"; done) || { status=1; continue; }
		for t in $tools; do spread < "$work/$t" > "$work/$t.sp"; done
		fl=$(dfloor)
		o=$(cell ours 1)
		printf '%-8s %-5s %-20s %-20s %-20s %5s %5s %7s %6s %17s %15s %5s %5s %s\n' "$name" "$c" \
			"$(med_range $(cell ours 1) $(cell ours 2) $(cell ours 3))" \
			"$(med_range $(cell unsq 1) $(cell unsq 2) $(cell unsq 3))" \
			"$(med_range $(cell head 1) $(cell head 2) $(cell head 3))" \
			"$(ratio "$o" "$(cell unsq 1)")" "$(ratio "$o" "$(cell head 1)")" "${fl:--}" \
			"$( [ "${fl:--}" = - ] && echo - || ratio "$o" "$fl")" \
			"$(cpu_s ours)/$(cpu_s unsq)/$(cpu_s head)" \
			"$(mb "$(cell ours 5)")/$(mb "$(cell unsq 5)")/$(mb "$(cell head 5)")" \
			"$(ratio "$(cell ours 5)" "$(cell unsq 5)")" "$(ratio "$(cell ours 5)" "$(cell head 5)")" \
			"$(loadavg)"
	done
	rm -rf "${out:?}"/*
done < <(corpora)
exit $status
