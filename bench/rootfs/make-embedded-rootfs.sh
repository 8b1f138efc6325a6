#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# make-embedded-rootfs.sh [OUTDIR] — the bundled embedded sample rootfs:
# Debian's busybox-static with its applet links, a generated /etc (users,
# inittab, fstab, init scripts), some text and a few shared libraries from
# the host — a few MB, the kind of tree an embedded board boots.
#
# OUTDIR (default build/embedded-rootfs) receives
#   root/        the tree (every mtime = SOURCE_DATE_EPOCH, default 1700000000)
#   dev.spec     device nodes and ownership for mkfs.squashfs/mkfs.yaffs2 --spec
#   dev.pseudo   the same for mksquashfs -pf
# The same host gives the same bytes: run it twice and compare.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/embedded-rootfs}
epoch=${SOURCE_DATE_EPOCH:-1700000000}
busybox=/bin/busybox
[ -x "$busybox" ] || { echo "make-embedded-rootfs: $busybox missing (apt-get install busybox-static)" >&2; exit 2; }
file_type=$(od -An -c -N4 "$busybox" | tr -d ' ')
[ "$file_type" = "177ELF" ] || { echo "make-embedded-rootfs: $busybox is not an ELF program" >&2; exit 2; }

tmp="$out/root.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
umask 022

for d in bin sbin usr/bin usr/sbin usr/lib usr/share/doc usr/share/udhcpc lib etc/init.d \
	etc/network proc sys mnt var/log var/run var/www home/user; do
	mkdir -p "$tmp/$d"
done

# busybox and one symlink per applet, as its installer would lay them out
install -m 755 "$busybox" "$tmp/bin/busybox"
"$busybox" --list-full | sort | while read -r applet; do
	[ "$applet" = bin/busybox ] && continue
	mkdir -p "$tmp/$(dirname "$applet")"
	ln -sf /bin/busybox "$tmp/$applet"
done

. "$here/etc-files.sh"
write_etc "$tmp/etc"

# text: licenses and a small web page, like a device's /usr/share
for f in GPL-2 LGPL-2.1 Apache-2.0; do
	[ -f "/usr/share/common-licenses/$f" ] && install -m 644 "/usr/share/common-licenses/$f" "$tmp/usr/share/doc/$f"
done
install -m 644 /etc/services "$tmp/etc/services" 2>/dev/null || true
install -m 644 /etc/protocols "$tmp/etc/protocols" 2>/dev/null || true
cp "$tmp/etc/issue" "$tmp/etc/issue.net"   # a duplicate, as real trees have
: > "$tmp/etc/motd"                          # and an empty file

# a few shared libraries (the C library and zlib), under their sonames
for lib in libc.so.6 libm.so.6 libz.so.1 libpthread.so.0 libresolv.so.2; do
	p=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l && /x86-64|64bit|AArch64/ {print $NF; exit}')
	[ -n "$p" ] || p=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l {print $NF; exit}')
	[ -n "$p" ] && install -m 755 "$(readlink -f "$p")" "$tmp/lib/$lib"
done
ld=$(ls /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* 2>/dev/null | head -n 1 || true)
[ -n "$ld" ] && install -m 755 "$(readlink -f "$ld")" "$tmp/lib/$(basename "$ld")"

chmod 700 "$tmp/home/user"
find "$tmp" -exec touch -h -d "@$epoch" {} +

rm -rf "$out/root"
mv "$tmp" "$out/root"
trap - EXIT
install -m 644 "$here/dev.spec" "$out/dev.spec"
# the same definitions in mksquashfs pseudo-file syntax (without the fifo,
# whose pseudo spelling changed between mksquashfs versions)
awk '{ sub(/^\//, "", $2) }
     $1 == "nod" { printf "%s %s %s %s %s %s %s\n", $2, $6, $3, $4, $5, $7, $8 }
     $1 == "dir" { printf "%s d %s %s %s\n", $2, $3, $4, $5 }
     $1 == "slink" { printf "%s s %s %s %s %s\n", $2, $3, $4, $5, $6 }' \
	"$here/dev.spec" > "$out/dev.pseudo"
echo "embedded rootfs: $out/root ($(du -sk "$out/root" | cut -f1) KiB, $(find "$out/root" | wc -l) entries)"
