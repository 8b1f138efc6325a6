/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "mtd/mtd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <mtd/mtd-user.h>
#include <libmtd.h>


struct ff_mtd {
	libmtd_t lib;
	struct mtd_dev_info info;
	struct ff_mtd_geom geom;
	int fd;
	char *node;
};

/* Buffers for one erase block of image and one page of device I/O. */
struct io_bufs {
	uint8_t *img;   /* one image block: pages_per_block * raw_page */
	uint8_t *data;  /* one page of data */
	uint8_t *oob;   /* one page of OOB (raw size, enough for AUTO too) */
	uint8_t *check; /* read-back data */
	uint8_t *check_oob;
};

static void fill_geom(struct ff_mtd *m)
{
	const struct mtd_dev_info *i = &m->info;
	struct ff_mtd_geom *g = &m->geom;

	g->size = (uint64_t)i->size;
	g->page_size = (uint32_t)i->min_io_size;
	g->oob_size = (uint32_t)i->oob_size;
	g->oob_avail = (uint32_t)i->oobavail;
	g->block_size = (uint32_t)i->eb_size;
	g->pages_per_block = i->min_io_size > 0 ? (uint32_t)(i->eb_size / i->min_io_size) : 0;
	g->blocks = (uint32_t)i->eb_cnt;
	g->is_nand = i->type == MTD_NANDFLASH || i->type == MTD_MLCNANDFLASH;
	g->bad_allowed = i->bb_allowed;
}

