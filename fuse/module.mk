# The FUSE mounter: `flashfs mount` lives in libff_fuse (fuse/cmd_mount.c);
# mount.fuse.flashfs is the helper mount(8) runs for type fuse.flashfs.
PROGRAMS += mount.fuse.flashfs
mount.fuse.flashfs_MAIN := fuse/mount_helper_main.c
MANPAGES += docs/man/flashfs-mount.1

# FUSE mount vs squashfuse_ll vs the kernel on the Debian minbase rootfs
# (build/rootfs/minbase, made by bench/scripts/bench-rootfs.sh on first
# use), one mksquashfs image per codec.
bench-fuse: all $(BUILD)/tests/tools/randread
	FF_BIN=$(abspath $(BUILD)/bin) FF_TOOLS=$(abspath $(BUILD)/tests/tools) FF_TOP=$(CURDIR) fuse/bench-fuse.sh
