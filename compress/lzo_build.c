/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Whether this build has LZO.  liblzo2 is GPL-2.0-or-later, so `make LZO=0`
 * (which defines FF_NO_LZO) leaves it out for a pure LGPL link of
 * libflashfs; every LZO user (the SquashFS codec, the lzop stream, UBIFS and
 * JFFS2 nodes, the builders' options) then refuses by name, with the one
 * message below. */
#include "compress/compress.h"

#include <errno.h>

int ff_comp_has_lzo(void)
{
#ifdef FF_NO_LZO
	return 0;
#else
	return 1;
#endif
}

int ff_comp_no_lzo(struct ff_err *err, const char *what)
{
	return ff_err_set(err, ENOTSUP,
			  "%s: LZO is not in this build of flashfs-tools (built with `make LZO=0`, "
			  "without liblzo2)", what);
}
