#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.erofs against the real oracles: every image the host kernel
# mounts (loop, read-only) must hold the source tree exactly (manifest:
# types, modes, owners, times, contents, devices, xattrs), and Debian's
# fsck.erofs 1.5 must find it clean where it knows the codec (lz4 and
# lz4hc; it predates lzma, deflate and zstd in EROFS).  Then: the same
# bytes whatever -j and the source's directory order; bad options refused
# with a message, exit 2 and no image.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/erofs_lib.sh"
need_root
command -v fsck.erofs > /dev/null || skip_all "fsck.erofs (erofs-utils) not installed"
modprobe erofs 2> /dev/null
grep -qw erofs /proc/filesystems || skip_all "the kernel has no EROFS support"

python3 "$FF_TOP/tests/tools/erofs_tree.py" "$T/src" --small || skip_all "cannot build the source tree"
mkdir -p "$T/mnt"
# the source's manifest once, for the builds without MOPTS (erofs_lib.sh)
$MANIFEST "$T/src" > "$T/src.man"
# shellcheck disable=SC2034 # read by erofs_lib.sh
SRC_MAN=$T/src.man

# build NAME FSCK OPTIONS...: build, mount, compare (manifest options in
# MOPTS); FSCK=1 runs fsck.erofs.
build() {
	local name=$1 fsck=$2 img="$T/$1.img"
	shift 2
	if ! ffmkfs.erofs --quiet "$@" "$img" "$T/src" > "$T/mkfs.log" 2>&1; then
		ok "$name: ffmkfs.erofs $*" sh -c "cat '$T/mkfs.log'; false"
		return
	fi
	erofs_mount_is "$name" "$img"
	[ "$fsck" = 1 ] && ok "$name: fsck.erofs finds it clean" fsck.erofs "$img"
	rm -f "$img"
}

build plain 1
# compact inodes keep no time of their own (-T sets every time, checked below)
MOPTS=--no-mtime build compact 1 -T 1700000000
MOPTS=--no-mtime build force_compact 1 -E force-inode-compact
build extended 1 -E force-inode-extended
build noinline 1 -E noinline_data
build noxattr_share 1 -x 100
build b512 0 -b 512
build b1024 0 -b 1024
build b2048 0 -b 2048
build lz4 1 -z lz4
build lz4hc 1 -z lz4hc,12
build lz4hc_pcl 1 -z lz4hc -C 65536
build lzma 0 -z lzma
build lzma_pcl 0 -z lzma,9 -C 131072
build deflate 0 -z deflate,9
build zstd 0 -z zstd,10 -C 16384
build legacy 1 -z lz4 -E legacy-compress

# Owners and times from the source options.
ffmkfs.erofs --quiet --all-root -T 1000 "$T/root.img" "$T/src" > /dev/null 2>&1
mount -t erofs -o loop,ro "$T/root.img" "$T/mnt"
ok "--all-root: every owner is 0:0" sh -c "! find '$T/mnt' \\( ! -uid 0 -o ! -gid 0 \\) | grep -q ."
ok "-T: every time is 1000" sh -c "! find '$T/mnt' ! -newermt @999 -o -newermt @1001 | grep -q ."
umount "$T/mnt"
ffmkfs.erofs --quiet --force-uid=7 --force-gid=9 "$T/own.img" "$T/src" > /dev/null 2>&1
mount -t erofs -o loop,ro "$T/own.img" "$T/mnt"
ok "--force-uid/--force-gid" sh -c "! find '$T/mnt' \\( ! -uid 7 -o ! -gid 9 \\) | grep -q ."
umount "$T/mnt"

# Tar input and spec/pseudo definitions.
tar --xattrs --xattrs-include='*' -C "$T/src" -cf "$T/src.tar" .
ffmkfs.erofs --quiet -z lz4hc "$T/tar.img" "$T/src.tar" > "$T/tar.log" 2>&1
mount -t erofs -o loop,ro "$T/tar.img" "$T/mnt"
# tar has no sockets: the source's one is left out of the comparison
$MANIFEST "$T/src" | grep -v ' sock ' > "$T/src.man"
$MANIFEST "$T/mnt" > "$T/tar.man"
ok "tar input: the kernel's mount equals the source" cmp "$T/src.man" "$T/tar.man"
umount "$T/mnt"
ffmkfs.erofs --quiet -p "extra c 0640 3 4 5 6" "$T/pseudo.img" "$T/src" > /dev/null 2>&1
mount -t erofs -o loop,ro "$T/pseudo.img" "$T/mnt"
is "$(stat -c '%F %a %u %g %t %T' "$T/mnt/extra")" "character special file 640 3 4 5 6" \
	"-p: a pseudo device"
umount "$T/mnt"

# Determinism: -j1 vs -j2, and a copy made in reverse directory order.
ffmkfs.erofs --quiet -z lz4hc -T 1 -U clear --workers=1 "$T/j1.img" "$T/src" > /dev/null 2>&1
ffmkfs.erofs --quiet -z lz4hc -T 1 -U clear --workers=2 "$T/j2.img" "$T/src" > /dev/null 2>&1
ok "same bytes at -j1 and -j2" cmp "$T/j1.img" "$T/j2.img"
python3 - "$T/src" "$T/rev" << 'PY'
import os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
def copy(s, d):
    for name in sorted(os.listdir(s), reverse=True):
        a, b = os.path.join(s, name), os.path.join(d, name)
        if os.path.isdir(a) and not os.path.islink(a):
            os.mkdir(b)
            copy(a, b)
            shutil.copystat(a, b)
copy(src, dst)
PY
cp -a "$T/src/." "$T/rev/"
ffmkfs.erofs --quiet -z lz4hc -T 1 -U clear "$T/rev.img" "$T/rev" > /dev/null 2>&1
ok "same bytes whatever the directory order" cmp "$T/j1.img" "$T/rev.img"
SOURCE_DATE_EPOCH=1700000000 ffmkfs.erofs --quiet "$T/e1.img" "$T/src" > /dev/null 2>&1
SOURCE_DATE_EPOCH=1700000000 ffmkfs.erofs --quiet "$T/e2.img" "$T/src" > /dev/null 2>&1
ok "SOURCE_DATE_EPOCH: same bytes twice" cmp "$T/e1.img" "$T/e2.img"

# Bad options: a message, exit 2, no image.
bad() {
	local name=$1
	shift
	rm -f "$T/bad.img"
	ffmkfs.erofs "$@" "$T/bad.img" "$T/src" > "$T/bad.out" 2>&1
	is "$?" 2 "$name: exit status 2"
	ok "$name: a message, no image" sh -c "grep -q 'ffmkfs.erofs:' '$T/bad.out' && [ ! -e '$T/bad.img' ]"
}
bad "-z unknown" -z brotli
bad "-z bad level" -z lz4hc,99
bad "-b not a power of two" -b 3000
bad "-C not a block multiple" -z lz4 -C 5000
bad "-E unknown" -E frobnicate
bad "-U malformed" -U 1234
bad "-L too long" -L 0123456789abcdefg
done_testing
