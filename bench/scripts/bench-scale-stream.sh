# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-scale-stream.sh — sourced by bench-scale.sh when BENCH_SCALE_STREAM
# names sizes (issue 33 item 5): N small files from gen-tar-stream.py piped
# straight into the builder, so no tree is ever on disk.  Goals: 10M
# entries in <= 1 GiB peak RSS, and time linear in the count (10x the files
# in <= 11x the time).  The wall time includes the generator, which runs on
# its own core and can be the slower end of the pipe: its own rate is shown.

# stream_build TOOL N IMG — "seconds cpu-seconds kb" of the builder (lib.sh's
# timed: its own CPU, not the generator's), the generator feeding it; the
# generator's summary lands in $work/gen.err
stream_build() {
	local gen="$top/bench/scripts/gen-tar-stream.py"
	case $1 in
	ours) python3 "$gen" "$2" 2> "$work/gen.err" |
		timed "$bin/mkfs.squashfs" -q --noappend -c lz4 -b 128K -j "$procs" - "$3" ;;
	erofs) python3 "$gen" "$2" 2> "$work/gen.err" |
		timed "$bin/ffmkfs.erofs" --quiet -zlz4 --workers="$procs" --tar=f "$3" - ;;
	esac
}

# stream_check TOOL N IMG — the entry count read back: "N ok" or "N WRONG"
stream_check() {
	local want=$(( $2 + ($2 / 1000 > 0 ? $2 / 1000 : 1) + 1 )) got lines
	got=$("$bin/flashfs" info "$3" | awk '$1 == "inodes" {print $2}')
	if [ "$1" = ours ] && [ "$2" -le 1000000 ] && command -v unsquashfs > /dev/null; then
		lines=$(unsquashfs -lls "$3" | wc -l)   # one line per entry, root included
		[ "$lines" = "$want" ] || got="$got(unsquashfs:$lines)"
	fi
	[ "$got" = "$want" ] && echo "$got ok" || echo "$got WRONG(want $want)"
}

echo "stream builds (gen-tar-stream.py | builder; load: $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%-5s %-6s %9s %8s %9s %13s %24s %10s\n' size tool "wall s" "CPU s" "RSS MB" "image B" "entries (flashfs info)" "gen ent/s"
growth=
for tool in ours erofs; do
	[ $tool = ours ] || [ -x "$bin/ffmkfs.erofs" ] || continue
	p_t= p_s= p_c=
	for s in $stream; do
		n=$(count "$s")
		rm -f "$work/s.img"
		r=$(stream_build $tool "$n" "$work/s.img") || { echo "bench-scale: $tool $s failed" >&2; continue; }
		set -- $r
		t=$1 cpu=$2 kb=$3 sz=$(stat -c %s "$work/s.img")
		chk=$(stream_check $tool "$n" "$work/s.img")
		rm -f "$work/s.img"                    # a 10M image is gigabytes
		rate=$(sed -n 's/.* \([0-9]*\) entries\/s.*/\1/p' "$work/gen.err")
		printf '%-5s %-6s %9.2f %8.2f %9.1f %13d %24s %10s\n' "$s" $tool "$t" "$cpu" \
			"$(awk -v k="$kb" 'BEGIN {print k / 1024}')" "$sz" "$chk" "$rate"
		[ "$kb" -le 1048576 ] || echo "  $tool $s: peak RSS above the 1 GiB goal"
		[ -n "$p_t" ] && growth+=$(awk -v a="$p_t" -v b="$t" -v c="$p_c" -v d="$cpu" -v f="$p_s" \
			-v to="$s" -v tool=$tool -v n="$(( n / $(count "$p_s") ))" \
			'BEGIN {printf "  %s %s -> %s: %.2fx the wall time, %.2fx the builder CPU, for %dx the entries (goal <= %.1fx)\n",
			        tool, f, to, b / a, (c > 0 ? d / c : 0), n, n * 1.1}')$'\n'
		p_t=$t p_s=$s p_c=$cpu
	done
done
[ -n "$growth" ] && printf 'growth of the stream builds:\n%s' "$growth"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
