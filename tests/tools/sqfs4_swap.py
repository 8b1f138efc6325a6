#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Turn a little-endian SquashFS 4.0 image (as Debian's mksquashfs makes it)
into the big-endian form some vendor toolchains write (AVM's firmware, tools
for big-endian MIPS and PowerPC): the superblock, the compressor options,
every inode, directory header, entry and index, the fragment, id, export and
xattr tables and their indexes, and the data block size words of the file
inodes, all with their fields big-endian.

The oracle for flashfs's big-endian reader: no Debian tool reads these
images, so the test compares flashfs's extraction of the converted image
with unsquashfs's of the original.  Written from the format description
(squashfs-tools-ng's doc/format.adoc), independent of flashfs's code.

The 2-byte metadata block headers are written big-endian too (--headers be,
the default), or left little-endian (--headers le) as AVM's writer leaves
them.

Data and fragment blocks are copied as they are: compressed data has no
byte order, and the region before the inode table keeps its offsets, so
block positions in inodes and fragment entries stay valid.  The metadata
tables after it are rewritten, so their positions and every reference into
them (inode references, directory block numbers, xattr references) are
recomputed.  The inode, fragment, id, export and xattr id tables are
compressed again when the original block was compressed; the directory and
xattr key/value tables are stored uncompressed, because they are referred
to from a table laid out before them (the inode table's directory
references, the key/value area's own out-of-line value references), and a
stored block's size does not depend on what it holds.  Python's standard
library decompresses gzip and xz only: other codecs need images made with
-noI -noId -noX -noF (uncompressed metadata), or this tool stops with a
message.

usage: sqfs4_swap.py [--headers be|le] IN.sqfs OUT.sqfs
"""
import argparse
import lzma
import sys
import zlib

META = 8192
SUPER = 96
GZIP, XZ = 1, 4
NO_REF = (1 << 64) - 1


class Fail(Exception):
    pass


def get(buf, off, width):
    if off + width > len(buf):
        raise Fail("read of %d bytes at %d past the end (%d)" % (width, off, len(buf)))
    return int.from_bytes(buf[off:off + width], "little")


def put(buf, off, width, value):
    buf[off:off + width] = value.to_bytes(width, "big")


def turn(buf, off, width, remap=None):
    """Rewrite the little-endian field at off big-endian (remapped), return its old value."""
    value = get(buf, off, width)
    put(buf, off, width, remap(value) if remap else value)
    return value


class Codec:
    def __init__(self, comp_id):
        self.id = comp_id

    def decompress(self, data, where):
        if self.id == GZIP:
            return zlib.decompress(data)
        if self.id == XZ:
            return lzma.decompress(data, format=lzma.FORMAT_XZ)
        raise Fail("compressed metadata block at %d: compressor %d is not in Python's "
                   "standard library; make the image with -noI -noId -noX -noF" % (where, self.id))

    def compress(self, data):
        if self.id == GZIP:
            return zlib.compress(bytes(data), 9)
        if self.id == XZ:
            filters = [{"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": 1 << 16}]
            return lzma.compress(bytes(data), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32,
                                 filters=filters)
        return None


class Run:
    """Metadata blocks laid back to back: their payload joined, and each
    block's position relative to the run's start, payload length and
    whether it was stored uncompressed."""

    def __init__(self, img, codec, start, end=None, count=None):
        self.payload = bytearray()
        self.blocks = []  # (old relative position, payload length, raw)
        pos = start
        while (end is not None and pos < end) or (count is not None and len(self.blocks) < count):
            head = get(img, pos, 2)
            size, raw = head & 0x7FFF, bool(head & 0x8000)
            if size == 0 or size > META or pos + 2 + size > len(img):
                raise Fail("metadata block at %d: bad header 0x%04x" % (pos, head))
            data = img[pos + 2:pos + 2 + size]
            data = data if raw else codec.decompress(data, pos)
            self.blocks.append((pos - start, len(data), raw))
            self.payload += data
            pos += 2 + size
        if end is not None and pos != end:
            raise Fail("metadata blocks from %d end at %d, not at %d" % (start, pos, end))
        self.end = pos
        self.new_rel = {}

    def offset_of(self, ref):
        """Payload offset of a (block << 16 | offset) reference."""
        block, off = ref >> 16, ref & 0xFFFF
        at = 0
        for rel, length, _ in self.blocks:
            if rel == block:
                return at + off
            at += length
        raise Fail("reference 0x%x names no block start" % ref)

    def remap(self, ref):
        return (self.new_rel[ref >> 16] << 16) | (ref & 0xFFFF)

    def remap_block(self, block):
        return self.new_rel[block]

    def layout_raw(self):
        """New relative positions when every block is stored uncompressed."""
        at = 0
        for rel, length, _ in self.blocks:
            self.new_rel[rel] = at
            at += 2 + length

    def emit(self, codec, headers, compress=True):
        out = bytearray()
        at = 0
        for rel, length, raw in self.blocks:
            data = self.payload[at:at + length]
            at += length
            self.new_rel[rel] = len(out)
            packed = codec.compress(data) if compress and not raw else None
            if packed is not None and len(packed) < length:
                head, body = len(packed), packed
            else:
                head, body = length | 0x8000, data
            out += head.to_bytes(2, headers) + body
        return out


INODE_HEAD = [(0, 2), (2, 2), (4, 2), (6, 2), (8, 4), (12, 4)]


class Image:
    def __init__(self, img, headers):
        self.img = img
        self.headers = headers
        if get(img, 0, 4) != 0x73717368 or get(img, 28, 2) != 4 or get(img, 30, 2) != 0:
            raise Fail("not a little-endian SquashFS 4.0 image")
        names = ["inodes", "mtime", "block_size", "frags", "comp", "block_log", "flags",
                 "ids", "major", "minor", "root", "bytes_used", "id_table", "xattr_table",
                 "inode_table", "dir_table", "frag_table", "export_table"]
        widths = [4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 8, 8, 8, 8, 8, 8, 8, 8]
        at = 4
        self.sb = {}
        for name, width in zip(names, widths):
            self.sb[name] = get(img, at, width)
            at += width
        self.codec = Codec(self.sb["comp"])
        self.dirs = []

    # --- the inode table -------------------------------------------------
    def inode_tail(self, buf, p, itype, q):
        """Turns the type-specific part at q; returns where the inode ends."""
        bs = self.sb["block_size"]
        if itype == 1:  # directory
            block = turn(buf, q, 4, self.dir.remap_block)
            turn(buf, q + 4, 4)
            size = turn(buf, q + 8, 2)
            off = turn(buf, q + 10, 2)
            turn(buf, q + 12, 4)
            self.dirs.append((block, off, size))
            return q + 16
        if itype == 8:  # extended directory
            turn(buf, q, 4)
            size = turn(buf, q + 4, 4)
            block = turn(buf, q + 8, 4, self.dir.remap_block)
            turn(buf, q + 12, 4)
            count = turn(buf, q + 16, 2)
            off = turn(buf, q + 18, 2)
            turn(buf, q + 20, 4)
            self.dirs.append((block, off, size))
            r = q + 24
            for _ in range(count):
                turn(buf, r, 4)
                turn(buf, r + 4, 4, self.dir.remap_block)
                name = turn(buf, r + 8, 4)
                r += 12 + name + 1
            return r
        if itype in (2, 9):  # regular file
            if itype == 2:
                turn(buf, q, 4)
                frag = turn(buf, q + 4, 4)
                turn(buf, q + 8, 4)
                size = turn(buf, q + 12, 4)
                r = q + 16
            else:
                turn(buf, q, 8)
                size = turn(buf, q + 8, 8)
                turn(buf, q + 16, 8)
                turn(buf, q + 24, 4)
                frag = turn(buf, q + 28, 4)
                turn(buf, q + 32, 4)
                turn(buf, q + 36, 4)
                r = q + 40
            blocks = size // bs + (1 if size % bs and frag == 0xFFFFFFFF else 0)
            for i in range(blocks):
                turn(buf, r + 4 * i, 4)
            return r + 4 * blocks
        if itype in (3, 10):  # symlink
            turn(buf, q, 4)
            target = turn(buf, q + 4, 4)
            r = q + 8 + target
            if itype == 10:
                turn(buf, r, 4)
                r += 4
            return r
        if itype in (4, 5, 11, 12):  # devices
            words = 3 if itype > 7 else 2
        elif itype in (6, 7, 13, 14):  # fifos, sockets
            words = 2 if itype > 7 else 1
        else:
            raise Fail("inode at payload offset %d: unknown type %d" % (p, itype))
        for i in range(words):
            turn(buf, q + 4 * i, 4)
        return q + 4 * words

    def turn_inodes(self):
        buf = self.inode.payload
        p = 0
        for _ in range(self.sb["inodes"]):
            itype = get(buf, p, 2)
            for off, width in INODE_HEAD:
                turn(buf, p + off, width)
            p = self.inode_tail(buf, p, itype, p + 16)
        if p != len(buf):
            raise Fail("inode table: %d inodes end at %d of %d bytes" %
                       (self.sb["inodes"], p, len(buf)))

    # --- the directory table ----------------------------------------------
    def turn_listing(self, block, off, size):
        buf = self.dir.payload
        p = self.dir.offset_of(block << 16 | off)
        end = p + size - 3
        while p < end:
            count = turn(buf, p, 4) + 1
            turn(buf, p + 4, 4, self.inode.remap_block)
            turn(buf, p + 8, 4)
            p += 12
            for _ in range(count):
                for k in range(4):
                    turn(buf, p + 2 * k, 2)
                p += 8 + get_be(buf, p + 6, 2) + 1
        if p != end:
            raise Fail("directory listing at %d:%d overruns its size %d" % (block, off, size))

    # --- tables with an index -----------------------------------------------
    def indexed(self, index, length, blocks_end=None):
        """The table of length bytes whose block positions are at index; its
        blocks end where the index starts (or at blocks_end)."""
        count = (length + META - 1) // META
        if count == 0:
            return None, None
        first = get(self.img, index, 8)
        run = Run(self.img, self.codec, first, count=count)
        want = index if blocks_end is None else blocks_end
        if run.end != want:
            raise Fail("table blocks from %d end at %d, not at %d" % (first, run.end, want))
        del run.payload[length:]
        return run, first

    def emit_indexed(self, run, base):
        """The run's blocks laid at base, and their index."""
        out = run.emit(self.codec, self.headers)
        index = bytearray()
        for rel, _, _ in run.blocks:
            index += (base + run.new_rel[rel]).to_bytes(8, "big")
        return out, index

    # --- extended attributes ------------------------------------------------
    def turn_xattrs(self):
        ids = self.xid.payload
        seen, self.values = set(), set()
        for i in range(self.xattr_count):
            ref = turn(ids, 16 * i, 8, self.kv.remap)
            count = turn(ids, 16 * i + 8, 4)
            turn(ids, 16 * i + 12, 4)
            if ref in seen:
                continue
            seen.add(ref)
            self.turn_pairs(self.kv.offset_of(ref), count)

    def turn_value(self, p):
        """Turns the size of the value at p once (values are shared)."""
        if p not in self.values:
            self.values.add(p)
            turn(self.kv.payload, p, 4)
        return get_be(self.kv.payload, p, 4)

    def turn_pairs(self, p, count):
        buf = self.kv.payload
        for _ in range(count):
            ktype = turn(buf, p, 2)
            name = turn(buf, p + 2, 2)
            p += 4 + name
            vlen = self.turn_value(p)
            if ktype & 0x100:  # out of line: a reference to the value
                self.turn_value(self.kv.offset_of(turn(buf, p + 4, 8, self.kv.remap)))
            p += 4 + vlen

    # --- the whole image ----------------------------------------------------
    def load(self):
        sb, img = self.sb, self.img
        self.inode = Run(img, self.codec, sb["inode_table"], end=sb["dir_table"])
        self.frag, frag_first = self.indexed(sb["frag_table"], 16 * sb["frags"])
        self.export, export_first = None, None
        if sb["export_table"] != NO_REF:
            self.export, export_first = self.indexed(sb["export_table"], 8 * sb["inodes"])
        self.ids, id_first = self.indexed(sb["id_table"], 4 * sb["ids"])
        starts = [s for s in (frag_first, export_first, id_first) if s is not None]
        self.kv = self.xid = None
        if sb["xattr_table"] != NO_REF:
            at = sb["xattr_table"]
            kv_start, self.xattr_count = get(img, at, 8), get(img, at + 8, 4)
            self.xid, xid_first = self.indexed(at + 16, 16 * self.xattr_count, blocks_end=at)
            if self.xid is None:
                raise Fail("xattr id table at %d: no ids" % at)
            self.kv = Run(img, self.codec, kv_start, end=xid_first)
            starts.append(kv_start)
        self.dir = Run(img, self.codec, sb["dir_table"],
                       end=min(s for s in starts if s > sb["dir_table"]))

    def convert(self):
        self.load()
        sb = self.sb
        # The stored tables' layouts do not depend on their content, so
        # references into them can be turned before they are written.
        self.dir.layout_raw()
        if self.kv:
            self.kv.layout_raw()
            self.turn_xattrs()
        # Inodes refer to the directory table (laid out above); listings
        # to the inode table, whose layout is known once it is compressed.
        self.turn_inodes()
        out = bytearray(self.img[:sb["inode_table"]])
        self.turn_options(out)
        out += self.inode.emit(self.codec, self.headers)
        for block, off, size in self.dirs:
            if size > 3:
                self.turn_listing(block, off, size)
        sb["dir_table"] = len(out)
        out += self.dir.emit(self.codec, self.headers, compress=False)
        for name, run, width, remap in (("frag_table", self.frag, 16, None),
                                        ("export_table", self.export, 8, self.inode.remap),
                                        ("id_table", self.ids, 4, None)):
            if run is None:
                if name == "frag_table":
                    sb[name] = len(out)
                continue
            self.turn_words(run, width, remap)
            blocks, index = self.emit_indexed(run, len(out))
            out += blocks
            sb[name] = len(out)
            out += index
        if self.kv:
            kv_start = len(out)
            out += self.kv.emit(self.codec, self.headers, compress=False)
            blocks, index = self.emit_indexed(self.xid, len(out))
            out += blocks
            sb["xattr_table"] = len(out)
            out += kv_start.to_bytes(8, "big") + self.xattr_count.to_bytes(4, "big") + bytes(4)
            out += index
        sb["root"] = self.inode.remap(sb["root"])
        sb["bytes_used"] = len(out)
        self.write_super(out)
        out += bytes(-len(out) % 4096)
        return out

    def turn_words(self, run, width, remap):
        buf = run.payload
        for p in range(0, len(buf), width):
            if width == 16:  # fragment entry: u64 start, u32 size, u32 unused
                turn(buf, p, 8)
                turn(buf, p + 8, 4)
                turn(buf, p + 12, 4)
            else:
                turn(buf, p, width, remap)

    def turn_options(self, out):
        if not self.sb["flags"] & 0x400:
            return
        head = get(out, SUPER, 2)
        size = head & 0x7FFF
        out[SUPER:SUPER + 2] = head.to_bytes(2, self.headers)
        widths = [4, 2, 2] if self.sb["comp"] == GZIP else [4] * (size // 4)
        p = SUPER + 2
        for width in widths:
            if p + width > SUPER + 2 + size:
                break
            turn(out, p, width)
            p += width

    def write_super(self, out):
        fields = [("inodes", 4), ("mtime", 4), ("block_size", 4), ("frags", 4), ("comp", 2),
                  ("block_log", 2), ("flags", 2), ("ids", 2), ("major", 2), ("minor", 2),
                  ("root", 8), ("bytes_used", 8), ("id_table", 8), ("xattr_table", 8),
                  ("inode_table", 8), ("dir_table", 8), ("frag_table", 8), ("export_table", 8)]
        put(out, 0, 4, 0x73717368)
        at = 4
        for name, width in fields:
            put(out, at, width, self.sb[name])
            at += width


def get_be(buf, off, width):
    return int.from_bytes(buf[off:off + width], "big")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--headers", choices=["be", "le"], default="be",
                    help="byte order of the metadata block headers (le: as AVM writes them)")
    ap.add_argument("src")
    ap.add_argument("dst")
    args = ap.parse_args()
    with open(args.src, "rb") as f:
        img = bytearray(f.read())
    try:
        out = Image(img, "big" if args.headers == "be" else "little").convert()
    except Fail as e:
        sys.stderr.write("sqfs4_swap.py: %s: %s\n" % (args.src, e))
        return 1
    with open(args.dst, "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
