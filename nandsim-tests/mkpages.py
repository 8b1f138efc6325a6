#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Write a synthetic raw NAND image for the MTD write/read checks: pages of
random data, and for OOB layouts random 'tag' bytes at the given raw OOB
offset with 0xff in every other OOB byte (as an image without data ECC
holds them).  The last page of every block is left erased.

usage: mkpages.py OUT PAGE OOB PAGES_PER_BLOCK BLOCKS TAG_OFFSET TAG_LEN
       (OOB 0 = page data only, e.g. inband)"""
import os
import sys


def main():
    out = sys.argv[1]
    page, oob, ppb, blocks, toff, tlen = (int(a, 0) for a in sys.argv[2:8])
    with open(out, 'wb') as f:
        for _ in range(blocks):
            for p in range(ppb):
                if p == ppb - 1:
                    f.write(b'\xff' * (page + oob))
                    continue
                f.write(os.urandom(page))
                if oob:
                    spare = bytearray(b'\xff' * oob)
                    spare[toff:toff + tlen] = os.urandom(tlen)
                    f.write(bytes(spare))


if __name__ == '__main__':
    main()
