#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Auto-detection (no geometry options) of mkfs.yaffs2 images on every
# supported geometry: 512-byte pages (inband tags only), page sizes
# 1024..16384 with both usual OOB sizes (page/32, page/16), 32..256 pages
# per block, every tag layout, both byte orders.  `flashfs extract` must read the whole tree back identical to the
# source (manifest) and `flashfs info` must report the geometry it was
# built with, so a candidate that explains the image worse (a page size
# that is a multiple of the real one sees valid tags on every page it
# reads) fails here.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mkfs.yaffs2 >/dev/null || skip_all "mkfs.yaffs2 not built"
command -v flashfs >/dev/null || skip_all "flashfs not built"

# More chunks than the largest block (256 pages), so every image has several
# blocks and blocks' sequence numbers show where blocks start: 280 object
# headers, an empty file and 279 hard links to it (each link is an object
# header of its own; extracting one makes no inode, where 280 new inodes
# after the last image's 280 were deleted cost this test's extractions a
# search past each deleted one in ext4, some 40% of its CPU).
make_tree() {
	local d=$1
	mkdir -p "$d/many" "$d/dir/sub"
	: > "$d/many/e1"
	for i in $(seq 2 280); do ln "$d/many/e1" "$d/many/e$i"; done
	echo "hello yaffs2" > "$d/small.txt"
	head -c 70000 /dev/urandom > "$d/dir/multi.bin"
	{ head -c 5000 /dev/urandom; head -c 40000 /dev/zero; head -c 3000 /dev/urandom; } \
		> "$d/dir/holes.bin"
	ln -s small.txt "$d/link"
	ln "$d/small.txt" "$d/dir/sub/hard"
	mknod "$d/chr" c 1 3
	mkfifo "$d/fifo"
	chmod 4755 "$d/dir/multi.bin"
	chown 1234:5678 "$d/dir/holes.bin"
	find "$d" -exec touch -h -d @1600000000 {} +
}
make_tree "$T/src"
# the source's manifest once, for the 200-odd comparisons
$MANIFEST --no-xattrs "$T/src" > "$T/src.man"

info_is() { # FIELD EXPECTED NAME
	is "$(awk -v f="$1" '$1 == f { print $2 }' "$T/info")" "$2" "$3: $1 detected"
}

detect() { # NAME PAGE OOB PPB LAYOUT ENDIAN [more mkfs options]
	local name=$1 page=$2 oob=$3 ppb=$4 layout=$5 endian=$6
	shift 6
	rm -rf "$T/out" "$T/img"
	if ! mkfs.yaffs2 -q --no-xattrs --page-size "$page" --oob-size "$oob" \
		--pages-per-block "$ppb" --oob-layout "$layout" --endian "$endian" "$@" \
		"$T/src" "$T/img" > "$T/mkfs.log" 2>&1; then
		ok "$name: mkfs" false
		sed 's/^/#   /' "$T/mkfs.log"
		return
	fi
	flashfs info "$T/img" > "$T/info" 2>&1
	info_is page_size "$page" "$name"
	info_is pages_per_block "$ppb" "$name"
	info_is endian "$endian" "$name"
	ok "$name: extract" flashfs extract -C "$T/out" "$T/img"
	same_manifest "$name: manifest" "$T/src.man" "$T/out" --no-xattrs
}

# Under `make asan check` (CI's second pass of the suite) the matrix is
# thinned: each page size, pages per block and byte order gets one of its
# four OOB size and layout pairs, in turn, so every value of every axis
# still meets the sanitizers (each page size all four pairs), at 86
# images instead of 206 (185 of the ASan pass's CPU seconds); the plain
# pass runs them all.
thin=
case $FF_BUILD in */asan) thin=1 ;; esac
turn=0
for page in 1024 2048 4096 8192 16384; do
	for ppb in 32 64 128 256; do
		for endian in little big; do
			# Alternate 28- and 16-byte tags so both are detected.
			tecc=
			[ "$ppb" = 64 ] || [ "$ppb" = 256 ] && tecc=--no-tags-ecc
			pair=0
			for oob in $((page / 32)) $((page / 16)); do
				for layout in linux offset0; do
					pair=$((pair + 1))
					[ -n "$thin" ] && [ $((pair % 4)) != $((turn % 4)) ] && continue
					detect "$page+$oob/$ppb $layout $endian ${tecc:-tags-ecc}" \
						"$page" "$oob" "$ppb" "$layout" "$endian" $tecc
				done
			done
			turn=$((turn + 1))
			detect "$page/$ppb inband $endian" "$page" 0 "$ppb" inband "$endian"
		done
	done
done

# 512-byte pages: inband tags only (496-byte chunks, truncated headers).
for ppb in 32 64; do
	for endian in little big; do
		detect "512/$ppb inband $endian" 512 0 "$ppb" inband "$endian"
	done
done
# nandsim-512's geometry with the default layout (falls back to inband).
detect "512+16/32 linux (inband fallback)" 512 16 32 linux big
info_is oob_layout inband "512+16/32 linux (inband fallback)"
info_is chunk_bytes 496 "512+16/32 linux (inband fallback)"

# The geometry of the original report: 1024+32, 32 pages per block (linux
# layout falls back to inband there).
detect "report 1024+32/32" 1024 32 32 linux little

# A dump of a used partition may start with erased blocks (3 MiB here, more
# than the window detection judges at once): detection looks past them.
rm -rf "$T/out" "$T/img"
mkfs.yaffs2 -q --no-xattrs --page-size 4096 --oob-size 128 "$T/src" "$T/plain"
python3 -c 'import sys; sys.stdout.buffer.write(b"\xff" * (4224 * 64 * 12))' > "$T/img"
cat "$T/plain" >> "$T/img"
flashfs info "$T/img" > "$T/info" 2>&1
info_is page_size 4096 "erased start"
info_is pages_per_block 64 "erased start"
ok "erased start: extract" flashfs extract -C "$T/out" "$T/img"
same_manifest "erased start: manifest" "$T/src" "$T/out" --no-xattrs
rm -rf "$T/out" "$T/img" "$T/plain"
done_testing
