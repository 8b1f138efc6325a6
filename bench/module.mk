# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
bench_USES := image tree compress common
# bench/: the library behind `flashfs bench` (flashfs/cmd_bench.c); this
# file adds the demo and the benchmark targets.
#
#   make demo          the main job on the bundled embedded rootfs
#   make bench-rootfs  debootstrap a Debian minbase rootfs into build/rootfs/minbase
#   make bench-mkfs    mkfs.squashfs vs mksquashfs, Debian's and with ANCHORS=DIR
#                      4.7.5 (time, size, RSS), and against the codec floor
#   make bench-read    flashfs extract vs unsquashfs (Debian's, 4.7.5 with
#                      ANCHORS=DIR), and lzo/xz against the decoder floor
#   make bench-yaffs2  mkfs.yaffs2 vs dd of the same bytes
#   make bench-jffs2   ffmkfs.jffs2 vs mkfs.jffs2 (zlib; time, identical bytes)
#   make bench-cramfs  ffmkfs.cramfs vs mkfs.cramfs, mkfs.romfs vs genromfs
#                      (time, CPU, RSS ratios; identical bytes)
#   make bench-erofs   ffmkfs.erofs vs mkfs.erofs 1.5 (and 1.9.3 with ANCHORS=DIR):
#                      size, time, RSS ratios on generated trees and minbase
#   make bench-ubifs   ffmkfs.ubifs vs mkfs.ubifs (lzo, zstd; median time, sizes)
#   make bench-scale   10k/100k/1M small files: mkfs.squashfs vs gensquashfs
#                      and mksquashfs (BENCH_SCALE_SIZES, BENCH_SCALE_LIMIT)
#                      BENCH_SCALE_STREAM="1m 10m": N files from a generated
#                      tar stream into `mkfs.squashfs -` and ffmkfs.erofs,
#                      no tree on disk (bench/scripts/gen-tar-stream.py)
#   make embedded-rootfs
#
# compress/module.mk adds `demo: demo-codecs`; the recipe of `demo` is here.

BENCH_ENV := FF_BIN=$(abspath $(BUILD)/bin) FF_TOP=$(CURDIR) FF_BUILD=$(abspath $(BUILD))

.PHONY: embedded-rootfs
embedded-rootfs:
	bench/rootfs/make-embedded-rootfs.sh build/embedded-rootfs

demo: deps all
	$(BENCH_ENV) DEMO_OUT=$(abspath $(BUILD))/demo bench/scripts/demo.sh

bench-rootfs:
	bench/scripts/bench-rootfs.sh build/rootfs/minbase

# Both print the codec floor (tests/tools/codec_floor); ANCHORS=DIR (a
# build-anchors.sh output) adds the newest mksquashfs/unsquashfs.
bench-mkfs: all $(BUILD)/tests/tools/codec_floor
	$(BENCH_ENV) bench/scripts/bench-mkfs.sh

bench-read: all $(BUILD)/tests/tools/codec_floor
	$(BENCH_ENV) bench/scripts/bench-read.sh

bench-yaffs2: all
	$(BENCH_ENV) bench/scripts/bench-yaffs2.sh

bench-jffs2: all
	$(BENCH_ENV) bench/scripts/bench-jffs2.sh

bench-cramfs: all
	$(BENCH_ENV) bench/scripts/bench-cramfs.sh

bench-erofs: all
	$(BENCH_ENV) bench/scripts/bench-erofs.sh

bench-ubifs: all
	$(BENCH_ENV) bench/scripts/bench-ubifs.sh

bench-scale: all
	$(BENCH_ENV) bench/scripts/bench-scale.sh

MANPAGES += docs/man/flashfs-bench.1
