#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# One version, set in include/flashfs/version.h: every program's --version,
# the library's ff_version() (through pkg-config's flashfs.pc) and NEWS.md
# name it.
. "$(dirname "$0")/../lib.sh"

v=$(sed -n 's/^#define FF_VERSION_STRING "\(.*\)"/\1/p' "$FF_TOP/include/flashfs/version.h")
ok "version.h names a version ($v)" test -n "$v"
for p in flashfs mkfs.squashfs mkfs.yaffs2 mkfs.ubi ffmkfs.cramfs mkfs.romfs ffmkfs.jffs2 \
	ffmkfs.ubifs ffmkfs.erofs; do
	out=$("$FF_BIN/$p" --version 2>&1 | head -n 1)
	ok "$p --version: $out" sh -c "printf '%s\n' '$out' | grep -q '(flashfs-tools) $v\\b'"
done
ok "NEWS.md has a section for $v" grep -qx "## $v" "$FF_TOP/NEWS.md"
# A man page's header names the package, never a version of its own
# (one there went stale at 0.1 while the programs said 0.3.0).
for m in "$FF_TOP"/docs/man/*.[0-9]; do
	src=$(sed -n 's/^\.TH [^"]*"[^"]*" "\([^"]*\)".*/\1/p' "$m")
	is "$src" flashfs-tools "$(basename "$m"): .TH source is flashfs-tools"
done
make -s -C "$FF_TOP" BUILD="$FF_BUILD" install DESTDIR="$T/d" PREFIX=/usr > "$T/install.log" 2>&1
ok "make install: flashfs.pc carries it" grep -qx "Version: $v" "$T/d/usr/lib/pkgconfig/flashfs.pc"
ok "make install: the shared library is libflashfs.so.$v" test -f "$T/d/usr/lib/libflashfs.so.$v"
done_testing
