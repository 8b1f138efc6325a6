#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Atomic output never replaces something that is not a regular file; where
# the target's file system refuses O_TMPFILE (vfat: the kernel's, or
# fusefat where the kernel has none) it falls back to a named temporary
# IMAGE.tmp.XXXXXX that is renamed into place, or removed on SIGTERM.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$T/src" && echo data > "$T/src/f"
mkfifo "$T/fifo"
ln -s "$T/target" "$T/link"
fails "mkfs.squashfs refuses to replace a fifo" mkfs.squashfs -q "$T/src" "$T/fifo"
ok "the fifo is still a fifo" test -p "$T/fifo"
fails "mkfs.yaffs2 refuses to replace a symlink" mkfs.yaffs2 -q "$T/src" "$T/link"
ok "the symlink is still a symlink" test -L "$T/link"
ok "nothing was written through the symlink" test ! -e "$T/target"
is "$(mkfs.squashfs -q "$T/src" "$T/fifo" 2>&1 | grep -c 'not a regular file')" 1 "the message says why"
ok "no temporary left behind" sh -c "! ls '$T' | grep -q tmp"
ok "a regular file is replaced" sh -c "echo old > '$T/img' && mkfs.squashfs -q '$T/src' '$T/img' && unsquashfs -l '$T/img' >/dev/null"

# The fallback, on a real file system without O_TMPFILE.
if [ "$(id -u)" != 0 ] || ! command -v mkfs.vfat > /dev/null; then
	skip "needs root and mkfs.vfat (dosfstools)" "fallback on vfat"
elif ! vfat_mount "$T/vfat.img" "$T/v" 64M; then
	skip "no vfat here: the kernel has no vfat module and fusefat is missing or cannot mount" \
		"fallback on vfat"
else
	ok "vfat: O_TMPFILE is refused there (test premise)" \
		sh -c "! python3 -c 'import os, sys; os.open(sys.argv[1], os.O_TMPFILE | os.O_RDWR)' '$T/v' 2>/dev/null"
	ok "vfat: mkfs.squashfs writes IMAGE" mkfs.squashfs -q "$T/src" "$T/v/a.sqfs"
	ok "vfat: ... a complete image" unsquashfs -l "$T/v/a.sqfs"
	echo old > "$T/v/b.sqfs"
	ok "vfat: an existing IMAGE is replaced" mkfs.squashfs -q "$T/src" "$T/v/b.sqfs"
	ok "vfat: ... by a complete image" unsquashfs -l "$T/v/b.sqfs"
	ok "vfat: mkfs.yaffs2 writes IMAGE" mkfs.yaffs2 -q "$T/src" "$T/v/c.yaffs2"
	is "$(ls -A "$T/v" | tr '\n' ' ')" "a.sqfs b.sqfs c.yaffs2 " "vfat: no temporary after success"
	# a slow build: the named temporary exists while it runs, SIGTERM removes it
	mkdir -p "$T/big"
	for i in 1 2; do head -c 8M /dev/urandom > "$T/big/r$i"; done
	mkfs.squashfs -q --noappend -c xz -X level=9 -j 1 "$T/big" "$T/v/b.sqfs" > /dev/null 2>&1 &
	pid=$!
	n=0
	while [ $n -lt 200 ] && ! ls "$T/v/" | grep -q '^b.sqfs.tmp.'; do sleep 0.05; n=$((n + 1)); done
	ok "vfat: the build writes a named temporary beside IMAGE" sh -c "ls '$T/v' | grep -q '^b.sqfs.tmp.'"
	kill -TERM "$pid"
	wait "$pid" 2> /dev/null
	is "$(ls -A "$T/v" | tr '\n' ' ')" "a.sqfs b.sqfs c.yaffs2 " "vfat: SIGTERM removes the temporary"
	ok "vfat: ... and leaves IMAGE as it was" unsquashfs -l "$T/v/b.sqfs"
	# mkfs.ubi's volume, unnamed in $TMPDIR: there a named one, unlinked
	# once written
	ok "vfat as \$TMPDIR: mkfs.ubi --squashfs builds its volume there" \
		env TMPDIR="$T/v" SOURCE_DATE_EPOCH=1700000000 mkfs.ubi -o "$T/u.ubi" -p 128KiB -m 2048 -s 512 -Q 77 --squashfs "$T/src"
	ok "  ... a volume that reads back" sh -c "flashfs cat --volume rootfs '$T/u.ubi' /f | grep -qx data"
	# the bytes of the O_TMPFILE path, which mkfs_ubi_squashfs.t compares
	# with mkfs.squashfs + ubinize and mksquashfs + ubinize (one image time
	# for both: a loaded machine may start them in different seconds)
	SOURCE_DATE_EPOCH=1700000000 mkfs.ubi -o "$T/u-ref.ubi" -p 128KiB -m 2048 -s 512 -Q 77 --squashfs "$T/src" > /dev/null 2>&1
	ok "  ... the same image as built with an ordinary \$TMPDIR" cmp "$T/u.ubi" "$T/u-ref.ubi"
	is "$(ls -A "$T/v" | tr '\n' ' ')" "a.sqfs b.sqfs c.yaffs2 " "  ... and leaves no temporary there"
	umount "$T/v" 2> /dev/null || fusermount3 -u "$T/v"
fi
done_testing
