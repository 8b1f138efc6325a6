#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-mkfs.sh — mkfs.squashfs against mksquashfs in the same run: for each
# corpus and codec at mksquashfs' default level with 128 KiB blocks, the
# median wall time of BENCH_RUNS (5) builds, the two tools taking turns so
# that a change of machine load hits both, the image size and the peak RSS,
# printed with ours/theirs ratios (below 1 = we are faster/smaller; sizes
# with four decimals, so that one 4 KiB pad shows).  gzip has two rows
# against the same mksquashfs build: ours with the default encoder
# (libdeflate) and ours with -X zlib (mksquashfs' encoder: the parity row,
# whose "same" column says whether the images are equal apart from the
# creation time, bytes 8-11).
set -u
. "$(dirname "$0")/lib.sh"
command -v mksquashfs > /dev/null || { echo "bench-mkfs: mksquashfs not installed" >&2; exit 2; }
[ -x "$bin/mkfs.squashfs" ] || { echo "bench-mkfs: $bin/mkfs.squashfs not built" >&2; exit 2; }
procs=$(nproc)
runs=${BENCH_RUNS:-5}
machine

# rows — the codec rows: each codec, and gzip once more as gzip-zlib
rows() {
	local c
	for c in $codecs; do
		echo "$c"
		[ "$c" = gzip ] && echo gzip-zlib
	done
}

# one_run TOOL — append "seconds kb" of one build of $dir for row $c to $work/TOOL
one_run() {
	local comp=${c%-zlib} x=()
	[ "$c" = gzip-zlib ] && x=(-X zlib)
	case $1 in
	ours) measure "$bin/mkfs.squashfs" -q --noappend -c "$comp" "${x[@]}" -b 128K -j "$procs" "$dir" "$work/o.img" ;;
	mksq) measure mksquashfs "$dir" "$work/m.img" -comp "$comp" -b 128K -noappend \
		-no-progress -quiet -processors "$procs" ;;
	esac >> "$work/$1"
}

# same — "yes" when the two images are equal apart from the creation time
same() {
	cmp -s -n 8 "$work/o.img" "$work/m.img" && cmp -s -i 12 "$work/o.img" "$work/m.img" &&
		echo yes || echo no
}

printf '%-9s %-9s %9s %9s %6s %11s %11s %7s %5s %9s %9s %6s\n' corpus codec "ours s" "mksq s" \
	ratio "ours B" "mksq B" ratio same "ours MB" "mksq MB" ratio
status=0
while read -r name dir; do
	for c in $(rows); do
		: > "$work/ours"
		: > "$work/mksq"
		take_turns "$runs" "one_run ours" "one_run mksq" || { status=1; continue; }
		osz=$(stat -c %s "$work/o.img")
		msz=$(stat -c %s "$work/m.img")
		set -- $(median_rss < "$work/ours") $(median_rss < "$work/mksq")
		printf '%-9s %-9s %9.3f %9.3f %6s %11d %11d %7s %5s %9.1f %9.1f %6s\n' "$name" "$c" \
			"$1" "$3" "$(ratio "$1" "$3")" "$osz" "$msz" "$(ratio "$osz" "$msz" 4)" "$(same)" \
			"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')" \
			"$(ratio "$2" "$4")"
	done
done < <(corpora)
exit $status
