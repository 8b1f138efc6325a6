/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public API's errors and version (<flashfs/error.h>, <flashfs/version.h>). */
#include "common/api_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <flashfs/version.h>

int ff_api_error(struct ff_error *out, const struct ff_err *in)
{
	if (out) {
		out->code = in->code ? in->code : EIO;
		snprintf(out->message, sizeof(out->message), "%s", in->msg);
	}
	return -1;
}

int ff_api_errno(struct ff_error *out, int neg_errno, const char *what)
{
	if (out) {
		out->code = -neg_errno;
		snprintf(out->message, sizeof(out->message), "%s: %s", what, strerror(-neg_errno));
	}
	return -1;
}

void ff_api_clear(struct ff_error *out)
{
	if (out) {
		out->code = 0;
		out->message[0] = '\0';
	}
}

const char *ff_version(void)
{
	return FF_VERSION_STRING;
}
