#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Write a SquashFS 3.1 image of a directory, in either byte order, for tests.

Debian's mksquashfs writes only 4.0, so the legacy reader's tests make their
3.x images here, from the documented layout: a 119-byte superblock, data
blocks and fragment blocks (zlib, or stored raw when that is not smaller; a
block of zeros becomes a hole), the inode table, the directory table, the
fragment table and its index, then the uid and gid tables.  Bit fields are
packed as the compiler of a little-endian machine (from each structure's
least significant bit up) or of a big-endian one (from the most significant
bit down) would have.  unsquashfs reading the result is the oracle that the
layout is right; the test compares both readers' extractions.

--comp picks what compresses the blocks: zlib (squashfs-tools), or the two
LZMA forms firmware builders patched in: lzma-alone (each block an
LZMA-alone stream with its 13-byte header) and lzma-raw (no header,
lc=3 lp=0 pb=2, or other --lzma-props as some vendors' builds).

Usage: mksqfs3.py [--be] [--block-size N] [--raw-meta] [--comp C] SRC_DIR IMAGE"""
import argparse
import os
import stat
import struct
import lzma
import zlib

META = 8192
DIR_T, FILE_T, SYMLINK_T, BLKDEV_T, CHRDEV_T, FIFO_T, SOCKET_T, LDIR_T, LREG_T = range(1, 10)


class Packer:
    """Bit fields and integers in the image's byte order."""

    def __init__(self, big):
        self.big = big
        self.e = '>' if big else '<'

    def bits(self, nbytes, fields):
        """fields: (pos, width, value), positions in the structure's bits."""
        total = nbytes * 8
        v = 0
        for pos, width, val in fields:
            val &= (1 << width) - 1
            v |= val << (total - pos - width) if self.big else val << pos
        return v.to_bytes(nbytes, 'big' if self.big else 'little')

    def pack(self, fmt, *args):
        return struct.pack(self.e + fmt, *args)


def compressor(name, dict_size, props=(3, 0, 2)):
    if name == 'zlib':
        return lambda b: zlib.compress(b, 9)
    if name == 'lzma-alone':
        f = {'id': lzma.FILTER_LZMA1, 'dict_size': dict_size}
        return lambda b: lzma.compress(b, lzma.FORMAT_ALONE, filters=[f])
    lc, lp, pb = props
    f = {'id': lzma.FILTER_LZMA1, 'dict_size': dict_size, 'lc': lc, 'lp': lp, 'pb': pb}
    return lambda b: lzma.compress(b, lzma.FORMAT_RAW, filters=[f])


class MetaWriter:
    """A metadata table written block by block, so positions are known."""

    def __init__(self, p, compress):
        self.p, self.compress = p, compress
        self.out = bytearray()
        self.cur = bytearray()

    def pos(self):
        return len(self.out), len(self.cur)

    def add(self, data):
        self.cur += data
        while len(self.cur) >= META:
            self._flush(self.cur[:META])
            self.cur = self.cur[META:]

    def _flush(self, block):
        z = self.compress(bytes(block)) if self.compress else None
        if z is not None and len(z) < len(block):
            self.out += self.p.pack('H', len(z)) + z
        else:
            self.out += self.p.pack('H', len(block) | 0x8000) + block

    def finish(self):
        if self.cur:
            self._flush(self.cur)
            self.cur = bytearray()
        return bytes(self.out)


class Image:
    def __init__(self, args):
        self.p = Packer(args.be)
        self.bs = args.block_size
        self.raw_meta = args.raw_meta
        props = tuple(int(x) for x in args.lzma_props.split(','))
        self.comp = compressor(args.comp, max(self.bs, META), props)
        self.data = bytearray(b'\0' * 119)
        self.frag_entries = []
        self.frag_buf = bytearray()
        self.frag_pending = []   # (inode record, offset) waiting for the block
        self.ids = []
        self.inode_of = {}       # (st_dev, st_ino) -> record, for hard links
        self.count = 0

    def id_index(self, v):
        if v not in self.ids:
            self.ids.append(v)
        return self.ids.index(v)

    def block(self, raw):
        """Stores one data block; returns its size word."""
        if raw.count(0) == len(raw) and len(raw) == self.bs:
            return 0
        z = self.comp(raw)
        if len(z) < len(raw):
            self.data += z
            return len(z)
        self.data += raw
        return len(raw) | 1 << 24

    def flush_fragment(self):
        if not self.frag_buf:
            return
        start = len(self.data)
        word = self.block(bytes(self.frag_buf))
        self.frag_entries.append((start, word))
        for rec in self.frag_pending:
            rec['fragment'] = len(self.frag_entries) - 1
        self.frag_buf = bytearray()
        self.frag_pending = []

    def add_file(self, rec, path):
        with open(path, 'rb') as f:
            content = f.read()
        rec['size'] = len(content)
        rec['start'] = len(self.data)
        nfull = len(content) // self.bs
        rec['blocks'] = [self.block(content[i * self.bs:(i + 1) * self.bs])
                         for i in range(nfull)]
        tail = content[nfull * self.bs:]
        rec['fragment'] = 0xffffffff
        rec['offset'] = 0
        if tail:
            if len(self.frag_buf) + len(tail) > self.bs:
                self.flush_fragment()
            rec['offset'] = len(self.frag_buf)
            self.frag_buf += tail
            self.frag_pending.append(rec)

    def scan(self, path, parent):
        """Reads the tree; data blocks are written as files are met."""
        st = os.lstat(path)
        key = (st.st_dev, st.st_ino)
        if not stat.S_ISDIR(st.st_mode) and key in self.inode_of:
            rec = self.inode_of[key]
            rec['nlink'] += 1
            return rec
        self.count += 1
        rec = {'st': st, 'nlink': 1, 'children': [], 'path': path}
        self.inode_of[key] = rec
        if stat.S_ISDIR(st.st_mode):
            for name in sorted(os.listdir(path), key=os.fsencode):
                child = self.scan(os.path.join(path, name), rec)
                rec['children'].append((os.fsencode(name), child))
            rec['nlink'] = 2 + sum(1 for _, c in rec['children']
                                   if stat.S_ISDIR(c['st'].st_mode))
        elif stat.S_ISREG(st.st_mode):
            self.add_file(rec, path)
        return rec

    def number(self, rec, n):
        """Inode numbers: children before their directory, as mksquashfs did."""
        for _, c in rec['children']:
            if 'ino' not in c:
                n = self.number(c, n)
        rec['ino'] = n
        return n + 1

    def kind(self, rec):
        m = rec['st'].st_mode
        for test, t in ((stat.S_ISDIR, DIR_T), (stat.S_ISREG, FILE_T),
                        (stat.S_ISLNK, SYMLINK_T), (stat.S_ISBLK, BLKDEV_T),
                        (stat.S_ISCHR, CHRDEV_T), (stat.S_ISFIFO, FIFO_T),
                        (stat.S_ISSOCK, SOCKET_T)):
            if test(m):
                return t
        raise ValueError(rec['path'])

    def base(self, rec, t):
        st = rec['st']
        return [(0, 4, t), (4, 12, st.st_mode & 0o7777), (16, 8, self.id_index(st.st_uid)),
                (24, 8, self.id_index(st.st_gid)), (32, 32, int(st.st_mtime)),
                (64, 32, rec['ino'])]

    def inode_bytes(self, rec, listing=None):
        p, t = self.p, self.kind(rec)
        f = self.base(rec, t)
        st = rec['st']
        if t == DIR_T:
            blk, off, size, parent = listing
            f[0] = (0, 4, DIR_T)
            f += [(96, 32, rec['nlink']), (128, 19, size), (147, 13, off),
                  (160, 32, blk), (192, 32, parent)]
            return p.bits(28, f)
        if t == FILE_T:
            words = b''.join(p.pack('I', w) for w in rec['blocks'])
            if rec['nlink'] > 1 or rec['size'] >= 1 << 32:
                f[0] = (0, 4, LREG_T)
                f += [(96, 32, rec['nlink']), (128, 64, rec['start']),
                      (192, 32, rec['fragment']), (224, 32, rec['offset']),
                      (256, 64, rec['size'])]
                return p.bits(40, f) + words
            f += [(96, 64, rec['start']), (160, 32, rec['fragment']),
                  (192, 32, rec['offset']), (224, 32, rec['size'])]
            return p.bits(32, f) + words
        if t == SYMLINK_T:
            target = os.fsencode(os.readlink(rec['path']))
            f += [(96, 32, rec['nlink']), (128, 16, len(target))]
            return p.bits(18, f) + target
        if t in (BLKDEV_T, CHRDEV_T):
            rdev = os.major(st.st_rdev) << 8 | os.minor(st.st_rdev)
            f += [(96, 32, rec['nlink']), (128, 16, rdev)]
            return p.bits(18, f)
        f += [(96, 32, rec['nlink'])]
        return p.bits(16, f)

    def listing(self, rec):
        """Directory entries grouped under headers by inode block."""
        p, out, i = self.p, bytearray(), 0
        kids = rec['children']
        while i < len(kids):
            blk = kids[i][1]['ref'] >> 16
            base = kids[i][1]['ino']
            j = i
            while (j < len(kids) and j - i < 256 and kids[j][1]['ref'] >> 16 == blk and
                   -32768 <= kids[j][1]['ino'] - base <= 32767):
                j += 1
            out += p.bits(9, [(0, 8, j - i - 1), (8, 32, blk), (40, 32, base)])
            for name, c in kids[i:j]:
                t = self.kind(c)
                out += p.bits(5, [(0, 13, c['ref'] & 0xffff), (13, 3, t),
                                  (16, 8, len(name) - 1), (24, 16, c['ino'] - base)])
                out += name
            i = j
        return bytes(out)

    def write_inodes(self, rec, itab, dtab, parent_ino):
        """Post-order: a directory's listing needs its children's refs."""
        for _, c in rec['children']:
            if 'ref' not in c:
                self.write_inodes(c, itab, dtab, rec['ino'])
        listing = None
        if self.kind(rec) == DIR_T:
            blk, off = dtab.pos()
            body = self.listing(rec)
            dtab.add(body)
            listing = (blk, off, len(body) + 3, parent_ino)
        blk, off = itab.pos()
        rec['ref'] = blk << 16 | off
        itab.add(self.inode_bytes(rec, listing))

    def build(self, src):
        root = self.scan(src, None)
        self.flush_fragment()
        self.number(root, 1)
        itab = MetaWriter(self.p, None if self.raw_meta else self.comp)
        dtab = MetaWriter(self.p, None if self.raw_meta else self.comp)
        self.write_inodes(root, itab, dtab, self.count + 1)
        inode_start = len(self.data)
        self.data += itab.finish()
        dir_start = len(self.data)
        self.data += dtab.finish()
        ftab = MetaWriter(self.p, None if self.raw_meta else self.comp)
        index = []
        per = META // 16
        for i in range(0, len(self.frag_entries), per):
            index.append(len(self.data))
            w = MetaWriter(self.p, None if self.raw_meta else self.comp)
            for start, word in self.frag_entries[i:i + per]:
                w.add(self.p.pack('QII', start, word, 0))
            self.data += w.finish()
        del ftab
        frag_start = len(self.data)
        for pos in index:
            self.data += self.p.pack('Q', pos)
        uid_start = len(self.data)
        for v in self.ids:
            self.data += self.p.pack('I', v)
        guid_start = len(self.data)
        for v in self.ids:
            self.data += self.p.pack('I', v)
        used = len(self.data)
        self.super(root, used, uid_start, guid_start, inode_start, dir_start, frag_start)
        self.data += b'\0' * (-len(self.data) % 4096)
        return bytes(self.data)

    def super(self, root, used, uid_start, guid_start, inode_start, dir_start, frag_start):
        p = self.p
        magic = b'sqsh' if p.big else b'hsqs'
        sb = magic + p.pack('IIIIII', self.count, 0, 0, 0, 0, 0)
        sb += p.pack('HHHH', 3, 1, 0, self.bs.bit_length() - 1)
        flags = 0x40 | (0x03 if self.raw_meta else 0)
        sb += bytes([flags, len(self.ids), len(self.ids)])
        sb += p.pack('iQIII', int(os.lstat(root['path']).st_mtime), root['ref'], self.bs,
                     len(self.frag_entries), 0)
        sb += p.pack('QQQQQQQ', used, uid_start, guid_start, inode_start, dir_start,
                     frag_start, 0xffffffffffffffff)
        assert len(sb) == 119
        self.data[0:119] = sb


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--be', action='store_true', help='big-endian image')
    ap.add_argument('--block-size', type=int, default=65536)
    ap.add_argument('--raw-meta', action='store_true', help='store metadata uncompressed')
    ap.add_argument('--comp', choices=('zlib', 'lzma-alone', 'lzma-raw'), default='zlib')
    ap.add_argument('--lzma-props', default='3,0,2', help='lc,lp,pb of lzma-raw streams')
    ap.add_argument('src')
    ap.add_argument('image')
    args = ap.parse_args()
    img = Image(args).build(args.src)
    with open(args.image, 'wb') as f:
        f.write(img)


if __name__ == '__main__':
    main()
