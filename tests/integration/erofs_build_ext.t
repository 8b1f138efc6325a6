#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.erofs' compressed layouts beyond the first: compact lcluster
# indexes (the default), full ones (-E legacy-compress) and inline tails
# (-E ztailpacking) and chunk-based files (--chunksize), each with a few codecs and pcluster sizes, on a tree
# with files of many sizes plus a few of several MiB (many index packs,
# big pclusters).  Every image must be mounted by the host kernel with the
# source's tree (xattrs included), be extracted by our reader to the same
# tree, and be found clean by Debian's fsck.erofs 1.5 (which knows lz4
# and lzma) and by fsck.erofs 1.9.3 when it is built (every codec; at
# $ANCHORS or /tmp/erofs-anchors/bin).  Then the layouts really are what
# was asked (dump.erofs' view of a large file), ztailpacking saves bytes,
# and the bytes do not depend on -j.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/erofs_lib.sh"
need_root
command -v fsck.erofs > /dev/null || skip_all "fsck.erofs (erofs-utils) not installed"
command -v dump.erofs > /dev/null || skip_all "dump.erofs (erofs-utils) not installed"
modprobe erofs 2> /dev/null
grep -qw erofs /proc/filesystems || skip_all "the kernel has no EROFS support"

FSCK193=
for d in "${ANCHORS:-}" /tmp/erofs-anchors/bin; do
	[ -n "$d" ] && [ -x "$d/fsck.erofs-1.9.3" ] && { FSCK193=$d/fsck.erofs-1.9.3; break; }
done
[ -n "$FSCK193" ] || echo "# fsck.erofs 1.9.3 not built (../shared/tools/build-anchors.sh): 1.5 only"

python3 "$FF_TOP/tests/tools/erofs_tree.py" "$T/src" --small || skip_all "cannot build the source tree"
# a few files of several MiB: text, runs of zeros and noise, so extents
# of every kind (compressed, stored, long) and many lclusters; the first
# is over 4 MiB, so ffmkfs.erofs cuts it into segments that workers
# compress apart (its cuts are checked by every mount below)
python3 - "$T/src/big" << 'PY' || skip_all "cannot build the large files"
import os, random, sys
os.makedirs(sys.argv[1])
r = random.Random(31)
words = [b'alpha', b'beta', b'gamma', b'delta', b'erofs', b'\n']
for i, n in enumerate([4_300_000, 700_001, 70_001]):
    out = bytearray()
    while len(out) < n:
        x = r.random()
        if x < 0.02:
            out += r.randbytes(r.randint(100, 9000))
        elif x < 0.025:
            out += bytes(r.randint(1000, 300000))
        else:
            out += r.choice(words) + b' '
    with open(os.path.join(sys.argv[1], 'f%d' % i), 'wb') as f:
        f.write(out[:n])
PY
# files of two lclusters and a few bytes, text then noise: stored blocks
# after a compressed start, and with ztailpacking a plain tail that runs
# from the last but one lcluster into the last (the kernel maps it only
# when the last lcluster holds a head at the end of the file)
python3 - "$T/src/tails" << 'PY' || skip_all "cannot build the tail files"
import os, random, sys
os.makedirs(sys.argv[1])
r = random.Random(11)
text = b''.join(b'line %d of a text file\n' % k for k in range(4000))
for i in range(8):
    size, t = 32768 + r.randint(1, 200), r.randint(2000, 16000)
    with open(os.path.join(sys.argv[1], 't%d' % i), 'wb') as f:
        f.write(text[:t] + r.randbytes(size - t))
PY
mkdir -p "$T/mnt" "$T/x"
$MANIFEST "$T/src" > "$T/src.man"
# shellcheck disable=SC2034 # read by erofs_lib.sh
SRC_MAN=$T/src.man

# build NAME FSCK15 OPTIONS...: build; the kernel's mount and our
# reader's extraction both equal the source; fsck.erofs clean (1.5 when
# FSCK15=1, 1.9.3 always when built).  The image stays as $T/NAME.img.
build() {
	local name=$1 fsck=$2 img="$T/$1.img"
	shift 2
	if ! ffmkfs.erofs --quiet "$@" "$img" "$T/src" > "$T/mkfs.log" 2>&1; then
		ok "$name: ffmkfs.erofs $*" sh -c "cat '$T/mkfs.log'; false"
		return
	fi
	erofs_mount_is "$name" "$img"
	erofs_extract_is "$name" "$img"
	[ "$fsck" = 1 ] && ok "$name: fsck.erofs 1.5 finds it clean" fsck.erofs "$img"
	[ -n "$FSCK193" ] && ok "$name: fsck.erofs 1.9.3 finds it clean" "$FSCK193" "$img"
	return 0
}

