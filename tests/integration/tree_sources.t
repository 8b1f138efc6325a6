#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The mkfs source-tree model: a directory, GNU tar archives of it in every
# format (ustar, gnu, posix, sparse 0.0/0.1/1.0, compressed, stdin) and a spec
# file describing it must all give the identical finished tree (tree_dump
# prints one line per node, content summarised by crc32).  The tree written
# back out (tree_dump --extract) must match the source under manifest.py.
. "$(dirname "$0")/../lib.sh"

TD=$FF_TOOLS/tree_dump
[ -x "$TD" ] || skip_all "tree_dump not built ($TD)"
command -v tar >/dev/null || skip_all "GNU tar not installed"
need_root # devices, foreign owners, security.* xattrs

S=$T/src
N200=$(printf 'n%.0s' $(seq 200))
T150=$(printf 't%.0s' $(seq 150))

make_source() {
	mkdir -p "$S/dir/sub" "$S/empty dir" "$S/$N200/$N200"
	printf 'hello\n' > "$S/file"
	head -c 300000 /dev/urandom > "$S/dir/random"
	: > "$S/dir/empty-file"
	ln "$S/file" "$S/dir/sub/hardlink"
	ln "$S/file" "$S/zlink"
	ln -s ../file "$S/dir/symlink"
	ln -s "$T150/$T150" "$S/longtarget"
	mkfifo "$S/fifo"
	mknod "$S/dir/null" c 1 3
	mknod "$S/dir/loop0" b 7 0
	echo deep > "$S/$N200/$N200/file"
	echo spaced > "$S/empty dir/with space"
	printf 'caf\xc3\xa9\n' > "$S/caf$(printf '\xc3\xa9')"
	# sparse: 6 data islands (more than the 4 an old GNU header holds)
	truncate -s 5M "$S/sparse"
	for i in 0 1 2 3 4 5; do
		printf 'island %d' "$i" | dd of="$S/sparse" bs=1 seek=$((i * 700000 + 4096)) conv=notrunc 2>/dev/null
	done
	chown 1234:5678 "$S/dir/random"
	chown -h 42:43 "$S/dir/symlink"
	chmod 4755 "$S/dir/random"
	chmod 1777 "$S/dir/sub"
	chmod 0600 "$S/fifo"
	HAVE_XATTR=0
	if setfattr -n user.test -v hello "$S/file" 2>/dev/null; then
		HAVE_XATTR=1
		setfattr -n security.capability -v 0x0100000200200000000000000000000000000000 "$S/dir/random"
		setfattr -n user.dir -v 0x00ff "$S/dir"
	fi
	find "$S" -exec touch -h -d @1600000000 {} +
	touch -h -d @1234567890 "$S/dir/symlink" "$S/dir/random"
	touch -d @1700000000 "$S/dir/sub" "$S"
}
make_source

"$TD" "$S" > "$T/dir.out" 2> "$T/err"
ok "scan the source directory" test -s "$T/dir.out"
is "$(grep -c '' "$T/dir.out")" "$(($(find "$S" | wc -l)))" "one line per node"
is "$(awk '$1 == "file" {print $8}' "$T/dir.out")" 3 "hard-linked file has nlink 3"
is "$(awk '$1 == "file" {print $11}' "$T/dir.out")" dir/sub/hardlink \
	"hard-link primary is the first name in pre-order, whatever readdir says"

rm -rf "$T/x"
ok "write the tree back out" "$TD" --extract "$T/x" "$S"
same_manifest "written-out tree matches the source (manifest.py)" "$S" "$T/x" --root-entry

# tar archives of the same directory give the identical tree
xtar() { # FILE OPTIONS...: archive $S
	local f=$1
	shift
	tar -C "$S" "$@" -cf "$f" . 2> "$T/tar.err"
}

XA=--xattrs
[ "$HAVE_XATTR" = 1 ] || XA=
xtar "$T/posix.tar" --format=posix $XA --xattrs-include='*'
is "$("$TD" --tar "$T/posix.tar" | diff "$T/dir.out" - && echo same)" same "posix (pax) tar == directory"

"$TD" --no-xattrs "$S" > "$T/dir-nox.out"
xtar "$T/gnu.tar" --format=gnu
is "$("$TD" --no-xattrs --tar "$T/gnu.tar" | diff "$T/dir-nox.out" - && echo same)" same \
	"gnu tar (long names 'L'/'K') == directory"

# ustar cannot hold the 200-byte name or the 301-byte link target
EX=(-e "$N200" -e longtarget)
"$TD" --no-xattrs "${EX[@]}" "$S" > "$T/dir-ustar.out"
xtar "$T/ustar.tar" --format=ustar --exclude="./$N200" --exclude=./longtarget
is "$("$TD" --no-xattrs "${EX[@]}" --tar "$T/ustar.tar" | diff "$T/dir-ustar.out" - && echo same)" \
	same "ustar tar == directory"

