/* The size of an image's metadata, so the bench predicts whole image sizes
 * rather than data sizes.  The inode and directory tables are really
 * encoded (squashfs/format.h encoders, the corpus's names, modes, times,
 * block lists and symlink targets) and compressed in 8 KiB metadata blocks
 * with the codec being measured; only references between tables are
 * approximate, which moves a table by a few bytes, not a block. */
#include "bench/bench.h"
#include "common/endian.h"
#include "compress/compress.h"
#include "squashfs/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct sink {
	struct ff_comp_ctx *ctx;
	uint8_t buf[SQFS_META_SIZE];
	uint8_t out[SQFS_META_SIZE];
	size_t used;
	uint64_t pos;          /* uncompressed bytes so far */
	uint64_t stored;       /* metadata blocks with their headers */
	uint32_t blocks;
	int rc;
	struct ff_err *err;
};

static void sink_flush(struct sink *s)
{
	ssize_t r;

	if (!s->used || s->rc)
		return;
	r = ff_comp_compress(s->ctx, s->buf, s->used, s->out, sizeof(s->out), s->err);
	if (r < 0)
		s->rc = -1;
	s->stored += SQFS_META_HEADER_SIZE + (r > 0 ? (uint64_t)r : s->used);
	s->blocks++;
	s->used = 0;
}

static void sink_put(struct sink *s, const void *p, size_t n)
{
	const uint8_t *b = p;

	s->pos += n;
	while (n) {
		size_t k = sizeof(s->buf) - s->used < n ? sizeof(s->buf) - s->used : n;

		memcpy(s->buf + s->used, b, k);
		s->used += k;
		b += k;
		n -= k;
		if (s->used == sizeof(s->buf))
			sink_flush(s);
	}
}

/* Per node: inode number, inode table position, names of a file, and the
 * directory listing size. */
struct shape {
	uint32_t *ino;
	uint64_t *ipos;
	uint32_t *nlink;
	uint32_t *listing;
	uint32_t inodes;
};

static int make_shape(const struct bench_corpus *c, struct shape *sh, struct ff_err *err)
{
	size_t n = c->n_nodes;

	sh->ino = calloc(n, sizeof(*sh->ino));
	sh->ipos = calloc(n, sizeof(*sh->ipos));
	sh->nlink = calloc(n, sizeof(*sh->nlink));
	sh->listing = calloc(n, sizeof(*sh->listing));
	if (!sh->ino || !sh->ipos || !sh->nlink || !sh->listing)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct bench_node *b = &c->nodes[i];

		if (b->link_of >= 0) {
			sh->nlink[b->link_of]++;
			continue;
		}
		sh->ino[i] = ++sh->inodes;
		sh->nlink[i] += S_ISDIR(b->mode) ? 2 : 1;
		if (i && S_ISDIR(b->mode))
			sh->nlink[b->parent]++;
	}
	for (size_t i = 1; i < n; i++)
		sh->listing[c->nodes[i].parent] += SQFS_DIR_ENTRY_SIZE +
						   (uint32_t)strlen(c->nodes[i].name);
	for (size_t i = 0; i < n; i++)
		sh->listing[i] += SQFS_DIR_HEADER_SIZE *
				  ((c->nodes[i].n_children + SQFS_DIR_MAX_ENTRIES - 1) /
				   SQFS_DIR_MAX_ENTRIES);
	return 0;
}

static void free_shape(struct shape *sh)
{
	free(sh->ino);
	free(sh->ipos);
	free(sh->nlink);
	free(sh->listing);
}

struct cursor {
	uint64_t data_pos;    /* where the next file's blocks start */
	uint64_t dir_pos;     /* where the next listing starts */
};

static void file_fields(const struct bench_corpus *c, const struct bench_layout *l,
			const uint32_t *stored, size_t i, struct sqfs_inode *in,
			struct cursor *cur)
{
	const struct bench_file *f = &c->files[c->nodes[i].file];
	size_t fi = (size_t)c->nodes[i].file;

	in->file_size = f->size;
	in->blocks_start = SQFS_SUPER_SIZE + cur->data_pos;
	in->frag_index = l->file_has_frag[fi] ? l->file_frag[fi] : SQFS_INVALID_FRAG;
	in->frag_offset = l->file_has_frag[fi] ? l->file_frag_off[fi] : 0;
	for (uint32_t k = 0; k < l->file_blocks[fi] && f->dup_of < 0; k++)
		cur->data_pos += stored[l->file_first[fi] + k];
}