build compact-lz4 1 -z lz4
build compact-lzma-C128k 1 -z lzma -C 131072
build compact-zstd-C16k 0 -z zstd,6 -C 16384
build compact-deflate 0 -z deflate,9 -C 32768
build compact-b1024 0 -z lz4hc -b 1024 -C 8192
build legacy-lz4 1 -z lz4 -E legacy-compress
build legacy-lz4hc-C64k 1 -z lz4hc,12 -C 65536 -E legacy-compress
build compact-lz4hc-C64k 1 -z lz4hc,12 -C 65536
build ztail-lz4 1 -z lz4 -E ztailpacking
build ztail-lzma-C128k 1 -z lzma -C 131072 -E ztailpacking
build ztail-zstd-C16k 0 -z zstd,6 -C 16384 -E ztailpacking
build ztail-deflate 0 -z deflate -E ztailpacking
build ztail-legacy-lz4hc 1 -z lz4hc -E legacy-compress,ztailpacking
build ztail-legacy-lz4hc-C16k 1 -z lz4hc -C 16384 -E legacy-compress,ztailpacking
build ztail-b2048 0 -z lzma -b 2048 -E ztailpacking
build chunk4k 1 --chunksize 4096
build chunk64k 1 --chunksize=64KiB -E noinline_data
build chunk1m-lz4hc 1 --chunksize=1M -z lz4hc -E ztailpacking
build chunk-b1024 0 -b 1024 --chunksize 2048

# The layouts asked for: 3 (compact indexes) by default, 1 (full) with
# legacy-compress, in dump.erofs' words.
layout() { dump.erofs --path=/big/f0 "$T/$1.img" 2>&1 | sed -n 's/.*Layout: \([0-9]*\).*/\1/p'; }
is "$(layout compact-lz4)" 3 "default: compact indexes"
is "$(layout legacy-lz4)" 1 "-E legacy-compress: full indexes"
is "$(layout ztail-lzma-C128k)" 3 "-E ztailpacking: compact indexes"
size() { stat -c %s "$T/$1.img"; }
ok "compact indexes are no larger than full ones" \
	test "$(size compact-lz4hc-C64k)" -le "$(size legacy-lz4hc-C64k)"
ok "ztailpacking saves bytes (lz4)" test "$(size ztail-lz4)" -lt "$(size compact-lz4)"
ok "ztailpacking saves bytes (lzma)" \
	test "$(size ztail-lzma-C128k)" -lt "$(size compact-lzma-C128k)"
is "$(flashfs info "$T/ztail-lz4.img" | awk '$1 == "features_incompat" {print $2}' |
	tr ',' '\n' | grep -c ztailpacking)" 1 "ztailpacking: the superblock says so"

# Chunks: the layout (4), and holes for the zero chunks of the sparse
# files: smaller than the same files stored whole.
is "$(layout chunk64k)" 4 "--chunksize: chunk-based files"
build noinline 1 -E noinline_data
ok "--chunksize: chunks of zeros take no blocks" test "$(size chunk64k)" -lt "$(size noinline)"
rm -f "$T/bad.img"
ffmkfs.erofs --chunksize 3000 "$T/bad.img" "$T/src" > "$T/bad.out" 2>&1
is "$?" 2 "--chunksize not a power of two: exit status 2"
ok "--chunksize not a power of two: a message, no image" \
	sh -c "grep -q 'chunksize' '$T/bad.out' && [ ! -e '$T/bad.img' ]"

# Determinism at any -j.
for opt in "-z lz4hc -C 16384" "-z zstd -E ztailpacking"; do
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=1 "$T/j1.img" "$T/src" > /dev/null 2>&1
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=2 "$T/j2.img" "$T/src" > /dev/null 2>&1
	ok "$opt: the same bytes at -j1 and -j2" cmp "$T/j1.img" "$T/j2.img"
done
done_testing
