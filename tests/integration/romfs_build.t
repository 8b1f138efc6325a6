#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.romfs against genromfs 0.5.2: the same tree and options give the same
# bytes (cmp), for the default layout, -a, -A by name and by path, -x,
# volume names, @NAME,T,MAJ,MIN devices, an empty tree and a pipe; and
# genromfs's command-line refusals.  Our reader and genromfs agree on what
# the images hold, and the toolkit's --spec adds to a tree.
. "$(dirname "$0")/romfs_lib.sh"

romfs_tree "$T/src"
mkdir -p "$T/src/dev"
: > "$T/src/dev/@console,c,5,1"
: > "$T/src/dev/@mtdblock0,b,31,0"
: > "$T/src/dev/@initctl,p,0,0"
: > "$T/src/dev/@ttyS_1+x-y,u,4,65"
chmod 644 "$T/src/dev/"@*

# same NAME OPTIONS... — genromfs and mkfs.romfs with the same options
same() {
	local name=$1
	shift
	rm -f "$T/g.img" "$T/o.img"
	genromfs -f "$T/g.img" "$@" 2> "$T/g.err"
	mkfs.romfs -f "$T/o.img" "$@" --quiet 2> "$T/o.err"
	ok "$name: byte-identical to genromfs" cmp "$T/g.img" "$T/o.img"
}

same "default layout" -d "$T/src" -V test
same "-a 64" -d "$T/src" -V a64 -a 64
same "-a 4096" -d "$T/src" -V a4k -a 0x1000
same "-A by name" -d "$T/src" -V A -A 256,*.bin -A 512,*.sh
same "-A by path, smaller than -a" -d "$T/src" -V Ap -a 128 -A 64,/sub/* -A 1024,/sub/deep/*
same "-A on directories and dots" -d "$T/src" -V Ad -A 64,.* -A 32,sub
same "-x by name and path" -d "$T/src" -V x -x '*.bin' -x /sub/deep -x 'odd*'
same "-x '.*': no . and .. below the root" -d "$T/src" -V nodots -x '.*'
same "a 100-byte volume name" -d "$T/src" -V "$(printf 'v%.0s' $(seq 100))"
same "a trailing slash on -d" -d "$T/src/" -V slash
mkdir "$T/empty"
same "an empty tree" -d "$T/empty" -V e
same "hard links and -a" -d "$T/src/sub" -V h -a 32

# The default volume name is the time: both in the same second, or retry.
for i in 1 2 3; do
	(cd "$T/src" && genromfs -f "$T/g.img" && mkfs.romfs -f "$T/o.img" --quiet)
	cmp -s "$T/g.img" "$T/o.img" && break
done
ok "no -d and no -V: the current directory and 'rom TIME'" cmp "$T/g.img" "$T/o.img"
# With SOURCE_DATE_EPOCH that time is the epoch's, so two builds match.
SOURCE_DATE_EPOCH=1700000000 mkfs.romfs -f "$T/e1.img" -d "$T/src" --quiet
sleep 1
SOURCE_DATE_EPOCH=1700000000 mkfs.romfs -f "$T/e2.img" -d "$T/src" --quiet
ok "SOURCE_DATE_EPOCH: the default volume name is 'rom 6553f100'" \
	sh -c "dd if='$T/e1.img' bs=1 skip=16 count=12 2> /dev/null | grep -qx 'rom 6553f100'"
ok "... and a second build a second later is the same bytes" cmp "$T/e1.img" "$T/e2.img"

genromfs -f - -d "$T/src" -V pipe > "$T/g.img"
mkfs.romfs -f - -d "$T/src" -V pipe > "$T/o.img"
ok "-f -: the same bytes on standard output" cmp "$T/g.img" "$T/o.img"

# Our reader and the oracle's image agree on the tree, devices included.
genromfs -f "$T/g.img" -d "$T/src" -V r
flashfs extract -C "$T/out" "$T/g.img" > /dev/null 2>&1
ok "@ devices: our reader sees a char device 5,1" \
	sh -c "flashfs ls -l '$T/g.img' /dev | grep -q '^crw------- 0/0 *5,1 .* console$'"
ok "... a fifo" sh -c "flashfs ls -l '$T/g.img' /dev | grep -q '^prw-r--r-- .* initctl$'"
rm -rf "$T/src/dev" "$T/out"
mkfs.romfs -f "$T/o.img" -d "$T/src" -V r --quiet
flashfs extract -C "$T/out" "$T/o.img" > /dev/null 2>&1
same_manifest "mkfs.romfs image extracts as the tree" "$T/src" "$T/out" $romfs_manifest_opts
flashfs check "$T/o.img" > /dev/null 2>&1
is "$?" 0 "check finds it clean"

# genromfs's refusals
fails "-a 8 is refused" mkfs.romfs -f "$T/x.img" -d "$T/src" -a 8
fails "-a 48 (not a power of two) is refused" mkfs.romfs -f "$T/x.img" -d "$T/src" -a 48
fails "-A without a pattern is refused" mkfs.romfs -f "$T/x.img" -d "$T/src" -A 64
fails "no -f is refused" mkfs.romfs -d "$T/src"
mkfs.romfs -f "$T/x.img" -d "$T/src" -a 8 > /dev/null 2>&1
is "$?" 2 "... with exit status 2"
ok "-h prints genromfs's options" sh -c "mkfs.romfs -h | grep -q 'ALIGN,PATTERN'"

# The toolkit's spec file adds entries the host tree does not have.
printf 'dir /extra 0755 0 0\nfile /extra/cfg 0644 0 0 %s\nnod /extra/null 0600 0 0 c 1 3\n' \
	"$T/src/short" > "$T/spec"
mkfs.romfs -f "$T/s.img" -d "$T/src" -V spec --spec "$T/spec" --quiet
is "$?" 0 "--spec with -d builds"
is "$(flashfs cat "$T/s.img" /extra/cfg 2> /dev/null)" "short" "... and the spec's file is there"
ok "... and its device" sh -c "flashfs ls -l '$T/s.img' /extra | grep -q '1,3 .* null$'"
done_testing