int ff_mtd_open(const char *node, int writable, struct ff_mtd **out, struct ff_err *err)
{
	struct ff_mtd *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return ff_err_set(err, ENOMEM, "%s: out of memory", node);
	m->fd = -1;
	m->lib = libmtd_open();
	if (!m->lib) {
		int e = errno ? errno : ENODEV;

		free(m);
		return ff_err_sys(err, e, "%s: no MTD support in this kernel (libmtd_open)", node);
	}
	if (mtd_get_dev_info(m->lib, node, &m->info)) {
		int e = errno ? errno : ENODEV;

		ff_mtd_close(m);
		return ff_err_sys(err, e, "%s: not an MTD character device", node);
	}
	fill_geom(m);
	m->node = strdup(node);
	m->fd = open(node, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (m->fd < 0 || !m->node) {
		int e = m->node ? errno : ENOMEM;

		ff_mtd_close(m);
		return ff_err_sys(err, e, "%s: cannot open", node);
	}
	if (m->geom.page_size == 0 || m->geom.block_size % m->geom.page_size) {
		ff_err_set(err, EINVAL, "%s: odd geometry (page %u, erase block %u)", node,
			   m->geom.page_size, m->geom.block_size);
		ff_mtd_close(m);
		return -1;
	}
	*out = m;
	return 0;
}

void ff_mtd_close(struct ff_mtd *m)
{
	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	if (m->lib)
		libmtd_close(m->lib);
	free(m->node);
	free(m);
}

void ff_mtd_geometry(const struct ff_mtd *m, struct ff_mtd_geom *g)
{
	*g = m->geom;
}

void ff_mtd_flash_dev(const struct ff_mtd *m, struct ff_flash_dev *d)
{
	*d = (struct ff_flash_dev){m->node, m->geom.page_size, m->geom.oob_size,
				   m->geom.oob_avail, m->geom.pages_per_block};
}

int ff_mtd_plan(const uint8_t *bad, uint32_t blocks, uint32_t need, uint32_t *map,
		struct ff_err *err)
{
	uint32_t eb, n = 0, nbad = 0;

	for (eb = 0; eb < blocks; eb++) {
		if (bad[eb])
			nbad++;
		else if (n < need)
			map[n++] = eb;
	}
	if (n < need)
		return ff_err_set(err, ENOSPC,
				  "device too small: the image needs %u erase blocks, the device "
				  "has %u good of %u (%u bad)",
				  need, blocks - nbad, blocks, nbad);
	return 0;
}

static int scan_bad(struct ff_mtd *m, uint8_t *bad, struct ff_err *err)
{
	uint32_t eb;

	memset(bad, 0, m->geom.blocks);
	if (!m->geom.bad_allowed)
		return 0;
	for (eb = 0; eb < m->geom.blocks; eb++) {
		int r = mtd_is_bad(&m->info, m->fd, (int)eb);

		if (r < 0)
			return ff_err_sys(err, errno, "%s: erase block %u: cannot read the bad-block mark",
					  m->node, eb);
		bad[eb] = r > 0;
	}
	return 0;
}

static void bufs_free(struct io_bufs *b)
{
	free(b->img);
	free(b->data);
	free(b->oob);
	free(b->check);
	free(b->check_oob);
}

static int bufs_alloc(struct io_bufs *b, const struct ff_mtd_geom *g, uint32_t raw_page,
		      struct ff_err *err)
{
	size_t oob = g->oob_size ? g->oob_size : 1;

	b->img = malloc((size_t)raw_page * g->pages_per_block);
	b->data = malloc(g->page_size);
	b->oob = malloc(oob);
	b->check = malloc(g->page_size);
	b->check_oob = malloc(oob);
	if (!b->img || !b->data || !b->oob || !b->check || !b->check_oob) {
		bufs_free(b);
		return ff_err_set(err, ENOMEM, "out of memory for %u-byte pages", raw_page);
	}
	return 0;
}

static void ecc_totals(const struct ff_mtd *m, struct mtd_ecc_stats *s, int *ok)
{
	*ok = ioctl(m->fd, ECCGETSTATS, s) == 0;
}

static void ecc_account(struct ff_mtd_stats *st, const struct mtd_ecc_stats *before,
			const struct ff_mtd *m, int ok)
{
	struct mtd_ecc_stats after;

	if (!ok || ioctl(m->fd, ECCGETSTATS, &after) != 0)
		return;
	st->have_ecc_stats = 1;
	st->dev_corrected += after.corrected - before->corrected;
	st->dev_failed += after.failed - before->failed;
}

static int read_plain(struct ff_mtd *m, uint64_t addr, uint8_t *data, struct ff_err *err)
{
	size_t got = 0;

	while (got < m->geom.page_size) {
		ssize_t r = pread(m->fd, data + got, m->geom.page_size - got, (off_t)(addr + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return ff_err_sys(err, r < 0 ? errno : EIO, "%s: read of page at 0x%llx failed",
					  m->node, (unsigned long long)addr);
		got += (size_t)r;
	}
	return 0;
}

/* One page of data and (optionally) OOB in the given mode.  Corrected and
 * uncorrectable ECC results still deliver the data; they are counted. */
static int read_page(struct ff_mtd *m, uint64_t addr, uint8_t *data, uint8_t *oob,
		     uint32_t ooblen, uint8_t mode, struct ff_mtd_stats *st, struct ff_err *err)
{
	struct mtd_read_req req;

	memset(&req, 0, sizeof(req));
	req.start = addr;
	req.len = m->geom.page_size;
	req.ooblen = oob ? ooblen : 0;
	req.usr_data = (uintptr_t)data;
	req.usr_oob = oob ? (uintptr_t)oob : 0;
	req.mode = mode;
	if (ioctl(m->fd, MEMREAD, &req) != 0 && errno != EUCLEAN && errno != EBADMSG) {
		int e = errno;

		/* flash without OOB (NOR) or a kernel before 6.1: plain reads,
		 * ECC events then only in the ECCGETSTATS totals */
		if ((e == ENOTTY || e == EOPNOTSUPP) && !oob)
			return read_plain(m, addr, data, err);
		if (e == ENOTTY)
			return ff_err_set(err, ENOTTY,
					  "%s: the kernel lacks the MEMREAD ioctl (Linux 6.1) "
					  "needed to read pages with their OOB",
					  m->node);
		return ff_err_sys(err, e, "%s: read of page at 0x%llx failed", m->node,
				  (unsigned long long)addr);
	}
	st->corrected += req.ecc_stats.corrected_bitflips;
	if (req.ecc_stats.uncorrectable_errors) {
		if (!st->failed)
			st->first_failed = addr;
		st->failed++;
	}
	return 0;
}

static int all_ff(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0xff)
			return 0;
	return 1;
}

/* Read image block `i` into b->img, 0xff past the end of the image. */
static int load_block(int fd, uint64_t size, uint64_t i, size_t block, uint8_t *buf,
		      struct ff_err *err)
{
	uint64_t off = i * block;
	size_t want = size - off < block ? (size_t)(size - off) : block, got = 0;

	memset(buf + want, 0xff, block - want);
	while (got < want) {
		ssize_t r = pread(fd, buf + got, want - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return ff_err_sys(err, r < 0 ? errno : EIO,
					  "image: read at offset %llu failed",
					  (unsigned long long)(off + got));
		got += (size_t)r;
	}
	return 0;
}

/* Split image page `raw` into what goes to the device. */
static uint32_t page_parts(const struct ff_pagemap *map, const uint8_t *raw, size_t page,
			   struct io_bufs *b)
{
	if (!map) {
		memcpy(b->data, raw, page);
		return 0;
	}
	map->split(map->ctx, raw, b->data, b->oob);
	return map->oob_len;
}

static int verify_page(struct ff_mtd *m, uint64_t addr, uint32_t ooblen, struct io_bufs *b,
		       struct ff_mtd_stats *st, struct ff_err *err)
{
	uint32_t i;

	if (read_page(m, addr, b->check, ooblen ? b->check_oob : NULL, ooblen,
		      MTD_OPS_AUTO_OOB, st, err))
		return -1;
	for (i = 0; i < m->geom.page_size; i++)
		if (b->check[i] != b->data[i])
			return ff_err_set(err, EIO,
					  "%s: verify: page at 0x%llx differs at data byte %u "
					  "(wrote 0x%02x, read 0x%02x)",
					  m->node, (unsigned long long)addr, i, b->data[i], b->check[i]);
	for (i = 0; i < ooblen; i++)
		if (b->check_oob[i] != b->oob[i])
			return ff_err_set(err, EIO,
					  "%s: verify: page at 0x%llx differs at AUTO_OOB byte %u "
					  "(wrote 0x%02x, read 0x%02x)",
					  m->node, (unsigned long long)addr, i, b->oob[i], b->check_oob[i]);
	return 0;
}

struct flash_job {
	struct ff_mtd *m;
	const struct ff_mtd_flash_opts *o;
	struct ff_mtd_stats *st;
	struct io_bufs b;
	uint32_t raw_page;
	int image_fd;
	uint64_t image_size;
};

/* Pages of one block that carry image bytes and are not blank: writing an
 * all-0xff page would only program ECC bytes over an erased page. */
static int write_block(struct flash_job *j, uint64_t i, uint32_t eb, struct ff_err *err)
{
	struct ff_mtd *m = j->m;
	const struct ff_mtd_geom *g = &m->geom;
	uint64_t first = i * g->pages_per_block * (uint64_t)j->raw_page;
	uint32_t p;

	for (p = 0; p < g->pages_per_block; p++) {
		const uint8_t *raw = j->b.img + (size_t)p * j->raw_page;
		uint32_t ooblen;

		if (first + (uint64_t)p * j->raw_page >= j->image_size)
			break;
		if (all_ff(raw, j->raw_page))
			continue;
		ooblen = page_parts(j->o->map, raw, g->page_size, &j->b);
		if (mtd_write(m->lib, &m->info, m->fd, (int)eb, (int)(p * g->page_size), j->b.data,
			      (int)g->page_size, ooblen ? j->b.oob : NULL, (int)ooblen,
			      MTD_OPS_AUTO_OOB))
			return ff_err_sys(err, errno, "%s: erase block %u page %u: write failed",
					  m->node, eb, p);
		j->st->pages++;
		if (j->o->verify &&
		    verify_page(m, (uint64_t)eb * g->block_size + (uint64_t)p * g->page_size,
				ooblen, &j->b, j->st, err))
			return -1;
	}
	return 0;
}

static int flash_blocks(struct flash_job *j, const uint32_t *map, uint32_t need,
			struct ff_err *err)
{
	struct ff_mtd *m = j->m;
	size_t img_block = (size_t)j->raw_page * m->geom.pages_per_block;
	uint32_t i;

	for (i = 0; i < need; i++) {
		if (j->o->progress)
			j->o->progress(j->o->progress_ctx, "erase+write", i, need);
		if (load_block(j->image_fd, j->image_size, i, img_block, j->b.img, err))
			return -1;
		if (mtd_erase(m->lib, &m->info, m->fd, (int)map[i]))
			return ff_err_sys(err, errno, "%s: erase block %u: erase failed", m->node,
					  map[i]);
		if (write_block(j, i, map[i], err))
			return -1;
		j->st->blocks++;
	}
	if (j->o->progress)
		j->o->progress(j->o->progress_ctx, "erase+write", need, need);
	j->st->bad_skipped = need ? map[need - 1] + 1 - need : 0;
	j->st->bytes = j->image_size;
	return 0;
}

static int check_map(const struct ff_mtd *m, const struct ff_pagemap *map,
		     uint64_t image_size, struct ff_err *err)
{
	if (!map)
		return 0;
	if (map->raw_page < m->geom.page_size || map->oob_len > m->geom.oob_avail)
		return ff_err_set(err, EINVAL,
				  "%s: image pages (%u bytes, %u tag bytes) do not fit the chip's "
				  "%u-byte pages with %u free OOB bytes",
				  m->node, map->raw_page, map->oob_len, m->geom.page_size,
				  m->geom.oob_avail);
	if (image_size % map->raw_page)
		return ff_err_set(err, EINVAL,
				  "image size %llu is not a whole number of %u-byte pages",
				  (unsigned long long)image_size, map->raw_page);
	return 0;
}

int ff_mtd_flash(struct ff_mtd *m, int image_fd, uint64_t image_size,
		 const struct ff_mtd_flash_opts *o, struct ff_mtd_stats *st, struct ff_err *err)
{
	struct flash_job j = {m, o, st, {0}, 0, image_fd, image_size};
	uint64_t need64;
	uint8_t *bad = NULL;
	uint32_t *map = NULL;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (check_map(m, o->map, image_size, err))
		return -1;
	if (image_size == 0)
		return ff_err_set(err, EINVAL, "the image is empty");
	j.raw_page = o->map ? o->map->raw_page : m->geom.page_size;
	need64 = (image_size + (uint64_t)j.raw_page * m->geom.pages_per_block - 1) /
		 ((uint64_t)j.raw_page * m->geom.pages_per_block);
	if (need64 > m->geom.blocks)
		return ff_err_set(err, ENOSPC,
				  "%s: device too small: the image needs %llu erase blocks, the "
				  "device has %u",
				  m->node, (unsigned long long)need64, m->geom.blocks);
	bad = malloc(m->geom.blocks);
	map = malloc(sizeof(*map) * (need64 ? need64 : 1));
	if (!bad || !map) {
		ff_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (scan_bad(m, bad, err))
		goto out;
	if (ff_mtd_plan(bad, m->geom.blocks, (uint32_t)need64, map, err)) {
		ff_err_prefix(err, "%s", m->node);
		goto out;
	}
	if (bufs_alloc(&j.b, &m->geom, j.raw_page, err))
		goto out;
	rc = flash_blocks(&j, map, (uint32_t)need64, err);
	bufs_free(&j.b);
out:
	free(bad);
	free(map);
	return rc;
}

/* One device page in the dump's output form. */
static int dump_page(struct ff_mtd *m, const struct ff_mtd_dump_opts *o, uint64_t addr,
		     struct io_bufs *b, struct ff_mtd_stats *st, struct ff_err *err)
{
	switch (o->oob) {
	case FF_MTD_OOB_NONE:
		return read_page(m, addr, b->img, NULL, 0, MTD_OPS_PLACE_OOB, st, err);
	case FF_MTD_OOB_RAW:
		return read_page(m, addr, b->img, b->img + m->geom.page_size, m->geom.oob_size,
				 MTD_OPS_PLACE_OOB, st, err);
	case FF_MTD_OOB_MAP:
		memset(b->oob, 0xff, m->geom.oob_size ? m->geom.oob_size : 1);
		if (read_page(m, addr, b->data, o->map->oob_len ? b->oob : NULL, o->map->oob_len,
			      MTD_OPS_AUTO_OOB, st, err))
			return -1;
		o->map->join(o->map->ctx, b->data, b->oob, b->img);
		return 0;
	}
	return ff_err_set(err, EINVAL, "unknown OOB mode %d", (int)o->oob);
}

static uint32_t dump_raw_page(const struct ff_mtd *m, const struct ff_mtd_dump_opts *o)
{
	switch (o->oob) {
	case FF_MTD_OOB_RAW:
		return m->geom.page_size + m->geom.oob_size;
	case FF_MTD_OOB_MAP:
		return o->map->raw_page;
	default:
		return m->geom.page_size;
	}
}

static int dump_block(struct ff_mtd *m, const struct ff_mtd_dump_opts *o, uint32_t eb,
		      struct io_bufs *b, struct ff_outfile *of, struct ff_mtd_stats *st,
		      struct ff_err *err)
{
	uint32_t raw = dump_raw_page(m, o), p;

	for (p = 0; p < m->geom.pages_per_block; p++) {
		uint64_t left = o->length ? o->length - st->bytes : UINT64_MAX;
		size_t n = left < raw ? (size_t)left : raw;

		if (n == 0)
			break;
		if (dump_page(m, o, (uint64_t)eb * m->geom.block_size +
				     (uint64_t)p * m->geom.page_size, b, st, err))
			return -1;
		if (ff_outfile_write(of, b->img, n, err))
			return -1;
		st->bytes += n;
		st->pages++;
	}
	st->blocks++;
	return 0;
}

static int dump_blocks(struct ff_mtd *m, const struct ff_mtd_dump_opts *o, struct io_bufs *b,
		       struct ff_outfile *of, struct ff_mtd_stats *st, struct ff_err *err)
{
	uint32_t eb;

	for (eb = 0; eb < m->geom.blocks; eb++) {
		int bad = m->geom.bad_allowed ? mtd_is_bad(&m->info, m->fd, (int)eb) : 0;

		if (o->length && st->bytes >= o->length)
			break;
		if (o->progress)
			o->progress(o->progress_ctx, "read", eb, m->geom.blocks);
		if (bad < 0)
			return ff_err_sys(err, errno, "%s: erase block %u: cannot read the bad-block mark",
					  m->node, eb);
		if (bad) {
			st->bad_skipped++;
			continue;
		}
		if (dump_block(m, o, eb, b, of, st, err))
			return -1;
	}
	if (o->progress)
		o->progress(o->progress_ctx, "read", m->geom.blocks, m->geom.blocks);
	return 0;
}

int ff_mtd_dump(struct ff_mtd *m, struct ff_outfile *of, const struct ff_mtd_dump_opts *o,
		struct ff_mtd_stats *st, struct ff_err *err)
{
	struct io_bufs b = {0};
	struct mtd_ecc_stats before;
	int ecc_ok, rc;

	memset(st, 0, sizeof(*st));
	if (o->oob == FF_MTD_OOB_MAP && !o->map)
		return ff_err_set(err, EINVAL, "dump with a page map but no map given");
	if (o->oob != FF_MTD_OOB_NONE && m->geom.oob_size == 0)
		return ff_err_set(err, EINVAL, "%s: the device has no OOB area", m->node);
	if (bufs_alloc(&b, &m->geom, dump_raw_page(m, o), err))
		return -1;
	ecc_totals(m, &before, &ecc_ok);
	rc = dump_blocks(m, o, &b, of, st, err);
	ecc_account(st, &before, m, ecc_ok);
	bufs_free(&b);
	return rc;
}
