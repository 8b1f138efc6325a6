#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Damage a JFFS2 image the way flash goes wrong, for the kernel-truth
tests (nandsim-tests/jffs2-check.sh -s damage): the guest's kernel mounts
the result and its view is what our reader must give.

  jffs2_damage.py KIND IN.img OUT.img [ERASE_SIZE]

KIND: datacrc (a byte of the largest data node's payload), hdrcrc (the
header CRC of the third dirent), namecrc (the last name byte of the
fifth dirent), torn (the last node cut in its middle: the rest reads as
erased flash), zeroblock (erase block 1 all zeros).  Byte order from the
magic.  Prints the offset it changed."""
import struct
import sys

MAGIC = 0x1985
DIRENT, INODE = 0xe001, 0xe002


def nodes(img):
    """(offset, type, totlen) of each node, little- or big-endian"""
    e = '<' if img[0:2] == b'\x85\x19' else '>'
    off = 0
    while off + 12 <= len(img):
        magic, ntype, totlen = struct.unpack_from(e + 'HHI', img, off)
        if magic != MAGIC or totlen < 12 or off + totlen > len(img):
            off += 4
            continue
        yield off, ntype, totlen, e
        off += (totlen + 3) & ~3


def damage(kind, img, erase):
    all_nodes = list(nodes(img))
    dirents = [n for n in all_nodes if n[1] == DIRENT]
    if kind == 'datacrc':
        best = max((n for n in all_nodes if n[1] == INODE), key=lambda n: n[2])
        at = best[0] + 68 + (best[2] - 68) // 2
    elif kind == 'hdrcrc':
        at = dirents[2][0] + 8
    elif kind == 'namecrc':
        off, _, totlen, e = dirents[4]
        at = off + 40 + img[off + 28] - 1
    elif kind == 'torn':
        off, _, totlen, _ = max(all_nodes, key=lambda n: n[0])
        img[off + totlen // 2:off + totlen] = b'\xff' * (totlen - totlen // 2)
        return off + totlen // 2
    elif kind == 'zeroblock':
        img[erase:2 * erase] = bytes(erase)
        return erase
    else:
        sys.exit('jffs2_damage: unknown kind ' + kind)
    img[at] ^= 0x5a
    return at


def main():
    kind, src, dst = sys.argv[1:4]
    erase = int(sys.argv[4], 0) if len(sys.argv) > 4 else 65536
    img = bytearray(open(src, 'rb').read())
    at = damage(kind, img, erase)
    open(dst, 'wb').write(img)
    print('%s: %s at offset %d' % (dst, kind, at))


if __name__ == '__main__':
    main()
