################################################################################
#
# flashfs-tools
#
################################################################################

# The tarball `make dist` writes. Buildroot takes it from
# $(BR2_DL_DIR)/flashfs-tools/ when it is there; to build from a checkout
# instead, put FLASHFS_TOOLS_OVERRIDE_SRCDIR = /path/to/flashfs-tools in
# local.mk.
FLASHFS_TOOLS_VERSION = 0.3.0
FLASHFS_TOOLS_SOURCE = flashfs-tools-$(FLASHFS_TOOLS_VERSION).tar.xz
FLASHFS_TOOLS_SITE = file://$(BR2_DL_DIR)/flashfs-tools
FLASHFS_TOOLS_LICENSE = GPL-2.0+ (programs), LGPL-2.1+ (libflashfs)
FLASHFS_TOOLS_LICENSE_FILES = COPYING COPYING.LIB

# libfuse3 and libmtd have no host package: build the image builders
# only, which need neither (flashfs mount/flash stay on the build
# machine's own install).
HOST_FLASHFS_TOOLS_DEPENDENCIES = \
	host-e2fsprogs \
	host-libdeflate \
	host-lz4 \
	host-lzo \
	host-pkgconf \
	host-util-linux \
	host-xz \
	host-zlib \
	host-zstd

HOST_FLASHFS_TOOLS_PROGRAMS = \
	ffmkfs.cramfs \
	ffmkfs.erofs \
	ffmkfs.jffs2 \
	ffmkfs.ubifs \
	mkfs.romfs \
	mkfs.squashfs \
	mkfs.ubi \
	mkfs.yaffs2

define HOST_FLASHFS_TOOLS_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) \
		CC="$(HOSTCC)" CFLAGS="$(HOST_CFLAGS)" LDFLAGS="$(HOST_LDFLAGS)" \
		$(addprefix build/bin/,$(HOST_FLASHFS_TOOLS_PROGRAMS))
endef

define HOST_FLASHFS_TOOLS_INSTALL_CMDS
	$(foreach p,$(HOST_FLASHFS_TOOLS_PROGRAMS),\
		$(INSTALL) -D -m 0755 $(@D)/build/bin/$(p) $(HOST_DIR)/bin/$(p)$(sep))
endef

$(eval $(host-generic-package))
