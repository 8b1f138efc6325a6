#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Codecs against Debian's mksquashfs: our options-block decoder reads the
# options mksquashfs stored, and our decompressors decode its metadata
# blocks to exactly the bytes that the same image built with -noI
# (uncompressed inode/directory tables) stores raw.  Where mksquashfs drives
# the library the way we do (same = yes), compressing the raw block again
# must give mksquashfs' bytes exactly.  (It does not for xz: mksquashfs
# uses the buffer encoder, which records sizes in the block header; nor
# for lzma, where liblzma's streaming encoder adds an end marker; nor for
# gzip strategies, which mksquashfs 4.5.1 does not appear to apply to
# metadata.)
. "$(dirname "$0")/../lib.sh"

P=$FF_TOOLS/sqfs_comp_probe
[ -x "$P" ] || skip_all "sqfs_comp_probe not built ($P)"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"

mkdir -p "$T/tree/dir"
for i in $(seq 1 300); do
	printf 'file %d\n' "$i" > "$T/tree/dir/file-with-a-long-name-$i"
done
seq 1 20000 > "$T/tree/numbers"
ln -s dir/file-with-a-long-name-1 "$T/tree/link"

# "mksquashfs options" | what our describe must print | same bytes?
while IFS='|' read -r opts want same; do
	name="mksquashfs -comp $opts"
	# shellcheck disable=SC2086
	if ! mksquashfs "$T/tree" "$T/a.img" -noappend -quiet -no-progress -comp $opts > /dev/null 2>&1 ||
	   ! mksquashfs "$T/tree" "$T/b.img" -noappend -quiet -no-progress -noI -comp $opts > /dev/null 2>&1; then
		skip "mksquashfs refused '$opts'" "$name"
		continue
	fi
	is "$("$P" "$T/a.img" info 2>&1)" "$want" "$name: options block decoded"
	"$P" "$T/a.img" inode > "$T/a.inode" 2> "$T/err"
	"$P" "$T/b.img" inode > "$T/b.inode" 2>> "$T/err"
	ok "$name: inode block decompresses to the uncompressed image's bytes" \
		sh -c "[ -s '$T/a.inode' ] && cmp '$T/a.inode' '$T/b.inode' || { cat '$T/err'; false; }"
	"$P" "$T/a.img" dir > "$T/a.dir" 2> "$T/err"
	"$P" "$T/b.img" dir > "$T/b.dir" 2>> "$T/err"
	ok "$name: directory block decompresses the same" \
		sh -c "[ -s '$T/a.dir' ] && cmp '$T/a.dir' '$T/b.dir' || { cat '$T/err'; false; }"
	ok "$name: the metadata really was compressed" \
		test "$(stat -c %s "$T/a.img")" -lt "$(stat -c %s "$T/b.img")"
	if [ "$same" = yes ]; then
		"$P" "$T/a.img" packed > "$T/theirs" 2> "$T/err"
		"$P" "$T/a.img" pack < "$T/a.inode" > "$T/ours" 2>> "$T/err"
		ok "$name: we compress the block to the same bytes" \
			sh -c "[ -s '$T/ours' ] && cmp '$T/ours' '$T/theirs' || { cat '$T/err'; false; }"
	fi
done <<'LIST'
gzip|gzip level=9,window=15,strategy=default|yes
gzip -Xcompression-level 3 -Xwindow-size 10|gzip level=3,window=10,strategy=default|yes
gzip -Xcompression-level 3 -Xwindow-size 10 -Xstrategy filtered,fixed|gzip level=3,window=10,strategy=filtered,fixed|no
lzo|lzo algorithm=lzo1x_999,level=8|yes
lzo -Xalgorithm lzo1x_1|lzo algorithm=lzo1x_1|yes
lzo -Xalgorithm lzo1x_999 -Xcompression-level 2|lzo algorithm=lzo1x_999,level=2|yes
xz|xz level=6,dict=131072|no
xz -Xbcj x86,arm -Xdict-size 50%|xz level=6,dict=65536,bcj=x86,arm|no
lzma|lzma level=6|no
lz4|lz4 default|yes
lz4 -Xhc|lz4 hc,level=12|yes
zstd|zstd level=15|yes
zstd -Xcompression-level 3|zstd level=3|yes
LIST

done_testing