static void put_block_list(struct sink *s, const struct bench_corpus *c,
			   const struct bench_layout *l, const uint32_t *stored, size_t i)
{
	size_t fi = (size_t)c->nodes[i].file;
	uint8_t b[4];

	for (uint32_t k = 0; k < l->file_blocks[fi]; k++) {
		const struct bench_block *blk = &l->blocks[l->file_first[fi] + k];
		uint32_t v = stored[l->file_first[fi] + k];

		if (blk->kind == BENCH_BLOCK_DATA && v == blk->len)
			v |= SQFS_BLOCK_UNCOMPRESSED;
		ff_put_le32(b, v);
		sink_put(s, b, 4);
	}
}

static void fill_inode(const struct bench_corpus *c, const struct bench_layout *l,
		       const uint32_t *stored, const struct shape *sh, size_t i,
		       struct sqfs_inode *in, struct cursor *cur)
{
	const struct bench_node *b = &c->nodes[i];

	memset(in, 0, sizeof(*in));
	in->type = (uint16_t)sqfs_type_from_mode(b->mode);
	in->mode = (uint16_t)(b->mode & 07777);
	in->uid_idx = (uint16_t)(b->uid != 0);
	in->gid_idx = (uint16_t)(b->gid != 0);
	in->mtime = (uint32_t)b->mtime;
	in->inode_number = sh->ino[i];
	in->nlink = sh->nlink[i];
	in->xattr_idx = b->n_xattrs ? 0 : SQFS_INVALID_XATTR;
	in->rdev = b->rdev;
	in->target_size = (uint32_t)b->size;
	if (S_ISDIR(b->mode)) {
		in->dir_block = (uint32_t)(cur->dir_pos / SQFS_META_SIZE * (SQFS_META_SIZE / 2));
		in->dir_offset = (uint16_t)(cur->dir_pos % SQFS_META_SIZE);
		in->dir_size = sh->listing[i] + 3;
		in->parent_inode = i ? sh->ino[b->parent] : sh->inodes + 1;
		cur->dir_pos += sh->listing[i];
	} else if (S_ISREG(b->mode)) {
		file_fields(c, l, stored, i, in, cur);
	}
	if (sqfs_inode_needs_extended(in))
		in->type = (uint16_t)(in->type + 7);
}

static void put_inode(struct sink *s, const struct bench_corpus *c, const struct bench_layout *l,
		      const uint32_t *stored, struct shape *sh, size_t i, struct cursor *cur)
{
	const struct bench_node *b = &c->nodes[i];
	uint8_t fixed[64];
	struct sqfs_inode in;

	fill_inode(c, l, stored, sh, i, &in, cur);
	sh->ipos[i] = s->pos;
	sqfs_inode_encode_fixed(&in, fixed);
	sink_put(s, fixed, sqfs_inode_fixed_size(in.type));
	if (S_ISREG(b->mode))
		put_block_list(s, c, l, stored, i);
	if (S_ISLNK(b->mode) && b->target)
		sink_put(s, b->target, strlen(b->target));
	if (in.type == SQFS_LSYMLINK) {
		uint8_t x[4];

		ff_put_le32(x, in.xattr_idx);
		sink_put(s, x, 4);
	}
}

static uint32_t target_of(const struct bench_corpus *c, uint32_t i)
{
	return c->nodes[i].link_of >= 0 ? (uint32_t)c->nodes[i].link_of : i;
}

/* Children of every directory, in order: kids[first[d] .. first[d] + n). */
static int children(const struct bench_corpus *c, uint32_t **kids, size_t **first,
		    struct ff_err *err)
{
	size_t *fill = calloc(c->n_nodes + 1, sizeof(*fill));
	size_t acc = 0;

	*kids = malloc((c->n_nodes + 1) * sizeof(**kids));
	*first = calloc(c->n_nodes + 1, sizeof(**first));
	if (!fill || !*kids || !*first) {
		free(fill);
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	}
	for (size_t i = 0; i < c->n_nodes; i++) {
		(*first)[i] = acc;
		acc += c->nodes[i].n_children;
	}
	for (uint32_t i = 1; i < c->n_nodes; i++) {
		uint32_t p = c->nodes[i].parent;

		(*kids)[(*first)[p] + fill[p]++] = i;
	}
	free(fill);
	return 0;
}

