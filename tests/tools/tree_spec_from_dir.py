#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Print a spec file (docs/spec-format.md) that describes a host directory
exactly: one line per entry with mode, owner, mtime and xattrs, file
contents taken from the directory itself, hard links as `link` lines and
the root's metadata as a final `attr /` line.  Tests use it to check that a
directory and a spec describing it give the same tree and the same image."""
import os
import stat
import sys


def quote(s):
    """Every byte but a few safe ASCII ones as \\xHH, inside double quotes."""
    safe = set(b'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-')
    return '"' + ''.join(chr(c) if c in safe else '\\x%02x' % c for c in os.fsencode(s)) + '"'


def attrs(path, st):
    out = ['mtime=%d' % int(st.st_mtime)]
    try:
        names = sorted(os.listxattr(path, follow_symlinks=False))
    except OSError:
        names = []
    for n in names:
        out.append('xattr=%s=0x%s' % (n, os.getxattr(path, n, follow_symlinks=False).hex()))
    return ' '.join(out)


def entry(rel, path, st):
    m = st.st_mode
    head = '%s %04o %d %d' % (quote(rel), stat.S_IMODE(m), st.st_uid, st.st_gid)
    tail = attrs(path, st)
    if stat.S_ISDIR(m):
        return 'dir %s %s' % (head, tail)
    if stat.S_ISREG(m):
        return 'file %s %s %s' % (head, quote(os.path.abspath(path)), tail)
    if stat.S_ISLNK(m):
        return 'slink %s %s %s' % (head, quote(os.readlink(path)), tail)
    if stat.S_ISCHR(m) or stat.S_ISBLK(m):
        return 'nod %s %s %d %d %s' % (head, 'c' if stat.S_ISCHR(m) else 'b',
                                       os.major(st.st_rdev), os.minor(st.st_rdev), tail)
    if stat.S_ISFIFO(m):
        return 'pipe %s %s' % (head, tail)
    return 'sock %s %s' % (head, tail)


def main():
    root = sys.argv[1]
    paths = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            paths.append(os.path.relpath(os.path.join(d, n), root))
    paths.sort(key=os.fsencode)
    first_name = {}
    for rel in paths:
        path = os.path.join(root, rel)
        st = os.lstat(path)
        key = (st.st_dev, st.st_ino)
        if not stat.S_ISDIR(st.st_mode) and st.st_nlink > 1 and key in first_name:
            print('link %s %s' % (quote(rel), quote(first_name[key])))
            continue
        first_name[key] = rel
        print(entry(rel, path, st))
    st = os.lstat(root)
    print('attr / %04o %d %d %s' % (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid,
                                   attrs(root, st)))


if __name__ == '__main__':
    main()
