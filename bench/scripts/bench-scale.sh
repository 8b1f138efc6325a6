#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-scale.sh — many small files (issue 18): trees of 10k, 100k and 1M
# small config files in N/1000 directories (gen-small-tree.py: the same
# bytes on every run, made once under build/scale/ on the file system the
# build lives on and reused), each built with lz4 and 128 KiB blocks by
# mkfs.squashfs, gensquashfs and mksquashfs with a warm page cache (one
# untimed read of the tree first).  Prints wall time, peak RSS and image
# size, and ours/theirs ratios.  An anchor that runs past BENCH_SCALE_LIMIT
# seconds (default 300) is stopped and shown as "> N s".  Last, how our
# time grew from one tree to the next (linear: 10x for 10x the files).
#   BENCH_SCALE_SIZES  which trees (default "10k 100k 1m")
#   BENCH_RUNS         builds per tool and tree, median shown (default 1)
#   BENCH_SCALE_DIR    where the trees live (default build/scale; on tmpfs
#                      the page cache cannot drop them between runs)
#   BENCH_SCALE_STREAM sizes built from a tar stream, no tree on disk
#                      (issue 33; e.g. "1m 10m"): gen-tar-stream.py piped
#                      into `mkfs.squashfs -` (lz4, 128K) and `ffmkfs.erofs
#                      -zlz4 IMG -`; wall time (generator included), peak
#                      RSS of the builder, image size, the entry count that
#                      `flashfs info` reads back (and, up to 1M, the lines of
#                      `unsquashfs -lls`), the growth from size to size.
#                      Images are deleted after each build.  When set, the
#                      trees run only if BENCH_SCALE_SIZES is given too.
set -u
. "$(dirname "$0")/lib.sh"
[ -x "$bin/mkfs.squashfs" ] || { echo "bench-scale: $bin/mkfs.squashfs not built" >&2; exit 2; }
stream=${BENCH_SCALE_STREAM:-}
if [ -n "$stream" ]; then sizes=${BENCH_SCALE_SIZES:-}; else sizes=${BENCH_SCALE_SIZES:-10k 100k 1m}; fi
limit=${BENCH_SCALE_LIMIT:-300}
runs=${BENCH_RUNS:-1}
procs=$(nproc)
trees=${BENCH_SCALE_DIR:-$top/build/scale}
export SOURCE_DATE_EPOCH=1577836800
machine
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); anchors stopped after $limit s"

count() { case $1 in *k) echo $(( ${1%k} * 1000 )) ;; *m) echo $(( ${1%m} * 1000000 )) ;; *) echo "$1" ;; esac; }

# one_build TOOL TREE IMG — "seconds kb", or "> limit" when stopped
one_build() {
	local out
	case $1 in
	ours) out=$(measure "$bin/mkfs.squashfs" -q --noappend -c lz4 -b 128K -j "$procs" "$2" "$3") ;;
	gensq) out=$(measure timeout "$limit" gensquashfs -q -f -c lz4 -b 131072 -j "$procs" -D "$2" "$3") ;;
	mksq) out=$(measure timeout "$limit" mksquashfs "$2" "$3" -comp lz4 -b 128K -noappend \
		-no-progress -quiet -processors "$procs") ;;
	esac 2> /dev/null || { echo "> $limit"; return; }
	echo "$out"
}

# cell TOOL TREE IMG — median over $runs builds: "seconds kb" or "> limit"
cell() {
	local i r
	: > "$work/cell"
	for i in $(seq "$runs"); do
		r=$(one_build "$@")
		case $r in ">"*) echo "$r"; return ;; esac
		echo "$r" >> "$work/cell"
	done
	median_rss < "$work/cell"
}

show() { case $1 in ">"*) echo "$1 s" ;; *) echo "$1" ;; esac; }
rat() { case "$1$2" in *">"*) echo "<$(ratio "$1" "${2#> }")" ;; *) ratio "$1" "$2" ;; esac; }

prev= prev_s= scaling=
[ -n "$sizes" ] && printf '%-5s %-11s %9s %11s %9s %12s %9s %7s\n' tree tool "wall s" "ratio" "RSS MB" "RSS ratio" "image B" "ratio"
for s in $sizes; do
	dir=$trees/$s
	python3 "$top/bench/scripts/gen-small-tree.py" "$(count "$s")" "$dir" || exit 1
	find "$dir" -type f -exec cat {} + > /dev/null   # warm the page cache
	set -- $(cell ours "$dir" "$work/o.img")
	ot=$1 ok=$2 osz=$(stat -c %s "$work/o.img")
	printf '%-5s %-11s %9.2f %11s %9.1f %12s %9d %7s\n' "$s" ours "$ot" - \
		"$(awk -v k="$ok" 'BEGIN {print k / 1024}')" - "$osz" -
	[ -n "$prev" ] && scaling+=$(awk -v a="$prev" -v b="$ot" -v f="$prev_s" -v t="$s" \
		-v n="$(( $(count "$s") / $(count "$prev_s") ))" \
		'BEGIN {printf "  %s -> %s: %s the time for %dx the files\n", f, t,
		        (a > 0 ? sprintf("%.2fx", b / a) : "(too fast to tell)"), n}')$'\n'
	prev=$ot prev_s=$s
	for tool in gensq mksq; do
		case $tool in gensq) command -v gensquashfs ;; mksq) command -v mksquashfs ;; esac \
			> /dev/null || { echo "bench-scale: $tool not installed" >&2; continue; }
		rm -f "$work/t.img"
		r=$(cell $tool "$dir" "$work/t.img")
		case $r in
		">"*) printf '%-5s %-11s %9s %11s %9s %12s %9s %7s\n' "$s" "$tool" "$(show "$r")" \
			"$(rat "$ot" "$r")" - - - - ;;
		*) set -- $r
		   tsz=$(stat -c %s "$work/t.img")
		   printf '%-5s %-11s %9.2f %11s %9.1f %12s %9d %7s\n' "$s" "$tool" "$1" "$(ratio "$ot" "$1")" \
			"$(awk -v k="$2" 'BEGIN {print k / 1024}')" "$(ratio "$ok" "$2")" "$tsz" \
			"$(ratio "$osz" "$tsz" 4)" ;;
		esac
	done
done
[ -n "$scaling" ] && printf 'scaling of ours (wall time; issue 18 allows 1.1x the file ratio):\n%s' "$scaling"
[ -n "$stream" ] && . "$top/bench/scripts/bench-scale-stream.sh"
exit 0