for v in 0.0 0.1 1.0; do
	xtar "$T/sparse$v.tar" --format=posix $XA --xattrs-include='*' --sparse --sparse-version=$v
	is "$("$TD" --tar "$T/sparse$v.tar" | diff "$T/dir.out" - && echo same)" same \
		"posix sparse $v tar == directory"
done
xtar "$T/gnusparse.tar" --format=gnu --sparse
is "$("$TD" --no-xattrs --tar "$T/gnusparse.tar" | diff "$T/dir-nox.out" - && echo same)" same \
	"old GNU sparse ('S' with extension blocks) tar == directory"
ok "the sparse archive really is sparse (smaller than the 5 MB file)" \
	test "$(stat -c %s "$T/gnusparse.tar")" -lt 2000000

is "$("$TD" --tar - < "$T/posix.tar" | diff "$T/dir.out" - && echo same)" same "tar from stdin"

for z in gzip xz zstd; do
	if ! command -v $z >/dev/null; then
		skip "$z not installed" "$z-compressed tar"
		skip "$z not installed" "$z-compressed tar on stdin"
		continue
	fi
	$z -c < "$T/posix.tar" > "$T/posix.tar.$z"
	is "$("$TD" --tar "$T/posix.tar.$z" | diff "$T/dir.out" - && echo same)" same "$z-compressed tar"
	is "$("$TD" --tar - < "$T/posix.tar.$z" | diff "$T/dir.out" - && echo same)" same \
		"$z-compressed tar on stdin"
done

rm -rf "$T/x"
ok "write a tar-sourced tree back out" "$TD" --extract "$T/x" --tar "$T/sparse1.0.tar"
same_manifest "tar-sourced tree matches the source (manifest.py)" "$S" "$T/x" --root-entry

# a spec file describing the same directory gives the identical tree
python3 "$FF_TOP/tests/tools/tree_spec_from_dir.py" "$S" > "$T/gen.spec"
ok "generate a spec file from the source" test -s "$T/gen.spec"
is "$("$TD" --spec "$T/gen.spec" | diff "$T/dir.out" - && echo same)" same "spec file == directory"
# a spec over the directory that restates it changes nothing
is "$("$TD" "$S" --spec "$T/gen.spec" | diff "$T/dir.out" - && echo same)" same \
	"directory + restating spec == directory"

# global options
"$TD" --all-root --clamp 1650000000 "$S" > "$T/opts.out"
is "$(awk '$4 != 0 || $5 != 0' "$T/opts.out" | wc -l)" 0 "--all-root: every uid and gid is 0"
is "$(awk '$7 > 1650000000' "$T/opts.out" | wc -l)" 0 "clamp: no mtime after SOURCE_DATE_EPOCH"
is "$(awk '$7 == 1600000000' "$T/opts.out" | wc -l)" "$(awk '$7 == 1600000000' "$T/dir.out" | wc -l)" \
	"clamp: older mtimes untouched"
is "$("$TD" --force-uid 7 --all-time 5 "$S" | awk '$4 != 7 || $7 != 5' | wc -l)" 0 \
	"--force-uid and all-time"

# excludes: the same as scanning a copy without the excluded subtree
cp -a "$S" "$T/copy"
rm -rf "$T/copy/dir" "$T/copy/sparse"
touch -d @1700000000 "$T/copy"
"$TD" "$T/copy" > "$T/copy.out"
is "$("$TD" -e dir -e 'spa*' "$S" | diff "$T/copy.out" - && echo same)" same \
	"-e excludes a directory's whole subtree and globs"
is "$("$TD" -e dir -e 'spa*' --tar "$T/posix.tar" | diff "$T/copy.out" - && echo same)" same \
	"the same excludes on a tar source"

# pseudo definitions and spec lines on top of a directory
"$TD" "$S" --spec <(printf 'nod /dev/console 0600 0 0 c 5 1\nattr /file 0640 - -\n') \
	-p 'dev/hi f 644 0 0 echo hi' > "$T/over.out"
is "$(awk '$1 == "dev/console" {print $2, $3, $4, $5, $10}' "$T/over.out")" "chr 0600 0 0 5,1" \
	"spec adds /dev/console c 5 1 as root, mode 0600"
is "$(awk '$1 == "file" {print $3, $4}' "$T/over.out")" "0640 0" "spec attr overrides a scanned file"
is "$(awk '$1 == "dev/hi" {print $6, $13}' "$T/over.out")" "3 $(printf 'hi\n' | python3 -c \
	'import sys,zlib; print("%08x" % zlib.crc32(sys.stdin.buffer.read()))')" "pseudo f stores command output"

# one file system: a mount point stays as an empty directory
S2=$T/ofs
mkdir -p "$S2/mnt" "$S2/keep"
echo k > "$S2/keep/k"
if mount -t tmpfs none "$S2/mnt" 2>/dev/null; then
	echo inside > "$S2/mnt/inside"
	ok "without --one-file-system the mount is followed" sh -c "'$TD' '$S2' | grep -q '^mnt/inside '"
	"$TD" --one-file-system "$S2" > "$T/ofs.out"
	is "$(awk '{print $1}' "$T/ofs.out" | tr '\n' ' ')" ". keep keep/k mnt " \
		"--one-file-system keeps the mount point, not its contents"
	umount "$S2/mnt"
