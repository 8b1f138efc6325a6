#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Scale: a file over 4 GiB (file_size_high, holes keep the image small) and
# a tree of 100,000 objects (more than mkyaffs2image handles), both read
# back identical through our reader.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
DUMP=$FF_TOOLS/yaffs2_dump
[ -x "$DUMP" ] || skip_all "yaffs2_dump test tool not built"

# > 4 GiB sparse file: data at the start, in the middle and at the end.
mkdir -p "$T/big"
f=$T/big/huge
truncate -s $((4 * 1024 * 1024 * 1024 + 12345)) "$f"
echo start | dd of="$f" conv=notrunc status=none
echo middle | dd of="$f" bs=1 seek=$((3 * 1024 * 1024 * 1024)) conv=notrunc status=none
echo end | dd of="$f" bs=1 seek=$((4 * 1024 * 1024 * 1024 + 12000)) conv=notrunc status=none
touch -d @1600000000 "$f" "$T/big"
ok "> 4 GiB file, 8K pages: mkfs" mkfs.yaffs2 -q --page-size 8192 "$T/big" "$T/big.img"
size=$(stat -c %s "$T/big.img")
ok "image stays small (holes): $size bytes" test "$size" -lt $((8 * 1024 * 1024))
ok "extract" "$DUMP" "$T/big.img" extract "$T/out"
is "$(stat -c %s "$T/out/huge")" "$(stat -c %s "$f")" "size > 4 GiB read back"
ok "content identical" cmp "$f" "$T/out/huge"
exits 2 "2K chunks cannot address it: refused" mkfs.yaffs2 -q "$T/big" "$T/big2.img"
ok "the error names the file" grep -q "/huge: file is" "$T/exits.err"
ok "no image left behind" test ! -e "$T/big2.img"
# 512-byte pages (inband, 496-byte chunks): truncated headers have no
# file_size_high, and YAFFS2 addresses 0xfffff * 496 bytes at most.
exits 2 "512-byte pages: > 4 GiB refused" mkfs.yaffs2 -q --chip nandsim-512 "$T/big" \
	"$T/big3.img"
ok "the error names the file and file_size_high" \
	grep -q "/huge: file is $(stat -c %s "$f") bytes: 4 GiB or more needs the object header's file_size_high" \
	"$T/exits.err"
ok "no image left behind" test ! -e "$T/big3.img"
mkdir -p "$T/mid"
truncate -s $((0xfffff * 496 + 1)) "$T/mid/over"
exits 2 "512-byte pages: one byte over 0xfffff * 496 refused" \
	mkfs.yaffs2 -q --chip nandsim-512 "$T/mid" "$T/mid.img"
ok "the error names the file and the limit" \
	grep -q "/over: file is 520093201 bytes, more than the 520093200" "$T/exits.err"
truncate -s $((0xfffff * 496)) "$T/mid/over"
ok "512-byte pages: exactly 0xfffff * 496 bytes is built" \
	mkfs.yaffs2 -q --chip nandsim-512 "$T/mid" "$T/mid.img"
is "$(flashfs ls -l "$T/mid.img" | awk '$NF == "over" { print $3 }')" 520093200 \
	"... and reads back its size"
rm -rf "$T/mid" "$T/mid.img"
rm -rf "$T/out" "$T/big" "$T/big.img"

# 100,000 objects: 99,000 files and 1,000 directories.
python3 - "$T/many" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(1000):
    p = os.path.join(root, 'd%03d' % d)
    os.makedirs(p)
    for i in range(99):
        with open(os.path.join(p, 'f%02d' % i), 'wb') as f:
            if i % 10 == 0:
                f.write(b'x' * (d + i))
PY
ok "100,000 objects: mkfs" mkfs.yaffs2 -q --page-size 4096 --pages-per-block 128 \
	"$T/many" "$T/many.img"
"$DUMP" "$T/many.img" info > "$T/info"
ok "100,000 objects counted" grep -qx "objects=100000" "$T/info"
ok "extract" "$DUMP" "$T/many.img" extract "$T/out"
same_manifest "100,000 objects: tree identical" "$T/many" "$T/out"
done_testing
