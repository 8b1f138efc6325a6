# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
SUMMARY = "Builders of flash file system images (SquashFS, EROFS, CramFS, romfs, YAFFS2, UBIFS, JFFS2, UBI)"
DESCRIPTION = "mkfs.squashfs, mkfs.yaffs2, mkfs.ubi and mkfs.romfs, and \
ffmkfs.cramfs, ffmkfs.jffs2, ffmkfs.ubifs and ffmkfs.erofs, which take the \
command lines of mksquashfs, yaffs2utils, ubinize, genromfs, mkfs.cramfs, \
mkfs.jffs2, mkfs.ubifs and mkfs.erofs. flashfs-tools-native builds a \
rootfs image in IMAGE_CMD; see docs/integration.md."
SECTION = "devel"
LICENSE = "GPL-2.0-or-later & LGPL-2.1-or-later"
LIC_FILES_CHKSUM = "file://COPYING;md5=b234ee4d69f5fce4486a80fdaf4a4263 \
                    file://COPYING.LIB;md5=4fbd65380cdd255951079008b364516c"

# The tarball `make dist` writes, from a directory on FILESPATH (next to
# this recipe, in files/); or set SRC_URI to your git server and SRCREV.
SRC_URI = "file://flashfs-tools-${PV}.tar.xz"
S = "${WORKDIR}/flashfs-tools-${PV}"

# libdeflate is in meta-oe; flashfs-tools-native needs libdeflate-native:
# add BBCLASSEXTEND = "native" to it in a libdeflate_%.bbappend.
DEPENDS = "zlib libdeflate lzo xz lz4 zstd util-linux e2fsprogs"

inherit pkgconfig

# The image builders only: they need neither libfuse3 nor libmtd
# (flashfs, its FUSE mount and flash writer are not built here).
FLASHFS_PROGRAMS = "mkfs.squashfs mkfs.yaffs2 mkfs.ubi mkfs.romfs \
                    ffmkfs.cramfs ffmkfs.jffs2 ffmkfs.ubifs ffmkfs.erofs"

EXTRA_OEMAKE = "CC='${CC}' CFLAGS='${CFLAGS}' LDFLAGS='${LDFLAGS}'"

do_compile() {
	oe_runmake $(for p in ${FLASHFS_PROGRAMS}; do printf 'build/bin/%s ' $p; done)
}

do_install() {
	install -d ${D}${bindir} ${D}${mandir}/man1
	for p in ${FLASHFS_PROGRAMS}; do
		install -m 0755 ${S}/build/bin/$p ${D}${bindir}/$p
		install -m 0644 ${S}/docs/man/$p.1 ${D}${mandir}/man1/$p.1
	done
}

BBCLASSEXTEND = "native"
