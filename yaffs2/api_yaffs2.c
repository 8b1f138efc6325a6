/* The public YAFFS2 writer (<flashfs/yaffs2.h>): geometry and layout from
 * the options, then ff_y2_write streaming into an atomic output file,
 * through a stream container when one is asked for (as mkfs.yaffs2). */
#include <errno.h>
#include <string.h>

#include <flashfs/yaffs2.h>

#include "common/api_error.h"
#include "common/outfile.h"
#include "compress/compress.h"
#include "tree/api_fstree.h"
#include "yaffs2/writer.h"

void ff_yaffs2_options_init(struct ff_yaffs2_options *o)
{
	struct ff_y2_geom g;

	memset(o, 0, sizeof(*o));
	ff_y2_geom_default(&g);
	o->page_size = g.page_size;
	o->pages_per_block = g.pages_per_block;
	o->big_endian = -1;
}

static int setup(const struct ff_yaffs2_options *o, struct ff_y2_write_opts *wo,
		 struct ff_err *err)
{
	struct ff_y2_geom g = { .page_size = o->page_size, .oob_size = o->oob_size,
				.pages_per_block = o->pages_per_block };
	uint16_t probe = 1;

	if (!g.oob_size)
		g.oob_size = ff_y2_default_oob(g.page_size);
	if (ff_y2_geom_check(&g, err) ||
	    ff_y2_layout_init(&wo->layout, &g, o->oob_layout, o->ecc, !o->no_tags_ecc, err))
		return -1;
	wo->big_endian = o->big_endian < 0 ? *(uint8_t *)&probe == 0 : o->big_endian != 0;
	wo->classic_tags = o->classic_tags;
	wo->root_header = 1;
	return 0;
}

struct out {
	struct ff_outfile of;
	struct ff_cstream *cs;
};

static int sink(void *ctx, const void *buf, size_t len, struct ff_err *err)
{
	struct out *o = ctx;

	if (o->cs)
		return ff_cstream_write(o->cs, buf, len, err) < 0 ? -1 : 0;
	return ff_outfile_write(&o->of, buf, len, err);
}

static int write_image(const struct ff_tree *tree, const char *path, const char *container,
		       struct ff_y2_write_opts *wo, struct ff_err *err)
{
	struct out o = { .cs = NULL };
	struct ff_y2_write_stats st;
	struct ff_cstream *cs;

	if (ff_outfile_open(&o.of, path, err))
		return -1;
	if (container && !(o.cs = ff_cstream_new_writer(o.of.fd, container, -1, err)))
		goto fail;
	wo->sink = sink;
	wo->sink_ctx = &o;
	if (ff_y2_write(tree, wo, &st, err))
		goto fail;
	cs = o.cs;
	o.cs = NULL;
	if (cs && ff_cstream_close(cs, err))
		goto fail;
	return ff_outfile_commit(&o.of, err);
fail:
	if (o.cs)
		ff_cstream_close(o.cs, NULL);
	ff_outfile_abort(&o.of);
	return -1;
}

int ff_yaffs2_write(struct ff_fstree *t, const char *path, const struct ff_yaffs2_options *o,
		    struct ff_error *error)
{
	struct ff_yaffs2_options defaults;
	struct ff_y2_write_opts wo;
	struct ff_err err = { 0, "" };
	const struct ff_tree *tree;

	ff_api_clear(error);
	if (!o) {
		ff_yaffs2_options_init(&defaults);
		o = &defaults;
	}
	memset(&wo, 0, sizeof(wo));
	if (setup(o, &wo, &err) || !(tree = ff_api_fstree_finish(t, &err)) ||
	    write_image(tree, path, o->container, &wo, &err)) {
		ff_err_prefix(&err, "%s", path);
		return ff_api_error(error, &err);
	}
	return 0;
}
