#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Hand-made JFFS2 images for the reader's tests: a tiny node writer
(layouts from include/uapi/linux/jffs2.h, CRCs as the kernel computes
them) and a rubin encoder written from the format facts of
fs/jffs2/compr_rubin.c, for what no Debian tool writes: several versions
of a file, deletions, truncation, holes, obsolete and damaged nodes,
xattrs, rubin- and LZMA-compressed nodes.

  jffs2_nodes.py SCENARIO OUT.img [--big]

Scenarios: versions, rubin, lzma, xattr, damage, collected."""
import lzma
import struct
import sys
import zlib

S_IFDIR, S_IFREG, S_IFLNK = 0o040000, 0o100000, 0o120000


def crc(b):
    return zlib.crc32(b, 0xffffffff) ^ 0xffffffff


class Image:
    def __init__(self, big=False, erase=65536):
        self.e = '>' if big else '<'
        self.erase = erase
        self.out = bytearray()

    def pack(self, fmt, *v):
        return struct.pack(self.e + fmt, *v)

    def head(self, ntype, totlen):
        h = self.pack('HHI', 0x1985, ntype | 0x2000, totlen)
        return self.pack('HHI', 0x1985, ntype, totlen) + self.pack('I', crc(h))

    def put(self, node):
        if len(self.out) % self.erase + len(node) > self.erase:
            self.out += b'\xff' * (self.erase - len(self.out) % self.erase)
        at = len(self.out)
        self.out += node + b'\xff' * (-len(node) % 4)
        return at

    def inode(self, ino, version, mode, isize=0, offset=0, data=b'', dsize=None, compr=0,
              mtime=1000, obsolete=False, uid=0, gid=0):
        dsize = len(data) if dsize is None else dsize
        totlen = 68 + len(data)
        body = self.pack('IIIHHIIIIIIIBBH', ino, version, mode, uid, gid, isize, mtime, mtime,
                         mtime, offset, len(data), dsize, compr, 0, 0)
        body += self.pack('I', crc(data) if data else 0)
        node = self.head(0xe002, totlen) + body
        node += self.pack('I', crc(node[:60])) + data
        if obsolete:
            node = self.pack('HH', 0x1985, 0xe002 & ~0x2000) + node[4:]
        return self.put(node)

    def dirent(self, pino, version, ino, name, dtype=8, mctime=0):
        name = name.encode()
        node = self.head(0xe001, 40 + len(name))
        node += self.pack('IIII', pino, version, ino, mctime) + bytes([len(name), dtype, 0, 0])
        node += self.pack('I', crc(node[:32])) + self.pack('I', crc(name)) + name
        return self.put(node)

    def xattr(self, xid, version, prefix, name, value):
        data = name.encode() + b'\0' + value
        totlen = 32 + len(data)
        totlen += -totlen % 4
        node = self.head(0xe008, totlen) + self.pack('II', xid, version)
        node += bytes([prefix, len(name)]) + self.pack('H', len(value)) + self.pack('I', crc(data))
        node += self.pack('I', crc(node[:28])) + data
        return self.put(node)

    def xref(self, ino, xid, xseqno):
        node = self.head(0xe009, 28) + self.pack('III', ino, xid, xseqno)
        return self.put(node + self.pack('I', crc(node)))

    def cleanmarker(self):
        return self.put(self.head(0x2003, 12))

    def write(self, path):
        open(path, 'wb').write(bytes(self.out))


def rubin_encode(data, bits, divider):
    """The arithmetic coder of compr_rubin.c (see jffs2/rubin.c)."""
    upper, lower = 1 << 15, (1 << 15) - 1
    p, q, out = 2 * upper, 0, []
    for byte in data:
        for i in range(8):
            a, b, sym = divider - bits[i], bits[i], byte & 1
            byte >>= 1
            while q >= upper or p + q <= upper:
                out.append(1 if q & upper else 0)
                q = (q & lower) << 1
                p <<= 1
            i0 = a * p // (a + b)
            i0 = max(i0, 1)
            i0 = min(i0, p - 1)
            if sym:
                p, q = p - i0, q + i0
            else:
                p = i0
    for _ in range(16):
        out.append(1 if q & upper else 0)
        q = (q & lower) << 1
    out += [0] * (-len(out) % 8)
    return bytes(int(''.join(map(str, out[k:k + 8])), 2) for k in range(0, len(out), 8))


def dynrubin(data):
    bits = []
    for i in range(8):
        n = sum(1 for c in data if c & (1 << i))
        bits.append(min(max(n * 256 // len(data), 1), 255))
    return bytes(bits) + rubin_encode(data, bits, 256)


def mips_rubin(data):
    return rubin_encode(data, [277, 249, 290, 267, 229, 341, 212, 241], 1043)


def versions(img):
    """f: versions 1-2 write 0-8191 'A', 3 overwrites 2048-6143 'B', 4
    truncates to 5000, 5 puts a zero node at 6000-6999, 6 'C' at 8000-8999
    with isize 9000 (only the newest isize cuts: the kernel reads the older
    data at 5000-5999 and 7000-7999 again); t: written, then truncated to
    1000 by its newest node; gone: created then deleted; renamed: the name
    points to inode 4 then to inode 5; hard: two names of inode 6; an
    obsolete node of f (version 9) is ignored."""
    img.cleanmarker()
    img.dirent(1, 1, 2, 'f')
    img.inode(2, 1, S_IFREG | 0o644, 8192, 0, b'A' * 4096)
    img.inode(2, 2, S_IFREG | 0o644, 8192, 4096, b'A' * 4096)
    img.inode(2, 3, S_IFREG | 0o644, 8192, 2048, b'B' * 4096)
    img.inode(2, 9, S_IFREG | 0o600, 9000, 0, b'X' * 100, obsolete=True)
    img.inode(2, 4, S_IFREG | 0o644, 5000)
    img.inode(2, 5, S_IFREG | 0o640, 9000, 6000, dsize=1000, compr=1)
    img.inode(2, 6, S_IFREG | 0o640, 9000, 8000, b'C' * 1000, mtime=2000)
    img.dirent(1, 2, 3, 'gone')
    img.inode(3, 1, S_IFREG | 0o644, 3, 0, b'old')
    img.dirent(1, 3, 0, 'gone')
    img.dirent(1, 4, 4, 'renamed')
    img.inode(4, 1, S_IFREG | 0o644, 5, 0, b'first')
    img.inode(5, 1, S_IFREG | 0o644, 6, 0, b'second')
    img.dirent(1, 5, 5, 'renamed')
    img.dirent(1, 6, 6, 'hard')
    img.dirent(1, 7, 7, 'd', dtype=4)
    img.inode(7, 1, S_IFDIR | 0o755)
    img.dirent(7, 8, 6, 'hard2')
    img.inode(6, 1, S_IFREG | 0o644, 4, 0, b'link')
    img.dirent(7, 9, 8, 'ln', dtype=10)
    img.inode(8, 1, S_IFLNK | 0o777, 4, 0, b'../f')
    img.dirent(1, 10, 9, 't')
    img.inode(9, 1, S_IFREG | 0o644, 4096, 0, b'T' * 4096)
    img.inode(9, 2, S_IFREG | 0o644, 1000)


def rubin(img):
    text = (b'the quick brown fox jumps over the lazy dog ' * 100)[:4096]
    img.dirent(1, 1, 2, 'dyn')
    img.inode(2, 1, S_IFREG | 0o644, 4096, 0, dynrubin(text), dsize=4096, compr=3)
    img.dirent(1, 2, 3, 'mips')
    img.inode(3, 1, S_IFREG | 0o644, 4096, 0, mips_rubin(text), dsize=4096, compr=5)


def lzma_node(img):
    text = (b'0123456789abcdef' * 300)[:4096]
    filt = [{'id': lzma.FILTER_LZMA1, 'dict_size': 8192, 'lc': 0, 'lp': 0, 'pb': 0}]
    packed = lzma.compress(text, format=lzma.FORMAT_RAW, filters=filt)
    img.dirent(1, 1, 2, 'z')
    img.inode(2, 1, S_IFREG | 0o644, 4096, 0, packed, dsize=4096, compr=8)
    img.dirent(1, 2, 3, 'copy')
    img.inode(3, 1, S_IFREG | 0o644, 4, 0, b'abcd', compr=4)


def xattr(img):
    img.dirent(1, 1, 2, 'x')
    img.inode(2, 1, S_IFREG | 0o644, 1, 0, b'x')
    img.xattr(1, 1, 1, 'color', b'red')
    img.xattr(1, 2, 1, 'color', b'blue')          # a newer datum for xid 1
    img.xattr(2, 1, 5, 'secret', b'42')
    img.xattr(3, 1, 1, 'dropped', b'no')
    img.xref(2, 1, 2)
    img.xref(2, 2, 4)
    img.xref(2, 3, 6)
    img.xref(2, 3, 9)                              # odd xseqno: unbound


def damage(img):
    """A bad node CRC, a bad data CRC, a bad name CRC, garbage between
    nodes, and a dirent to a missing inode."""
    img.dirent(1, 1, 2, 'ok')
    img.inode(2, 1, S_IFREG | 0o644, 4, 0, b'good')
    at = img.inode(2, 2, S_IFREG | 0o644, 4, 0, b'evil')
    img.out[at + 68] ^= 0xff                        # data CRC no longer matches
    at = img.dirent(1, 2, 2, 'badname')
    img.out[at + 40] ^= 0x01
    img.out += b'\x12\x34\x56\x78' * 5
    img.dirent(1, 3, 99, 'dangling')
    at = img.inode(3, 1, S_IFREG | 0o644, 1, 0, b'z')
    img.out[at + 20] ^= 0x01                        # node CRC no longer matches


def collected(img):
    """What the kernel leaves after its collector erased the blocks of a
    deleted file's dirents (the deleting one too): inode 3 has no name
    and only its first data node of two (isize 8192), and is no damage;
    f is a live file beside it."""
    img.cleanmarker()
    img.dirent(1, 1, 2, 'f')
    img.inode(2, 1, S_IFREG | 0o644, 5, 0, b'alive')
    img.inode(3, 1, S_IFREG | 0o644, 8192, 0, b'D' * 4096)


def main():
    scen, out = sys.argv[1], sys.argv[2]
    img = Image(big='--big' in sys.argv)
    {'versions': versions, 'rubin': rubin, 'lzma': lzma_node, 'xattr': xattr,
     'damage': damage, 'collected': collected}[scen](img)
    img.write(out)


if __name__ == '__main__':
    main()