else
	skip "cannot mount tmpfs here" "one file system"
	skip "cannot mount tmpfs here" "one file system (2)"
fi

# bad input: a message naming the file and the problem, non-zero exit
head -c 2000 "$T/gnu.tar" > "$T/trunc.tar"
fails "truncated tar fails" "$TD" --tar "$T/trunc.tar"
ok "  ...naming the archive and the offset" \
	sh -c "'$TD' --tar '$T/trunc.tar' 2>&1 | grep -q 'trunc.tar: unexpected end of archive at offset'"
python3 -c '
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.GNU_FORMAT) as t:
    i = tarfile.TarInfo("../../etc/evil"); i.size = 1
    t.addfile(i, io.BytesIO(b"x"))' "$T/evil.tar"
ok "'..' member is refused, naming it" \
	sh -c "'$TD' --tar '$T/evil.tar' 2>&1 | grep -q 'member \"../../etc/evil\": path contains a \"..\" component'"
fails "'..' member fails" "$TD" --tar "$T/evil.tar"
head -c 5000 /dev/urandom > "$T/noise"
fails "random bytes are not a tar" "$TD" --tar "$T/noise"
fails "missing archive" "$TD" --tar "$T/nonexistent.tar"

# unreadable directory as an unprivileged user: an error, or a warning with
# --ignore-errors
if command -v setpriv >/dev/null; then
	S3=$T/priv
	mkdir -p "$S3/open" "$S3/closed"
	echo x > "$S3/closed/secret"
	echo y > "$S3/open/ok"
	echo z > "$S3/open/private"
	chmod 0600 "$S3/open/private"
	chmod 0700 "$S3/closed"
	chmod 755 "$T"
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fails "unreadable directory is an error" "${NOBODY[@]}" "$TD" "$S3"
	ok "  ...naming it" sh -c "$(printf '%q ' "${NOBODY[@]}") '$TD' '$S3' 2>&1 | grep -q 'closed: cannot open directory'"
	"${NOBODY[@]}" "$TD" --ignore-errors "$S3" > "$T/ign.out" 2> "$T/ign.err"
	is "$(awk '{print $1}' "$T/ign.out" | tr '\n' ' ')" ". open open/ok " \
		"--ignore-errors skips the unreadable directory and file"
	ok "  ...with a warning naming each" sh -c "grep -q 'closed: cannot open directory' '$T/ign.err' &&
		grep -q 'open/private: cannot open file' '$T/ign.err'"
else
	skip "setpriv not installed" "unreadable directory"
fi

# images: the same content as a directory, a tar archive and a spec file
# must give byte-identical images (the writers only ever see the tree)
same_images() { # NAME PROGRAM SRC_DIR TAR [OPTIONS...]
	local name=$1 prog=$2 src=$3 tarf=$4 d=$T/img
	shift 4
	mkdir -p "$d"
	if ! "$prog" --help >/dev/null 2>&1; then
		skip "$prog is not available in this build" "$name: directory, tar and spec images identical"
		return
	fi
	python3 "$FF_TOP/tests/tools/tree_spec_from_dir.py" "$src" > "$d/$name.spec"
	"$prog" -q "$@" "$src" "$d/$name.dir.img" &&
	"$prog" -q "$@" "$tarf" "$d/$name.tar.img" &&
	"$prog" -q "$@" --spec "$d/$name.spec" "$d/$name.spec.img"
	ok "$name: directory, tar and spec images identical" sh -c \
		"cmp '$d/$name.dir.img' '$d/$name.tar.img' && cmp '$d/$name.dir.img' '$d/$name.spec.img'"
}
same_images squashfs mkfs.squashfs "$S" "$T/sparse1.0.tar" --mkfs-time 0

# YAFFS2 cannot hold the 301-byte symlink target; give it a copy without
cp -a "$S" "$T/ysrc"
rm -rf "$T/ysrc/longtarget" "$T/ysrc/$N200"
touch -d @1700000000 "$T/ysrc"
tar -C "$T/ysrc" --format=posix $XA --xattrs-include='*' -cf "$T/ysrc.tar" .
same_images yaffs2 mkfs.yaffs2 "$T/ysrc" "$T/ysrc.tar"

# big trees: 100,000 nodes, 5000-entry directories, directory == tar
python3 - "$T/big" <<'EOF'
import os, sys
for d in range(20):
    p = os.path.join(sys.argv[1], 'd%02d' % d)
    os.makedirs(p)
    for f in range(5000):
        open(os.path.join(p, 'f%05d' % (4999 - f)), 'w').close()
EOF
tar -C "$T/big" -cf "$T/big.tar" .
is "$("$TD" --summary "$T/big")" "nodes 100021 bytes 0" "100,000-node directory"
is "$("$TD" "$T/big" | md5sum)" "$("$TD" --tar "$T/big.tar" | md5sum)" "100,000-node tar == directory"

done_testing
