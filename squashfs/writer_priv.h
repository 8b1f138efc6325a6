/* Private to the SquashFS writer: the objects each *_writer.c file owns and
 * the state they share while one image is built.  Not for other folders. */
#ifndef FF_SQUASHFS_WRITER_PRIV_H
#define FF_SQUASHFS_WRITER_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/hmap.h"
#include "common/outfile.h"
#include "common/pool.h"
#include "squashfs/format.h"
#include "squashfs/writer.h"

/* ---- sink_writer.c: the image being written, or a counter (dry run) ---- */
struct sqfs_sink {
	struct ff_outfile *of; /* NULL: count bytes only */
	uint64_t pos;
};
int sqfs_sink_write(struct sqfs_sink *s, const void *buf, size_t len, struct ff_err *err);


/* ---- meta_writer.c: a stream of 8 KiB metadata blocks kept in memory,
 * or written to the image as they fill (sqfs_meta_stream) ---- */
struct sqfs_meta_writer {
	struct ff_comp_ctx *ctx; /* NULL: blocks are stored uncompressed */
	uint8_t block[SQFS_META_SIZE];
	uint8_t scratch[SQFS_META_SIZE];
	size_t fill;          /* bytes in block; always < SQFS_META_SIZE */
	uint64_t raw_pos;     /* uncompressed bytes written so far */
	uint8_t *out;         /* finished blocks, each with its 2-byte header */
	size_t len, cap;      /* bytes in out */
	uint64_t *starts;     /* offset of each finished block in the table */
	size_t n_starts, starts_cap;
	struct sqfs_sink *direct; /* streaming: out is written here past a size */
	uint64_t direct_start;    /* where the table starts in direct */
	uint64_t base;            /* table bytes already written to direct */
};
void sqfs_meta_init(struct sqfs_meta_writer *mw, struct ff_comp_ctx *ctx);
/* From now on finished blocks go to s, at its current position, whenever
 * 64 KiB of them are waiting; nothing else may write to s until
 * sqfs_meta_emit.  For a table that directly follows what is already
 * written (the inode table after the data), so it is never held whole. */
void sqfs_meta_stream(struct sqfs_meta_writer *mw, struct sqfs_sink *s);
int sqfs_meta_write(struct sqfs_meta_writer *mw, const void *buf, size_t len,
		    struct ff_err *err);
/* Close a partial block. */
int sqfs_meta_flush(struct sqfs_meta_writer *mw, struct ff_err *err);
void sqfs_meta_free(struct sqfs_meta_writer *mw);
/* Where the next byte goes: block start relative to the table, offset. */
static inline uint64_t sqfs_meta_ref(const struct sqfs_meta_writer *mw)
{
	return sqfs_ref(mw->base + mw->len, (uint32_t)mw->fill);
}

/* ---- table_writer.c: lookup tables (metadata blocks + u64 locations) ---- */
/* Writes `len` bytes of fixed-size entries as metadata blocks, then
 * `prefix` (may be empty) and the list of block locations; *index_pos is
 * where the prefix (or the list) starts. */
int sqfs_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx, const uint8_t *data,
		     size_t len, const uint8_t *prefix, size_t prefix_len, uint64_t *index_pos,
		     struct ff_err *err);
/* Appends a finished metadata stream at the sink; *start its position. */
int sqfs_meta_emit(struct sqfs_sink *s, struct sqfs_meta_writer *mw, uint64_t *start,
		   struct ff_err *err);

/* ---- block_proc_writer.c: compression thread pool, ordered results ---- */
struct sqfs_block {
	uint8_t *in, *out;
	uint32_t in_len, out_len;
	int kind;             /* enum ff_sqfs_block_kind; workers may make DATA SPARSE */
	int raw;              /* out is unused, in is stored as is */
	int check_sparse;
	int store_raw;        /* keep uncompressed (-noD, -noF) */
	void *owner;          /* the submitter's bookkeeping */
	uint32_t idx;
	int failed;
	struct ff_err err;
};
/* Called in submission order on the submitting thread. */
typedef int (*sqfs_retire_fn)(void *user, struct sqfs_block *b, struct ff_err *err);
struct sqfs_block_proc;
struct sqfs_block_proc *sqfs_block_proc_new(const struct ff_comp *comp, uint32_t block_size,
					    unsigned threads, sqfs_retire_fn retire, void *user,
					    struct ff_err *err);
