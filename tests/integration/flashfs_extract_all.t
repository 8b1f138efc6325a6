#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs extract --all BLOB -C DIR: a firmware-like blob (a header of
# random bytes, a SquashFS image made by mksquashfs at 0x1234, random
# padding, a YAFFS2 image made by mkfs.yaffs2 at a 512-byte boundary that
# is no page or erase-block boundary) gives one directory per image,
# DIR/<offset in hex>-<format>, each tree equal to its source.  Trailing
# bytes after the YAFFS2 image make it incomplete: exit 1, naming it.
# Random bytes alone: exit 2, nothing created.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"

make_kinds_tree "$T/sq"
make_kinds_tree "$T/y2"
head -c 300000 /dev/urandom > "$T/sq/dir/two-blocks.bin"
echo "only in the YAFFS2 tree" > "$T/y2/y2-only"
mksquashfs "$T/sq" "$T/a.sqfs" -quiet -no-progress > /dev/null || skip_all "mksquashfs failed"
mkfs.yaffs2 -q "$T/y2" "$T/a.y2" || skip_all "mkfs.yaffs2 failed"

# blob OUT TRAILING_BYTES — prints the YAFFS2 image's offset
python3 - "$T" <<'PY' > "$T/y2off"
import os, sys
t = sys.argv[1]
sq, y2 = (open(os.path.join(t, n), 'rb').read() for n in ('a.sqfs', 'a.y2'))
blob = bytearray(os.urandom(0x1234)) + sq
blob += os.urandom((-len(blob)) % 512 + 3 * 512 + 512)
off = len(blob)
blob += y2
open(os.path.join(t, 'blob.bin'), 'wb').write(blob)
open(os.path.join(t, 'tail.bin'), 'wb').write(blob + os.urandom(1000))
open(os.path.join(t, 'random.bin'), 'wb').write(os.urandom(len(blob)))
print('0x%x' % off)
PY
y2off=$(cat "$T/y2off")
ok "the YAFFS2 image is at no page boundary ($y2off)" test $((y2off % 2048)) -ne 0

flashfs extract --all --no-progress -C "$T/out" "$T/blob.bin" > "$T/out.txt" 2> "$T/err.txt"
is "$?" 0 "extract --all of a blob with two images: exit 0"
is "$(ls "$T/out" | tr '\n' ' ')" "0x1234-squashfs $y2off-yaffs2 " \
	"one directory per image, named offset-format"
same_manifest "the SquashFS tree equals its source" "$T/sq" "$T/out/0x1234-squashfs" --root-entry
same_manifest "the YAFFS2 tree equals its source" "$T/y2" "$T/out/$y2off-yaffs2" --root-entry
is "$(grep -c ' -> ' "$T/out.txt")" 2 "a line per image on stdout"
is "$(cat "$T/err.txt")" "" "nothing on stderr"

# The same images with 1000 bytes after the YAFFS2 one: a partial page.
flashfs extract --all --no-progress -C "$T/tail" "$T/tail.bin" > "$T/out.txt" 2> "$T/err.txt"
is "$?" 1 "a YAFFS2 image followed by a partial page: exit 1"
ok "the incomplete image is named by its offset" grep -q "tail.bin@$y2off" "$T/err.txt"
ok "... and in the summary" grep -q '1 image not extracted completely' "$T/err.txt"
same_manifest "the SquashFS tree is still whole" "$T/sq" "$T/tail/0x1234-squashfs" --root-entry

flashfs extract --all -C "$T/none" "$T/random.bin" > "$T/out.txt" 2> "$T/err.txt"
is "$?" 2 "random bytes: exit 2"
ok "... saying no image was found" grep -q 'no image flashfs reads found' "$T/err.txt"
ok "... and creating nothing" test ! -e "$T/none"
done_testing
