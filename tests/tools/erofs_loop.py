#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Damage an uncompressed EROFS image for the tests: point the root
directory's entry NAME at the root itself (a directory loop), fixing the
superblock checksum so the damage is the loop alone.
Usage: erofs_loop.py IMAGE NAME"""
import struct
import sys


def crc32c(data, crc=0xffffffff):
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc


img = bytearray(open(sys.argv[1], 'rb').read())
name = sys.argv[2].encode()
sb = 1024
bits = img[sb + 12]
bsz = 1 << bits
root = struct.unpack_from('<H', img, sb + 14)[0]
meta = struct.unpack_from('<I', img, sb + 40)[0]
iloc = meta * bsz + root * 32
fmt, icount = struct.unpack_from('<HH', img, iloc)
ext = fmt & 1
layout = (fmt >> 1) & 7
size = struct.unpack_from('<Q' if ext else '<I', img, iloc + 8)[0]
isize = 64 if ext else 32
xsize = 12 + 4 * (icount - 1) if icount else 0
startblk = struct.unpack_from('<I', img, iloc + 16)[0]
assert layout in (0, 2) and size <= bsz, 'root directory: one block, flat layout'
pos = iloc + isize + xsize if layout == 2 else startblk * bsz
count = struct.unpack_from('<H', img, pos + 8)[0] // 12
for i in range(count):
    nameoff = struct.unpack_from('<H', img, pos + 12 * i + 8)[0]
    end = struct.unpack_from('<H', img, pos + 12 * i + 20)[0] if i + 1 < count else size
    if bytes(img[pos + nameoff:pos + end]).rstrip(b'\0') == name:
        struct.pack_into('<Q', img, pos + 12 * i, root)
        break
else:
    sys.exit('no entry ' + sys.argv[2])
span = bsz - 1024 if bsz > 1024 else bsz
block = bytearray(img[sb:sb + span])
block[4:8] = b'\0\0\0\0'
struct.pack_into('<I', img, sb + 4, crc32c(block))
open(sys.argv[1], 'wb').write(img)
