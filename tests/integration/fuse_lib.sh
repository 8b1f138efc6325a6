# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for the fuse_*.t tests (sourced after lib.sh).

# Skip the whole file when FUSE mounts cannot be made here.
fuse_need() {
	need_root
	[ -c /dev/fuse ] || skip_all "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip_all "fusermount3 missing"
	command -v flashfs >/dev/null || skip_all "flashfs not built"
}

# fuse_make_tree DIR [MANY [yaffs]] — every kind of object an image can hold: all
# file types, owners, modes (setuid, sticky), mtimes, hard links, symlinks
# (dangling, long), sparse and block-boundary files, xattrs, a long name,
# and a directory of MANY entries (default 1500) that needs several
# readdir replies.  "yaffs" leaves out what YAFFS2 cannot hold (symlink
# targets over 159 bytes, xattrs beyond the object header's spare bytes).
fuse_make_tree() {
	python3 - "$1" "${2:-1500}" "${3:-}" <<'EOF'
import os, sys
root, many, yaffs = sys.argv[1], int(sys.argv[2]), sys.argv[3] == 'yaffs'
os.makedirs(root)
def p(*a): return os.path.join(root, *a)
def write(rel, data, mode=0o644, owner=(0, 0), mtime=1600000000):
    with open(p(rel), 'wb') as f:
        f.write(data)
    os.chown(p(rel), *owner); os.chmod(p(rel), mode); os.utime(p(rel), (mtime, mtime))
for d in ('a/b/c/d', 'empty', 'many', 'sticky', 'owned'):
    os.makedirs(p(d), exist_ok=True)
text = b''.join(b'line %d of a compressible text file\n' % i for i in range(40000))
write('empty.txt', b'')
write('small.txt', b'hello world\n', 0o600, (1234, 5678), 1234567890)
write('text', text)
write('random', os.urandom(3 * 1024 * 1024 + 17))
write('block', os.urandom(131072))
write('block+1', os.urandom(131073))
write('a/b/c/d/deep', b'deep\n', 0o4755, (0, 0), 2**31 - 1)
write('owned/big-ids', b'ids\n', 0o640, (100000, 200000), 0)
write('owned/nobody', b'nobody\n', 0o000, (65534, 65534), 1)
with open(p('sparse'), 'wb') as f:
    f.truncate(20 * 1024 * 1024)
    f.seek(9 * 1024 * 1024 + 5)
    f.write(b'in the middle of nothing')
os.utime(p('sparse'), (1500000000, 1500000000))
write('x' * 255, b'long name\n')
write('hard', b'three names, one inode\n', 0o640, (7, 8), 1400000000)
os.link(p('hard'), p('a/hard2'))
os.link(p('hard'), p('owned/hard3'))
os.symlink('small.txt', p('link-rel'))
os.symlink('/etc/passwd', p('link-abs'))
os.symlink('no/such/target', p('link-dangling'))
os.symlink('t' * (150 if yaffs else 1000), p('link-long'))
os.lchown(p('link-rel'), 1234, 5678)
os.mknod(p('chr'), 0o620 | 0o020000, os.makedev(1, 3))
os.mknod(p('blk'), 0o660 | 0o060000, os.makedev(8, 17))
os.mkfifo(p('fifo'), 0o644)
for i in range(many):
    write('many/f%05d' % i, b'%d\n' % i, mtime=1600000000 + i)
os.setxattr(p('small.txt'), 'user.comment', b'a comment')
os.setxattr(p('small.txt'), 'user.empty', b'')
os.setxattr(p('a'), 'user.binary', bytes(range(40 if yaffs else 256)))
os.setxattr(p('text'), 'trusted.secret', b'root only')
os.chmod(p('sticky'), 0o1777)
for d, t in (('a/b/c/d', 10), ('a/b/c', 20), ('a/b', 30), ('a', 40), ('empty', 50),
             ('many', 60), ('sticky', 70), ('owned', 80)):
    os.utime(p(d), (1600000000 + t, 1600000000 + t))
EOF
}

# fuse_mount MNT IMAGE [flashfs mount options...] — mount (detached) and
# wait until the mount shows up.
fuse_mount() {
	local mnt=$1 img=$2
	shift 2
	mkdir -p "$mnt"
	flashfs mount "$@" "$img" "$mnt" || return $?
	mountpoint -q "$mnt"
}

# fuse_umount MNT — unmount and wait for it to be gone.
fuse_umount() {
	local i
	fusermount3 -u "$1" 2>/dev/null || umount "$1" || return 1
	for i in $(seq 50); do
		mountpoint -q "$1" || return 0
		sleep 0.1
	done
	return 1
}

# fuse_wait_gone MNT SECONDS — true once MNT is no longer a mount point.
fuse_wait_gone() {
	local i
	for i in $(seq $(($2 * 10))); do
		mountpoint -q "$1" || return 0
		sleep 0.1
	done
	return 1
}
