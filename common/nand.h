/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Raw NAND facts that every reader of a NAND dump needs and no format owns:
 * the page and OOB sizes chips have (the candidates tried when a dump's
 * geometry is detected) and where a bad block is marked.  A raw dump (what
 * `nanddump -o` writes) is each page's data followed by its OOB bytes. */
#ifndef FF_COMMON_NAND_H
#define FF_COMMON_NAND_H

#include <stddef.h>
#include <stdint.h>

/* NAND page sizes, the most common first (2048, 4096, 512, ...); *n gets
 * the count. */
const uint32_t *ff_nand_page_sizes(size_t *n);

/* The usual OOB sizes for a page size, the most common first: page / 32
 * (16 per 512 bytes), then page / 16.  Returns the count written to out. */
size_t ff_nand_oob_sizes(uint32_t page_size, uint32_t out[2]);

/* 1 when the OOB of an erase block's first page carries the factory or
 * kernel bad-block marker: a byte other than 0xff at OOB byte 0 on
 * large-page chips, byte 5 on 512-byte-page chips. */
int ff_nand_block_marked_bad(const uint8_t *oob, uint32_t oob_size, uint32_t page_size);

#endif
