#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs mount on YAFFS2 images from mkfs.yaffs2 in every OOB layout, tag
# format, byte order, a small- and a large-page geometry, and inside each
# compressed container: every object must match the source tree.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
command -v mkfs.yaffs2 >/dev/null || skip_all "mkfs.yaffs2 not built"

fuse_make_tree "$T/src" 300 yaffs
mkfs.yaffs2 -q "$T/src" "$T/default.yaffs2" || skip_all "mkfs.yaffs2 cannot build the test tree"

check() { # NAME IMAGE [mount options...]
	local name=$1 img=$2 mnt=$T/mnt-$1
	shift 2
	ok "$name: mounts" fuse_mount "$mnt" "$img" "$@"
	if mountpoint -q "$mnt"; then
		same_manifest "$name: every object matches the source" "$T/src" "$mnt"
		is "$(stat -c %i "$mnt/a/hard2")" "$(stat -c %i "$mnt/hard")" "$name: hard links share an inode"
		ok "$name: unmounts" fuse_umount "$mnt"
	else
		skip "not mounted" "$name: contents"
	fi
}

build() { # NAME mkfs.yaffs2 options... ; image is $T/NAME.yaffs2
	local name=$1
	shift
	mkfs.yaffs2 -q "$@" "$T/src" "$T/$name.yaffs2" 2>"$T/$name.log"
}

check default "$T/default.yaffs2"
while read -r name opts; do
	# shellcheck disable=SC2086
	if build "$name" $opts; then
		check "$name" "$T/$name.yaffs2"
	else
		ok "mkfs.yaffs2 $opts builds" false
	fi
done <<'LIST'
offset0-classic --oob-layout offset0 --tags classic
inband --oob-layout inband
big-endian --endian big
page1024 --page-size 1024 --oob-size 32 --pages-per-block 32
page4096 --page-size 4096 --oob-size 128 --pages-per-block 128
LIST

check page1024-explicit "$T/page1024.yaffs2" -o page_size=1024,oob_size=32,pages_per_block=32

for z in gzip lzo xz zstd; do
	case $z in gzip) ext=gz ;; lzo) ext=lzo ;; xz) ext=xz ;; zstd) ext=zst ;; esac
	if mkfs.yaffs2 -q -z "$z" "$T/src" "$T/c.yaffs2.$ext" 2>"$T/z.log"; then
		check "compressed-$z" "$T/c.yaffs2.$ext"
	else
		ok "mkfs.yaffs2 -z $z builds" false
	fi
done

done_testing
