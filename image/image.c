/* Format detection: SquashFS by its magic, a compressed container by the
 * container's magic (decompressed into an unlinked temporary file, then
 * detected again), a UBI image by its EC header magic (the chosen volume
 * copied into an unlinked temporary file, then detected again), YAFFS2 by
 * its own probe. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fd_size.h"
#include "compress/compress.h"
#include "image/dir_fs.h"
#include "image/image.h"
#include "image/ubi_fs.h"
#include "squashfs/reader.h"
#include "ubi/reader.h"
#include "yaffs2/reader.h"
#include "yaffs2/scan.h"

static int read_magic(const char *path, uint64_t off, uint8_t *buf, size_t cap, size_t *got,
		      struct ff_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return ff_err_sys(err, errno, "%s", path);
	n = pread(fd, buf, cap, (off_t)off);
	close(fd);
	if (n < 0)
		return ff_err_sys(err, errno, "%s", path);
	*got = (size_t)n;
	return 0;
}

static int copy_out(struct ff_cstream *s, int out, const char *path, struct ff_err *err)
{
	static const size_t chunk = 1u << 20;
	uint8_t *buf = malloc(chunk);
	ssize_t n;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	while ((n = ff_cstream_read(s, buf, chunk, err)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			free(buf);
			return ff_err_sys(err, errno, "%s: writing decompressed copy", path);
		}
	free(buf);
	return n < 0 ? ff_err_prefix(err, "%s", path) : 0;
}

/* An unlinked temporary file in $TMPDIR (or /tmp). */
static int tmp_file(const char *path, struct ff_err *err)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		ff_err_sys(err, errno, "%s: temporary file in %s", path, dir);
	return fd;
}

/* Decompresses path (from offset) into an unlinked temporary file. */
static int decompress_tmp(const char *path, uint64_t off, struct ff_err *err)
{
	int in = open(path, O_RDONLY | O_CLOEXEC), out;
	struct ff_cstream *s;

	if (in < 0)
		return ff_err_sys(err, errno, "%s", path);
	out = tmp_file(path, err);
	if (out < 0)
		goto fail;
	if (lseek(in, (off_t)off, SEEK_SET) < 0) {
		ff_err_sys(err, errno, "%s: seek to %llu", path, (unsigned long long)off);
		goto fail;
	}
	s = ff_cstream_new_reader(in, err);
	if (!s) {
		ff_err_prefix(err, "%s", path);
		goto fail;
	}
	if (copy_out(s, out, path, err) < 0) {
		ff_cstream_close(s, NULL);
		goto fail;
	}
	ff_cstream_close(s, NULL);
	close(in);
	return out;
fail:
	close(in);
	if (out >= 0)
		close(out);
	return -1;
}

static int open_ubi(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		    struct ff_err *err);

static int open_plain(const char *path, const struct ff_open_opts *opts, const uint8_t *magic,
		      size_t got, struct ff_fs **fs, struct ff_err *err)
{
	if (ff_ubi_probe(magic, got))
		return open_ubi(path, opts, fs, err);
	if (ff_squashfs_probe(magic, got)) {
		if (ff_squashfs_open(path, opts, fs, err) < 0)
			return -1;
		return 0;
	}
	if (ff_yaffs2_probe(path, opts))
		return ff_yaffs2_open(path, opts, fs, err);
	return ff_err_set(err, FF_IMAGE_UNKNOWN, "not a SquashFS, YAFFS2 or UBI image (or a compressed one)");
}

/* Copies the chosen volume of the UBI image in fd to a temporary file. */
static int ubi_volume_tmp(const char *path, int fd, const struct ff_open_opts *o,
			  struct ff_ubi_image **img, size_t *vol, struct ff_err *err)
{
	int tmp;

	struct ff_ubi_hint hint = {o->ubi_peb_size, o->ubi_page_size, o->ubi_oob_size};

	if (ff_ubi_open(fd, o->offset, &hint, img, err) < 0)
		return ff_err_prefix(err, "UBI");
	if (ff_ubi_volume_select(*img, o->ubi_volume, vol, err) < 0 ||
	    (tmp = tmp_file(path, err)) < 0)
		goto fail;
	if (ff_ubi_volume_copy(*img, *vol, tmp, err) == 0)
		return tmp;
	close(tmp);
fail:
	ff_ubi_close(*img);
	*img = NULL;
	return -1;
}

