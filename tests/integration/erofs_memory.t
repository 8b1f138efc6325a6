#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Bounded memory of ffmkfs.erofs from a tar stream: what each entry costs
# is the slope of the peak RSS between a 20k- and an 80k-file stream
# (gen-tar-stream.py, as make bench-scale's stream builds), so the fixed
# part (program, libraries, the compressors' contexts) drops out.  Before
# the meta area was written a run of blocks at a time, with the inline
# tails written to their places by the data pass, an entry cost about 780
# bytes (the whole meta area in one buffer, every tail in memory until
# then); about 210 after (docs/bench.md).  The images are read back too.
. "$(dirname "$0")/../lib.sh"

command -v ffmkfs.erofs > /dev/null || skip_all "ffmkfs.erofs not built"
[ -x /usr/bin/time ] || skip_all "GNU time not installed"
command -v python3 > /dev/null || skip_all "python3 not installed (tar stream generator)"
# AddressSanitizer pads every allocation and keeps freed memory in
# quarantine: under it the slope measures ASan, not us.
nm "$(command -v ffmkfs.erofs)" 2> /dev/null | grep -q __asan_init &&
	skip_all "ffmkfs.erofs is built with AddressSanitizer (its allocator pads each allocation)"

GEN=$FF_TOP/bench/scripts/gen-tar-stream.py

# stream_kb N — peak RSS (KiB) of building the N-file stream into $T/sN.img
stream_kb() {
	python3 "$GEN" "$1" 2> /dev/null |
		/usr/bin/time -f %M -o "$T/rss$1" ffmkfs.erofs --quiet -zlz4 --workers=2 --tar=f \
			"$T/s$1.img" - > "$T/log$1" 2>&1 || echo "build failed" >> "$T/rss$1"
	tail -n 1 "$T/rss$1"
}

# entries N — files, directories (N/1000) and the root
entries() { echo $(( $1 + $1 / 1000 + 1 )); }

k20=$(stream_kb 20000)
k80=$(stream_kb 80000)
ok "stream builds succeeded ($k20 KiB, $k80 KiB peak)" \
	sh -c "test '${k20##*[!0-9]*}' -a '${k80##*[!0-9]*}' || cat '$T/log20000' '$T/log80000'"
for n in 20000 80000; do
	is "$(flashfs info "$T/s$n.img" 2> /dev/null | awk '$1 == "inodes" {print $2}')" \
		"$(entries $n)" "$n files: every entry in the image"
done
ok "20000 files: flashfs check finds the image clean" flashfs check "$T/s20000.img"
mkdir -p "$T/tar" "$T/img"
python3 "$GEN" 20000 2> /dev/null | tar -C "$T/tar" -xf -
flashfs extract -C "$T/img" "$T/s20000.img" > /dev/null 2>&1
ok "20000 files: the extracted image equals the stream" diff -r "$T/tar" "$T/img"

per_entry=$(( (${k80:-999999} - ${k20:-0}) * 1024 / ($(entries 80000) - $(entries 20000)) ))
ok "each entry costs $per_entry bytes of peak RSS (under 320)" test "$per_entry" -lt 320

done_testing
