#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-read.sh — whole-image extraction: `flashfs extract` against
# `unsquashfs -d` with the same number of processors, on images of each
# corpus built by mksquashfs (every codec the kernel mounts; 128K blocks).
# The two tools take turns, BENCH_RUNS (5) times each, so that a change of
# machine load hits both; the figure is the median.  Each run extracts into
# a fresh directory, and removing earlier extractions is not timed.
#
# The target is a tmpfs of its own (as root; BENCH_TARGET=disk extracts
# under $TMPDIR instead): on ext4, creating files right after an `rm -rf`
# of the last run spends most of the kernel time scanning for recently
# deleted inodes, which measures the file system's history, not the tool.
set -u
. "$(dirname "$0")/lib.sh"
command -v unsquashfs > /dev/null || { echo "bench-read: unsquashfs not installed" >&2; exit 2; }
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
echo "target: $target; $runs runs each, taking turns; median"
printf '%-9s %-5s %10s %10s %6s %9s %9s %6s\n' corpus codec "ours s" "unsq s" ratio "ours MB" "unsq MB" ratio

# one_run TOOL — append "seconds kb" of one extraction of $work/img to $work/TOOL
one_run() {
	local d=$out/$1
	rm -rf "$d"
	case $1 in
	ours) measure "$bin/flashfs" extract --no-progress -j "$procs" -C "$d" "$work/img" ;;
	unsq) measure unsquashfs -q -n -processors "$procs" -d "$d" "$work/img" ;;
	esac >> "$work/$1"
}

status=0
while read -r name dir; do
	for c in $codecs; do
		mksquashfs "$dir" "$work/img" -comp "$c" -b 128K -noappend -no-progress -quiet > /dev/null 2>&1 ||
			{ echo "bench-read: mksquashfs -comp $c failed" >&2; status=1; continue; }
		: > "$work/ours"
		: > "$work/unsq"
		take_turns "$runs" "one_run ours" "one_run unsq" || status=1
		set -- $(median_rss < "$work/ours") $(median_rss < "$work/unsq")
		[ $# = 4 ] || continue
		printf '%-9s %-5s %10.3f %10.3f %6s %9.1f %9.1f %6s\n' "$name" "$c" "$1" "$3" "$(ratio "$1" "$3")" \
			"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')" "$(ratio "$2" "$4")"
	done
	rm -rf "${out:?}"/*
done < <(corpora)
exit $status
