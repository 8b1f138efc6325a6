#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.jffs2 against Debian's mkfs.jffs2 and sumtool (mtd-utils 2.1.5):
# for a generated tree and mkfs.jffs2's option sets (byte orders, erase
# sizes, padding, cleanmarkers, each compressor selection and mode,
# squashing, xattrs) the images must be the same bytes (cmp), and with
# --summary the same as mkfs.jffs2's image run through sumtool.  Our
# reader must extract our image as the source.  mkfs.jffs2 stamps nodes
# with the files' mtimes, so the tree's times are fixed (touch -d); its
# directory order is alphasort's (strcmp in the C locale), which is ours.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.jffs2 > /dev/null || skip_all "mkfs.jffs2 (mtd-utils) not installed"
command -v sumtool > /dev/null || skip_all "sumtool (mtd-utils) not installed"

S=$T/src
mkdir -p "$S/dir/sub" "$S/empty" "$S/many" "$S/deep/a/b/c"
head -c 200000 /dev/urandom > "$S/rand"
seq 1 50000 > "$S/numbers"
printf 'x' > "$S/one"
: > "$S/zero"
truncate -s 1000000 "$S/sparse"
printf 'abc' | dd of="$S/sparse" bs=1 seek=500000 conv=notrunc status=none
head -c 4096 /dev/zero > "$S/zeros4k"
ln -s numbers "$S/link"
ln -s "$(printf 'l%.0s' $(seq 200))" "$S/longlink"
ln "$S/numbers" "$S/dir/hard"
ln "$S/one" "$S/deep/a/b/c/hard2"
printf 'é n\n' > "$S/dir/sp ace é"
printf 'nl' > "$S/dir/new
line"
for i in $(seq 1 30); do seq "$i" 3000 > "$S/many/f$i"; done
seq 1 9000 > "$S/deep/a/b/c/f"
chmod 0741 "$S/one"
chmod 1777 "$S/empty"
chmod 4755 "$S/deep/a/b/c/f"
chmod 0666 "$S/dir/sub" 2> /dev/null; chmod 0775 "$S/dir/sub"
if [ "$(id -u)" = 0 ]; then
	chown 12:34 "$S/one"
	mkfifo "$S/fifo"
	mknod "$S/chr" c 4 5
	mknod "$S/blk" b 8 1 # mkfs.jffs2 stores 16-bit device numbers
fi
python3 -c 'import os, sys
for p, n, v in ((sys.argv[1] + "/one", "user.a", b"1"), (sys.argv[1] + "/one", "user.b", b"22"),
                (sys.argv[1] + "/dir", "user.a", b"1"), (sys.argv[1] + "/rand", "trusted.t", b"t" * 40)):
    os.setxattr(p, n, v)' "$S"
find "$S" -exec touch -h -d '2021-02-03 04:05:06' {} +
touch -h -d @1000000000 "$S/deep/a/b/c/f" "$S/link"

# same_image OPTIONS... — mkfs.jffs2 and ffmkfs.jffs2 agree.
same_image() {
	rm -f "$T/ref.img" "$T/our.img"
	mkfs.jffs2 "$@" -r "$S" -o "$T/ref.img" 2> /dev/null
	ffmkfs.jffs2 "$@" -r "$S" -o "$T/our.img" 2> "$T/our.err"
	ok "ffmkfs.jffs2 $*: the same bytes as mkfs.jffs2" cmp "$T/ref.img" "$T/our.img"
}

for opts in "" "-l" "-b" "-e 8KiB" "-b -e 16KiB -n" "-l -e 0x20000 -p" "-b -e 256 -n -p" \
	"-p0x180000" "-n -p0x180000" "-e 4" "-c 16 -e 16KiB" "-x zlib -X rtime" \
	"-b -X lzo" "-x zlib -X lzo -e 32KiB" "-m size" "-m size -X lzo -b" \
	"-m favourlzo -X lzo" "-m none -n" "-y 90:rtime" "-s 8192 -e 64" "-q" "-U -P -b" \
	"-f" "--with-xattr" "--with-xattr -b -e 8KiB"; do
	# shellcheck disable=SC2086
	same_image $opts
done

# --summary: as `mkfs.jffs2 OPTIONS | sumtool` with the same options.
same_summary() {
	local sopts=$1
	shift
	rm -f "$T/plain.img" "$T/ref.img" "$T/our.img"
	mkfs.jffs2 "$@" -r "$S" -o "$T/plain.img" 2> /dev/null
	# shellcheck disable=SC2086
	sumtool $sopts -i "$T/plain.img" -o "$T/ref.img" 2> /dev/null
	ffmkfs.jffs2 --summary "$@" -r "$S" -o "$T/our.img" 2> /dev/null
	ok "ffmkfs.jffs2 --summary $*: the same bytes as sumtool's" cmp "$T/ref.img" "$T/our.img"
}
same_summary "" 
same_summary "-b -e 0x20000" -b -e 128KiB
same_summary "-l -n" -l -n
same_summary "-p -e 8KiB" -p -e 8
same_summary "-b -p -n -e 0x40000" -b -p -n -e 256
same_summary "-c 16 -e 16KiB" -c 16 -e 16
same_summary "" --with-xattr -X lzo

