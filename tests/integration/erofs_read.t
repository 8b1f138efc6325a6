#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The EROFS reader against the real oracle: the kernel mounts each image
# mkfs.erofs makes of one generated tree (tests/tools/erofs_tree.py: many
# sizes, sparse, zeros, duplicates, links, devices, fifo, socket, hard
# links, user/security/trusted xattrs, long names, 1200 entries), and our
# extraction's manifest must equal the mount's.  One image per mkfs option
# Debian's erofs-utils 1.5 has; then damaged images must be refused cleanly.
# Then erofs-utils 1.9.3's images, committed (tests/data/erofs-1.9.3: its
# lzma, deflate, zstd, fragments, dedupe and block sizes).
. "$(dirname "$0")/../lib.sh"
need_root
command -v mkfs.erofs > /dev/null || skip_all "mkfs.erofs (erofs-utils) not installed"
modprobe erofs 2> /dev/null
grep -qw erofs /proc/filesystems || skip_all "the kernel has no EROFS support"

python3 "$FF_TOP/tests/tools/erofs_tree.py" "$T/full" || skip_all "cannot build the source tree"
python3 "$FF_TOP/tests/tools/erofs_tree.py" "$T/small" --small || skip_all "cannot build the source tree"
mkdir -p "$T/mnt"
mkfs.erofs "$T/probe.img" "$T/small" > /dev/null 2>&1 &&
	mount -t erofs -o loop,ro "$T/probe.img" "$T/mnt" 2> /dev/null ||
	skip_all "cannot loop-mount an EROFS image here"
umount "$T/mnt"

# oracle NAME MKFS [OPTIONS...] — build, mount, extract, compare, check.
# The small tree (files up to 200 KB) unless SRC=full.
oracle() {
	local name=$1 mkfs=$2 img="$T/$1.img" out="$T/out.$1"
	shift 2
	if ! "$mkfs" "$@" "$img" "$T/${SRC:-small}" > "$T/mkfs.log" 2>&1; then
		skip "$mkfs $*: $(tail -n 1 "$T/mkfs.log")" "$name: extraction equals the kernel's mount"
		return
	fi
	mount -t erofs -o loop,ro "$img" "$T/mnt"
	$MANIFEST "$T/mnt" > "$T/kernel.man"
	umount "$T/mnt"
	flashfs extract -C "$out" "$img" > "$T/extract.log" 2>&1
	$MANIFEST "$out" > "$T/ours.man"
	ok "$name: extraction equals the kernel's mount" \
		sh -c "cmp -s '$T/kernel.man' '$T/ours.man' || { cat '$T/extract.log'; diff '$T/kernel.man' '$T/ours.man' | head -20; exit 1; }"
	ok "$name: check finds it clean" flashfs check "$img"
	rm -rf "$out"
}

M15=mkfs.erofs
SRC=full oracle plain $M15
oracle lz4 $M15 -zlz4
SRC=full oracle lz4hc9 $M15 -zlz4hc,9
oracle pcluster64k $M15 -zlz4hc -C65536
oracle compact $M15 -zlz4 -Eforce-inode-compact
oracle extended $M15 -zlz4hc -Eforce-inode-extended -C16384
oracle ztailpacking $M15 -zlz4hc -Eztailpacking
SRC=full oracle ztail_big $M15 -zlz4hc,12 -Eztailpacking -C131072
oracle legacy $M15 -zlz4 -Elegacy-compress
oracle noinline $M15 -Enoinline_data
oracle chunks $M15 --chunksize=8192
oracle chunk_indexes $M15 --chunksize=16384 -Eforce-chunk-indexes
oracle chunk_blockmap $M15 --chunksize=65536 -Eforce-inode-blockmap
oracle max_extent $M15 -zlz4 --max-extent-bytes=16384

# info names what the superblock says.
img="$T/lz4hc9.img"
flashfs info "$img" > "$T/info" 2>&1
ok "info: block size, compression, checksum" \
	sh -c "grep -q 'block_size *4096' '$T/info' && grep -q 'compression *lz4' '$T/info' && grep -q 'crc32c ok' '$T/info'"
flashfs info --json "$img" > "$T/info.json" 2>&1
ok "info --json follows docs/schemas/info.schema.json" \
	python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/info.schema.json" "$T/info.json"
is "$(flashfs cat "$img" /data/text_3145851 | md5sum)" "$(md5sum < "$T/full/data/text_3145851")" \
	"cat: a 3 MiB compressed file"

# Damage: each refused with a message, no crash.
cp "$img" "$T/badcrc.img"
printf '\x01' | dd of="$T/badcrc.img" bs=1 seek=1100 conv=notrunc status=none
fails "a wrong superblock crc32c is refused" flashfs ls "$T/badcrc.img"
cp "$img" "$T/feature.img"
printf '\x00\x04' | dd of="$T/feature.img" bs=1 seek=$((1024 + 80)) conv=notrunc status=none
flashfs info "$T/feature.img" > "$T/feature.out" 2>&1
ok "an unknown incompatible feature is refused by name" grep -q "0x400" "$T/feature.out"
head -c 300000 "$img" > "$T/short.img"
fails "a truncated image fails its check" flashfs check "$T/short.img"
flashfs extract -C "$T/short.out" "$T/short.img" > "$T/short.log" 2>&1
ok "a truncated image: extraction names what is past the end" grep -q "past the end" "$T/short.log"

mkdir -p "$T/loop/sub/x" && echo a > "$T/loop/sub/x/f"
mkfs.erofs "$T/loop.img" "$T/loop" > /dev/null 2>&1
python3 "$FF_TOP/tests/tools/erofs_loop.py" "$T/loop.img" sub
flashfs check "$T/loop.img" > "$T/loop.out" 2>&1
ok "a directory loop: check names it" grep -q "reached a second time" "$T/loop.out"
fails "a directory loop: extraction stops with an error" timeout 60 flashfs extract -C "$T/loop.x" "$T/loop.img"

# Images from erofs-utils 1.9.3 (not a Debian package), made once by
# tests/tools/make-erofs19-data.sh from erofs_tree.py --tiny and committed:
# each is read against the kernel's mount of the same image.  The field
# corpus (erofs-rs and others) is make check-field's job.
for xz in "$FF_TOP"/tests/data/erofs-1.9.3/*.img.xz; do
	name=v19_$(basename "$xz" .img.xz)
	img="$T/$name.img"
	xz -dc "$xz" > "$img"
	[ "$name" = v19_b48 ] && continue
	mount -t erofs -o loop,ro "$img" "$T/mnt"
	$MANIFEST "$T/mnt" > "$T/kernel.man"
	umount "$T/mnt"
	flashfs extract -C "$T/out.$name" "$img" > "$T/extract.log" 2>&1
	$MANIFEST "$T/out.$name" > "$T/ours.man"
	ok "$name: extraction equals the kernel's mount" cmp "$T/kernel.man" "$T/ours.man"
	ok "$name: check finds nothing wrong" flashfs check "$img"
done
flashfs info "$T/v19_name_filter.img" > "$T/info19" 2>&1
ok "info: 1.9 volume label and deflate" \
	sh -c "grep -q 'volume_name *myvolume' '$T/info19' && grep -q 'compression *deflate' '$T/info19'"
flashfs ls "$T/v19_b48.img" > "$T/b48.out" 2>&1
ok "the 48-bit layout is refused by name" grep -q "lacks: 48bit" "$T/b48.out"
done_testing
