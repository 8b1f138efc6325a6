# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for the harden_*.t tests (sourced after lib.sh).

MUTATE="python3 $FF_TOP/tests/fuzz/mutate.py"

# Options for `$MUTATE run`.  Under `make asan check` (CI's second pass of
# the suite) ls -lR runs on every other round over the images only: it
# lists the directories through the same reader as extract, which reads
# them all and their files too, and every run is a sanitized process start
# (the mutation tests' CPU there is mostly those starts); check and extract
# still run on every mutation, every image meets ls -lR, and the plain pass
# runs all three on every mutation.
MUTATE_RUN_OPTS=
case $FF_BUILD in */asan) MUTATE_RUN_OPTS="--ls-every 2" ;; esac

# harden_tree DIR — a small tree with every object kind, several directory
# levels, files of a few blocks (at 4 KiB blocks), tails for fragments,
# hard links, symlinks, a sparse file and xattrs: enough structure that a
# random mutation lands in something a parser has to check.
harden_tree() {
	local d=$1 i
	mkdir -p "$d/etc/init.d" "$d/usr/lib/deep/er" "$d/empty"
	printf 'root:x:0:0::/root:/bin/sh\n' > "$d/etc/passwd"
	for i in 1 2 3 4 5 6; do
		printf '#!/bin/sh\necho service %s\n' "$i" > "$d/etc/init.d/S0$i"
	done
	yes 'a line of text that compresses well' | head -c 30000 > "$d/usr/lib/text"
	head -c 13000 /dev/urandom > "$d/usr/lib/random"
	printf 'deep\n' > "$d/usr/lib/deep/er/file"
	truncate -s 50000 "$d/usr/sparse"
	ln "$d/etc/passwd" "$d/usr/hardlink"
	ln -s ../etc/passwd "$d/usr/rel-link"
	ln -s /etc/shadow "$d/usr/abs-link"
	mkfifo "$d/fifo"
	if [ "$(id -u)" = 0 ]; then
		mknod "$d/null" c 1 3
	fi
	setfattr -n user.note -v 'harden test' "$d/etc/passwd" 2> /dev/null || true
}

# harden_images SRC OUT — valid images of each format, codec and YAFFS2
# layout, built by our builders (plus one mksquashfs image when available).
# Prints nothing; fails if a builder fails.
harden_images() {
	local src=$1 out=$2 c
	mkdir -p "$out"
	for c in gzip lzo xz lzma lz4 zstd; do
		mkfs.squashfs -q -b 4K -c "$c" "$src" "$out/sqfs-$c.img" || return 1
	done
	if command -v mksquashfs > /dev/null; then
		mksquashfs "$src" "$out/mksquashfs-xz.img" -comp xz -b 4K -quiet \
			-no-progress > /dev/null || return 1
	fi
	mkfs.yaffs2 -q "$src" "$out/yaffs2-2k.img" || return 1
	mkfs.yaffs2 -q --page-size 512 --oob-size 16 --oob-layout offset0 --tags classic \
		--no-tags-ecc "$src" "$out/yaffs2-512-classic.img" 2> /dev/null ||
		mkfs.yaffs2 -q --page-size 1024 --pages-per-block 2 --oob-layout offset0 \
			"$src" "$out/yaffs2-1k-offset0.img" || return 1
	mkfs.yaffs2 -q --page-size 4096 --oob-layout inband "$src" \
		"$out/yaffs2-4k-inband.img" || return 1
	mkfs.yaffs2 -q -z gzip "$src" "$out/yaffs2-2k.img.gz" || return 1
}

# harden_ubi_images SRC OUT — UBI images of SRC for the mutation test: our
# mkfs.ubi with a SquashFS volume on 2 KiB-page NAND and on 512-byte pages
# with sub-pages (plus a small static volume beside it), and, when
# mtd-utils is installed, ubinize's image of the same volumes.
harden_ubi_images() {
	local src=$1 out=$2
	mkdir -p "$out"
	mkfs.squashfs -q -b 4K -c xz "$src" "$out/vol.sqfs" || return 1
	head -c 3000 "$out/vol.sqfs" > "$out/kernel.bin"
	printf '%s\n' '[kernel]' mode=ubi image="$out/kernel.bin" vol_id=0 vol_type=static \
		vol_name=kernel '[rootfs]' mode=ubi image="$out/vol.sqfs" vol_id=1 \
		vol_name=rootfs vol_flags=autoresize > "$out/ubi.ini"
	mkfs.ubi -o "$out/ubi-2k.ubi" -p 128KiB -m 2048 -Q 7 --squashfs "$src" \
		--squashfs-comp lz4 > /dev/null || return 1
	mkfs.ubi -o "$out/ubi-512.ubi" -p 16KiB -m 512 -s 256 -Q 7 "$out/ubi.ini" > /dev/null ||
		return 1
	if command -v ubinize > /dev/null; then
		ubinize -o "$out/ubinize-2k.ubi" -p 128KiB -m 2048 -Q 7 "$out/ubi.ini" \
			> /dev/null || return 1
	fi
	rm -f "$out/vol.sqfs" "$out/kernel.bin" "$out/ubi.ini"
}
