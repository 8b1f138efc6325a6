#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""nand_flip.py IN OUT PAGE OOB PAGES_PER_BLOCK [single|double|codes]

Writes OUT: the raw NAND dump IN (each PAGE data bytes followed by OOB
bytes) with bit flips in its data, as a chip read without ECC shows them.

  single  one flipped bit in every written page that is the first or the
          second of its block (where UBI keeps its EC and VID headers) and
          in every 5th other written page, at a place that moves with the
          page number: the kernel's ECC repairs each of them
  double  two flipped bits in the same 256-byte step of the first written
          page: more than the ECC repairs
  codes   no flips: every page's OOB gets the kernel's software Hamming
          codes of its data where the kernel keeps them for a 64- or
          128-byte OOB (from byte 40 or 80: 3 bytes per 256 data bytes),
          computed here from the code's definition, apart from ours

Erased pages (all 0xff data) are left alone, and so are the first 4 bytes
of each page: a UBI dump is found by the magic there before its layout is
known (a flip in the first PEB's magic makes the finder point at the next
PEB's offset, which is its own test).  Prints the number of pages
changed."""
import sys


def parity(x):
    return bin(x).count("1") & 1


def hamming(block):
    """The 3 code bytes of 256 data bytes: inverted row parities rp0..rp15
    (rp 2k+1 over the bytes whose index has bit k set, rp 2k the others)
    and inverted column parities cp0..cp5 of the XOR of all bytes."""
    rp = [0] * 16
    col = 0
    for i, v in enumerate(block):
        col ^= v
        if parity(v):
            for k in range(8):
                rp[2 * k + ((i >> k) & 1)] ^= 1
    lo = sum((1 - rp[k]) << k for k in range(8))
    hi = sum((1 - rp[k + 8]) << k for k in range(8))
    cp = 3
    for bit, mask in ((7, 0xf0), (6, 0x0f), (5, 0xcc), (4, 0x33), (3, 0xaa), (2, 0x55)):
        cp |= (1 - parity(col & mask)) << bit
    return bytes([hi, lo, cp])


def main():
    src, out, page, oob, ppb = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    mode = sys.argv[6] if len(sys.argv) > 6 else "single"
    data = bytearray(open(src, "rb").read())
    raw = page + oob
    changed = 0
    for p in range(len(data) // raw):
        at = p * raw
        if mode == "codes":
            at_code = at + page + oob // 8 * 5
            for s in range(page // 256):
                data[at_code + 3 * s:at_code + 3 * s + 3] = hamming(data[at + 256 * s:at + 256 * s + 256])
            continue
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
