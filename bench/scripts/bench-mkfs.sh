#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-mkfs.sh — mkfs.squashfs against Debian's mksquashfs and, when
# ANCHORS=DIR names a build-anchors.sh output, the newest one (4.7.5), in
# the same run: for each corpus and codec at mksquashfs' default level with
# 128 KiB blocks and -j/-processors = the cores, the median wall time of
# BENCH_RUNS (5) builds with min-max, the tools taking turns so that a
# change of machine load hits all, the image size and the peak RSS, printed
# with ours/theirs ratios (below 1 = we are faster/smaller; sizes with four
# decimals, so that one 4 KiB pad shows), the median CPU seconds (user +
# system: on a loaded machine the wall time waits for a core), and the load
# average after the row.
#
# Each row also has the codec floor: tests/tools/codec_floor compresses
# every data block the build writes once, through the same compress/ calls
# and options, and sums the CPU time; floor = that / the cores, the wall
# time no build on this machine can beat.  "÷floor" is our median wall time
# over it, "cpu÷" our median CPU time over the codec's (what the scan, the
# reads, the dedup and the metadata add).
#
# gzip has two rows against the same mksquashfs build: ours with the
# default encoder (libdeflate) and ours with -X zlib (mksquashfs' encoder:
# the parity row, whose "same" column says whether our image equals
# Debian's mksquashfs' apart from the creation time, bytes 8-11).
# BENCH_CODECS narrows the codecs, BENCH_SRC=DIR or BENCH_CORPORA=minbase
# the corpora (lib.sh's corpora).
set -u
. "$(dirname "$0")/lib.sh"
command -v mksquashfs > /dev/null || { echo "bench-mkfs: mksquashfs not installed" >&2; exit 2; }
[ -x "$bin/mkfs.squashfs" ] || { echo "bench-mkfs: $bin/mkfs.squashfs not built" >&2; exit 2; }
floor_tool=${FF_TOOLS:-${FF_BUILD:-$top/build}/tests/tools}/codec_floor
[ -x "$floor_tool" ] || { echo "bench-mkfs: $floor_tool not built (make $floor_tool)" >&2; exit 2; }
procs=$(nproc)
runs=${BENCH_RUNS:-5}
head=$(anchor mksquashfs) || head=
tools="ours deb${head:+ head}"
machine
anchors_note mksquashfs
echo "deb: mksquashfs $(tool_version mksquashfs)${head:+; head: mksquashfs $(tool_version "$head")};" \
	"$runs runs each, taking turns; wall: median (min-max) s; floor: codec CPU s / $procs cores"

# rows — the codec rows: each codec, and gzip once more as gzip-zlib
rows() {
	local c
	for c in $codecs; do
		echo "$c"
		[ "$c" = gzip ] && echo gzip-zlib
	done
}

# one_run TOOL — append "wall cpu kb" of one build of $dir for row $c to $work/TOOL
one_run() {
	local comp=${c%-zlib} x=()
	[ "$c" = gzip-zlib ] && x=(-X zlib)
	case $1 in
	ours) timed "$bin/mkfs.squashfs" -q --noappend -c "$comp" "${x[@]}" -b 128K -j "$procs" \
		"$dir" "$work/ours.img" ;;
	deb) timed mksquashfs "$dir" "$work/deb.img" -comp "$comp" -b 128K -noappend \
		-no-progress -quiet -processors "$procs" ;;
	head) timed "$head" "$dir" "$work/head.img" -comp "$comp" -b 128K -noappend \
		-no-progress -quiet -processors "$procs" ;;
	esac >> "$work/$1"
}

one_run_ours() { one_run ours; }
one_run_deb() { one_run deb; }
one_run_head() { one_run head; }

# same — "yes" when our image equals Debian mksquashfs' apart from the creation time
same() {
	cmp -s -n 8 "$work/ours.img" "$work/deb.img" && cmp -s -i 12 "$work/ours.img" "$work/deb.img" &&
		echo yes || echo no
}

# codec_cpu — the floor tool's compression CPU seconds for row $c on $dir
codec_cpu() {
	local x=()
	[ "$c" = gzip-zlib ] && x=(-X zlib)
	"$floor_tool" -c "${c%-zlib}" "${x[@]}" -b 128K "$dir" | sed -n 's/^comp_cpu=//p'
}

# cpu_s T — tool T's median CPU seconds, "-" when it did not run
cpu_s() { local v; v=$(cell "$1" 4); echo "${v:--}"; }
# cell T FIELD — field (1 median, 2 min, 3 max, 4 cpu, 5 kb) of tool T's spread
cell() { awk -v f="$2" '{print $f}' "$work/$1.sp"; }
size_of() { [ -f "$work/$1.img" ] && stat -c %s "$work/$1.img" || echo 0; }
mb() { [ -n "$1" ] || { echo -; return; }; awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

printf '%-8s %-9s %-20s %-20s %-20s %5s %5s %7s %6s %5s %7s %7s %4s %17s %13s %5s %5s %s\n' corpus codec \
	"ours s" "deb s" "head s" "÷deb" "÷head" "floor s" "÷floor" "cpu÷" "B÷deb" "B÷head" same \
	"CPU s o/d/h" "RSS MB o/d/h" "÷deb" "÷head" load
status=0
while read -r name dir; do
	for c in $(rows); do
		for t in $tools; do : > "$work/$t"; rm -f "$work/$t.img"; done
		# shellcheck disable=SC2046
		take_turns "$runs" $(for t in $tools; do echo "one_run_$t"; done) ||
			{ status=1; continue; }
		: > "$work/head.sp"
		for t in $tools; do spread < "$work/$t" > "$work/$t.sp"; done
		fl_cpu=$(codec_cpu) || { status=1; continue; }
		fl=$(awk -v c="$fl_cpu" -v p="$procs" 'BEGIN {printf "%.3f", c / p}')
		o=$(cell ours 1)
		printf '%-8s %-9s %-20s %-20s %-20s %5s %5s %7s %6s %5s %7s %7s %4s %17s %13s %5s %5s %s\n' \
			"$name" "$c" "$(med_range $(cell ours 1) $(cell ours 2) $(cell ours 3))" \
			"$(med_range $(cell deb 1) $(cell deb 2) $(cell deb 3))" \
			"$(med_range $(cell head 1) $(cell head 2) $(cell head 3))" \
			"$(ratio "$o" "$(cell deb 1)")" "$(ratio "$o" "$(cell head 1)")" "$fl" \
			"$(ratio "$o" "$fl")" "$(ratio "$(cell ours 4)" "$fl_cpu")" \
			"$(ratio "$(size_of ours)" "$(size_of deb)" 4)" "$(ratio "$(size_of ours)" "$(size_of head)" 4)" \
			"$(same)" "$(cpu_s ours)/$(cpu_s deb)/$(cpu_s head)" "$(mb "$(cell ours 5)")/$(mb "$(cell deb 5)")/$(mb "$(cell head 5)")" \
			"$(ratio "$(cell ours 5)" "$(cell deb 5)")" "$(ratio "$(cell ours 5)" "$(cell head 5)")" \
			"$(loadavg)"
	done
done < <(corpora)
exit $status
