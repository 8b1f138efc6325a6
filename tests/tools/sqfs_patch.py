#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Make a damaged or hostile copy of a SquashFS image for reader tests.

  sqfs_patch.py IN OUT sb FIELD VALUE    set a superblock field (name from the format)
  sqfs_patch.py IN OUT trunc N           keep the first N bytes
  sqfs_patch.py IN OUT flip POS          invert the byte at POS
  sqfs_patch.py IN OUT rename OLD NEW    replace a directory entry name (same length;
                                         needs uncompressed metadata, -noI)
  sqfs_patch.py IN OUT loop NAME         point the only entry of a directory, NAME,
                                         back at the root inode (needs -noI)
Exits 3 when the requested patch cannot be applied to this image."""
import struct
import sys

FIELDS = {  # name: (offset, struct format)
    'magic': (0, '<I'), 'inode_count': (4, '<I'), 'mod_time': (8, '<I'),
    'block_size': (12, '<I'), 'fragment_count': (16, '<I'), 'compressor': (20, '<H'),
    'block_log': (22, '<H'), 'flags': (24, '<H'), 'id_count': (26, '<H'),
    'version_major': (28, '<H'), 'version_minor': (30, '<H'), 'root_inode': (32, '<Q'),
    'bytes_used': (40, '<Q'), 'id_table': (48, '<Q'), 'xattr_id_table': (56, '<Q'),
    'inode_table': (64, '<Q'), 'dir_table': (72, '<Q'), 'fragment_table': (80, '<Q'),
    'export_table': (88, '<Q'),
}


def once(data, needle):
    pos = data.find(needle)
    if pos < 0 or data.find(needle, pos + 1) >= 0:
        sys.exit(3)
    return pos


def main():
    src, dst, op = sys.argv[1:4]
    args = sys.argv[4:]
    data = bytearray(open(src, 'rb').read())
    if op == 'sb':
        off, fmt = FIELDS[args[0]]
        struct.pack_into(fmt, data, off, int(args[1], 0) & ((1 << (8 * struct.calcsize(fmt))) - 1))
    elif op == 'trunc':
        data = data[:int(args[0])]
    elif op == 'flip':
        data[int(args[0])] ^= 0xff
    elif op == 'rename':
        old, new = args[0].encode(), args[1].encode()
        assert len(old) == len(new)
        pos = once(data, old)
        data[pos:pos + len(old)] = new
    elif op == 'loop':
        name = args[0].encode()
        pos = once(data, name)
        ent, hdr = pos - 8, pos - 20
        count, _, _ = struct.unpack_from('<III', data, hdr)
        if count != 0 or struct.unpack_from('<H', data, ent + 6)[0] != len(name) - 1:
            sys.exit(3)
        root = struct.unpack_from('<Q', data, 32)[0]
        struct.pack_into('<I', data, hdr + 4, root >> 16)
        struct.pack_into('<H', data, ent, root & 0xffff)
    else:
        sys.exit(2)
    open(dst, 'wb').write(data)


main()
