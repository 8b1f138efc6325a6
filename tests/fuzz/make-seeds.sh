#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Seed corpora for the fuzz targets, built by the project's own tools:
#   tests/fuzz/make-seeds.sh BIN_DIR OUT_DIR
# BIN_DIR holds mkfs.squashfs and mkfs.yaffs2.  OUT_DIR/<target>/ receives
# small valid inputs; the hand-written text seeds committed in
# tests/fuzz/corpus/<target>/ are used beside these, not copied.
#
# The output is the same bytes on every run and machine (fixed contents,
# times, owners, archive member order; no names or times in compressed
# headers): `make fuzz-ci` starts from these seeds, and a fuzz pass with a
# fixed libFuzzer seed is only reproducible from a fixed corpus.
set -eu
bin=$1
out=$2
src=$(mktemp -d "${TMPDIR:-/tmp}/ff-seeds.XXXXXX")
trap 'rm -rf "$src"' EXIT

mkdir -p "$out"/{squashfs,yaffs2,ubi,cramfs,tar,cstream}

# A small tree with every kind of object the formats store.
mkdir -p "$src/tree/dir/sub" "$src/tree/empty"
printf 'hello\n' > "$src/tree/small"
python3 -c 'import random, sys; sys.stdout.buffer.write(random.Random(9000).randbytes(9000))' \
	> "$src/tree/dir/random"
yes 'compressible line' | head -c 20000 > "$src/tree/dir/sub/text"
truncate -s 40000 "$src/tree/sparse"
ln -s small "$src/tree/link"
ln -s /absolute/target "$src/tree/dir/abs"
ln "$src/tree/small" "$src/tree/dir/hard"
mkfifo "$src/tree/fifo"
setfattr -n user.comment -v seed "$src/tree/small" 2>/dev/null || true
find "$src/tree" -exec touch -h -d @1600000000 {} +

# CramFS: byte 0 of a fuzz input is the block-size selector (0: detect).
for opts in "" "-N big -z -p" "-b 8192 -N big"; do
	# shellcheck disable=SC2086
	if "$bin/ffmkfs.cramfs" $opts --all-root "$src/tree" "$src/c.img" 2> /dev/null; then
		{ printf '\x00'; cat "$src/c.img"; } > "$out/cramfs/seed$(echo "$opts" | tr -d ' -').cramfs"
	else
		echo "seed: ffmkfs.cramfs $opts failed" >&2
	fi
done

for c in gzip lzo xz lzma lz4 zstd; do
	"$bin/mkfs.squashfs" -q -b 4K -c "$c" --all-root --mtime 0 \
		"$src/tree" "$out/squashfs/$c.sqfs" ||
		echo "seed: mkfs.squashfs -c $c failed" >&2
done
"$bin/mkfs.squashfs" -q -b 4K --no-fragments --no-exports --all-root --mtime 0 \
	"$src/tree" "$out/squashfs/nofrag.sqfs" || true

# YAFFS2: the first byte of a fuzz input picks the geometry (see fuzz_yaffs2.c):
# 0x01 = 1024-byte pages, 2 pages per block, linux layout, kernel tags;
# 0x02 offset0, 0x13 inband with classic tags; 0x41 512-byte inband pages;
# 0x00 detection.
y2() {
	local sel=$1 name=$2
	shift 2
	if "$bin/mkfs.yaffs2" -q --page-size 1024 --pages-per-block 2 --all-root --mtime 0 "$@" \
		"$src/tree" "$src/y2.img"; then
		{ printf "\\x$sel"; cat "$src/y2.img"; } > "$out/yaffs2/$name"
	else
		echo "seed: mkfs.yaffs2 $* failed" >&2
	fi
}
y2 01 linux-kernel.y2 --oob-layout linux --tags kernel
y2 00 detect.y2 --oob-layout linux --tags kernel
y2 02 offset0.y2 --oob-layout offset0
y2 13 inband-classic.y2 --oob-layout inband --tags classic
y2 41 inband-512.y2 --page-size 512 --oob-size 16 --pages-per-block 32 --no-xattrs

# UBI: ubinize (mtd-utils) around a small SquashFS image, a static volume
# and an empty autoresize volume; mkfs.ubi writes the same bytes where
# ubinize is missing.  Byte 0 picks the PEB size (see fuzz_ubi.c): 0x01 =
# 2 KiB PEBs with 1-byte I/O (NOR), 0x02 = 16 KiB with 512-byte pages and
# 256-byte sub-pages, 0x03 the same as a raw dump with 512 + 16 pages,
# 0x00 detection.
ubinize=$(command -v ubinize || echo "$bin/mkfs.ubi")
"$bin/mkfs.squashfs" -q -b 4K --all-root --mtime 0 "$src/tree/dir/sub" "$src/u.sqfs" 2>/dev/null ||
	echo "seed: mkfs.squashfs for the UBI seeds failed" >&2
