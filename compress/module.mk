# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
compress_USES := common
compress_PKGS := zlib libdeflate lzo2 liblzma liblz4 libzstd

# compress/ has no programs of its own.  It contributes the codec self-test
# to `make demo`: demo-codecs runs first, then the rest of the demo (whose
# recipe lives in bench/module.mk).  Other parts can add themselves the
# same way: `demo: demo-<yours>`.
.PHONY: demo-codecs
demo: demo-codecs
demo-codecs: deps all $(BUILD)/tests/tools/codec_selftest
	$(BUILD)/tests/tools/codec_selftest
