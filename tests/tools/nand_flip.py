#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""nand_flip.py IN OUT PAGE OOB PAGES_PER_BLOCK [single|double]

Writes OUT: the raw NAND dump IN (each PAGE data bytes followed by OOB
bytes) with bit flips in its data, as a chip read without ECC shows them.

  single  one flipped bit in every written page that is the first or the
          second of its block (where UBI keeps its EC and VID headers) and
          in every 5th other written page, at a place that moves with the
          page number: the kernel's ECC repairs each of them
  double  two flipped bits in the same 256-byte step of the first written
          page: more than the ECC repairs

Erased pages (all 0xff data) are left alone, and so are the first 4 bytes
of each page: a UBI dump is found by the magic there before its layout is
known (a flip in the first PEB's magic makes the finder point at the next
PEB's offset, which is its own test).  Prints the number of pages
changed."""
import sys


def main():
    src, out, page, oob, ppb = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    mode = sys.argv[6] if len(sys.argv) > 6 else "single"
    data = bytearray(open(src, "rb").read())
    raw = page + oob
    changed = 0
    for p in range(len(data) // raw):
        at = p * raw
        if data[at:at + page] == b"\xff" * page:
            continue
        if mode == "double":
            data[at + 17] ^= 0x01
            data[at + 200] ^= 0x40
            changed += 1
            break
        if p % ppb > 1 and p % 5:
            continue
        bit = 32 + (p * 2654435761) % (page * 8 - 32)
        data[at + bit // 8] ^= 1 << (bit % 8)
        changed += 1
    open(out, "wb").write(data)
    print(changed)


if __name__ == "__main__":
    main()
