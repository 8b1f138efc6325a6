#!/bin/bash
# bench-read.sh — whole-image extraction: `flashfs extract` against
# `unsquashfs -d` with the same number of processors, median of BENCH_RUNS
# (3), on images of each corpus built by mksquashfs (gzip, xz, zstd; 128K).
set -u
. "$(dirname "$0")/lib.sh"
command -v unsquashfs > /dev/null || { echo "bench-read: unsquashfs not installed" >&2; exit 2; }
procs=$(nproc)
machine
printf '%-9s %-5s %10s %10s %6s %9s %9s %6s\n' corpus codec "ours s" "unsq s" ratio "ours MB" "unsq MB" ratio
status=0
while read -r name dir; do
	for c in gzip xz zstd; do
		mksquashfs "$dir" "$work/img" -comp "$c" -b 128K -noappend -no-progress -quiet > /dev/null 2>&1 ||
			{ echo "bench-read: mksquashfs -comp $c failed" >&2; status=1; continue; }
		# each run extracts into a fresh directory
		ours=$(median_of "$runs" sh -c "rm -rf '$work/x' && exec '$bin/flashfs' extract --no-progress -j $procs -C '$work/x' '$work/img'") || { status=1; continue; }
		theirs=$(median_of "$runs" sh -c "rm -rf '$work/y'; exec unsquashfs -q -n -processors $procs -d '$work/y' '$work/img'") || { status=1; continue; }
		set -- $ours $theirs
		printf '%-9s %-5s %10.2f %10.2f %6s %9.1f %9.1f %6s\n' "$name" "$c" "$1" "$3" "$(ratio "$1" "$3")" \
			"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')" "$(ratio "$2" "$4")"
		rm -rf "$work/x" "$work/y"
	done
done < <(corpora)
exit $status
