/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A reader waiting on a FUSE request sleeps until our answer wakes it.
 * When the receiving thread runs on another CPU, each request and each
 * answer is a wake-up across CPUs; on a virtual machine that CPU is often
 * halted, and waking it goes through the hypervisor.  Measured on the
 * 2-CPU machine (cold tar of minbase, zstd, a loaded machine): the loop's
 * thread pinned to the CPU of tar 5.0-5.5 s, to the other CPU 12.5-14.7 s,
 * unpinned 6.9-7.8 s.  On one CPU the two hand over like the ends of a
 * pipe: tar sleeps, we run, we answer and sleep, tar runs, with no
 * interrupt between CPUs.  Decompression stays on the workers, which keep
 * every CPU.
 *
 * So the thread moves to the CPU its requester last ran on: checked on the
 * first request after a pause and every CHECK_EVERY requests after (a read
 * of /proc/PID/stat), and given up when the mount has been idle for a
 * moment (spin_loop.c), so an idle mount holds no CPU. */
#include "fuse/follow.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_EVERY 64

void ff_follow_init(struct ff_follow *f, int on)
{
	memset(f, 0, sizeof(*f));
	f->cpu = -1;
	f->on = on && sched_getaffinity(0, sizeof(f->allowed), &f->allowed) == 0 &&
		CPU_COUNT(&f->allowed) > 1;
}

/* Field 39 of /proc/PID/stat, counted after the ')' that ends the
 * command name (which may itself hold spaces and parentheses). */
int ff_follow_task_cpu(pid_t pid)
{
	char path[40], buf[1024];
	const char *p;
	int fd, field = 2, cpu = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (; *p && field < 39; p++)
		if (*p == ' ')
			field++;
	if (field == 39 && *p >= '0' && *p <= '9')
		cpu = atoi(p);
	return cpu;
}

/* Threads started while we were pinned (the prefetch workers start with
 * the first tree walk) inherit our single CPU; give them back the rest. */
static void free_others(const struct ff_follow *f)
{
	DIR *d = opendir("/proc/self/task");
	pid_t self = gettid();
	struct dirent *e;
	cpu_set_t mask;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || tid == self ||
		    sched_getaffinity(tid, sizeof(mask), &mask) != 0 || CPU_COUNT(&mask) != 1)
			continue;
		(void)sched_setaffinity(tid, sizeof(f->allowed), &f->allowed);
	}
	closedir(d);
}

static void pin(struct ff_follow *f, int cpu)
{
	cpu_set_t one;

	if (f->cpu >= 0)
		free_others(f);
	if (cpu == f->cpu || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &f->allowed))
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == 0)
		f->cpu = cpu;
}

void ff_follow_request(struct ff_follow *f, const void *hdr, size_t len)
{
	struct fuse_in_header in;

	if (!f->on || len < sizeof(in))
		return;
	memcpy(&in, hdr, sizeof(in));
	if (in.pid == 0) /* the kernel's own (INIT, FORGET): nobody waits */
		return;
	if (++f->seen % CHECK_EVERY != 0 && f->cpu >= 0)
		return;
	f->pid = (pid_t)in.pid;
	pin(f, ff_follow_task_cpu(f->pid));
}

void ff_follow_release(struct ff_follow *f)
{
	if (!f->on || f->cpu < 0)
		return;
	if (sched_setaffinity(0, sizeof(f->allowed), &f->allowed) == 0)
		f->cpu = -1;
}
