#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs lays out a tree as mksquashfs 4.5.1 does: inodes numbered and
# written in the same order, the same directory headers, fragments and
# tables.  On the bundled embedded rootfs, with the codecs whose libraries
# give the same bytes for the same input (gzip, lz4, zstd), the two images
# are equal apart from the superblock's creation time (bytes 8-11).  lzo and
# xz blocks come out of the two tools as other bytes of the same sizes, so
# there the image sizes must be equal.  Our gzip is libdeflate by default;
# -X zlib compresses as mksquashfs does, and that is what is compared here
# (mkfs_squashfs_libdeflate.t checks the default images).
. "$(dirname "$0")/../lib.sh"

[ -x /bin/busybox ] || skip_all "busybox-static not installed"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
"$FF_TOP/bench/rootfs/make-embedded-rootfs.sh" "$T/e" > /dev/null || skip_all "embedded rootfs did not build"
r=$T/e/root

# masked IMAGE — the image with its creation time zeroed
masked() {
	python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[8:12] = bytes(4); sys.stdout.buffer.write(d)' "$1"
}

for c in gzip lz4 zstd lzo xz; do
	x=
	[ "$c" = gzip ] && x="-X zlib"
	# shellcheck disable=SC2086
	mkfs.squashfs -q -c "$c" $x -b 128K "$r" "$T/o-$c.img" || { ok "mkfs.squashfs -c $c" false; continue; }
	env -u SOURCE_DATE_EPOCH mksquashfs "$r" "$T/m-$c.img" -comp "$c" -b 128K -noappend \
		-no-progress -quiet > /dev/null 2>&1 || { ok "mksquashfs -comp $c" false; continue; }
	case $c in
	gzip | lz4 | zstd)
		masked "$T/o-$c.img" > "$T/o.bin"
		masked "$T/m-$c.img" > "$T/m.bin"
		ok "$c${x:+ $x}: image equals mksquashfs' apart from the creation time" \
			cmp -s "$T/o.bin" "$T/m.bin" ;;
	*)
		is "$(stat -c %s "$T/o-$c.img")" "$(stat -c %s "$T/m-$c.img")" "$c: image size equals mksquashfs'" ;;
	esac
done

# No fragments, by -no-fragments or because no file has a tail: mksquashfs
# writes no fragment table but points the superblock at where it would
# start; so must we (bytes 80-87), or the images differ there.
mkdir -p "$T/nofrag/d"
: > "$T/nofrag/empty"
head -c 131072 /dev/zero | tr '\0' a > "$T/nofrag/d/full"
for words in "-no-fragments:$r" ":$T/nofrag"; do
	opt=${words%%:*}
	src=${words#*:}
	# shellcheck disable=SC2086
	mkfs.squashfs -q --noappend -c lz4 $opt "$src" "$T/o.img" &&
		env -u SOURCE_DATE_EPOCH mksquashfs "$src" "$T/m.img" -comp lz4 $opt -noappend \
			-no-progress -quiet > /dev/null 2>&1
	masked "$T/o.img" > "$T/o.bin"
	masked "$T/m.img" > "$T/m.bin"
	ok "no fragments (${opt:-a tree without tails}): image equals mksquashfs'" \
		cmp -s "$T/o.bin" "$T/m.bin"
done
done_testing
