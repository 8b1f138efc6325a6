#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Damage the space accounting of a bare UBIFS image, for flashfs check's
tests: ubifs_lprops_patch.py IMAGE FIELD LEB DELTA

FIELD free, dirty or index: the LEB properties of main LEB number LEB
(absolute) in the LEB properties tree get DELTA bytes more (free, dirty:
a multiple of 8) or the index flag flipped (index, DELTA ignored); the
pnode's CRC is made right again.  FIELD total_dirty: the master nodes'
total_dirty gets DELTA more, their CRCs made right (LEB ignored).

Prints where it patched.  Written from the on-flash format
(ubifs-media.h facts): LPT nodes are bit fields, low bit first, after a
16-bit CRC (crc16, polynomial 0x8005 reflected, the kernel's lib/crc16)."""
import struct
import sys
import zlib

MAGIC = 0x06101831
MST_NODE = 7


def crc16(data, crc=0xFFFF):
    # the kernel's crc16: no Python library has this one
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def ubifs_crc(data):
    # the kernel's crc32_le(0xFFFFFFFF, ...) without the final inversion
    return zlib.crc32(data) ^ 0xFFFFFFFF


def fls(x):
    return x.bit_length()


class Bits:
    def __init__(self, buf, base):
        self.buf, self.pos = buf, base * 8

    def get(self, n):
        v = 0
        for i in range(n):
            if self.buf[self.pos >> 3] >> (self.pos & 7) & 1:
                v |= 1 << i
            self.pos += 1
        return v

    def put(self, pos, n, v):
        for i in range(n):
            p = pos + i
            if v >> i & 1:
                self.buf[p >> 3] |= 1 << (p & 7)
            else:
                self.buf[p >> 3] &= ~(1 << (p & 7)) & 0xFF


def masters(img, leb):
    """(offset, sqnum) of every master node in LEBs 1 and 2."""
    out = []
    for lnum in (1, 2):
        base = lnum * leb
        for off in range(0, leb - 512, 8):
            magic, = struct.unpack_from('<I', img, base + off)
            if magic == MAGIC and img[base + off + 20] == MST_NODE:
                out.append((base + off, struct.unpack_from('<Q', img, base + off + 8)[0]))
    return out


def main():
    path, field, lnum, delta = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    img = bytearray(open(path, 'rb').read())
    flags, min_io, leb, leb_cnt, max_cnt = struct.unpack_from('<IIIII', img, 28)
    log_lebs, lpt_lebs, orph_lebs = struct.unpack_from('<III', img, 56)
    ms = masters(img, leb)
    if field == 'total_dirty':
        for off, _ in ms:
            v, = struct.unpack_from('<Q', img, off + 88)
            struct.pack_into('<Q', img, off + 88, v + delta)
            ln, = struct.unpack_from('<I', img, off + 16)
            struct.pack_into('<I', img, off + 4, ubifs_crc(img[off + 8:off + ln]))
            print('master node at LEB %d:%d: total_dirty %d -> %d'
                  % (off // leb, off % leb, v, v + delta))
        open(path, 'wb').write(img)
        return
    m = max(ms, key=lambda x: x[1])[0]
    lpt_lnum, lpt_offs = struct.unpack_from('<II', img, m + 120)
    lpt_first = 3 + log_lebs
    main_first = lpt_first + lpt_lebs + orph_lebs
    big = bool(flags & 2)
    space_bits = fls(leb) - 3
    lnum_bits = fls(lpt_lebs)
    offs_bits = fls(leb - 1)
    pcnt_bits = fls((max_cnt + 3) // 4 - 1)
    hght, n = 1, 4
    while n < (max_cnt - main_first + 3) // 4:
        n <<= 2
        hght += 1
    pnode_sz = (20 + (pcnt_bits if big else 0) + (space_bits * 2 + 1) * 4 + 7) // 8
    k = lnum - main_first
    col = k // 4
    at = lpt_lnum * leb + lpt_offs
    for level in range(hght, 0, -1):
        b = Bits(img, at + 2)
        b.get(4)
        if big:
            b.get(pcnt_bits)
        digit = (col >> (2 * (level - 1))) & 3
        for i in range(4):
            bl, bo = b.get(lnum_bits) + lpt_first, b.get(offs_bits)
            if i == digit:
                at = bl * leb + bo
    base = at + 2
    pos = base * 8 + 4 + (pcnt_bits if big else 0) + (k % 4) * (2 * space_bits + 1)
    b = Bits(img, 0)
    if field == 'free':
        b.pos = pos
        v = b.get(space_bits)
        b.put(pos, space_bits, v + delta // 8)
    elif field == 'dirty':
        b.pos = pos + space_bits
        v = b.get(space_bits)
        b.put(pos + space_bits, space_bits, v + delta // 8)
    else:
        b.pos = pos + 2 * space_bits
        v = b.get(1)
        b.put(pos + 2 * space_bits, 1, v ^ 1)
    c = crc16(img[at + 2:at + pnode_sz])
    struct.pack_into('<H', img, at, c)
    print('LEB %d: %s patched in the pnode at LEB %d:%d' % (lnum, field, at // leb, at % leb))
    open(path, 'wb').write(img)


if __name__ == '__main__':
    main()
