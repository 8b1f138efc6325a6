#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# `make dist` (issue 32): flashfs-tools-VERSION.tar.xz of the committed tree,
# the same bytes on every run for one commit (entries dated by the commit,
# owner 0, a fixed order, one xz thread), holding exactly the tracked files
# under one folder.  (make check-dist builds and checks it unpacked.)
. "$(dirname "$0")/../lib.sh"

[ -e "$FF_TOP/.git" ] || skip_all "no .git (an unpacked make dist tarball): make dist packs a commit"
command -v xz > /dev/null || skip_all "xz not installed"
v=$(sed -n 's/^#define FF_VERSION_STRING "\(.*\)"/\1/p' "$FF_TOP/include/flashfs/version.h")
mkdir -p "$T/a" "$T/b"
ok "make dist" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" DISTDIR="$T/a" dist
sleep 1.1 # a clock-dated entry would now differ
ok "make dist again" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" DISTDIR="$T/b" dist
f=flashfs-tools-$v.tar.xz
ok "named flashfs-tools-$v.tar.xz" test -s "$T/a/$f"
ok "two runs give the same bytes" cmp "$T/a/$f" "$T/b/$f"

tar -tvJf "$T/a/$f" --numeric-owner > "$T/list" 2> "$T/tar.err"
is "$?" 0 "tar reads it"
is "$(awk '{print $2}' "$T/list" | sort -u)" "0/0" "every entry owned by 0/0"
when=$(git -C "$FF_TOP" log -1 --format=%cd --date=format-local:'%Y-%m-%d %H:%M' HEAD)
is "$(TZ=UTC tar -tvJf "$T/a/$f" | awk '{print $4, $5}' | sort -u)" \
	"$(TZ=UTC git -C "$FF_TOP" log -1 --format=%cd --date=format-local:'%Y-%m-%d %H:%M' HEAD)" \
	"every entry dated by the commit ($when)"
tar -tJf "$T/a/$f" | grep -v '/$' | sed "s|^flashfs-tools-$v/||" | sort > "$T/files"
git -C "$FF_TOP" ls-tree -r --name-only HEAD | sort > "$T/tracked"
ok "exactly the tracked files, under flashfs-tools-$v/" diff "$T/tracked" "$T/files"
done_testing
