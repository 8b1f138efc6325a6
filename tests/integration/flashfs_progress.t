#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The extract progress bar, captured on a pseudo-terminal (script(1)) with
# every frame drawn (FF_PROGRESS_INTERVAL_MS=0): the totals are the
# image's from the first frame, so the percentage never goes back; an
# error message gets a line of its own instead of landing at the end of the
# bar; the first frame shows no made-up ETA.  And mkfs.squashfs's summary
# of a tiny build gives a sensible ratio.
. "$(dirname "$0")/../lib.sh"
command -v script > /dev/null || skip_all "script (util-linux) missing"
command -v mksquashfs > /dev/null || skip_all "mksquashfs missing"

python3 - "$T/src" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(30):
    os.makedirs(os.path.join(root, 'd%02d' % d))
    for f in range(60):
        with open(os.path.join(root, 'd%02d' % d, 'f%02d' % f), 'wb') as fh:
            fh.write(os.urandom(3000 + 97 * f))
with open(os.path.join(root, 'big'), 'wb') as fh:
    fh.write(os.urandom(4 << 20))
os.makedirs(os.path.join(root, 'zz'))
with open(os.path.join(root, 'zz', 'clash'), 'w') as fh:
    fh.write('x')
PY
mksquashfs "$T/src" "$T/img.sqfs" -quiet -no-progress > /dev/null || skip_all "mksquashfs failed"
# An error on the way: zz/clash exists as a directory in the target.
mkdir -p "$T/out/zz/clash"
FF_PROGRESS_INTERVAL_MS=0 script -qec \
	"flashfs extract -C '$T/out' '$T/img.sqfs'" /dev/null > "$T/tty.out" 2>&1
is "$?" 1 "extract exits 1 (one entry refused)"
# Frames are separated by \r; lines by \n.
python3 - "$T/tty.out" > "$T/frames" <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
for line in data.split('\n'):
    for seg in line.split('\r'):
        seg = seg.replace('\x1b[K', '')
        m = re.match(r'\[[# ]*\]\s+(\d+)%\s+(\d+)/(\d+) files', seg)
        if m and 'flashfs' in seg:
            print('text', 'glued', seg[:60].replace(' ', '_'))
        elif m:
            print('frame', m.group(1), m.group(2), m.group(3), 'eta' if 'ETA' in seg else 'final', seg.split('  ')[-1])
        elif seg.strip():
            # a message must start its segment: nothing of the bar before it
            print('text', 'clean' if seg.startswith('flashfs') else 'glued', seg[:60].replace(' ', '_'))
PY
nframes=$(grep -c '^frame' "$T/frames")
ok "the bar was drawn many times ($nframes frames)" test "$nframes" -gt 20
ok "the percentage never goes down" awk '$1 == "frame" { if ($2 + 0 < last) exit 1; last = $2 + 0 }' "$T/frames"
total=$(awk '$1 == "frame" { t = $4 } END { print t }' "$T/frames")
ok "every frame shows the final item total ($total) from the start" \
	awk -v t="$total" '$1 == "frame" && $4 != t { exit 1 }' "$T/frames"
ok "the total counts every entry of the image" test "$total" = $((30 * 61 + 4))
ok "the first frame has no ETA yet" sh -c "grep -m1 '^frame' '$T/frames' | grep -q 'ETA_--:--\|ETA --:--'"
ok "the error message is on a line of its own" grep -q '^text clean flashfs_extract:.*zz/clash' "$T/frames"
ok "no message glued to the end of a bar" sh -c "! grep -q '^text glued' '$T/frames'"

# mkfs.squashfs on a tiny tree: the data ratio, not image size over 2 bytes.
mkdir -p "$T/tiny"
printf 'x\n' > "$T/tiny/f"
mkfs.squashfs "$T/tiny" "$T/tiny.sqfs" > "$T/sum" 2>&1
ok "tiny build: no ratio above 100% in the summary" \
	sh -c "! grep -E '[0-9]{4,}\.[0-9]%' '$T/sum'"
ok "tiny build: the file data's own figures" grep -q "file data 2 -> " "$T/sum"
done_testing
