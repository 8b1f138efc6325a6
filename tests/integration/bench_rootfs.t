#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The bundled embedded rootfs: deterministic, busybox with its applets, a
# generated /etc, a few MB; its dev.spec builds /dev into an image (checked
# with unsquashfs), and dev.pseudo is accepted by mksquashfs.
. "$(dirname "$0")/../lib.sh"

[ -x /bin/busybox ] || skip_all "busybox-static not installed"
gen=$FF_TOP/bench/rootfs/make-embedded-rootfs.sh

ok "rootfs builds" "$gen" "$T/a"
ok "rootfs builds again" "$gen" "$T/b"
same_manifest "two builds are identical" "$T/a/root" "$T/b/root"
r=$T/a/root
ok "busybox is there and runs" "$r/bin/busybox" true
is "$(readlink "$r/bin/sh")" /bin/busybox "applets are symlinks to /bin/busybox"
ok "hundreds of applets" test "$(find "$r" -type l -lname /bin/busybox | wc -l)" -gt 100
ok "passwd has root" grep -q '^root:x:0:0:' "$r/etc/passwd"
ok "inittab runs rcS" grep -q 'sysinit:/etc/init.d/rcS' "$r/etc/inittab"
ok "init scripts are executable" test -x "$r/etc/init.d/rcS"
kb=$(du -sk "$r" | cut -f1)
ok "a few MB ($kb KiB)" test "$kb" -gt 1000 -a "$kb" -lt 20000
is "$(find "$r" -newermt @1700000001 | wc -l)" 0 "every mtime is SOURCE_DATE_EPOCH"

if [ -x "$FF_BIN/mkfs.squashfs" ] && command -v unsquashfs > /dev/null; then
	ok "mkfs.squashfs takes dev.spec" mkfs.squashfs -q --all-root --spec "$T/a/dev.spec" "$r" "$T/r.sqfs"
	unsquashfs -lls "$T/r.sqfs" > "$T/ls.txt" 2>&1
	ok "unsquashfs lists /dev/console as char 5,1 owned by root" \
		grep -qE '^crw------- root/root +5, +1 .*squashfs-root/dev/console$' "$T/ls.txt"
	ok "unsquashfs lists /dev/mtdblock0 as block 31,0 (--all-root)" \
		grep -qE '^brw-rw---- root/root +31, +0 .*squashfs-root/dev/mtdblock0$' "$T/ls.txt"
else
	skip "mkfs.squashfs or unsquashfs missing" "dev.spec in an image"
fi
if command -v mksquashfs > /dev/null; then
	ok "mksquashfs takes dev.pseudo" mksquashfs "$r" "$T/m.sqfs" -noappend -quiet -no-progress \
		-all-root -pf "$T/a/dev.pseudo"
else
	skip "mksquashfs not installed" "dev.pseudo"
fi
done_testing
