#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.jffs2 compresses pages on the worker pool and lays them out in
# the order mkfs.jffs2 writes them: whatever the number of threads (-j N,
# --jobs=N), the image must be the bytes of Debian's mkfs.jffs2 with the
# same options.  The tree has many more pages than the pool's ring holds,
# pages that zlib shrinks, pages it cannot (stored as they are, or taken
# by rtime), and with small erase blocks most blocks end inside a page,
# where the layout compresses the piece again on its own thread with the
# same (reset, reused) deflate streams.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.jffs2 > /dev/null || skip_all "mkfs.jffs2 (mtd-utils) not installed"

S=$T/src
mkdir -p "$S/a/b" "$S/c"
seq 1 120000 > "$S/numbers"                      # ~770 KiB of text
head -c 300000 /dev/urandom > "$S/a/noise"      # stored as it is
python3 -c 'import sys
sys.stdout.buffer.write(bytes((i * 7 // 3) % 251 for i in range(200000)))' > "$S/a/b/ramp"
for i in $(seq 1 40); do seq "$i" 7 20000 > "$S/c/f$i"; done
head -c 5000 /dev/zero > "$S/c/zeros"
printf 'x' > "$S/one"
find "$S" -exec touch -h -d '2022-03-04 05:06:07' {} +

n=0
for opts in "" "-e 8KiB" "-b -e 16KiB -n" "-m size -X lzo -e 8KiB" "-x zlib" "-s 8192 -e 32KiB"; do
	# shellcheck disable=SC2086
	mkfs.jffs2 $opts -r "$S" -o "$T/ref.img" 2> /dev/null
	for j in "-j 1" "-j 2" "--jobs=3" "-j 8"; do
		# shellcheck disable=SC2086
		ffmkfs.jffs2 $opts $j -r "$S" -o "$T/our.img" 2> "$T/err"
		ok "ffmkfs.jffs2 ${opts:-(defaults)} $j: mkfs.jffs2's bytes" cmp "$T/ref.img" "$T/our.img"
	done
	n=$((n + 1))
done
is "$n" 6 "every option set ran"

# The pool does the work: a page that fits an erase block is compressed
# by a worker, so with more threads the image is still complete and the
# reader gets the source back.
ffmkfs.jffs2 -j 2 -e 8KiB -r "$S" -o "$T/j2.img" 2> /dev/null
rm -rf "$T/out"
ok "the -j 2 image extracts" flashfs extract -C "$T/out" "$T/j2.img"
ok "and equals the source" diff -r "$S" "$T/out"

done_testing
