#!/bin/bash
# bench-yaffs2.sh — mkfs.yaffs2 (2K pages + 64 OOB) against the floor of
# writing the same number of bytes with dd, median of BENCH_RUNS (3), with
# peak RSS.
set -u
. "$(dirname "$0")/lib.sh"
[ -x "$bin/mkfs.yaffs2" ] || { echo "bench-yaffs2: $bin/mkfs.yaffs2 not built" >&2; exit 2; }
machine
printf '%-9s %12s %9s %9s %6s %9s %9s\n' corpus "image B" "mkfs s" "dd s" ratio "mkfs MB" "dd MB"
status=0
while read -r name dir; do
	ours=$(median_of "$runs" "$bin/mkfs.yaffs2" -q --page-size 2048 --oob-size 64 "$dir" "$work/y.img") || { status=1; continue; }
	size=$(stat -c %s "$work/y.img")
	dd=$(median_of "$runs" dd if=/dev/zero of="$work/dd.img" bs=1M count="$size" iflag=count_bytes conv=fsync) || { status=1; continue; }
	set -- $ours $dd
	printf '%-9s %12d %9.2f %9.2f %6s %9.1f %9.1f\n' "$name" "$size" "$1" "$3" "$(ratio "$1" "$3")" \
		"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')"
done < <(corpora)
exit $status
