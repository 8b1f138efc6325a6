#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs extract's rough edges (issue 32 item 6):
# - on a full target (a 1 MiB tmpfs) the kernel's own errno is reported,
#   once, the extraction stops there, and the exit status is 2; no file
#   is left half written (each file present equals the source's);
# - a non-root extract that had to skip device nodes exits 1, as
#   flashfs(1) says ("some entries ... not restored"); one without
#   devices exits 0 although owners cannot be restored;
# - the default directory is named after the format (FORMAT-root).
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"

S=$T/src
mkdir -p "$S/bin" "$S/lib" "$S/etc"
for i in 1 2 3 4 5 6; do head -c 300K /dev/urandom >"$S/bin/prog$i"; done
for i in $(seq 1 40); do echo "line $i" >"$S/etc/f$i"; done
head -c 700K /dev/urandom >"$S/lib/libbig.so"
mksquashfs "$S" "$T/img" -noappend -quiet -no-progress >/dev/null

mkdir "$T/full"
mount -t tmpfs -o size=1m tmpfs "$T/full" || skip_all "tmpfs mount failed"
trap 'umount "$T/full" 2>/dev/null; _tap_cleanup' EXIT
for jobs in 1 4; do
	rm -rf "$T/full/out"
	flashfs extract --no-progress -j "$jobs" -C "$T/full/out" "$T/img" >"$T/out" 2>"$T/err"
	is "$?" 2 "-j $jobs: a full target: exit 2"
	is "$(wc -l <"$T/err")" 1 "-j $jobs: one message"
	ok "-j $jobs: the real errno, naming the target" \
		grep -q "$T/full/out: No space left on device: the extraction stopped" "$T/err"
	ok "-j $jobs: no stale errno in it" bash -c "! grep -Eq 'Success|Inappropriate ioctl' '$T/err'"
	ok "-j $jobs: every file written is whole" bash -c "
		cd '$T/full/out' && find . -type f | while read -r f; do cmp -s \"\$f\" '$S/'\"\$f\" || exit 1; done"
done
umount "$T/full"

# --- as nobody: device nodes skipped -> 1; owners alone -> 0
mkdir -p "$S/dev"
mknod "$S/dev/null" c 1 3
mksquashfs "$S" "$T/dev.img" -noappend -quiet -no-progress >/dev/null
chmod a+rx "$T"
chmod a+r "$T"/*.img
mkdir -m 777 "$T/user"
as_nobody flashfs extract --no-progress -C "$T/user/a" "$T/dev.img" 2>"$T/err"
is "$?" 1 "non-root, device nodes skipped: exit 1"
is "$(grep -c 'cannot create device nodes' "$T/err")" 1 "... said once"
ok "... the rest extracted" cmp "$S/lib/libbig.so" "$T/user/a/lib/libbig.so"
chown -R 12:34 "$S/etc"
rm -rf "$S/dev"
mksquashfs "$S" "$T/nodev.img" -noappend -quiet -no-progress >/dev/null
chmod a+r "$T/nodev.img"
as_nobody flashfs extract --no-progress -C "$T/user/b" "$T/nodev.img" 2>"$T/err"
is "$?" 0 "non-root, only owners not restored: exit 0"
ok "... with the owners' warning" grep -q "cannot restore file owners" "$T/err"

# --- the default directory: FORMAT-root
mkdir "$T/def"
(cd "$T/def" && flashfs extract --no-progress "$T/nodev.img" >/dev/null 2>&1)
ok "squashfs: squashfs-root" test -f "$T/def/squashfs-root/lib/libbig.so"
mkfs.yaffs2 -q --no-xattrs "$S" "$T/y.img"
(cd "$T/def" && flashfs extract --no-progress "$T/y.img" >/dev/null 2>&1)
ok "yaffs2: yaffs2-root" test -f "$T/def/yaffs2-root/lib/libbig.so"
mkfs.romfs -f "$T/r.img" -d "$S" --quiet
(cd "$T/def" && flashfs extract --no-progress "$T/r.img" >/dev/null 2>&1)
ok "romfs: romfs-root" test -f "$T/def/romfs-root/lib/libbig.so"

done_testing
