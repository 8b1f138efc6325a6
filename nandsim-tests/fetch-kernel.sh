#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# fetch-kernel.sh CACHE_DIR — make sure a Debian kernel with the MTD modules
# is unpacked under CACHE_DIR and print its root (CACHE_DIR/root).
#
# The package comes from the Debian archive through `apt-get download`
# (the only network these machines have); the .deb and the unpacked tree are
# kept, so later runs work offline.  NANDSIM_KERNEL_PKG picks another package
# (default: what linux-image-amd64 depends on).  Exit 3 means "no kernel can
# be had here", which callers turn into a SKIP.
set -eu

cache=${1:?usage: fetch-kernel.sh CACHE_DIR}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
root=$cache/root
# one fetch at a time when several builds run the checks in parallel
exec 9> "$cache/.lock"
flock 9

if [ -f "$root/.complete" ]; then
	echo "$root"
	exit 0
fi

pkg=${NANDSIM_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ {print $2; exit}') || true
fi
deb=""
if [ -n "$pkg" ]; then
	deb=$(ls "$cache"/"$pkg"_*.deb 2>/dev/null | tail -n 1) || true
	if [ -z "$deb" ]; then
		# apt drops privileges to _apt, which cannot write into build/.
		(cd "$cache" && apt-get download "$pkg" >&2 2>"$cache/download.err") || true
		deb=$(ls "$cache"/"$pkg"_*.deb 2>/dev/null | tail -n 1) || true
	fi
fi
[ -z "$deb" ] && deb=$(ls "$cache"/linux-image-*.deb 2>/dev/null | tail -n 1) || true
if [ -z "$deb" ]; then
	echo "fetch-kernel: cannot download a linux-image package (${pkg:-none found by apt-cache})" >&2
	exit 3
fi

rm -rf "$root"
mkdir -p "$root"
dpkg -x "$deb" "$root"
kver=$(ls "$root/lib/modules" | head -n 1)
if [ -z "$kver" ] || ! ls "$root"/boot/vmlinuz-* >/dev/null 2>&1; then
	echo "fetch-kernel: $deb has no kernel image or modules" >&2
	exit 3
fi
# The package's postinst would run depmod; do it here.
depmod -b "$root" "$kver"
touch "$root/.complete"
echo "$root"
