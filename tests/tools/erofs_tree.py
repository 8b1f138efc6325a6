#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Build the source tree the EROFS tests pack with mkfs.erofs: files of many
sizes (empty, one byte, around a block, past 1 MiB), compressible and
incompressible data, a sparse file, an all-zero file, duplicates (for
-Ededupe), symlinks short and long, devices, a fifo, a socket, hard links,
user.* and security.* xattrs of several sizes (some on many files, so
mkfs shares them), 254-byte names and a directory of 1200 entries.
With --tiny, a few hundred KB whose images are small enough to commit
(tests/data/erofs-1.9.3/).  Deterministic: the same tree every run.
Usage: erofs_tree.py DIR [--small|--tiny]"""
import os
import random
import socket
import sys


def text(n, seed):
    r = random.Random(seed)
    words = [b'alpha', b'beta', b'gamma', b'delta', b'erofs', b'lcluster', b'pcluster', b'\n']
    out = bytearray()
    while len(out) < n:
        out += r.choice(words) + b' '
    return bytes(out[:n])


def noise(n, seed):
    return random.Random(seed).randbytes(n)


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def xattr(path, name, value):
    try:
        os.setxattr(path, name, value, follow_symlinks=False)
    except OSError:
        pass


SIZES = [0, 1, 100, 511, 512, 4095, 4096, 4097, 8191, 12289, 65536 + 7, 200000]


def files(root, small, tiny):
    sizes = list(SIZES)
    if not small and not tiny:
        sizes += [1 << 20, (3 << 20) + 123]
    os.makedirs(f'{root}/data/sub/deeper')
    for i, n in enumerate(sizes):
        if tiny and n > 12289:
            continue
        write(f'{root}/data/text_{n}', text(n, i))
        if not tiny or n <= 4097:
            write(f'{root}/data/noise_{n}', noise(n, 1000 + i))
    parts = 40 if not small else 4 if not tiny else 2
    mixed = b''.join(text(5000, 7 + k) + noise(3000, 70 + k) for k in range(parts))
    write(f'{root}/data/sub/mixed', mixed)
    write(f'{root}/data/zeros', bytes(2 << 20 if not small else 70000))
    with open(f'{root}/data/sparse', 'wb') as f:
        f.truncate(5 << 20 if not small else 300000)
        f.seek(1 << 20 if not small else 100000)
        f.write(text(10000, 99))
    for k in range(3):
        write(f'{root}/data/sub/deeper/dup_{k}', text(150000 if not tiny else 9000, 4242))
        write(f'{root}/data/sub/dup_small_{k}', b'the same short content\n')


def specials(root):
    os.makedirs(f'{root}/dev')
    os.mknod(f'{root}/dev/null', 0o20666, os.makedev(1, 3))
    os.mknod(f'{root}/dev/sda', 0o60640, os.makedev(8, 0))
    os.mknod(f'{root}/dev/big', 0o20600, os.makedev(4095, 1048575))
    os.mkfifo(f'{root}/dev/fifo')
    s = socket.socket(socket.AF_UNIX)
    s.bind(f'{root}/dev/sock')
    s.close()
    os.symlink('null', f'{root}/dev/link')
    os.symlink('/' + 'x' * 300, f'{root}/dev/longlink')
    os.symlink('../data/text_100', f'{root}/dev/rel')
    write(f'{root}/dev/hard', text(9000, 5))
    os.link(f'{root}/dev/hard', f'{root}/dev/hard2')
    os.link(f'{root}/dev/hard', f'{root}/data/hard3')


def attrs(root):
    for k, n in enumerate(SIZES):
        p = f'{root}/data/text_{n}'
        if not os.path.exists(p):
            continue
        xattr(p, 'user.shared', b'common value')
        xattr(p, 'user.n', str(k).encode())
    xattr(f'{root}/data/text_100', 'user.big', text(1500, 3))
    xattr(f'{root}/data/text_100', 'security.label', b'system_u:object_r:etc_t:s0')
    xattr(f'{root}/data', 'user.dir', b'on a directory')
    xattr(f'{root}/data/noise_100', 'user.' + 'k' * 200, b'v' * 300)
    xattr(f'{root}/data/noise_100', 'trusted.t', b'trusted value')


def names(root, tiny):
    os.makedirs(f'{root}/names/big')
    # 254: mkfs.erofs 1.5 fails on a 255-byte name (ENOENT)
    write(f'{root}/names/' + 'L' * 254, b'long name\n')
    write(f'{root}/names/sp ace', b'')
    write(f'{root}/names/ünïcode', b'utf8\n')
    for i in range(1200 if not tiny else 150):
        write(f'{root}/names/big/entry_{i:05d}_' + 'n' * (i % 40), b'%d\n' % i)


def main():
    # an option where DIR belongs is refused, not made a tree in the
    # current directory (a tree named --help was once committed that way)
    if len(sys.argv) < 2 or sys.argv[1].startswith('-'):
        sys.exit(__doc__)
    root = sys.argv[1]
    small = '--small' in sys.argv
    tiny = '--tiny' in sys.argv
    os.makedirs(root)
    files(root, small or tiny, tiny)
    specials(root)
    attrs(root)
    names(root, tiny)
    os.chown(f'{root}/data/text_1', 1234, 5678)
    os.chmod(f'{root}/data/text_4096', 0o4751)
    for dirpath, dirs, fs in os.walk(root):
        for n in dirs + fs:
            os.utime(os.path.join(dirpath, n), (1700000000, 1700000000 + len(n)),
                     follow_symlinks=False)


main()
