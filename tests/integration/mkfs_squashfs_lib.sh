# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for the mkfs_squashfs_*.t tests (sourced after lib.sh).
#
#   make_tree DIR [BLOCK]   a tree with everything SquashFS can hold: sizes
#                           around page and block boundaries, sparse and
#                           duplicate files, hard links, long/dangling
#                           symlinks, 300- and 5000-entry directories, deep
#                           nesting, 255-byte and UTF-8 names, devices,
#                           fifos, sockets, setuid/sticky, large and many ids,
#                           xattrs (user, trusted, security.capability, big and
#                           repeated values), mtimes 0 and 2^31-1.
#   mount_image IMG DIR     kernel loop mount, read-only
#   need_mount_and_mksquashfs   skip_all unless root, both tools and the kernel module

make_tree() {
	python3 - "$1" "${2:-16384}" <<'PY'
import os, socket, stat, sys

root, bs = sys.argv[1], int(sys.argv[2])
os.makedirs(root, exist_ok=True)

def put(path, data, mode=0o644):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(data)
    os.chmod(p, mode)
    return p

def pattern(n, seed):
    # deterministic, half compressible, half not
    out = bytearray()
    x = seed * 2654435761 % 2**32 or 1
    while len(out) < n:
        x = (x * 1103515245 + 12345) % 2**31
        out += (x.to_bytes(4, 'little') if (len(out) // 4096) % 2 else b'abcdefgh')
    return bytes(out[:n])

sizes = [0, 1, 100, 4095, 4096, 4097, bs - 1, bs, bs + 1, 2 * bs - 1, 2 * bs + 1,
         3 * bs + 4095, 10 * bs]
for i, n in enumerate(sizes):
    put('sizes/f%05d' % n, pattern(n, i + 1))
# duplicates: whole-block, fragment-only and mixed, in different directories
for i, n in enumerate([100, 2 * bs + 1, 10 * bs]):
    put('dups/a/copy%d' % i, pattern(n, 100 + i))
    put('dups/b/copy%d' % i, pattern(n, 100 + i))
put('dups/b/samesize-different', pattern(2 * bs + 1, 999))
# sparse: holes at the start, middle and end; one entirely sparse file
p = put('sparse/islands', b'')
with open(p, 'r+b') as f:
    f.truncate(40 * bs)
    f.seek(5 * bs + 17); f.write(b'island one')
    f.seek(20 * bs); f.write(pattern(bs, 7))
put('sparse/allzero', b'\0' * (8 * bs + 5))
p = put('sparse/hole', b'')
with open(p, 'r+b') as f:
    f.truncate(3 * bs)
# hard links (file, symlink, fifo), across directories
p = put('links/primary', b'hard linked\n')
os.makedirs(os.path.join(root, 'links/other'), exist_ok=True)
os.link(p, os.path.join(root, 'links/other/second'))
os.link(p, os.path.join(root, 'links/third'))
os.symlink('primary', os.path.join(root, 'links/sym'))
os.link(os.path.join(root, 'links/sym'), os.path.join(root, 'links/sym-hard'),
        follow_symlinks=False)
os.mkfifo(os.path.join(root, 'links/fifo'))
os.link(os.path.join(root, 'links/fifo'), os.path.join(root, 'links/fifo-hard'))
# symlinks
os.makedirs(os.path.join(root, 'symlinks'), exist_ok=True)
os.symlink('x' * 250 + '/' + 'y' * 250 + '/' + 'z' * 3000, os.path.join(root, 'symlinks/long'))
os.symlink('does/not/exist', os.path.join(root, 'symlinks/dangling'))
os.symlink('../sizes/f00001', os.path.join(root, 'symlinks/rel'))
# big directories
for i in range(300):
    put('dir300/entry-%03d' % i, b'%d\n' % i)
for i in range(5000):
    put('dir5000/n%05d' % i, b'%d\n' % (i % 4000))
# deep nesting
d = 'deep'
for i in range(60):
    d += '/d%02d' % i
put(d + '/bottom', b'bottom\n')
# names
put('names/' + 'L' * 255, b'long name\n')
put('names/caf\u00e9-\u65e5\u672c\u8a9e-\U0001f600', b'utf-8\n')
put('names/sp ace\tand\nnewline', b'odd\n')
put('names/\xff\xfe-latin1'.encode('latin-1').decode('utf-8', 'surrogateescape'), b'raw bytes\n')
# special files
os.makedirs(os.path.join(root, 'dev'), exist_ok=True)
os.mknod(os.path.join(root, 'dev/null'), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
os.mknod(os.path.join(root, 'dev/loop0'), 0o660 | stat.S_IFBLK, os.makedev(7, 0))
os.mknod(os.path.join(root, 'dev/bigdev'), 0o600 | stat.S_IFCHR, os.makedev(4095, 1048575))
os.mkfifo(os.path.join(root, 'dev/fifo'))
s = socket.socket(socket.AF_UNIX)
s.bind(os.path.join(root, 'dev/socket'))
s.close()
# modes
put('modes/setuid', b'#!/bin/sh\n', 0o4755)
put('modes/setgid', b'#!/bin/sh\n', 0o2711)
put('modes/none', b'', 0o000)
os.makedirs(os.path.join(root, 'modes/sticky'), exist_ok=True)
os.chmod(os.path.join(root, 'modes/sticky'), 0o1777)
# owners: large ids and more distinct ids than one id-table block holds
p = put('ids/large', b'big ids\n')
os.chown(p, 4000000000, 4000000001)
for i in range(1100):
    p = put('ids/u%04d' % i, b'')
    os.chown(p, 10000 + i, 20000 + i)
# xattrs
p = put('xattrs/user', b'x\n')
os.setxattr(p, 'user.comment', b'hello')
os.setxattr(p, 'user.empty', b'')
os.setxattr(p, 'trusted.t', b'trusted value')
p2 = put('xattrs/same-set', b'y\n')
for k, v in (('user.comment', b'hello'), ('user.empty', b''), ('trusted.t', b'trusted value')):
    os.setxattr(p2, k, v)
big = pattern(3000, 5)
for i in range(3):
    os.setxattr(put('xattrs/big%d' % i, b'%d\n' % i), 'user.big', big)
# security.capability: v2, cap_net_raw permitted+effective
cap = bytes.fromhex('01000002' '00200000' '00000000' '00000000' '00000000')
os.setxattr(put('xattrs/ping', b'\x7fELF', 0o755), 'security.capability', cap)
os.makedirs(os.path.join(root, 'xattrs/dir'), exist_ok=True)
os.setxattr(os.path.join(root, 'xattrs/dir'), 'user.dir', b'on a directory')
os.setxattr(os.path.join(root, 'dev/fifo'), 'trusted.fifo', b'on a fifo')
os.symlink('user', os.path.join(root, 'xattrs/link'))
os.setxattr(os.path.join(root, 'xattrs/link'), 'trusted.link', b'on a symlink',
            follow_symlinks=False)
# times (directories last, deepest first, so creating entries cannot move them)
os.utime(os.path.join(root, 'sizes/f00000'), (0, 0))
os.utime(os.path.join(root, 'sizes/f00001'), (2**31 - 1, 2**31 - 1))
os.utime(os.path.join(root, 'symlinks/rel'), (12345, 12345), follow_symlinks=False)
dirs = [dp for dp, _, _ in os.walk(root)]
for i, dp in enumerate(sorted(dirs, key=len, reverse=True)):
    os.utime(dp, (1600000000 + i, 1600000000 + i))
os.utime(os.path.join(root, 'modes/sticky'), (0, 0))
PY
}

# need_mount_and_mksquashfs — skips the file unless root, mkfs.squashfs,
# mksquashfs and the kernel's squashfs are all here
need_mount_and_mksquashfs() {
	need_root
	command -v mkfs.squashfs > /dev/null || skip_all "mkfs.squashfs not built"
	command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
	grep -qw squashfs /proc/filesystems || modprobe squashfs 2> /dev/null ||
		skip_all "kernel has no squashfs"
}

mount_image() {
	mkdir -p "$2" && mount -o loop,ro -t squashfs "$1" "$2"
}

# check_export IMAGE — for a gzip image: the NFS export table maps every
# inode number 1..inode_count to an inode carrying that number (the kernel
# only reads it for NFS file handles, so a mount does not exercise it).
check_export() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
f = struct.unpack_from('<IIIIIHHHHHHQQQQQQQQ', d)
count, comp, it, dt, et = f[1], f[5], f[15], f[16], f[18]
assert comp == 1, 'gzip images only'
def meta(pos):
    h, = struct.unpack_from('<H', d, pos)
    raw = d[pos + 2:pos + 2 + (h & 0x7fff)]
    return raw if h & 0x8000 else zlib.decompress(raw), pos + 2 + (h & 0x7fff)
table, pos, starts = b'', it, {}
while pos < dt:
    starts[pos - it] = len(table)
    blk, pos = meta(pos)
    table += blk
refs = b''
for i in range((count * 8 + 8191) // 8192):
    refs += meta(struct.unpack_from('<Q', d, et + 8 * i)[0])[0]
for ino in range(1, count + 1):
    ref, = struct.unpack_from('<Q', refs, 8 * (ino - 1))
    at = starts[ref >> 16] + (ref & 0xffff)
    got, = struct.unpack_from('<I', table, at + 12)
    assert got == ino, 'export entry %d points at inode %d' % (ino, got)
print('%d export entries checked' % count)
PY
}
