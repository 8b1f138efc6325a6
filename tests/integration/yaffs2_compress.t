#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.yaffs2 -z writes the image as a standard .gz/.lzo/.xz/.zst stream:
# the standard tool decompresses it to exactly the uncompressed image,
# which our reader reads back identical to the source.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
DUMP=$FF_TOOLS/yaffs2_dump
[ -x "$DUMP" ] || skip_all "yaffs2_dump test tool not built"

make_kinds_tree "$T/src"
mkfs.yaffs2 -q "$T/src" "$T/plain.img"
for pair in gzip:gzip lzo:lzop xz:xz zstd:zstd; do
	codec=${pair%%:*}
	tool=${pair##*:}
	if ! command -v "$tool" > /dev/null; then
		skip "$tool not installed" "$codec"
		continue
	fi
	ok "$codec: mkfs -z" mkfs.yaffs2 -q -z "$codec" "$T/src" "$T/img.$codec"
	"$tool" -dc < "$T/img.$codec" > "$T/back.$codec" 2> "$T/err"
	ok "$codec: $tool decompresses to the plain image" cmp "$T/plain.img" "$T/back.$codec"
	rm -rf "$T/out"
	ok "$codec: extract" "$DUMP" "$T/back.$codec" extract "$T/out"
	same_manifest "$codec: tree identical" "$T/src" "$T/out" --root-entry
	rm -rf "$T/fx" && mkdir "$T/fx"
	ok "$codec: flashfs extract opens the compressed image" \
		flashfs extract -C "$T/fx" "$T/img.$codec"
	same_manifest "$codec: flashfs tree identical" "$T/src" "$T/fx"
done
fails "unknown codec is refused" mkfs.yaffs2 -q -z nosuch "$T/src" "$T/x.img"
ok "no partial output" test ! -e "$T/x.img"
done_testing
