# common/: what every folder needs and no format owns (see docs/ARCHITECTURE.md).
common_USES :=
common_PKGS := zlib
