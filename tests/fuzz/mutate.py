#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Seeded random mutations of valid images, and a check of how flashfs
takes them.

  mutate.py run  --flashfs BIN --work DIR [--seed S] [--count N] [--timeout T]
                 [--jobs J] [--keep DIR] [--ls-every K] IMAGE...
  mutate.py emit --out DIR [--seed S] [--count N] IMAGE...
  mutate.py replay --flashfs BIN --work DIR [--timeout T] IMAGE...

`run` applies COUNT mutations (spread over the images), and on each result
runs `flashfs check`, `flashfs ls -lR` and `flashfs extract` under a
timeout.  A run passes when every command ends with exit 0, 1 or 2, a
failing one says something on stderr, nothing hangs, and extraction wrote
nothing outside its target directory.  Failing images are copied to --keep
with the reason, so `flashfs` can be re-run on them.  `emit` only writes
the mutated images (for the FUSE test).  `replay` runs the same checks
on the images as they are (saved reproducers).

--ls-every K runs `ls -lR` only on every Kth round over the images
(mutation i's round is i // the number of images, so every image still
meets it, on one round in K).  The ASan pass thins so: ls -lR lists the
same directories through the same reader (ff_fs_list_dir) as extract, which
reads them all and their files too, and each run is a sanitized process
start (most of the pass's CPU).

Mutation i of a run depends only on (seed, i), so a failure is reproduced
with the same seed and count.
"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor

SQFS_MAGIC = b"hsqs"
# Superblock table pointers (u64 LE): id, xattr, inode, directory,
# fragment, export tables, and bytes_used.
SQFS_PTRS = {"bytes_used": 40, "id": 48, "xattr": 56, "inode": 64,
             "directory": 72, "fragment": 80, "export": 88}
# Narrower superblock fields worth hitting on purpose.
SQFS_FIELDS = [(4, 4), (12, 4), (16, 4), (20, 2), (22, 2), (24, 2), (26, 2), (28, 2)]


def sqfs_tables_region(img):
    """The metadata tables sit between the lowest table pointer and
    bytes_used; mutations there reach the parsers, not just the codecs."""
    if len(img) < 96 or img[:4] != SQFS_MAGIC:
        return None
    ptrs = [struct.unpack_from("<Q", img, o)[0] for o in SQFS_PTRS.values()]
    used = ptrs[0]
    starts = [p for p in ptrs[1:] if 96 <= p < min(used, len(img))]
    if not starts:
        return None
    return min(starts), min(used, len(img))


def m_bitflips(rng, img):
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(img))
        img[pos] ^= 1 << rng.randrange(8)
    return "bitflips"


def m_byte_run(rng, img, lo=0, hi=None):
    hi = len(img) if hi is None else hi
    pos = rng.randrange(lo, hi)
    n = min(rng.randint(1, 64), len(img) - pos)
    kind = rng.choice(["zero", "ff", "random", "repeat"])
    if kind == "zero":
        img[pos:pos + n] = bytes(n)
    elif kind == "ff":
        img[pos:pos + n] = b"\xff" * n
    elif kind == "random":
        img[pos:pos + n] = rng.randbytes(n)
    else:
        img[pos:pos + n] = bytes([rng.randrange(256)]) * n
    return "byte-run %s @%d+%d" % (kind, pos, n)


def m_truncate(rng, img):
    pos = rng.randrange(len(img))
    del img[pos:]
    return "truncate @%d" % pos


def m_interesting(rng, img, lo=0, hi=None):
    """A 1-, 2-, 4- or 8-byte little-endian boundary value: counts, sizes and
    offsets are where bounds checks live."""
    hi = len(img) if hi is None else hi
    width = rng.choice([1, 2, 4, 8])
    pos = rng.randrange(lo, max(lo + 1, hi - width))
    top = (1 << (8 * width)) - 1
    val = rng.choice([0, 1, top, top >> 1, (top >> 1) + 1, len(img), len(img) - 1,
                      rng.randrange(top + 1)])
    img[pos:pos + width] = (val & top).to_bytes(width, "little")
    return "value %#x width %d @%d" % (val & top, width, pos)


def m_sqfs_super(rng, img):
    if len(img) < 96 or img[:4] != SQFS_MAGIC:
        return m_interesting(rng, img)
    names = list(SQFS_PTRS)
    if rng.random() < 0.5:
        a, b = rng.sample(names, 2)
        oa, ob = SQFS_PTRS[a], SQFS_PTRS[b]
        va, vb = img[oa:oa + 8], img[ob:ob + 8]
        img[oa:oa + 8], img[ob:ob + 8] = vb, va
        return "swap %s<->%s" % (a, b)
    if rng.random() < 0.5:
        name = rng.choice(names)
        off = SQFS_PTRS[name]
        val = rng.choice([0, len(img), len(img) - 8, 2 ** 64 - 1, 2 ** 63,
                          rng.randrange(len(img))])
        img[off:off + 8] = struct.pack("<Q", val)
        return "pointer %s=%#x" % (name, val)
    off, width = rng.choice(SQFS_FIELDS)
    img[off:off + width] = rng.randbytes(width)
    return "super field @%d" % off