head -c 700 "$src/tree/dir/random" > "$src/u.bin"
cat > "$src/u.ini" <<INI
[boot]
mode=ubi
image=$src/u.bin
vol_id=0
vol_type=static
vol_name=boot
[rootfs]
mode=ubi
image=$src/u.sqfs
vol_id=1
vol_name=rootfs
[data]
mode=ubi
vol_id=2
vol_size=8KiB
vol_name=data
vol_flags=autoresize
INI
ubi_seed() {
	local sel=$1 name=$2
	shift 2
	if "$ubinize" -o "$src/u.ubi" -Q 1 "$@" "$src/u.ini" > /dev/null; then
		{ printf "\\x$sel"; cat "$src/u.ubi"; } > "$out/ubi/$name"
	else
		echo "seed: ubinize $* failed" >&2
	fi
}
ubi_seed 01 nor-2k.ubi -p 2KiB -m 1
ubi_seed 00 detect-2k.ubi -p 2KiB -m 1
ubi_seed 02 nand-16k.ubi -p 16KiB -m 512 -s 256
# The last one as a raw NAND dump (512 + 16 pages, erased OOB, PEB 1 marked
# bad, as nanddump -o writes it): 0x03 gives the geometry, 0x00 detects it.
python3 "$(dirname "$0")/../tools/ubi_edit.py" "$src/u.ubi" 16384 nand-dump "$src/d.img" 512 16 1 &&
	for sel in 03:dump-512.ubi 00:detect-dump-512.ubi; do
		{ printf "\\x${sel%%:*}"; cat "$src/d.img"; } > "$out/ubi/${sel#*:}"
	done || echo "seed: the UBI raw dump seed failed" >&2

# Compressed blocks for the decompress target come from seed_blocks (C,
# through compress/), which fuzz.mk runs after this script.

# Tar archives in each dialect GNU tar writes, plus a compressed one.  The
# names of pax headers and of pax sparse members hold tar's process id
# (the first can be set, the second not), so the pax seed has no sparse
# member; a pax sparse archive is committed in tests/fuzz/corpus/tar/.
tar_det=(--sort=name --mtime=@1600000000 --owner=0 --group=0 --numeric-owner)
for fmt in ustar gnu pax; do
	opts=("${tar_det[@]}" --format=$fmt)
	if [ $fmt = pax ]; then
		tar -C "$src/tree" "${opts[@]}" -cf "$out/tar/$fmt.tar" \
			--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime .
	else
		tar -C "$src/tree" "${opts[@]}" --sparse -cf "$out/tar/$fmt.tar" . 2>/dev/null ||
			tar -C "$src/tree" "${opts[@]}" -cf "$out/tar/$fmt.tar" .
	fi
done
gzip -9 -n -c "$out/tar/pax.tar" > "$out/tar/pax.tar.gz"

# Stream containers, as flashfs meets them around YAFFS2 images (without
# the fuzz_yaffs2 selector byte).
if [ -f "$out/yaffs2/linux-kernel.y2" ]; then
	tail -c +2 "$out/yaffs2/linux-kernel.y2" > "$src/y2.raw"
	gzip -9 -n -c "$src/y2.raw" > "$out/cstream/image.gz"
	xz -c "$src/y2.raw" > "$out/cstream/image.xz"
	zstd -q -c "$src/y2.raw" > "$out/cstream/image.zst"
	if command -v lzop > /dev/null; then
		touch -d @1600000000 "$src/y2.raw" # lzop stores the name and time
		lzop -c "$src/y2.raw" > "$out/cstream/image.lzo"
	fi
fi

# The registry's pipeline (fuzz_image.c) takes bare images: the SquashFS
# seeds, the YAFFS2 and UBI ones without their selector byte, a compressed
# one, and a blob with a SquashFS image at an unaligned offset.
mkdir -p "$out/image"
cp "$out/squashfs/gzip.sqfs" "$out/squashfs/xz.sqfs" "$out/image/" 2>/dev/null || true
for f in detect.y2 offset0.y2; do
	[ -f "$out/yaffs2/$f" ] && tail -c +2 "$out/yaffs2/$f" > "$out/image/$f"
done
for f in detect-2k.ubi detect-dump-512.ubi; do
	[ -f "$out/ubi/$f" ] && tail -c +2 "$out/ubi/$f" > "$out/image/$f"
done
[ -f "$out/cstream/image.xz" ] && cp "$out/cstream/image.xz" "$out/image/"
if [ -f "$out/squashfs/gzip.sqfs" ]; then
	{ python3 -c 'import random, sys; sys.stdout.buffer.write(random.Random(77).randbytes(4661))'
	  cat "$out/squashfs/gzip.sqfs"; } > "$out/image/blob-4661.bin"
fi
