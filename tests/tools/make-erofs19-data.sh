#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Regenerates tests/data/erofs-1.9.3/: images made by erofs-utils 1.9.3's
# mkfs.erofs (not a Debian package; ../shared/tools/build-anchors.sh builds
# it) from the --tiny tree of erofs_tree.py, one per option set that Debian's
# 1.5 cannot write.  erofs_read.t reads each and compares it with the
# kernel's mount of the same image, so CI needs the images, not the tool.
# Usage: make-erofs19-data.sh MKFS_EROFS_1.9.3 [OUTDIR]
set -euo pipefail
m19=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$top/tests/data/erofs-1.9.3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/tools/erofs_tree.py" "$tmp/tree" --tiny
mkdir -p "$out"
# NAME OPTIONS... (fixed time and UUID: the same bytes every run)
while read -r name opts; do
	# shellcheck disable=SC2086
	"$m19" -T0 -U 00000000-0000-0000-0000-000000000019 $opts "$out/$name.img" "$tmp/tree" > "$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; exit 1; }
done <<'SETS'
lzma -zlzma,6 -C65536
deflate -zdeflate -C32768
zstd -zzstd -C131072
fragments -zlz4hc -Efragments
all_fragments -zlzma -Eall-fragments -C65536
dedupe -zlz4hc -Ededupe -Efragments
ztail -zlz4hc -Eztailpacking -Ededupe
multi -zlz4hc:lzma -C65536
b1024 -zlz4 -b1024
b512_chunk -b512 --chunksize=4096
xattr_prefixes -zlz4 --xattr-prefix=user.kkkkkkkkkk --xattr-prefix=security.sel
prefixes_packed -zlz4hc -Efragments --xattr-prefix=user.kkkkkkkkkk
compressed_dirs -zlz4hc --zD=1
lzma_1m -zlzma,level=9,dictsize=1048576 -C1048576
zstd_dedupe -zzstd -Ededupe -Eall-fragments -C262144
max_extent -zlz4hc -Ededupe --max-extent-bytes=8192
name_filter -zdeflate,level=9 -Exattr-name-filter -L myvolume
b48 -zlz4 -E48bit
SETS
xz -9 -f "$out"/*.img
ls -l "$out"
