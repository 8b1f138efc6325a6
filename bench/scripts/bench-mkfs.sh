#!/bin/bash
# bench-mkfs.sh — mkfs.squashfs against mksquashfs in the same run: for each
# corpus and codec at mksquashfs' default level with 128 KiB blocks, the
# median wall time of BENCH_RUNS (5) builds, the two tools taking turns so
# that a change of machine load hits both, the image size and the peak RSS,
# printed with ours/theirs ratios (below 1 = we are faster/smaller; sizes
# with four decimals, so that one 4 KiB pad shows).
set -u
. "$(dirname "$0")/lib.sh"
command -v mksquashfs > /dev/null || { echo "bench-mkfs: mksquashfs not installed" >&2; exit 2; }
[ -x "$bin/mkfs.squashfs" ] || { echo "bench-mkfs: $bin/mkfs.squashfs not built" >&2; exit 2; }
procs=$(nproc)
runs=${BENCH_RUNS:-5}
machine

# one_run TOOL — append "seconds kb" of one build of $dir with $c to $work/TOOL
one_run() {
	case $1 in
	ours) measure "$bin/mkfs.squashfs" -q --noappend -c "$c" -b 128K -j "$procs" "$dir" "$work/o.img" ;;
	mksq) measure mksquashfs "$dir" "$work/m.img" -comp "$c" -b 128K -noappend \
		-no-progress -quiet -processors "$procs" ;;
	esac >> "$work/$1"
}

printf '%-9s %-5s %9s %9s %6s %11s %11s %7s %9s %9s %6s\n' corpus codec "ours s" "mksq s" ratio \
	"ours B" "mksq B" ratio "ours MB" "mksq MB" ratio
status=0
while read -r name dir; do
	for c in $codecs; do
		: > "$work/ours"
		: > "$work/mksq"
		take_turns "$runs" "one_run ours" "one_run mksq" || { status=1; continue; }
		osz=$(stat -c %s "$work/o.img")
		msz=$(stat -c %s "$work/m.img")
		set -- $(median_rss < "$work/ours") $(median_rss < "$work/mksq")
		printf '%-9s %-5s %9.3f %9.3f %6s %11d %11d %7s %9.1f %9.1f %6s\n' "$name" "$c" "$1" "$3" \
			"$(ratio "$1" "$3")" "$osz" "$msz" "$(ratio "$osz" "$msz" 4)" \
			"$(echo "$2" | awk '{print $1 / 1024}')" "$(echo "$4" | awk '{print $1 / 1024}')" \
			"$(ratio "$2" "$4")"
	done
done < <(corpora)
exit $status
