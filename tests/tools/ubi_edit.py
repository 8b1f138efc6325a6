#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Edit a UBI image's PEBs for reader tests, independently of our C code.

  ubi_edit.py IMG PEB_SIZE append-copy SRC      append a copy of PEB SRC
  ubi_edit.py IMG PEB_SIZE append-erased N      append N erased PEBs
  ubi_edit.py IMG PEB_SIZE vid PEB k=v ...      set VID fields (sqnum, lnum,
        copy_flag, data_size, data_crc=auto|N) and recompute the header CRC
  ubi_edit.py IMG PEB_SIZE data PEB FILE        put FILE in the data area
  ubi_edit.py IMG PEB_SIZE flip PEB OFFSET      flip a bit, leave the CRCs
  ubi_edit.py IMG PEB_SIZE nand-dump OUT PAGE OOB [BAD...]
        write OUT as `nanddump -o` would: each PAGE bytes followed by OOB
        bytes of 0xff; PEBs numbered BAD get the bad-block marker (OOB
        byte 0 of their first page, byte 5 for 512-byte pages, set to 0)

UBI's CRC is zlib's crc32 with the result inverted (the kernel's crc32_le
seeded with 0xFFFFFFFF, not inverted)."""
import struct
import sys
import zlib


def crc(b):
    return zlib.crc32(b) ^ 0xFFFFFFFF


def main():
    img, peb = sys.argv[1], int(sys.argv[2], 0)
    cmd, args = sys.argv[3], sys.argv[4:]
    b = bytearray(open(img, 'rb').read())
    vid_off, data_off = struct.unpack('>II', b[16:24])
    if cmd == 'append-copy':
        s = int(args[0]) * peb
        b += b[s:s + peb]
        print(len(b) // peb - 1)
    elif cmd == 'append-erased':
        b += b'\xff' * (peb * int(args[0]))
    elif cmd == 'vid':
        p = int(args[0]) * peb
        v = p + vid_off
        fields = {'lnum': (12, '>I'), 'copy_flag': (6, '>B'), 'data_size': (20, '>I'),
                  'data_crc': (32, '>I'), 'sqnum': (40, '>Q')}
        for kv in args[1:]:
            k, val = kv.split('=')
            off, fmt = fields[k]
            if k == 'data_crc' and val == 'auto':
                size = struct.unpack('>I', b[v + 20:v + 24])[0]
                n = crc(bytes(b[p + data_off:p + data_off + size]))
            else:
                n = int(val, 0)
            struct.pack_into(fmt, b, v + off, n)
        struct.pack_into('>I', b, v + 60, crc(bytes(b[v:v + 60])))
    elif cmd == 'data':
        p = int(args[0]) * peb
        d = open(args[1], 'rb').read()
        area = peb - data_off
        assert len(d) <= area, 'data larger than a LEB'
        b[p + data_off:p + peb] = d + b'\xff' * (area - len(d))
    elif cmd == 'nand-dump':
        out, page, oob = args[0], int(args[1], 0), int(args[2], 0)
        bad = {int(a) for a in args[3:]}
        mark = 5 if page == 512 else 0
        with open(out, 'wb') as f:
            for n in range(len(b) // peb):
                for q in range(peb // page):
                    spare = bytearray(b'\xff' * oob)
                    if n in bad and q == 0:
                        spare[mark] = 0
                    f.write(b[n * peb + q * page:n * peb + (q + 1) * page] + spare)
        return
    elif cmd == 'flip':
        b[int(args[0]) * peb + int(args[1], 0)] ^= 1
    else:
        sys.exit('unknown command ' + cmd)
    open(img, 'wb').write(b)


main()
