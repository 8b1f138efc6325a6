#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-rootfs.sh [DIR] — a Debian bookworm minbase rootfs made with
# debootstrap (~30 s, ~200 MB), the realistic corpus for `flashfs bench` and
# the bench-* targets.  Cached: a finished DIR (marked by DIR/.complete) is
# reused.  Needs root and Debian's archive (the mirror the host uses).
set -eu
dir=${1:-build/rootfs/minbase}
mirror=$("$(dirname "$0")/../../scripts/debian-mirror")

if [ -f "$dir/.complete" ]; then
	echo "bench-rootfs: $dir is ready ($(du -sm "$dir" | cut -f1) MB), reusing it"
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo "bench-rootfs: debootstrap needs root" >&2; exit 2; }
command -v debootstrap > /dev/null || { echo "bench-rootfs: debootstrap not installed (scripts/install-deps)" >&2; exit 2; }
rm -rf "$dir.tmp"
mkdir -p "$(dirname "$dir")"
echo "bench-rootfs: debootstrap --variant=minbase bookworm $dir ($mirror)"
debootstrap --variant=minbase bookworm "$dir.tmp" "$mirror" > "$dir.log" 2>&1 ||
	{ echo "bench-rootfs: debootstrap failed, see $dir.log" >&2; tail -n 5 "$dir.log" >&2; exit 1; }
rm -rf "$dir"
mv "$dir.tmp" "$dir"
touch "$dir/.complete"
echo "bench-rootfs: $dir ($(du -sm "$dir" | cut -f1) MB, $(find "$dir" | wc -l) entries)"