static void put_listing(struct sink *s, const struct bench_corpus *c, const struct shape *sh,
			const uint32_t *kids, size_t n)
{
	size_t k = 0;

	while (k < n) {
		uint32_t t0 = target_of(c, kids[k]);
		uint64_t blk = sh->ipos[t0] / SQFS_META_SIZE;
		struct sqfs_dir_header h = { .start = (uint32_t)(blk * (SQFS_META_SIZE / 2)),
					     .inode_number = sh->ino[t0] };
		size_t end = k;
		uint8_t hb[SQFS_DIR_HEADER_SIZE];

		while (end < n && end - k < SQFS_DIR_MAX_ENTRIES) {
			uint32_t t = target_of(c, kids[end]);
			int64_t delta = (int64_t)sh->ino[t] - h.inode_number;

			if (sh->ipos[t] / SQFS_META_SIZE != blk || delta < -32768 || delta > 32767)
				break;
			end++;
		}
		end += end == k;
		h.count = (uint32_t)(end - k);
		sqfs_dir_header_encode(&h, hb);
		sink_put(s, hb, sizeof(hb));
		for (; k < end; k++) {
			const struct bench_node *b = &c->nodes[kids[k]];
			uint32_t t = target_of(c, kids[k]);
			struct sqfs_dir_entry e = {
				.offset = (uint16_t)(sh->ipos[t] % SQFS_META_SIZE),
				.inode_delta = (int16_t)((int64_t)sh->ino[t] - h.inode_number),
				.type = (uint16_t)sqfs_type_from_mode(c->nodes[t].mode),
				.name_len = (uint16_t)strlen(b->name),
			};
			uint8_t eb[SQFS_DIR_ENTRY_SIZE];

			sqfs_dir_entry_encode(&e, eb);
			sink_put(s, eb, sizeof(eb));
			sink_put(s, b->name, e.name_len);
		}
	}
}

static int dir_table(struct sink *s, const struct bench_corpus *c, const struct shape *sh,
		     struct ff_err *err)
{
	uint32_t *kids;
	size_t *first;

	if (children(c, &kids, &first, err))
		return -1;
	for (size_t i = 0; i < c->n_nodes; i++)
		if (S_ISDIR(c->nodes[i].mode) && c->nodes[i].link_of < 0)
			put_listing(s, c, sh, kids + first[i], c->nodes[i].n_children);
	free(kids);
	free(first);
	return 0;
}

/* A table of fixed-size entries: metadata blocks plus a u64 per block. */
static uint64_t small_table(struct sink *s, uint64_t entries, size_t entry_size)
{
	uint8_t e[16] = { 0 };
	uint64_t before = s->stored;
	uint32_t blocks = s->blocks;

	if (!entries)
		return 0;
	for (uint64_t i = 0; i < entries; i++) {
		ff_put_le64(e, i * 4099 + 96);
		sink_put(s, e, entry_size);
	}
	sink_flush(s);
	return s->stored - before + 8ull * (s->blocks - blocks);
}

static uint64_t tables(struct sink *s, const struct bench_corpus *c, const struct bench_layout *l,
		       const struct shape *sh)
{
	uint64_t sum = small_table(s, l->n_frag_blocks, SQFS_FRAGMENT_ENTRY_SIZE);

	sum += small_table(s, sh->inodes, 8);   /* export table: one ref per inode */
	sum += small_table(s, c->n_ids ? c->n_ids : 1, 4);
	return sum;
}

static int encode_all(struct sink *s, const struct bench_corpus *c, const struct bench_layout *l,
		      const uint32_t *stored, struct shape *sh, uint64_t *meta,
		      struct ff_err *err)
{
	struct cursor cur = { 0 };

	for (size_t i = 0; i < c->n_nodes; i++)
		if (c->nodes[i].link_of < 0)
			put_inode(s, c, l, stored, sh, i, &cur);
	sink_flush(s);
	if (dir_table(s, c, sh, err))
		return -1;
	sink_flush(s);
	*meta = s->stored;
	*meta += tables(s, c, l, sh);
	return s->rc;
}

int bench_meta_size(const struct bench_corpus *c, const struct bench_layout *l,
		    const struct ff_comp *comp, const uint32_t *stored, uint64_t data_size,
		    uint64_t *meta, struct ff_err *err)
{
	struct sink *s = calloc(1, sizeof(*s));
	struct shape sh = { 0 };
	uint8_t opts[256];
	ssize_t olen = ff_comp_options_encode(comp, opts, sizeof(opts));
	uint64_t total, tabs = 0;
	int rc = -1;

	if (!s)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	s->err = err;
	s->ctx = ff_comp_ctx_new(comp, err);
	if (s->ctx && !make_shape(c, &sh, err))
		rc = encode_all(s, c, l, stored, &sh, &tabs, err);
	free_shape(&sh);
	ff_comp_ctx_free(s->ctx);
	free(s);
	if (rc)
		return -1;
	total = SQFS_SUPER_SIZE + (olen > 0 ? SQFS_META_HEADER_SIZE + (uint64_t)olen : 0) +
		data_size + tabs;
	*meta = ((total + SQFS_PAD - 1) / SQFS_PAD * SQFS_PAD) - data_size;
	return 0;
}
