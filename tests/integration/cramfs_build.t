#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.cramfs against util-linux's mkfs.cramfs: for generated trees and
# mkfs.cramfs option sets the two images must be the same bytes (cmp),
# and fsck.cramfs must accept ours.  cramfs images hold no times, so
# nothing in them depends on when they were made.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/cramfs_lib.sh"
command -v mkfs.cramfs > /dev/null || skip_all "mkfs.cramfs (util-linux) not installed"
command -v fsck.cramfs > /dev/null || skip_all "fsck.cramfs (util-linux) not installed"

cramfs_tree "$T/tree"
mkdir -p "$T/flat" "$T/emptyroot"
printf 'only\n' > "$T/flat/one"
head -c 9000 /dev/urandom > "$T/boot.bin"

# same_image NAME TREE OPTIONS... — mkfs.cramfs and ffmkfs.cramfs agree.
same_image() {
	local name=$1 tree=$2
	shift 2
	rm -f "$T/ref.img" "$T/our.img"
	mkfs.cramfs "$@" "$tree" "$T/ref.img" > /dev/null 2>&1
	ffmkfs.cramfs "$@" "$tree" "$T/our.img" > /dev/null 2> "$T/our.err"
	ok "$name: ffmkfs.cramfs $*: the same bytes as mkfs.cramfs" cmp "$T/ref.img" "$T/our.img"
}

for opts in "" "-b 4096" "-b 8192" "-b 16384" "-b 65536" "-N big" "-N little" "-p" \
	"-z" "-z -N big -b 8192" "-p -N big -b 65536" "-n MyVolume -e 42" \
	"-n 0123456789abcdefOVERLONG" "-s -v"; do
	# shellcheck disable=SC2086
	same_image tree "$T/tree" $opts
done
same_image "inserted boot code" "$T/tree" -i "$T/boot.bin"
same_image "inserted, padded, big-endian" "$T/tree" -i "$T/boot.bin" -p -N big
same_image "one file" "$T/flat"
same_image "empty root" "$T/emptyroot" -N big

# -j: the workers compress the blocks in any order, the image keeps its
# own.  A tree of many small files (several to a worker's batch, entries
# sharing data among them) and one large file of 700 4 KiB blocks (text,
# noise and zero runs, so holes with -z), against one mkfs.cramfs image
# per option set.
python3 - "$T/jtree" << 'PY'
import os, random, sys
r = random.Random(7)
root = sys.argv[1]
text = b"".join(b"%d %s\n" % (i, b"word" * (i % 9)) for i in range(60000))
for d in range(6):
    os.makedirs(os.path.join(root, "d%d" % d))
for i in range(400):
    n = r.choice((1, 50, 700, 4095, 4096, 4097, 9000, 30000))
    at = r.randrange(len(text) - n)
    data = r.randbytes(n) if i % 4 == 0 else text[at:at + n]
    if i % 25 == 3:
        data = b"the same bytes in several files\n"
    open(os.path.join(root, "d%d" % (i % 6), "f%03d" % i), "wb").write(data)
big = bytearray()
for k in range(700):
    kind = k % 7
    if kind == 3:
        big += bytes(4096)
    elif kind == 5:
        big += r.randbytes(4096)
    else:
        at = r.randrange(len(text) - 4096)
        big += text[at:at + 4096]
open(os.path.join(root, "d2", "large"), "wb").write(big[:-1000])
PY
for opts in "-b 4096" "-b 4096 -z" "-b 4096 -N big" "-b 8192 -z -N big" "-b 512 -z"; do
	rm -f "$T/jref.img"
	# shellcheck disable=SC2086
	mkfs.cramfs $opts "$T/jtree" "$T/jref.img" > /dev/null 2>&1
	for j in 1 2 5; do
		rm -f "$T/j.img"
		# shellcheck disable=SC2086
		ffmkfs.cramfs -j $j $opts "$T/jtree" "$T/j.img" 2> "$T/j.err"
		ok "-j $j $opts: the same bytes as mkfs.cramfs" cmp "$T/jref.img" "$T/j.img"
	done
done
mkfs.cramfs -b 4096 -z "$T/jtree" "$T/jref.img" > /dev/null 2>&1
ffmkfs.cramfs --jobs=3 -b 4096 -z "$T/jtree" "$T/j.img" 2> /dev/null
ok "--jobs=3 -b 4096 -z: the same bytes as mkfs.cramfs" cmp "$T/jref.img" "$T/j.img"
for bad in 0 1025 two -1 ""; do
	rm -f "$T/j.img"
	ffmkfs.cramfs -j "$bad" "$T/flat" "$T/j.img" > "$T/j.out" 2> "$T/j.err"
	is "$?:$(head -n 1 "$T/j.err")" \
		"2:ffmkfs.cramfs: -j: '$bad' is not a number from 1 to 1024" "-j '$bad' is refused"
done
ok "... and leaves no image" test ! -e "$T/j.img"

# fsck.cramfs accepts ours and extracts what mkfs.cramfs' gives.
for opts in "-b 4096" "-b 8192 -N big" "-b 4096 -p -z"; do
	# shellcheck disable=SC2086
	ffmkfs.cramfs $opts "$T/tree" "$T/our.img" 2> /dev/null
	rm -rf "$T/x"
	bs=$(echo "$opts" | awk '{print $2}')
	fsck_ref "$T/our.img" "$bs" "$T/x"
	is "$?" 0 "fsck.cramfs accepts ffmkfs.cramfs $opts"
done
ffmkfs.cramfs "$T/tree" "$T/plain.img" 2> /dev/null
fsck.cramfs "$T/plain.img" > /dev/null 2>&1
is "$?" 0 "fsck.cramfs checks the default image clean"

# Source options, which mkfs.cramfs lacks: --all-root.
ffmkfs.cramfs --all-root "$T/tree" "$T/root.img" 2> /dev/null
is "$(flashfs ls -lR "$T/root.img" | awk '{print $2}' | sort -u)" "0/0" \
	"--all-root: every entry owned by 0:0"
ffmkfs.cramfs --exclude 'many' "$T/tree" "$T/ex.img" 2> /dev/null
ok "--exclude leaves a directory out" sh -c "! flashfs ls '$T/ex.img' | grep -q many"
ffmkfs.cramfs -e 3 "$T/flat" "$T/ed.img" 2> /dev/null
is "$(flashfs info --json "$T/ed.img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cramfs"]["edition"])')" \
	3 "-e is the edition, not an exclude"
fails "a block size not a power of two is refused" ffmkfs.cramfs -b 5000 "$T/flat" "$T/bad.img"
ok "... and leaves no image" test ! -e "$T/bad.img"
done_testing
