#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# YAFFS2 images as Aleph One's mkyaffs2image -c writes them (issue 28 items
# 3 and 4): big-endian object headers beside little-endian tags (its tag
# swap is compiled out), tags at OOB offset 0, and large pages with little
# spare (4096+32, 4096+64).  The images are ours (classic tags, offset 0,
# big-endian, no tags ECC) with every page's tags swapped to little-endian
# by a few lines of Python; what must come back is the source tree.  The
# field corpus' 18 real mkyaffs2image images are checked by make
# check-field.  Also: the geometry given by hand is used by every command,
# and a wrong one is refused with the detector's reason.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
cd "$T" || exit 2

mkdir -p src/dir && head -c 10000 /dev/urandom > src/dir/file && echo hi > src/small
ln -s dir/file src/link
swap_tags() { # IMAGE PAGE OOB: each page's four tag words to little-endian
	python3 - "$@" <<'PY'
import struct, sys
path, page, oob = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(open(path, 'rb').read())
for o in range(page, len(d), page + oob):
    if d[o:o + 16] != b'\xff' * 16:
        d[o:o + 16] = struct.pack('<4I', *struct.unpack('>4I', d[o:o + 16]))
open(path, 'wb').write(d)
PY
}
for geom in 2048:64 4096:32 4096:64 4096:128; do
	p=${geom%:*} o=${geom#*:}
	mkfs.yaffs2 -q --all-root --page-size "$p" --oob-size "$o" --tags classic \
		--oob-layout offset0 --no-tags-ecc --endian big src "y$p-$o.img" > /dev/null
	swap_tags "y$p-$o.img" "$p" "$o"
	rm -rf out && flashfs extract -C out "y$p-$o.img" > err 2>&1
	is "$?" 0 "$p+$o, headers big-endian, tags little: extract exits 0"
	same_manifest "$p+$o: the tree is the source's" src out
	is "$(flashfs info "y$p-$o.img" | awk '/^(page_size|oob_size) / {printf "%s ", $2} /^endian/ {$1 = ""; print}')" \
		"$p $o  big (tags little-endian)" "$p+$o: info names the geometry and both byte orders"
done
# The geometry by hand, on every command; a wrong one is refused with the
# detector's own reason.
is "$(flashfs ls -R --page-size 4096 --oob-size 32 y4096-32.img | tr '\n' ' ')" \
	"/dir /dir/file /link /small " "ls with --page-size 4096 --oob-size 32"
ok "check with the geometry by hand" flashfs check -q --page-size 4096 --oob-size 32 y4096-32.img
flashfs ls --page-size 2048 --oob-size 64 y4096-32.img > /dev/null 2> wrong.err
is "$?" 2 "a wrong geometry by hand: exit 2"
ok "a wrong geometry by hand: the YAFFS2 detector's reason" grep -q "YAFFS2: no YAFFS2 geometry" wrong.err
done_testing
