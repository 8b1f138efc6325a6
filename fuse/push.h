/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Push-ahead (push=N): small files stored into the kernel's page cache
 * before a tree walk asks for them (see push.c). */
#ifndef FF_FUSE_PUSH_H
#define FF_FUSE_PUSH_H

#include <stddef.h>
#include <stdint.h>

struct ff_push;

/* A file to store: its handle and its whole size. */
struct ff_push_file {
	uint64_t handle;
	uint32_t size;
};

/* window: files pushed after each one read (>= 1); max_size: the largest
 * file pushed (a larger one costs few READs per byte anyway).  NULL when
 * out of memory. */
struct ff_push *ff_push_new(unsigned window, uint32_t max_size);
/* Stores what is queued, stops the thread, frees everything. */
void ff_push_free(struct ff_push *p);

/* A directory listing named `handle` in `dir` (listing order); files of
 * 1..max_size bytes are remembered, each once, the rest ignored. */
void ff_push_listed(struct ff_push *p, uint64_t dir, uint64_t handle, uint32_t mode,
		    uint64_t size);

/* Starts the thread that stores the files (store(ctx, handle, size)).
 * 0, or -1 when it cannot start. */
int ff_push_start(struct ff_push *p, void (*store)(void *ctx, uint64_t handle, uint32_t size),
		  void *ctx);
/* A READ of the start of `handle`: the files ff_push_after names are
 * queued for the store thread (those that do not fit are not pushed). */
void ff_push_read(struct ff_push *p, uint64_t handle);

/* The start of `handle` was asked for: fills out (room for `room`) with
 * the files that follow it in its listing and were not pushed or read
 * yet, at most the window, and marks them; returns how many. */
size_t ff_push_after(struct ff_push *p, uint64_t handle, struct ff_push_file *out,
		     size_t room);

/* The kernel asked for a part of `dir`'s listing past the first: when
 * that is the latest listing and a walker reads what it lists, its first
 * files are queued for the store thread (push.c). */
void ff_push_listing_on(struct ff_push *p, uint64_t dir);

/* The head of `dir`'s listing for ff_push_listing_on: fills out as
 * ff_push_after does from the listing's first entry, once a listing, and
 * only while a READ of a file's start came within the last 16 listings
 * (a walk that only lists gets nothing).  Returns how many. */
size_t ff_push_head(struct ff_push *p, uint64_t dir, struct ff_push_file *out, size_t room);

/* 0 when the walker has read the start of `handle` since it was listed
 * (its pages are cached: a store is wasted), else 1. */
int ff_push_wanted(struct ff_push *p, uint64_t handle);

#endif
