#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# libflashfs as a user gets it: `make install` into a staging root, the
# examples built OUTSIDE the tree against the installed headers and
# library through `pkg-config flashfs` (shared, and once fully static with
# --static), run, and their results checked with the kernel: the
# builder's image loop-mounted, and ffls's listing of an mksquashfs image
# compared with `find` on its loop mount.  Then the exported symbols, and
# `make uninstall` leaving nothing behind.
. "$(dirname "$0")/../lib.sh"

need_root
command -v pkg-config >/dev/null || skip_all "pkg-config not installed"
command -v mksquashfs >/dev/null || skip_all "mksquashfs not installed"

ROOT=$T/root
LIBDIR=$ROOT/usr/lib
# The staged install answers for /usr: the sysroot makes pkg-config's -I
# and -L point into it.
pc() { PKG_CONFIG_PATH=$LIBDIR/pkgconfig PKG_CONFIG_SYSROOT_DIR=$ROOT pkg-config "$@" flashfs; }
# Under `make asan check` the library is instrumented: the examples are
# then built with the same sanitizers, and not fully static (ASan cannot be).
SAN=() asan=
case $FF_BUILD in */asan) asan=1 SAN=(-fsanitize=address,undefined) ;; esac
# Run make in the tree as a user would, not as part of the make running us.
top_make() {
	local goals=()
	[ -n "$asan" ] && goals=(asan)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" BUILD="$FF_BUILD" \
		PREFIX=/usr DESTDIR="$ROOT" "${goals[@]}" "$@"
}

ok "make install DESTDIR=... PREFIX=/usr" top_make install
for f in bin/mkfs.squashfs bin/flashfs lib/libflashfs.a lib/libflashfs.so.0 lib/libflashfs.so \
	 include/flashfs/flashfs.h include/flashfs/reader.h include/flashfs/extract.h \
	 lib/pkgconfig/flashfs.pc \
	 share/man/man1/mkfs.squashfs.1; do
	ok "installed: $f" test -e "$ROOT/usr/$f"
done
is "$(readlink "$LIBDIR/libflashfs.so")" libflashfs.so.0 "libflashfs.so -> the soname"
is "$(objdump -p "$LIBDIR/libflashfs.so.0" | awk '$1 == "SONAME" {print $2}')" libflashfs.so.0 \
	"the shared library's soname is versioned"

# Exports: the FF_API functions of the installed headers, all ff_, all in
# the version node, and nothing else.
nm -D --defined-only "$LIBDIR/libflashfs.so.0" | awk '{print $3}' > "$T/exports"
is "$(grep -v '^FLASHFS_' "$T/exports" | grep -cv '^ff_.*@@\?FLASHFS_0\.[123]$')" 0 \
	"every exported symbol is ff_* in a version node (FLASHFS_0.1 to FLASHFS_0.3)"
for f in ff_extract ff_extract_options_init; do
	ok "the library exports $f in node FLASHFS_0.2" grep -qx "$f@@FLASHFS_0.2" "$T/exports"
done
ok "an FLASHFS_0.1 symbol keeps its node" grep -qx 'ff_reader_stat@@FLASHFS_0.1' "$T/exports"
# ff_reader_options gained size, volume and geometry in 0.3: the two
# functions taking it are FLASHFS_0.3 by default, and their 0.1 forms stay
# for programs built against the shorter struct.
for f in ff_reader_open ff_reader_options_init; do
	ok "$f: the default is FLASHFS_0.3" grep -qx "$f@@FLASHFS_0.3" "$T/exports"
	ok "$f: the FLASHFS_0.1 form stays" grep -qx "$f@FLASHFS_0.1" "$T/exports"
done
cat "$ROOT"/usr/include/flashfs/*.h | grep -A1 '^FF_API' | grep -oE 'ff_[a-z0-9_]+\(' | tr -d '(' |
	sort > "$T/declared"
is "$(sed 's/@.*//' "$T/exports" | grep '^ff_' | sort -u | diff - "$T/declared")" "" \
	"the exports are exactly the FF_API declarations of the headers"
is "$(ldd "$LIBDIR/libflashfs.so.0" | grep -cE 'libfuse|libmtd')" 0 \
	"libflashfs needs neither libfuse3 nor libmtd"

# Build the examples outside the tree, against the staged install only.
mkdir -p "$T/src" && cp "$FF_TOP"/examples/ffls.c "$FF_TOP"/examples/ffbuild.c \
	"$FF_TOP"/examples/ffextract.c "$T/src/"
cd "$T/src" || exit 2
ok "pkg-config finds flashfs" pc --exists
is "$(pc --modversion)" "$(sed -n 's/^#define FF_VERSION_STRING "\(.*\)"/\1/p' \
	"$ROOT/usr/include/flashfs/version.h")" "flashfs.pc's version is the headers'"
