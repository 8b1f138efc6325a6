# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
fuse_USES := common
fuse_PKGS := fuse3
# fuse/: the FUSE server on libfuse3's low-level API, seeing only
# common/fs.h.  Its commands (`flashfs mount`, mount.fuse.flashfs) are in
# flashfs/.
MANPAGES += docs/man/flashfs-mount.1

# FUSE mount vs squashfuse_ll vs the kernel on the Debian minbase rootfs
# (build/rootfs/minbase, made by bench/scripts/bench-rootfs.sh on first
# use), one mksquashfs image per codec.
bench-fuse: all $(BUILD)/tests/tools/randread
	FF_BIN=$(abspath $(BUILD)/bin) FF_TOOLS=$(abspath $(BUILD)/tests/tools) FF_TOP=$(CURDIR) fuse/bench-fuse.sh