def m_tables(rng, img):
    region = sqfs_tables_region(img)
    if not region:
        return m_byte_run(rng, img)
    lo, hi = region
    if rng.random() < 0.5:
        return "tables " + m_interesting(rng, img, lo, hi)
    return "tables " + m_byte_run(rng, img, lo, hi)


# UBI (drivers/mtd/ubi/ubi-media.h): every PEB starts with a 64-byte EC
# header ("UBI#", big-endian) and holds a 64-byte VID header ("UBI!") at the
# offset the EC header gives; each header ends in a CRC-32 of its first 60
# bytes, and each 172-byte volume-table record in a CRC of its first 168.
# A random byte in a header only tests the CRC check, so these mutations
# change one field and then fix the CRC, which takes them past it to the
# code that uses the field.
UBI_EC_MAGIC, UBI_VID_MAGIC = b"UBI#", b"UBI!"
UBI_EC_FIELDS = [(4, 1), (8, 8), (16, 4), (20, 4), (24, 4)]
UBI_VID_FIELDS = [(4, 1), (5, 1), (6, 1), (7, 1), (8, 4), (12, 4), (20, 4), (24, 4),
                  (28, 4), (32, 4), (40, 8)]
UBI_VTBL_FIELDS = [(0, 4), (4, 4), (8, 4), (12, 1), (13, 1), (14, 2), (16, 128), (144, 1)]
UBI_LAYOUT_VOL = 0x7FFFEFFF


def ubi_crc(data):
    return (~zlib.crc32(data)) & 0xFFFFFFFF


def ubi_geometry(img):
    """(PEB size, VID header offset, data offset) from the first EC header,
    the PEB size being the distance to the next EC header."""
    if len(img) < 64 or img[:4] != UBI_EC_MAGIC:
        return None
    vid, data = struct.unpack_from(">II", img, 16)
    nxt = img.find(UBI_EC_MAGIC, 64)
    if nxt <= 0 or not 64 <= vid < nxt or not vid + 64 <= data <= nxt:
        return None
    return nxt, vid, data


def ubi_field(rng, img, base, fields, crc_len):
    off, width = rng.choice(fields)
    top = (1 << (8 * width)) - 1 if width <= 8 else None
    if top is None:
        img[base + off:base + off + width] = rng.randbytes(width)
        what = "bytes"
    else:
        val = rng.choice([0, 1, top, top >> 1, rng.randrange(top + 1),
                          int.from_bytes(img[base + off:base + off + width], "big") + 1])
        img[base + off:base + off + width] = (val & top).to_bytes(width, "big")
        what = "%#x" % (val & top)
    struct.pack_into(">I", img, base + crc_len, ubi_crc(bytes(img[base:base + crc_len])))
    return "field @%d+%d=%s" % (off, width, what)


