/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* YAFFS2 on NAND: its images carry the tags beside each page, which go to
 * the OOB through MTD_OPS_AUTO_OOB.  This builds the page map (common/
 * flashmap.h) the flash layer writes and dumps with, from the user's
 * description or from the image itself, and refuses a layout the device
 * cannot hold. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaffs2/flash_map.h"
#include "yaffs2/scan.h"

static void y2_split(const void *ctx, const uint8_t *raw, uint8_t *data, uint8_t *oob)
{
	ff_y2_page_split(ctx, raw, data, oob);
}

static void y2_join(const void *ctx, const uint8_t *data, const uint8_t *oob, uint8_t *raw)
{
	ff_y2_page_join(ctx, data, oob, raw);
}

void ff_y2_pagemap(const struct ff_y2_layout *lay, struct ff_pagemap *map)
{
	memset(map, 0, sizeof(*map));
	map->raw_page = lay->raw_page;
	map->oob_len = lay->kind == FF_Y2_LAYOUT_INBAND ? 0 : lay->tags_size;
	map->split = y2_split;
	map->join = y2_join;
	map->ctx = lay;
	strcpy(map->what, "YAFFS2 data + tags");
}

/* The image's geometry: the device's (or the default), then the chip
 * preset, then the sizes given. */
static int layout_geom(const struct ff_flash_layout *s, const struct ff_flash_dev *dev,
		       struct ff_y2_geom *g, struct ff_err *err)
{
	ff_y2_geom_default(g);
	if (dev)
		*g = (struct ff_y2_geom){dev->page_size, dev->oob_size, dev->pages_per_block};
	if (s->chip) {
		const struct ff_y2_chip *c = ff_y2_chip_find(s->chip);

		if (!c)
			return ff_err_set(err, EINVAL, "unknown chip '%s' (see mkfs.yaffs2 --chip list)",
					  s->chip);
		*g = c->geom;
	}
	if (s->page_size)
		g->page_size = s->page_size;
	if (s->oob_size)
		g->oob_size = s->oob_size;
	else if (s->page_size && !s->chip)
		g->oob_size = ff_y2_default_oob(s->page_size);
	if (s->pages_per_block)
		g->pages_per_block = s->pages_per_block;
	return ff_y2_geom_check(g, err);
}

int ff_y2_flash_check(const struct ff_y2_layout *lay, const struct ff_flash_dev *d,
		      struct ff_err *err)
{
	const struct ff_y2_geom g = lay->geom;

	if (g.page_size != d->page_size || g.pages_per_block != d->pages_per_block ||
	    (lay->kind != FF_Y2_LAYOUT_INBAND && g.oob_size != d->oob_size))
		return ff_err_set(err, EINVAL,
				  "geometry mismatch: the YAFFS2 image is for %u+%u-byte pages, "
				  "%u pages per block; %s has %u+%u-byte pages, %u per block",
				  g.page_size, g.oob_size, g.pages_per_block, d->name, d->page_size,
				  d->oob_size, d->pages_per_block);
	if (lay->kind != FF_Y2_LAYOUT_INBAND && lay->mtd_free_bytes != d->oob_avail)
		return ff_err_set(err, EINVAL,
				  "OOB layout mismatch: the image's %s ECC leaves %u free OOB bytes, "
				  "%s offers %u (different ECC on the device? see --ecc)",
				  ff_y2_ecc_name(lay->ecc), lay->mtd_free_bytes, d->name, d->oob_avail);
	return 0;
}

static void release(struct ff_pagemap *map)
{
	free((void *)map->ctx);
	map->ctx = NULL;
}

static int layout_of(struct ff_bsrc *src, const struct ff_flash_layout *s,
		     const struct ff_flash_dev *dev, struct ff_y2_layout *lay, struct ff_err *err)
{
	struct ff_y2_geom g;
	int big;

	if (s)
		return layout_geom(s, dev, &g, err) ||
		       ff_y2_layout_init(lay, &g, s->oob_layout, s->ecc, !s->no_tags_ecc, err) ? -1 : 0;
	if (!src)
		return ff_err_set(err, EINVAL, "no image and no layout to build a page map from");
	return ff_y2_detect(src, 0, src->size, NULL, lay, &big, err);
}

int ff_y2_flash_map(struct ff_bsrc *src, const struct ff_flash_layout *s,
		    const struct ff_flash_dev *dev, struct ff_pagemap *map, struct ff_err *err)
{
	struct ff_y2_layout *lay = malloc(sizeof(*lay));

	if (!lay)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (layout_of(src, s, dev, lay, err) < 0 || (dev && ff_y2_flash_check(lay, dev, err) < 0)) {
		free(lay);
		return -1;
	}
	ff_y2_pagemap(lay, map);
	map->release = release;
	return 1;
}
