#!/bin/bash
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

# Small pages: only 16-byte tags at OOB 0 fit, and no room for xattrs.
rm -rf "$T/out"
ok "512 offset0 no tags ECC: mkfs" mkfs.yaffs2 -q --chip nandsim-512 --oob-layout offset0 \
	--no-tags-ecc --no-xattrs "$T/src" "$T/img512"
ok "512: extract" "$DUMP" "$T/img512" extract "$T/out"
same_manifest "512: manifest" "$T/src" "$T/out" --no-xattrs
fails "512 linux layout is refused" mkfs.yaffs2 -q --chip nandsim-512 "$T/src" "$T/bad"
mkfs.yaffs2 -q --chip nandsim-512 "$T/src" "$T/bad" 2> "$T/err"
ok "512 linux: message names the page size" grep -q "page size 512" "$T/err"
ok "no image left behind" test ! -e "$T/bad"

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
