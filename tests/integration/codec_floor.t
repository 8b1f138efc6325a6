#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# codec_floor, make bench-mkfs's codec floor: the blocks it compresses must
# be the blocks a build writes.  On a small tree with block-sized and
# smaller files, tails, a hard link, a duplicate, all-zero blocks and a
# subdirectory, the bytes it says it stored equal the data region of an
# image (superblock to inode table, less an options block) built with the
# same codec and block size: by mkfs.squashfs for every codec, with and
# without fragments, and by mksquashfs (the oracle) for gzip -X zlib, lzo
# and zstd, whose encoders equal mksquashfs' byte for byte.
. "$(dirname "$0")/../lib.sh"

src=$T/src
mkdir -p "$src/sub"
seq 1 60000 > "$src/a"                      # 339 KB of text: 2 full blocks and a tail block
head -c 100000 "$FF_BIN/mkfs.squashfs" > "$src/b"
cp "$src/b" "$src/c"                        # a duplicate: not compressed again
ln "$src/a" "$src/h"                        # a hard link: read once
head -c 262144 /dev/zero > "$src/z"         # two sparse blocks
head -c 5000 /dev/zero > "$src/zz"          # a sparse fragment
seq 5 70000 | head -c 70000 > "$src/sub/p"
head -c 4096 "$FF_BIN/flashfs" > "$src/sub/q"

# data_bytes IMG — the data region's bytes: inode table start (superblock
# offset 64) less the superblock and the options block if flagged (bit 10)
data_bytes() {
	local itab flags hdr=0
	itab=$(od -An -tu8 -j64 -N8 "$1" | tr -d ' ')
	flags=$(od -An -tu2 -j24 -N2 "$1" | tr -d ' ')
	(( flags & 1024 )) && hdr=$(( ($(od -An -tu2 -j96 -N2 "$1" | tr -d ' ') & 32767) + 2 ))
	echo $(( itab - 96 - hdr ))
}

# floor ARGS... — codec_floor's bytes_out
floor() { "$FF_TOOLS/codec_floor" "$@" "$src" | awk -F= '$1 == "bytes_out" {print $2}'; }

for c in gzip lzo xz lz4 zstd; do
	for nf in "" --no-fragments; do
		mkfs.squashfs -q --noappend -c "$c" -b 64K $nf "$src" "$T/o.img" ||
			{ ok "mkfs.squashfs -c $c $nf" false; continue; }
		is "$(floor -c "$c" -b 64K $nf)" "$(data_bytes "$T/o.img")" \
			"$c ${nf:-(fragments)}: the floor's blocks are mkfs.squashfs' data region"
	done
done

if command -v mksquashfs > /dev/null; then
	for c in gzip lzo zstd; do
		x=()
		[ "$c" = gzip ] && x=(-X zlib)
		mksquashfs "$src" "$T/m.img" -comp "$c" -b 64K -noappend -quiet -no-progress > /dev/null
		is "$(floor -c "$c" "${x[@]}" -b 64K)" "$(data_bytes "$T/m.img")" \
			"$c: the floor's blocks are mksquashfs' data region"
	done
else
	skip "mksquashfs not installed" 3
fi

out=$("$FF_TOOLS/codec_floor" -c xz "$src")
is "$(sed -n 's/^blocks=//p' <<< "$out")" 5 "xz 128K: 5 blocks (a: 3, two fragments)"
is "$(sed -n 's/^sparse=//p' <<< "$out")" 3 "the two zero blocks and the zero fragment are sparse"
ok "compressing took CPU time" awk -F= '$1 == "comp_cpu" && $2 > 0 {f = 1} END {exit !f}' <<< "$out"
ok "decompressing took CPU time" awk -F= '$1 == "decomp_cpu" && $2 > 0 {f = 1} END {exit !f}' <<< "$out"
err=$("$FF_TOOLS/codec_floor" -c xz "$T/missing" 2>&1 >/dev/null); rc=$?
is "$rc" 1 "a missing tree is a failure"
ok "the message names it" grep -q "missing" <<< "$err"
fails "an unknown codec is refused" "$FF_TOOLS/codec_floor" -c nope "$src"
done_testing