for e in ffls ffbuild ffextract; do
	ok "$e builds with pkg-config --cflags --libs flashfs" \
		sh -c "cc ${SAN[*]} -Wall -Wextra -Werror -o $e $e.c \$1" sh "$(pc --cflags --libs)"
	if [ -n "$asan" ]; then
		skip "ASan cannot link fully static" "$e builds fully static with pkg-config --static"
		cp "$e" "$e-static"
		continue
	fi
	ok "$e builds fully static with pkg-config --static" \
		sh -c "cc -static -o $e-static $e.c \$1 2>&1 | grep -v 'statically linked applications'; test -x $e-static" \
		sh "$(pc --static --cflags --libs)"
done
ok "ffls links libflashfs.so.0" sh -c "objdump -p ffls | grep -q 'NEEDED.*libflashfs.so.0'"
if [ -z "$asan" ]; then
	ok "the static ffls needs no shared library" sh -c "! objdump -p ffls-static | grep -q NEEDED"
fi
export LD_LIBRARY_PATH=$LIBDIR

# ffbuild's own entries, checked on the kernel's mount.
mnt() { mkdir -p "$2" && mount -o loop,ro -t squashfs "$1" "$2"; }
listing() { (cd "$1" && find . -mindepth 1 -printf '%y %m %U %G %P %l\n' | sort); }
for e in ffbuild ffbuild-static; do
	ok "$e writes an image" "./$e" "$T/$e.sqfs"
	ok "the kernel mounts $e's image" mnt "$T/$e.sqfs" "$T/m-$e"
	is "$(listing "$T/m-$e")" "c 620 0 5 dev/tty0 
d 755 0 0 dev 
d 755 0 0 etc 
d 755 0 0 var 
f 644 1000 100 etc/motd 
f 644 1000 100 etc/motd.link 
f 644 1000 100 var/empty 
l 777 0 0 etc/issue motd
p 600 0 0 dev/initctl " "$e: the tree it added"
done
M=$T/m-ffbuild
is "$(cat "$M/etc/motd")" "built with libflashfs" "a file's contents"
is "$(stat -c %i "$M/etc/motd")" "$(stat -c %i "$M/etc/motd.link")" "a hard link"
is "$(stat -c '%t,%T' "$M/dev/tty0")" "4,0" "a device's numbers"
is "$(getfattr --only-values -n user.origin "$M/etc/motd" 2>/dev/null)" ffbuild "an xattr"
is "$(stat -c %Y "$M/etc/motd")" 1700000000 "an mtime"
ok "both builds give the same bytes" cmp "$T/ffbuild.sqfs" "$T/ffbuild-static.sqfs"

# A source tree with every kind of entry, imaged by mksquashfs.
S=$T/tree
mkdir -p "$S/a/b/c" "$S/empty" "$S/dev"
printf 'hello\n' > "$S/a/hello"
head -c 300000 /dev/urandom > "$S/a/b/big"
ln "$S/a/hello" "$S/a/b/c/hello-link"
ln -s ../a/hello "$S/empty/../sym"
mkfifo "$S/dev/fifo"
mknod "$S/dev/null" c 1 3
chown 1234:567 "$S/a/b/big"
chmod 4751 "$S/a/b/c"
mksquashfs "$S" "$T/mk.sqfs" -comp zstd -quiet -no-progress >/dev/null
ok "the kernel mounts the mksquashfs image" mnt "$T/mk.sqfs" "$T/m-mk"
(cd "$T/m-mk" && find . -mindepth 1 \( -type f -printf 'f %m %U %G %s %P\n' \) -o \
	\( -type l -printf 'l %m %U %G 0 %P -> %l\n' \) -o -printf '%y %m %U %G 0 %P\n' | sort) \
	> "$T/want"
./ffls "$T/mk.sqfs" | sort > "$T/got"
is "$(diff "$T/want" "$T/got")" "" "ffls lists the image as find lists its mount"
is "$(wc -l < "$T/got")" 11 "ffls lists all 11 entries"
./ffls-static "$T/mk.sqfs" | sort > "$T/got-static"
ok "the static ffls lists the same" cmp "$T/got" "$T/got-static"

# ffextract: ff_extract through the installed library, the tree compared
# with the kernel's mount of the same image.
ok "ffextract unpacks the mksquashfs image" ./ffextract "$T/mk.sqfs" "$T/x"
same_manifest "ffextract's tree is the kernel's" "$T/m-mk" "$T/x"
is "$(./ffextract "$T/mk.sqfs" "$T/x1" /a/hello)" "$T/x1: 6 of 6 file bytes written" \
	"ffextract IMAGE DIR PATH: one file, with its progress counted"
ok "... only that file" test "$(find "$T/x1" -type f)" = "$T/x1/a/hello"