/* The next free slot (waits for and retires the oldest when all are busy). */
struct sqfs_block *sqfs_block_proc_get(struct sqfs_block_proc *bp, struct ff_err *err);
void sqfs_block_proc_submit(struct sqfs_block_proc *bp, struct sqfs_block *b);
/* Retire everything submitted. */
int sqfs_block_proc_drain(struct sqfs_block_proc *bp, struct ff_err *err);
void sqfs_block_proc_free(struct sqfs_block_proc *bp);

/* ---- readahead_writer.c: page-cache hints ahead of the file reads ---- */
struct sqfs_readahead;
/* NULL when the helper cannot start: the writer then simply goes without. */
struct sqfs_readahead *sqfs_readahead_start(struct ff_node *const *files, size_t n_files);
/* The writer has consumed the first bytes_done bytes of files (data order). */
void sqfs_readahead_progress(struct sqfs_readahead *ra, uint64_t bytes_done);
void sqfs_readahead_stop(struct sqfs_readahead *ra);

/* ---- per-node state ---- */
/* Both are held for every node at once (a million files): indices
 * instead of pointers and no padding keep them at 32 and 16 bytes. */
struct sqfs_file_data {
	uint64_t blocks_start;
	uint32_t *sizes;      /* on-disk size of each block, with the raw bit;
				 0 for a sparse block (which stands for
				 block_size bytes, or the rest of the file) */
	uint32_t n_blocks;
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment */
	uint32_t frag_offset;
	uint32_t dup_of;      /* node index of an earlier file in data order
				 with the same content, or 0 */
};

struct sqfs_node_info {
	uint64_t ref;         /* inode reference once written */
	uint32_t ino;         /* inode number, 0 until numbered */
	uint32_t xattr;       /* xattr id or SQFS_INVALID_XATTR */
};

/* ---- fragment_writer.c: packing tail ends into fragment blocks ---- */
struct sqfs_frag_writer {
	uint8_t *buf;
	uint32_t fill, block_size;
	uint32_t count;       /* fragment blocks submitted */
	uint32_t tails;
	struct sqfs_fragment_entry *entries; /* filled as blocks are retired */
	size_t cap;
};

/* ---- the writer ---- */
struct sqfs_id_table {
	struct ff_hmap map;    /* id -> index */
	uint32_t *ids;
	uint32_t count, cap;
};

struct sqfs_xattr_writer;

/* dedup_writer.c's state for files smaller than a block */
struct sqfs_dedup_small {
	uint8_t *seen;        /* by size: 0, 1 or 2 (more than one) files */
	struct ff_hset set;   /* first copies among those read, by data index,
				 hashed by size and crc */
	uint8_t *cmp;         /* block_size bytes: an earlier copy read back */
};

struct sqfs_writer {
	const struct ff_tree *tree;
	const struct ff_sqfs_write_opts *o;
	struct ff_sqfs_write_stats *st;
	struct sqfs_sink sink;
	struct ff_comp_ctx *mctx;       /* metadata compression */
	uint32_t block_size;
	unsigned jobs;
	struct sqfs_node_info *info;    /* by ff_node.index */
	uint32_t n_nodes;
	uint32_t inode_count;
	uint32_t next_ino;
	struct sqfs_meta_writer inodes, dirs;
	struct sqfs_id_table ids;
	struct sqfs_xattr_writer *xattrs;
	struct sqfs_frag_writer frags;
	struct sqfs_block_proc *bp;
	struct sqfs_readahead *ra;
	struct ff_node **files;         /* regular files (primaries), data order */
	struct sqfs_file_data *fdata;   /* by ff_node.index (sqfs_fdata): no
					   per-node map to a data position */
	struct ff_hmap linked_written;  /* hard-linked inodes already written */
	struct sqfs_dedup_small small;
	uint8_t *small_buf;             /* a small candidate's bytes */
	size_t n_files;
	uint64_t bytes_done, bytes_total;
};

static inline struct sqfs_node_info *sqfs_info(const struct sqfs_writer *w,
					       const struct ff_node *n)
{
	return &w->info[(n->link ? n->link : n)->index];
}

/* The file record of files[i] (i in data order). */
static inline struct sqfs_file_data *sqfs_fdata(const struct sqfs_writer *w, size_t i)
{
	return &w->fdata[w->files[i]->index];
}

