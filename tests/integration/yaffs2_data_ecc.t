#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# --data-ecc: every page's OOB ECC bytes (2048+64: raw OOB 40..63, 3 bytes
# per 256-byte step) hold the Linux software Hamming code of its data,
# recomputed here independently in Python from the kernel's definition
# (inverted row parities by byte-address bit, inverted column parities,
# default byte order code[0] = rp15..rp8, code[1] = rp7..rp0).  Without
# --data-ecc those bytes stay erased.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$T/src/d"
head -c 300000 /dev/urandom > "$T/src/d/r"
echo text > "$T/src/t"
ok "mkfs --data-ecc" mkfs.yaffs2 -q --data-ecc "$T/src" "$T/ecc.img"
ok "mkfs without" mkfs.yaffs2 -q "$T/src" "$T/plain.img"

cat > "$T/check.py" <<'PY'
import sys
def par(x):
    return bin(x).count('1') & 1
def ham(d):
    rp = [0] * 16
    p = 0
    for i, b in enumerate(d):
        p ^= b
        for k in range(8):
            rp[2 * k + ((i >> k) & 1)] ^= b
    lo = sum((1 - par(rp[k])) << k for k in range(8))
    hi = sum((1 - par(rp[k + 8])) << k for k in range(8))
    c2 = 3
    for bit, m in ((7, 0xf0), (6, 0x0f), (5, 0xcc), (4, 0x33), (3, 0xaa), (2, 0x55)):
        c2 |= (1 - par(p & m)) << bit
    return bytes([hi, lo, c2])
img, want = open(sys.argv[1], 'rb').read(), sys.argv[2]
bad = used = 0
for off in range(0, len(img), 2112):
    data, oob = img[off:off + 2048], img[off + 2048:off + 2112]
    if want == 'erased':
        bad += oob[40:64] != b'\xff' * 24
        continue
    exp = b''.join(ham(data[s:s + 256]) for s in range(0, 2048, 256))
    used += data != b'\xff' * 2048
    bad += oob[40:64] != exp
print('pages %d used %d bad %d' % (len(img) // 2112, used, bad))
sys.exit(1 if bad or (want != 'erased' and not used) else 0)
PY
ok "ECC bytes match the kernel's Hamming definition" python3 "$T/check.py" "$T/ecc.img" hamming
ok "default leaves them erased" python3 "$T/check.py" "$T/plain.img" erased
fails "the check notices erased ECC bytes" python3 "$T/check.py" "$T/plain.img" hamming
fails "--data-ecc with BCH is refused" mkfs.yaffs2 -q --data-ecc --ecc bch4 "$T/src" "$T/x.img"
done_testing
