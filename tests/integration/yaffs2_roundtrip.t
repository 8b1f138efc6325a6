#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.yaffs2 -> our YAFFS2 reader (yaffs2_dump extract) on every page size,
# tag layout, byte order and tag style: the extracted tree must match the
# source in every manifest field (content, modes, owners, times, links,
# devices, xattrs).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
DUMP=$FF_TOOLS/yaffs2_dump
[ -x "$DUMP" ] || skip_all "yaffs2_dump test tool not built"

make_kinds_tree "$T/src"

roundtrip() {
	local name=$1
	shift
	rm -rf "$T/out" "$T/img"
	if ! mkfs.yaffs2 -q "$@" "$T/src" "$T/img" > "$T/mkfs.log" 2>&1; then
		ok "$name: mkfs" false
		sed 's/^/#   /' "$T/mkfs.log"
		return
	fi
	ok "$name: extract" "$DUMP" "$T/img" extract "$T/out"
	same_manifest "$name: manifest" "$T/src" "$T/out" --root-entry
	is "$("$DUMP" "$T/img" check | wc -l)" 0 "$name: check finds no problems"
}

for page in 1024 2048 4096 8192 16384; do
	for layout in linux offset0 inband; do
		for endian in little big; do
			roundtrip "$page $layout $endian" --page-size "$page" \
				--oob-layout "$layout" --endian "$endian"
		done
	done
done
roundtrip "2048 classic tags" --tags classic
roundtrip "2048 no tags ECC" --no-tags-ecc
roundtrip "2048 offset0 no tags ECC big" --oob-layout offset0 --no-tags-ecc --endian big
roundtrip "2048 data ECC" --data-ecc
roundtrip "4096 bch4" --page-size 4096 --ecc bch4
roundtrip "chip nandsim-2k-256m" --chip nandsim-2k-256m
roundtrip "chip nandsim-4k" --chip nandsim-4k
roundtrip "128 pages per block" --pages-per-block 128

# 512-byte pages: inband tags (the Linux driver mounts tags in the OOB only
# from 1024+32 up), 496-byte chunks, object headers truncated to 496 bytes.
# No room for xattrs after the header, so the tree goes without them.
roundtrip512() { # NAME mkfs options...
	local name=$1
	shift
	rm -rf "$T/out" "$T/img"
	if ! mkfs.yaffs2 -q --no-xattrs "$@" "$T/src" "$T/img" > "$T/mkfs.log" 2>&1; then
		ok "$name: mkfs" false
		sed 's/^/#   /' "$T/mkfs.log"
		return
	fi
	ok "$name: extract" "$DUMP" "$T/img" extract "$T/out"
	same_manifest "$name: manifest" "$T/src" "$T/out" --root-entry --no-xattrs
	is "$("$DUMP" "$T/img" check | wc -l)" 0 "$name: check finds no problems"
	is "$(($(stat -c %s "$T/img") % (32 * 512)))" 0 "$name: whole 32-page blocks of 512 bytes"
}
for endian in little big; do
	roundtrip512 "512 inband $endian" --page-size 512 --pages-per-block 32 \
		--oob-layout inband --endian "$endian"
	roundtrip512 "chip nandsim-512 (linux falls back to inband) $endian" --chip nandsim-512 \
		--endian "$endian"
done
roundtrip512 "512 inband 64 pages per block" --page-size 512 --oob-layout inband
mkfs.yaffs2 --no-xattrs --chip nandsim-512 "$T/src" "$T/img" > "$T/out.txt" 2>&1
ok "nandsim-512: the summary says the layout fell back to inband" \
	grep -q "8 free OOB bytes, fewer than the 28 tag bytes: using inband tags" "$T/out.txt"
# Each header chunk holds 496 header bytes and then the tags, which start
# with the block's sequence number (>= 0x1000) where file_size_high was.
ok "512: tags follow byte 496 of a header page" python3 -c '
import struct, sys
page = open(sys.argv[1], "rb").read(512)
seq, obj, chunk = struct.unpack("<III", page[496:508])
typ, parent = struct.unpack("<II", page[0:8])
sys.exit(not (seq == 0x1000 and typ == 3 and parent == 1 and chunk >> 31 == 1))' "$T/img"

# Refusals on 512-byte pages: exit 2, a message naming the reason (and the
# file, where one is to blame), no image.
refuse512() { # NAME PATTERN mkfs options...
	local name=$1 want=$2
	shift 2
	exits 2 "512 $name: refused" mkfs.yaffs2 -q "$@" "$T/src" "$T/bad"
	ok "512 $name: message says why" grep -q -- "$want" "$T/exits.err"
	ok "512 $name: no image left behind" test ! -e "$T/bad"
}
want="at least 1024 bytes with at least 32 OOB bytes"
refuse512 "offset0 no tags ECC" "page size 512.*$want" --chip nandsim-512 \
	--oob-layout offset0 --no-tags-ecc --no-xattrs
refuse512 "offset0 64-byte OOB" "page size 512.*$want" --page-size 512 --oob-size 64 \
	--oob-layout offset0
refuse512 "linux 64-byte OOB" "page size 512.*$want" --page-size 512 --oob-size 64
refuse512 "xattrs" "^mkfs.yaffs2: /dir: 1 extended attribute (user.bin...) do not fit: 496-byte chunks" \
	--chip nandsim-512
mkdir -p "$T/xa/sub"
echo x > "$T/xa/sub/file"
setfattr -n user.one -v 1 "$T/xa/sub/file"
setfattr -n user.two -v 2 "$T/xa/sub/file"
exits 2 "512 xattrs on a file in a subdirectory: refused" mkfs.yaffs2 -q --chip nandsim-512 \
	"$T/xa" "$T/bad"
ok "512 xattrs: the message names the file's path" \
	grep -q "^mkfs.yaffs2: /sub/file: 2 extended attributes (user.one...) do not fit" "$T/exits.err"
ok "512 xattrs: no image left behind" test ! -e "$T/bad"
exits 0 "512 the same tree with --no-xattrs is built" mkfs.yaffs2 -q --chip nandsim-512 \
	--no-xattrs "$T/xa" "$T/xa.img"
refuse512 "classic tags" "tags classic with 496-byte chunks.*file_size_high" --chip nandsim-512 \
	--no-xattrs --tags classic

# Detection with explicit overrides agrees with auto-detection.
mkfs.yaffs2 -q --page-size 4096 --oob-layout offset0 --endian big "$T/src" "$T/img4k"
"$DUMP" "$T/img4k" info > "$T/info"
ok "info: page size detected" grep -qx "page_size=4096" "$T/info"
ok "info: layout detected" grep -qx "oob_layout=offset0" "$T/info"
ok "info: endian detected" grep -qx "endian=big" "$T/info"
ok "info: kernel header tags" grep -qx "header_tags=kernel" "$T/info"
ok "explicit overrides open it" "$DUMP" --page-size 4096 --layout offset0 --endian big \
	"$T/img4k" check
fails "wrong overrides are refused" "$DUMP" --page-size 2048 --layout inband "$T/img4k" check

# Deterministic: the same tree gives the same bytes.
mkfs.yaffs2 -q "$T/src" "$T/d1"
mkfs.yaffs2 -q "$T/src" "$T/d2"
ok "deterministic output" cmp "$T/d1" "$T/d2"
size=$(stat -c %s "$T/d1")
is "$((size % (64 * 2112)))" 0 "image is whole erase blocks"
done_testing