def m_ubi(rng, img):
    geo = ubi_geometry(img)
    if not geo:
        return m_interesting(rng, img)
    peb, vid, data = geo
    pebs = len(img) // peb
    p = rng.randrange(pebs) * peb
    if rng.random() < 0.3 and img[p:p + 4] == UBI_EC_MAGIC:
        return "ubi EC PEB %d %s" % (p // peb, ubi_field(rng, img, p, UBI_EC_FIELDS, 60))
    layout = [q * peb for q in range(pebs)
              if img[q * peb + vid:q * peb + vid + 4] == UBI_VID_MAGIC and
              struct.unpack_from(">I", img, q * peb + vid + 8)[0] == UBI_LAYOUT_VOL]
    if layout and rng.random() < 0.4:
        q = rng.choice(layout)
        rec = q + data + 172 * rng.randrange(8)
        return "ubi vtbl PEB %d record @%d %s" % (
            q // peb, rec - q - data, ubi_field(rng, img, rec, UBI_VTBL_FIELDS, 168))
    if img[p + vid:p + vid + 4] != UBI_VID_MAGIC:
        return "ubi " + m_byte_run(rng, img, p, min(p + peb, len(img)))
    return "ubi VID PEB %d %s" % (p // peb, ubi_field(rng, img, p + vid, UBI_VID_FIELDS, 60))


MUTATORS = [(m_bitflips, 3), (m_byte_run, 3), (m_truncate, 1), (m_interesting, 2),
            (m_sqfs_super, 2), (m_tables, 4), (m_ubi, 6)]


def mutate(data, seed, i):
    rng = random.Random("%s:%d" % (seed, i))
    img = bytearray(data)
    done = []
    funcs = [f for f, w in MUTATORS for _ in range(w)]
    if img[:4] != SQFS_MAGIC:
        funcs = [f for f in funcs if f not in (m_sqfs_super, m_tables)]
    if img[:4] != UBI_EC_MAGIC:
        funcs = [f for f in funcs if f is not m_ubi]
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not img:
            break
        done.append(rng.choice(funcs)(rng, img))
    return bytes(img), "; ".join(done)


def tree_listing(root, skip):
    out = set()
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            if not p.startswith(skip):
                out.add(p)
    return out


def run_one(args, images, i, slot):
    base = images[i % len(images)]
    with open(base, "rb") as f:
        data = f.read()
    what = "unmutated"
    if not args.replay:
        data, what = mutate(data, args.seed, i)
    work = os.path.join(args.work, "w%d" % slot)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "out"))
    img = os.path.join(work, os.path.basename(base))
    with open(img, "wb") as f:
        f.write(data)
    target = os.path.join(work, "out", "x")
    before = tree_listing(work, target)
    cmds = [["check", img], ["ls", "-lR", img],
            ["extract", "--no-progress", "-j", "1", "-C", target, img]]
    if (i // len(images)) % args.ls_every:
        del cmds[1]
    problems = []
    for c in cmds:
        try:
            p = subprocess.run([args.flashfs] + c, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=args.timeout, cwd=work)
        except subprocess.TimeoutExpired:
            problems.append("%s: hang (> %g s)" % (c[0], args.timeout))
            continue
        err = p.stderr.decode("utf-8", "replace").strip()
        if p.returncode < 0 or p.returncode not in (0, 1, 2):
            last = err.splitlines()[-3:] if err else []
            problems.append("%s: exit %d %s" % (c[0], p.returncode, " | ".join(last)))
        elif p.returncode != 0 and not err:
            problems.append("%s: exit %d without a message" % (c[0], p.returncode))
        elif "runtime error:" in err or "Sanitizer" in err:
            problems.append("%s: sanitizer: %s" % (c[0], err.splitlines()[-1]))
    after = tree_listing(work, target)
    if after != before:
        problems.append("extract wrote outside its target: %s"
                        % sorted(after - before)[:5])
    if problems and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        keep = os.path.join(args.keep, "%s.%d" % (os.path.basename(base), i))
        shutil.copyfile(img, keep)
        with open(keep + ".why", "w") as f:
            f.write("seed %s mutation %d of %s: %s\n%s\n"
                    % (args.seed, i, base, what, "\n".join(problems)))
    subprocess.run(["chmod", "-R", "u+rwx", work], stderr=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)
    return i, base, what, problems


def cmd_run(args):
    env_fix = {"ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
               "UBSAN_OPTIONS": "halt_on_error=1:abort_on_error=1:print_stacktrace=1"}
    for k, v in env_fix.items():
        os.environ.setdefault(k, v)
    os.makedirs(args.work, exist_ok=True)
    failed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        # Slots must not be shared by two running mutations: run in waves.
        for start in range(0, args.count, args.jobs):
            futs = [pool.submit(run_one, args, args.images, i, i - start)
                    for i in range(start, min(start + args.jobs, args.count))]
            for fu in futs:
                i, base, what, problems = fu.result()
                if problems:
                    failed += 1
                    print("FAIL mutation %d of %s (%s):" % (i, os.path.basename(base), what))
                    for p in problems:
                        print("    " + p)
    if args.replay:
        print("%d images replayed: %d failed" % (args.count, failed))
    else:
        print("%d mutations of %d images, seed %s: %d failed"
              % (args.count, len(args.images), args.seed, failed))
    return 1 if failed else 0


def cmd_emit(args):
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        base = args.images[i % len(args.images)]
        with open(base, "rb") as f:
            data, what = mutate(f.read(), args.seed, i)
        name = "%03d-%s" % (i, os.path.basename(base))
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        print("%s\t%s" % (name, what))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    rp = sub.add_parser("replay")
    for p in (r, rp):
        p.add_argument("--flashfs", required=True)
        p.add_argument("--work", required=True)
        p.add_argument("--keep")
        p.add_argument("--timeout", type=float, default=20)
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--ls-every", type=int, default=1)
    e = sub.add_parser("emit")
    e.add_argument("--out", required=True)
    for p in (r, e, rp):
        p.add_argument("--seed", default="1")
        p.add_argument("--count", type=int, default=200)
        p.add_argument("images", nargs="+")
    args = ap.parse_args()
    args.replay = args.cmd == "replay"
    if getattr(args, "flashfs", None) and "/" in args.flashfs:
        args.flashfs = os.path.abspath(args.flashfs)  # runs happen in a work dir
    if args.replay:
        args.count = len(args.images)
    return cmd_emit(args) if args.cmd == "emit" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
