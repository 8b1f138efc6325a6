#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs cat follows symlinks inside the image (issue 32 item 6), as the
# kernel walks a path with the image as its root: the oracle is the
# kernel itself, busybox cat chrooted into the loop-mounted SquashFS
# image, for each path (relative and absolute links, chains, links in the
# middle of a path, ".." above the root, a loop, a dangling link).
# --no-follow refuses a symlink by name.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"
BB=$(command -v busybox) || skip_all "busybox-static missing (scripts/install-deps)"

S=$T/src
mkdir -p "$S/bin" "$S/etc/conf.d" "$S/usr/lib"
cp "$BB" "$S/bin/busybox"
echo "the passwd" >"$S/etc/passwd"
echo "a conf" >"$S/etc/conf.d/a"
seq 1 20000 >"$S/usr/lib/data"
ln -s passwd "$S/etc/rel"                  # relative, same directory
ln -s /etc/passwd "$S/abs"                 # absolute: the image's root
ln -s ../etc/conf.d "$S/usr/confdir"       # a directory, used mid-path
ln -s /usr/confdir/a "$S/chain"            # a chain of links
ln -s ../../../../etc/passwd "$S/usr/up"   # ".." above the root stays there
ln -s lib/data "$S/usr/datalink"
ln -s loop2 "$S/loop1"
ln -s loop1 "$S/loop2"
ln -s nowhere "$S/dangling"
mksquashfs "$S" "$T/img" -noappend -quiet -no-progress >/dev/null
mkdir "$T/mnt"
mount -o loop,ro "$T/img" "$T/mnt" || skip_all "loop mount failed"
trap 'umount "$T/mnt" 2>/dev/null; _tap_cleanup' EXIT

for p in etc/rel abs usr/confdir/a chain usr/up usr/datalink /usr/datalink usr/confdir/../passwd \
	./etc//rel; do
	chroot "$T/mnt" /bin/busybox cat "/$p" >"$T/want" 2>/dev/null
	flashfs cat "$T/img" "$p" >"$T/got" 2>"$T/err"
	is "$?" 0 "cat $p: exit 0"
	ok "cat $p: the bytes the kernel reads" cmp "$T/want" "$T/got"
done
for p in loop1 dangling etc/passwd/x; do
	chroot "$T/mnt" /bin/busybox cat "/$p" >/dev/null 2>&1
	kernel=$?
	flashfs cat "$T/img" "$p" >"$T/got" 2>"$T/err"
	is "$?" 1 "cat $p: exit 1 (the kernel's cat fails too: $kernel)"
done
ok "a loop is named" grep -q "too many levels of symlinks" <(flashfs cat "$T/img" loop1 2>&1)
ok "a dangling link: no such file" grep -q "No such file" <(flashfs cat "$T/img" dangling 2>&1)

flashfs cat --no-follow "$T/img" etc/rel >"$T/got" 2>"$T/err"
is "$?" 1 "--no-follow on a symlink: exit 1"
ok "--no-follow: the message says it is a symlink" grep -q "etc/rel: a symlink (--no-follow)" "$T/err"
is "$(cat "$T/got")" "" "--no-follow: nothing printed"
is "$(flashfs cat --no-follow "$T/img" usr/confdir/a)" "a conf" \
	"--no-follow: links before the last component are still followed"
is "$(flashfs cat --no-follow "$T/img" etc/passwd)" "the passwd" "--no-follow: a file is a file"

done_testing
