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

# 512-byte pages: the Linux driver mounts YAFFS2 with tags in the OOB only
# from 1024+32 up (YAFFS_MIN_YAFFS2_CHUNK_SIZE / _SPARE_SIZE), and inband
# tags leave 496 bytes, less than an object header: every variant is
# refused with a message that says why, and nothing is written.
refuse512() { # NAME mkfs options... ; stderr must contain $want
	local name=$1
	shift
	fails "512 $name: refused" mkfs.yaffs2 -q "$@" "$T/src" "$T/bad"
	mkfs.yaffs2 -q "$@" "$T/src" "$T/bad" 2> "$T/err"
	ok "512 $name: message cites the kernel's limit" grep -q "$want" "$T/err"
	ok "512 $name: message names the page size" grep -q "page size 512" "$T/err"
}
want="at least 1024 bytes with at least 32 OOB bytes"
refuse512 "offset0 no tags ECC" --chip nandsim-512 --oob-layout offset0 --no-tags-ecc \
	--no-xattrs
refuse512 "offset0 64-byte OOB" --page-size 512 --oob-size 64 --oob-layout offset0
refuse512 "linux 64-byte OOB" --page-size 512 --oob-size 64
want="496 data bytes per chunk, less than the 512-byte object header"
refuse512 "linux layout (inband fallback)" --chip nandsim-512
refuse512 "inband" --chip nandsim-512 --oob-layout inband
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
