#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Edit a CramFS image in place for tests: clear superblock flags, poke a
32-bit word (in the image's byte order) or a byte, then (--fix-crc) store
the CRC of the result, so a test can damage a structure behind a valid
CRC, or hand fsck.cramfs 2.38 (which refuses the holes flag) an image it
will read.  Prints nothing; exit 1 when no superblock is found.

  cramfs_patch.py IMG [--clear-flags MASK] [--word OFF=VAL]... [--byte OFF=VAL]...
                      [--fix-crc] [--info]"""
import argparse
import struct
import sys
import zlib

MAGIC = 0x28cd3d45


def find(img):
    for start in (0, 512):
        if len(img) >= start + 76:
            if struct.unpack_from('<I', img, start)[0] == MAGIC:
                return start, '<'
            if struct.unpack_from('>I', img, start)[0] == MAGIC:
                return start, '>'
    sys.exit('no cramfs superblock')


def inode(img, at, order):
    """(mode, offset, size, name bytes) of the inode at `at`."""
    w0, w1, w2 = struct.unpack_from(order + '3I', img, at)
    if order == '<':
        return w0 & 0xffff, (w2 >> 6) << 2, w1 & 0xffffff, (w2 & 0x3f) << 2
    return w0 >> 16, (w2 & 0x3ffffff) << 2, w1 >> 8, (w2 >> 26) << 2


def first_file(img, at, size, order):
    """The pointer table of the root listing's first non-empty file, or 0."""
    end = at + size
    while at < end:
        mode, off, fsize, nb = inode(img, at, order)
        if mode & 0o170000 == 0o100000 and fsize:
            return off
        at += 12 + nb
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('image')
    ap.add_argument('--clear-flags', type=lambda s: int(s, 0), default=0)
    ap.add_argument('--word', action='append', default=[])
    ap.add_argument('--byte', action='append', default=[])
    ap.add_argument('--fix-crc', action='store_true')
    ap.add_argument('--info', action='store_true', help='print start, order, size, root offset')
    a = ap.parse_args()
    img = bytearray(open(a.image, 'rb').read())
    start, order = find(img)
    flags = struct.unpack_from(order + 'I', img, start + 8)[0]
    struct.pack_into(order + 'I', img, start + 8, flags & ~a.clear_flags)
    for w in a.word:
        off, val = (int(x, 0) for x in w.split('='))
        struct.pack_into(order + 'I', img, off, val)
    for b in a.byte:
        off, val = (int(x, 0) for x in b.split('='))
        img[off] = val
    size = struct.unpack_from(order + 'I', img, start + 4)[0]
    if a.fix_crc:
        body = bytearray(img[start:size])
        body[32:36] = b'\0\0\0\0'
        struct.pack_into(order + 'I', img, start + 32, zlib.crc32(bytes(body)) & 0xffffffff)
    if a.info:
        root, rsize = inode(img, start + 64, order)[1:3]
        print(start, 'le' if order == '<' else 'be', size, root, first_file(img, root, rsize, order))
    open(a.image, 'wb').write(img)


main()
