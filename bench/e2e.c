/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* --e2e: the real thing for a chosen setting — build the image with
 * mkfs.squashfs (timed), then read the whole tree back through
 * `flashfs mount` and, as root, through the kernel's loop mount with a
 * cold page cache.  Programs are run, not linked, so the figures include
 * everything a user would see. */
#include "bench/bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tree/build.h"

#define MAX_ARGS 48

/* Runs argv with stdout/stderr appended to log; returns the exit status
 * (or -1 when it could not run or was killed). */
static int run(char *const *argv, const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void read_dir(const char *dir, uint64_t *bytes, char *buf, size_t cap);

static void read_entry(const char *path, uint64_t *bytes, char *buf, size_t cap)
{
	struct stat st;
	int fd;
	ssize_t n;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		read_dir(path, bytes, buf, cap);
		return;
	}
	if (!S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	while ((n = read(fd, buf, cap)) > 0)
		*bytes += (uint64_t)n;
	close(fd);
}

static void read_dir(const char *dir, uint64_t *bytes, char *buf, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
			break;
		read_entry(p, bytes, buf, cap);
		free(p);
	}
	closedir(d);
}

double bench_read_tree(const char *dir, uint64_t *bytes)
{
	size_t cap = 1u << 20;
	char *buf = malloc(cap);
	double t0 = bench_wall_now();

	*bytes = 0;
	if (!buf)
		return -1;
	read_dir(dir, bytes, buf, cap);
	free(buf);
	return bench_wall_now() - t0;
}

static double fuse_read(const struct bench_e2e_opts *o, const char *image, const char *mnt,
			const char *log)
{
	char prog[4096];
	char *mount_argv[] = { prog, (char *)"mount", (char *)image, (char *)mnt, NULL };
	char *umount_argv[] = { (char *)"fusermount3", (char *)"-u", (char *)mnt, NULL };
	uint64_t bytes;
	double t;

	snprintf(prog, sizeof(prog), "%s/flashfs", o->bin_dir);
	if (access("/dev/fuse", R_OK | W_OK) || run(mount_argv, log))
		return -1;
	t = bench_read_tree(mnt, &bytes);
	if (run(umount_argv, log))
		run((char *[]){ (char *)"umount", (char *)"-l", (char *)mnt, NULL }, log);
	return t;
}

double bench_kernel_read(const char *image, const char *mnt, const char *log, uint64_t *bytes)
{
	char *mount_argv[] = { (char *)"mount", (char *)"-o", (char *)"loop,ro", (char *)image,
			       (char *)mnt, NULL };
	char *umount_argv[] = { (char *)"umount", (char *)mnt, NULL };
	double t;
	int fd;

	if (geteuid() != 0 || run(mount_argv, log))
		return -1;
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "3\n", 2) != 2)
			t = -1;
		close(fd);
	}
	t = bench_read_tree(mnt, bytes);
	run(umount_argv, log);
	return t;
}

int bench_e2e_run(const struct bench_e2e_opts *o, const struct bench_result *r,
		  struct bench_e2e *e, struct ff_err *err)
{
	char log[4200], mnt[4200];
	struct stat st;
	uint64_t bytes;

	memset(e, 0, sizeof(*e));
	e->fuse_read_s = e->kernel_read_s = -1;
	if (!r->image[0] || stat(r->image, &st))
		return ff_err_set(err, ENOENT, "%s %s: the image was not kept", r->fs_title,
				  r->codec.label);
	e->image_size = (uint64_t)st.st_size;
	e->mkfs_s = r->build_s;
	snprintf(log, sizeof(log), "%s.log", r->image);
	snprintf(mnt, sizeof(mnt), "%s/mnt", o->work_dir);
	if (mkdir(mnt, 0755) && errno != EEXIST)
		return ff_err_sys(err, errno, "%s", mnt);
	e->fuse_read_s = fuse_read(o, r->image, mnt, log);
	if (!(bench_fs_media(r->fs) & FF_MEDIUM_BLOCK)) {
		e->kernel_read_s = -1;
		snprintf(e->note, sizeof(e->note), "no host kernel read: %.20s lives on raw flash "
			 "(MTD)%s", r->fs_title, e->fuse_read_s < 0 ? "; FUSE read not run" : "");
		e->valid = 1;
		return 0;
	}
	e->kernel_read_s = bench_kernel_read(r->image, mnt, log, &bytes);
	if (e->fuse_read_s < 0)
		snprintf(e->note, sizeof(e->note), "FUSE read not run (no /dev/fuse or mount "
						   "failed, see %.100s)", log);
	else if (e->kernel_read_s < 0)
		snprintf(e->note, sizeof(e->note), "kernel read needs root");
	e->valid = 1;
	return 0;
}