# The same bytes whatever the number of threads, and on standard output.
ffmkfs.jffs2 -j 1 -r "$S" -o "$T/j1.img" 2> /dev/null
ffmkfs.jffs2 -j 5 -r "$S" -o "$T/j5.img" 2> /dev/null
ok "-j 1 and -j 5 give the same bytes" cmp "$T/j1.img" "$T/j5.img"
mkfs.jffs2 -r "$S" -o "$T/ref.img" 2> /dev/null
ffmkfs.jffs2 -r "$S" > "$T/stdout.img" 2> /dev/null
ok "without -o the image goes to standard output" cmp "$T/ref.img" "$T/stdout.img"
(cd "$S" && ffmkfs.jffs2 -o "$T/cwd.img" 2> /dev/null)
ok "without -r the current directory is the source" cmp "$T/ref.img" "$T/cwd.img"
tar -C "$S" -cf "$T/src.tar" .
ffmkfs.jffs2 -r "$T/src.tar" -o "$T/tar.img" 2> /dev/null
ok "a tar of the tree gives the directory's image" cmp "$T/ref.img" "$T/tar.img"

# Our reader extracts our image as the source (directories without their
# times: the reader takes a directory's newest dirent's, see jffs2_read.t).
nodirtime() { sed -E 's/^(.* dir [0-7]+ [0-9-]+:[0-9-]+ - )[0-9]+/\1-/'; }
for opts in "-b -e 16KiB --with-xattr" "-l -X lzo -x zlib --summary --with-xattr"; do
	# shellcheck disable=SC2086
	ffmkfs.jffs2 $opts -r "$S" -o "$T/r.img" 2> /dev/null
	rm -rf "$T/out"
	flashfs extract -C "$T/out" "$T/r.img" > /dev/null 2>&1
	is "$?" 0 "$opts: flashfs extract exits 0"
	# the long symlink is stored cut at 254 bytes, as mkfs.jffs2 does
	rm "$T/out/longlink"
	$MANIFEST "$S" | grep -v longlink | nodirtime > "$T/m.src"
	$MANIFEST "$T/out" | nodirtime > "$T/m.out"
	ok "$opts: the extracted tree equals the source" diff "$T/m.src" "$T/m.out"
done

# Source options mkfs.jffs2 lacks: a spec file and --all-root.
printf 'dir /etc 0755 0 0\nfile /etc/motd 0644 0 0 %s\nnod /dev/null 0666 0 0 c 1 3\n' \
	"$S/one" > "$T/spec"
ffmkfs.jffs2 --spec "$T/spec" -o "$T/spec.img" 2> /dev/null
is "$(flashfs ls -R "$T/spec.img" | sort | tr '\n' ' ')" "/dev /dev/null /etc /etc/motd " \
	"--spec alone describes the tree"

# Errors: a message, exit 2, no image.
for bad in "-e 12Q" "-x gzip" "-m fastest" "-c 8" "-e 8 -c 8192" "-s 0" "-y rtime" "-j 0" \
	"--no-such-option"; do
	# shellcheck disable=SC2086
	fails "ffmkfs.jffs2 $bad is refused" ffmkfs.jffs2 $bad -r "$S" -o "$T/bad.img"
	ok "... and leaves no image" test ! -e "$T/bad.img"
done
fails "a missing source directory is refused" ffmkfs.jffs2 -r "$T/nonesuch" -o "$T/bad.img"
ok "... and leaves no image" test ! -e "$T/bad.img"
printf 'file /gone 0644 0 0 %s\n' "$T/vanished" > "$T/spec2"
fails "a source file that is gone is an error" ffmkfs.jffs2 --spec "$T/spec2" -o "$T/bad.img"
ok "... and leaves no image" test ! -e "$T/bad.img"
ffmkfs.jffs2 --spec "$T/spec2" -o "$T/bad.img" 2> "$T/err.txt"
ok "... naming the file" grep -q vanished "$T/err.txt"
# -D: the device table (Buildroot's makedevs format) through the tree's one
# parser.  mkfs.jffs2 stamps the entries it makes with the current time, so
# the listings are compared without times (ours take the image time).
printf '/dev d 755 0 0 - - - - -\n/dev/ttyS c 666 0 5 4 64 0 1 3\n/dev/null c 666 0 0 1 3 0 0 -\n' > "$T/dt"
mkfs.jffs2 -r "$S" -o "$T/dt-ref.img" -D "$T/dt" -e 65536 2> /dev/null
ok "-D device table: built" ffmkfs.jffs2 -r "$S" -o "$T/dt.img" -D "$T/dt" -e 65536
is "$(flashfs ls -l "$T/dt.img" /dev | awk '{print $1, $2, $3, $NF}')" \
	"$(flashfs ls -l "$T/dt-ref.img" /dev | awk '{print $1, $2, $3, $NF}')" \
	"-D: the same device nodes, modes and owners as mkfs.jffs2 -D"
done_testing