# Offsets and block devices.
{ head -c 8192 /dev/zero; cat "$T/mk.sqfs"; } > "$T/blob"
is "$(./ffls "$T/blob" 8192 | sort | diff - "$T/got")" "" "ffls IMAGE OFFSET"
if dev=$(losetup -f --show -r "$T/mk.sqfs" 2>/dev/null); then
	is "$(./ffls "$dev" | sort | diff - "$T/got")" "" "ffls on a block device ($dev)"
	losetup -d "$dev"
else
	skip "losetup failed" "ffls on a block device"
fi
fails "ffls on a file that is no image fails" ./ffls "$S/a/hello"

# The options' UBI volume: ubinize's image of two volumes, each listed as
# find lists the kernel's mount of the SquashFS image in it.
if command -v ubinize >/dev/null; then
	printf '[a]\nmode=ubi\nimage=%s\nvol_id=0\nvol_name=rootfs_a\n[b]\nmode=ubi\nimage=%s\nvol_id=1\nvol_name=rootfs_b\n' \
		"$T/mk.sqfs" "$T/dir.sqfs.in" > "$T/ab.ini"
	ffbuild_ok=1
	./ffbuild "$T/dir.sqfs.in" "$S/a" || ffbuild_ok=0
	ubinize -o "$T/ab.ubi" -p 128KiB -m 2048 "$T/ab.ini" >/dev/null 2>&1 || ffbuild_ok=0
	is "$ffbuild_ok" 1 "ubinize: an image of two volumes"
	is "$(./ffls "$T/ab.ubi" 0 rootfs_a | sort | diff - "$T/got")" "" "ffls IMAGE 0 rootfs_a: that volume"
	./ffls "$T/ab.ubi" 0 1 | sort > "$T/got-b"
	mnt "$T/dir.sqfs.in" "$T/m-b"
	(cd "$T/m-b" && find . -mindepth 1 \( -type f -printf 'f %m %U %G %s %P\n' \) -o \
		\( -type l -printf 'l %m %U %G 0 %P -> %l\n' \) -o -printf '%y %m %U %G 0 %P\n' | sort) \
		> "$T/want-b"
	is "$(diff "$T/want-b" "$T/got-b")" "" "ffls IMAGE 0 1 (an ID): the other volume, as the kernel mounts it"
	fails "ffls IMAGE 0 nosuch fails" ./ffls "$T/ab.ubi" 0 nosuch
else
	skip "ubinize (mtd-utils) missing" "the options' UBI volume"
fi

# A program built against 0.2's header (the struct without size) still
# runs: bound to the FLASHFS_0.1 forms as ld bound it then.
cat > old.c <<'OLD'
#include <stdint.h>
#include <stdio.h>
struct ff_reader;
struct ff_error { int code; char message[512]; };
struct old_options { uint64_t offset, cache_bytes; void (*log)(void *, const char *); void *log_ctx; };
void ff_reader_options_init(struct old_options *o);
int ff_reader_open(const char *path, const struct old_options *o, struct ff_reader **r,
		   struct ff_error *err);
const char *ff_reader_format(const struct ff_reader *r);
__asm__(".symver ff_reader_options_init, ff_reader_options_init@FLASHFS_0.1");
__asm__(".symver ff_reader_open, ff_reader_open@FLASHFS_0.1");
int main(int argc, char **argv)
{
	struct old_options o;
	struct ff_reader *r;
	struct ff_error err;
	(void)argc;
	ff_reader_options_init(&o);
	o.offset = 8192;
	if (ff_reader_open(argv[1], &o, &r, &err))
		return fprintf(stderr, "%s\n", err.message), 1;
	puts(ff_reader_format(r));
	return 0;
}
OLD
if [ -z "$asan" ]; then
	ok "a 0.2-era program builds against the 0.1 symbols" sh -c "cc -o old old.c \$1" sh "$(pc --libs)"
	is "$(./old "$T/blob")" squashfs "... and opens an image at an offset through them"
	ok "... bound to FLASHFS_0.1" sh -c "objdump -T old | grep -q 'FLASHFS_0.1.*ff_reader_open'"
fi
is "$(./ffls "$S/a/hello" 2>&1)" \
	"ffls: $S/a/hello: not an image flashfs knows (see flashfs formats)" \
	"the message names the file and the problem"

# ffbuild DIR: the directory scanner through the library.
ok "ffbuild IMAGE DIR" ./ffbuild "$T/dir.sqfs" "$S"
ok "the kernel mounts it" mnt "$T/dir.sqfs" "$T/m-dir"
is "$(listing "$T/m-dir")" "$(listing "$S")" "its tree is the source's"
ok "file contents survive" cmp "$S/a/b/big" "$T/m-dir/a/b/big"

cd "$T" || exit 2
umount "$T"/m-* 2>/dev/null
ok "make uninstall" top_make uninstall
is "$(find "$ROOT" ! -type d | sed "s|^$ROOT||")" "" "make uninstall leaves no file or link behind"
done_testing