/* writer.c */
/* The metadata compression context, or NULL when `raw` (stored as is). */
static inline struct ff_comp_ctx *sqfs_meta_ctx(const struct sqfs_writer *w, int raw)
{
	return raw ? NULL : w->mctx;
}
void sqfs_warn(const struct sqfs_writer *w, enum ff_warn_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Path of a node for messages ("/" for the root). */
const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap);

/* fragment_writer.c */
int sqfs_frag_init(struct sqfs_frag_writer *f, uint32_t block_size, struct ff_err *err);
/* Packs a tail; sets the file's fragment index and offset. */
int sqfs_frag_add(struct sqfs_writer *w, struct sqfs_file_data *fd, const uint8_t *tail,
		  uint32_t len, struct ff_err *err);
int sqfs_frag_flush(struct sqfs_writer *w, struct ff_err *err);
int sqfs_frag_retire(struct sqfs_writer *w, struct sqfs_block *b, struct ff_err *err);
void sqfs_frag_free(struct sqfs_frag_writer *f);

/* dedup_writer.c: sqfs_fdata(w, i)->dup_of set when files[i] has the same
 * content as an earlier file in data order (always a first copy, never a
 * chain).  sqfs_dedup decides the files of a block or more up front; the
 * smaller ones are decided one by one in data order by the data pass. */
int sqfs_dedup(struct sqfs_writer *w, struct ff_err *err);
/* Counts the sizes below a block (nothing under --no-dedup). */
int sqfs_dedup_small_init(struct sqfs_writer *w, struct ff_err *err);
/* 1 when a file of this size is a candidate for sqfs_dedup_small. */
int sqfs_dedup_small_wanted(const struct sqfs_writer *w, uint64_t size);
/* files[i]'s whole content is data: 1 when it duplicates an earlier file
 * (dup_of set), 0 when it is a first copy (remembered), -1 on an error. */
int sqfs_dedup_small(struct sqfs_writer *w, size_t i, const uint8_t *data, struct ff_err *err);
void sqfs_dedup_small_free(struct sqfs_writer *w);

/* data_writer.c: every file's blocks and tails, in data order. */
int sqfs_data_write(struct sqfs_writer *w, struct ff_err *err);
/* The per-file records, wanted only until the inodes are written: freed
 * then, before the tables after them are built (a million files hold
 * 48 MB of them). */
void sqfs_files_free(struct sqfs_writer *w);
/* The above and the fragment table. */
void sqfs_data_free(struct sqfs_writer *w);

/* id_table_writer.c */
int sqfs_ids_collect(struct sqfs_writer *w, struct ff_err *err);
uint16_t sqfs_id_index(const struct sqfs_writer *w, uint32_t id);
int sqfs_ids_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err);
void sqfs_ids_free(struct sqfs_id_table *t);

/* xattr_table_writer.c */
int sqfs_xattrs_collect(struct sqfs_writer *w, struct ff_err *err);
/* Writes the key/value stream, the id table and its header; *pos is the
 * header (SQFS_INVALID_BLK when no node has xattrs). */
int sqfs_xattrs_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err);
void sqfs_xattrs_free(struct sqfs_writer *w);

/* dir_table_writer.c */
struct sqfs_dir_info {
	uint32_t block;
	uint16_t offset;
	uint32_t size;        /* listing bytes + 3 */
	uint8_t *index;       /* encoded directory index entries */
	size_t index_len;
	uint32_t index_count;
	int extended;         /* large directory: extended inode, as mksquashfs */
};
int sqfs_dir_write(struct sqfs_writer *w, const struct ff_node *dir, struct sqfs_dir_info *di,
		   struct ff_err *err);

/* inode_table_writer.c: numbers every inode, then writes inodes and
 * listings bottom-up; the root is numbered last. */
int sqfs_inodes_number(struct sqfs_writer *w, struct ff_err *err);
int sqfs_inodes_write(struct sqfs_writer *w, struct ff_err *err);

/* export_table_writer.c */
int sqfs_export_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err);

/* append_writer.c: the old image's data region copied to the same offsets,
 * its fragment entries first in the table, its files' block lists reused. */
int sqfs_append_copy(struct sqfs_writer *w, struct sqfs_super *sb, struct ff_err *err);
int sqfs_append_frags(struct sqfs_writer *w, struct ff_err *err);
int sqfs_append_file(struct sqfs_writer *w, const struct ff_node *n, struct sqfs_file_data *fd,
		     struct ff_err *err);

/* fragment_table_writer.c */
int sqfs_fragment_table_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err);

#endif