/* The volume's own image is opened from the copy; one level of UBI only. */
static int open_ubi(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		    struct ff_err *err)
{
	struct ff_open_opts o = *opts;
	struct ff_ubi_image *img;
	struct ff_fs *inner = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), tmp, ret = -1;
	char tmp_path[64];
	uint8_t magic[64];
	size_t got, vol;

	if (fd < 0)
		return ff_err_sys(err, errno, "%s", path);
	tmp = ubi_volume_tmp(path, fd, &o, &img, &vol, err);
	close(fd);
	if (tmp < 0)
		return -1;
	snprintf(tmp_path, sizeof(tmp_path), "/proc/self/fd/%d", tmp);
	o.offset = 0;
	if (read_magic(tmp_path, 0, magic, sizeof(magic), &got, err) == 0) {
		if (ff_ubi_probe(magic, got))
			ff_err_set(err, EINVAL, "a UBI image inside a UBI volume");
		else
			ret = open_plain(tmp_path, &o, magic, got, &inner, err);
	}
	close(tmp);
	if (ret < 0) {
		ff_err_prefix(err, "UBI volume \"%s\"", ff_ubi_volume_at(img, vol)->name);
		ff_ubi_close(img);
		return -1;
	}
	*fs = ff_ubi_fs_wrap(inner, img, vol, err);
	return *fs ? 0 : -1;
}

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err)
{
	struct ff_open_opts o = opts ? *opts : (struct ff_open_opts){0};
	uint8_t magic[64];
	size_t got;
	char tmp_path[64];
	struct stat st;
	int tmp, ret;

	*fs = NULL;
	if (o.directories && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return ff_dir_fs_open(path, fs, err);
	if (read_magic(path, o.offset, magic, sizeof(magic), &got, err) < 0)
		return -1;
	if (!ff_cstream_detect(magic, got))
		return open_plain(path, &o, magic, got, fs, err);
	tmp = decompress_tmp(path, o.offset, err);
	if (tmp < 0)
		return -1;
	snprintf(tmp_path, sizeof(tmp_path), "/proc/self/fd/%d", tmp);
	o.offset = 0;
	ret = read_magic(tmp_path, 0, magic, sizeof(magic), &got, err);
	if (ret == 0)
		ret = open_plain(tmp_path, &o, magic, got, fs, err);
	if (ret < 0)
		ff_err_prefix(err, "%s (decompressed)", path);
	close(tmp);
	return ret;
}

int ff_image_flash_kind(int fd, uint64_t size, int force_raw, struct ff_y2_layout *lay)
{
	uint8_t magic[4];
	int big;

	if (force_raw)
		return FF_IMAGE_FLASH_RAW;
	/* UBI too: its PEBs are plain data, written as nandwrite -p writes them */
	if (pread(fd, magic, 4, 0) == 4 && (ff_squashfs_probe(magic, 4) || ff_ubi_probe(magic, 4)))
		return FF_IMAGE_FLASH_RAW;
	if (ff_y2_detect(fd, 0, size, NULL, lay, &big, NULL) == 0)
		return FF_IMAGE_FLASH_YAFFS2;
	return -1;
}

/* Scanned in chunks; each chunk overlaps the next by the bytes a probe
 * reads, so a superblock across a chunk boundary is still seen.  The
 * YAFFS2 detection reads a MiB each time, so only its first tries run. */
#define SCAN_CHUNK (1u << 20)
#define SCAN_PROBE 512u
#define SCAN_YAFFS2_TRIES 32

struct scan {
	int fd;
	uint64_t size;
	const struct ff_open_opts *opts;
	unsigned yaffs2_tries;
};

static const char *probe_at(struct scan *sc, uint64_t off, const uint8_t *p, size_t len)
{
	int r;

	if (ff_squashfs_probe_super(p, len, sc->size - off))
		return "a SquashFS superblock";
	if (sc->yaffs2_tries >= SCAN_YAFFS2_TRIES)
		return NULL;
	r = ff_yaffs2_probe_at(sc->fd, off, sc->size, p, len, sc->opts);
	if (r == 0)
		sc->yaffs2_tries++;
	return r > 0 ? "a YAFFS2 image" : NULL;
}

static const char *scan_chunks(struct scan *sc, uint8_t *buf, uint64_t *found)
{
	uint64_t end = sc->size < FF_IMAGE_SCAN_BYTES ? sc->size : FF_IMAGE_SCAN_BYTES;

	for (uint64_t base = 0; base < end; base += SCAN_CHUNK) {
		ssize_t n = pread(sc->fd, buf, SCAN_CHUNK + SCAN_PROBE, (off_t)base);

		if (n <= 0)
			return NULL;
		for (uint64_t i = base ? 0 : FF_IMAGE_SCAN_STEP; i < SCAN_CHUNK && i < (uint64_t)n &&
		     base + i < end; i += FF_IMAGE_SCAN_STEP) {
			const char *what = probe_at(sc, base + i, buf + i, (size_t)n - i);

			if (what) {
				*found = base + i;
				return what;
			}
		}
	}
	return NULL;
}

const char *ff_image_locate(const char *path, const struct ff_open_opts *opts, uint64_t *found)
{
	struct scan sc = {.opts = opts};
	const char *what = NULL;
	uint8_t *buf = malloc(SCAN_CHUNK + SCAN_PROBE);

	sc.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (buf && sc.fd >= 0 && ff_fd_size(sc.fd, &sc.size) == 0)
		what = scan_chunks(&sc, buf, found);
	if (sc.fd >= 0)
		close(sc.fd);
	free(buf);
	return what;
}
