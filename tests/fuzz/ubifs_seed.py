#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Turn a UBIFS image (mkfs.ubifs -o) into a fuzz_ubifs input: for each LEB
its head without the trailing erased (0xff) bytes, as a 16-bit
little-endian length and the bytes (see tests/fuzz/fuzz_ubifs.c).
Usage: ubifs_seed.py IMAGE OUT"""
import struct
import sys

img = open(sys.argv[1], 'rb').read()
leb = struct.unpack_from('<I', img, 36)[0]
out = bytearray()
for at in range(0, len(img), leb):
    head = img[at:at + leb].rstrip(b'\xff')
    head += b'\xff' * (-len(head) % 8)  # keep node alignment visible
    out += struct.pack('<H', len(head)) + head
open(sys.argv[2], 'wb').write(out)
