#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""Print one line per object of a tree, for comparing a source directory
with a mount or an extraction of an image built from it.

Fields: path type mode uid gid size mtime sha256 target rdev link-group xattrs
Directory sizes and link counts differ between file systems and are left out
unless --dir-nlink is given.  Hard links are shown as the first path (in
sorted order) of their group.  Fields a tool cannot restore can be left out
with --no-owner, --no-mtime, --no-xattrs, --no-mode, --no-special."""
import argparse
import hashlib
import os
import stat
import sys


def kind(m):
    for test, name in ((stat.S_ISDIR, 'dir'), (stat.S_ISREG, 'file'), (stat.S_ISLNK, 'link'),
                       (stat.S_ISCHR, 'chr'), (stat.S_ISBLK, 'blk'), (stat.S_ISFIFO, 'fifo'),
                       (stat.S_ISSOCK, 'sock')):
        if test(m):
            return name
    return '?'


def digest(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
    return h.hexdigest()[:32]


def xattrs(path):
    try:
        names = sorted(os.listxattr(path, follow_symlinks=False))
    except OSError:
        return '-'
    out = []
    for n in names:
        v = os.getxattr(path, n, follow_symlinks=False)
        out.append('%s=%s' % (n, v.hex()))
    return ','.join(out) if out else '-'


def walk(root):
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for n in dirnames + filenames:
            paths.append(os.path.join(dirpath, n))
    return sorted(paths, key=lambda p: os.fsencode(os.path.relpath(p, root)))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('root')
    for opt in ('owner', 'mtime', 'xattrs', 'mode', 'special', 'links'):
        ap.add_argument('--no-' + opt, action='store_true')
    ap.add_argument('--dir-nlink', action='store_true')
    ap.add_argument('--root-entry', action='store_true', help='include the root itself')
    a = ap.parse_args()

    groups = {}
    paths = walk(a.root)
    if a.root_entry:
        paths.insert(0, a.root)
    for p in paths:
        st = os.lstat(p)
        rel = os.path.relpath(p, a.root)
        t = kind(st.st_mode)
        if a.no_special and t in ('chr', 'blk', 'fifo', 'sock'):
            continue
        mode = '-' if a.no_mode else '%04o' % stat.S_IMODE(st.st_mode)
        owner = '-:-' if a.no_owner else '%d:%d' % (st.st_uid, st.st_gid)
        mtime = '-' if a.no_mtime else str(int(st.st_mtime))
        size = str(st.st_size) if t in ('file', 'link') else '-'
        if t == 'dir' and a.dir_nlink:
            size = 'nlink=%d' % st.st_nlink
        h = digest(p) if t == 'file' else '-'
        target = os.fsencode(os.readlink(p)).hex() if t == 'link' else '-'
        rdev = '%d,%d' % (os.major(st.st_rdev), os.minor(st.st_rdev)) if t in ('chr', 'blk') else '-'
        group = '-'
        if t != 'dir' and st.st_nlink > 1 and not a.no_links:
            group = groups.setdefault((st.st_dev, st.st_ino), rel)
        xa = '-' if a.no_xattrs else xattrs(p)
        line = ' '.join((os.fsencode(rel).hex() if not rel.isprintable() or ' ' in rel else rel,
                         t, mode, owner, size, mtime, h, target, rdev, group, xa))
        sys.stdout.write(line + '\n')


if __name__ == '__main__':
    main()
