/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Progress bar: atomic counters updated by any thread; whichever thread
 * wins the compare-and-swap on the last-draw time redraws the line. */
#include "common/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 20
#define TTY_INTERVAL_NS 100000000ull  /* 10 redraws a second */
#define LOG_INTERVAL_NS 1000000000ull /* plain lines: once a second */
/* An ETA from the first moments extrapolates start-up costs (the first
 * frame once said 83:22:53): none before this much time and progress. */
#define ETA_MIN_NS 2000000000ull
#define ETA_MIN_PERMILLE 10

struct ff_progress {
	int fd;
	int tty;
	int draw;
	char unit[32];
	uint64_t start_ns, interval_ns;
	int on_screen;        /* a bar line without its newline is shown */
	pthread_mutex_t out;  /* one writer of the line at a time */
	_Atomic uint64_t done_bytes, done_items, total_bytes, total_items;
	_Atomic uint64_t last_draw_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct ff_progress *ff_progress_new(int fd, const char *unit, int force)
{
	struct ff_progress *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fd = fd;
	p->tty = isatty(fd);
	p->draw = p->tty || force;
	snprintf(p->unit, sizeof(p->unit), "%s", unit ? unit : "items");
	p->start_ns = now_ns();
	p->interval_ns = p->tty ? TTY_INTERVAL_NS : LOG_INTERVAL_NS;
	/* Tests ask for every frame (FF_PROGRESS_INTERVAL_MS=0). */
	if (getenv("FF_PROGRESS_INTERVAL_MS"))
		p->interval_ns = strtoull(getenv("FF_PROGRESS_INTERVAL_MS"), NULL, 10) * 1000000ull;
	pthread_mutex_init(&p->out, NULL);
	atomic_init(&p->done_bytes, 0);
	atomic_init(&p->done_items, 0);
	atomic_init(&p->total_bytes, 0);
	atomic_init(&p->total_items, 0);
	atomic_init(&p->last_draw_ns, p->start_ns);
	return p;
}

void ff_progress_set_total(struct ff_progress *p, uint64_t bytes, uint64_t items)
{
	if (!p)
		return;
	atomic_store(&p->total_bytes, bytes);
	atomic_store(&p->total_items, items);
}

static void fmt_duration(char *buf, size_t cap, uint64_t secs)
{
	if (secs >= 3600)
		snprintf(buf, cap, "%llu:%02llu:%02llu", (unsigned long long)(secs / 3600),
			 (unsigned long long)(secs / 60 % 60), (unsigned long long)(secs % 60));
	else
		snprintf(buf, cap, "%llu:%02llu", (unsigned long long)(secs / 60),
			 (unsigned long long)(secs % 60));
}

/* Fraction done in 0..1000: bytes when their total is known, else items. */
static unsigned permille(const struct ff_progress_state *s)
{
	uint64_t done = s->total_bytes ? s->done_bytes : s->done_items;
	uint64_t total = s->total_bytes ? s->total_bytes : s->total_items;

	if (!total)
		return s->final ? 1000 : 0;
	if (done >= total)
		return 1000;
	return (unsigned)((long double)done * 1000 / total);
}

/* The ETA extrapolates the fraction done (bytes, or items when there is
 * no byte total), so it agrees with the percentage shown. */
static void fmt_time_part(char *buf, size_t cap, const struct ff_progress_state *s)
{
	char t[32];
	unsigned pm = permille(s);

	if (s->final) {
		fmt_duration(t, sizeof(t), s->elapsed_ns / 1000000000ull);
		snprintf(buf, cap, "in %s", t);
	} else if (s->elapsed_ns >= ETA_MIN_NS && pm >= ETA_MIN_PERMILLE && pm < 1000) {
		double secs = (double)s->elapsed_ns / 1e9;

		fmt_duration(t, sizeof(t), (uint64_t)(secs * (1000 - pm) / pm + 0.5));
		snprintf(buf, cap, "ETA %s", t);
	} else {
		snprintf(buf, cap, "ETA --:--");
	}
}

size_t ff_progress_format(char *buf, size_t cap, const struct ff_progress_state *s)
{
	char bar[BAR_WIDTH + 1], tpart[48], mb[64];
	double secs = (double)s->elapsed_ns / 1e9;
	double rate = secs > 0 ? (double)s->done_bytes / secs : 0;
	unsigned pm = permille(s);
	unsigned fill = pm * BAR_WIDTH / 1000;
	int n;

	memset(bar, '#', fill);
	memset(bar + fill, ' ', BAR_WIDTH - fill);
	bar[BAR_WIDTH] = '\0';
	fmt_time_part(tpart, sizeof(tpart), s);
	/* A job that counts only items (mkfs.yaffs2's objects) shows no bytes
	 * rather than "0.0 MB  0.0 MB/s". */
	if (s->total_bytes)
		snprintf(mb, sizeof(mb), "  %.1f/%.1f MB  %.1f MB/s", (double)s->done_bytes / 1e6,
			 (double)s->total_bytes / 1e6, rate / 1e6);
	else if (s->done_bytes)
		snprintf(mb, sizeof(mb), "  %.1f MB  %.1f MB/s", (double)s->done_bytes / 1e6,
			 rate / 1e6);
	else
		mb[0] = '\0';
	n = snprintf(buf, cap, "[%s] %3u%%  %llu/%llu %s%s  %s", bar, pm / 10,
		     (unsigned long long)s->done_items, (unsigned long long)s->total_items,
		     s->unit ? s->unit : "items", mb, tpart);
	if (n < 0 || cap == 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

/* The counters are read under the lock, so frames written one after the
 * other never show less done (two threads drawing at once once did). */
static void draw(struct ff_progress *p, uint64_t now, int final)
{
	struct ff_progress_state s = {.elapsed_ns = now - p->start_ns, .unit = p->unit,
				      .final = final};
	char line[256];
	size_t len;
	ssize_t w;

	pthread_mutex_lock(&p->out);
	s.done_bytes = atomic_load(&p->done_bytes);
	s.total_bytes = atomic_load(&p->total_bytes);
	s.done_items = atomic_load(&p->done_items);
	s.total_items = atomic_load(&p->total_items);
	line[0] = p->tty ? '\r' : '\0';
	len = ff_progress_format(line + p->tty, sizeof(line) - 2 - (size_t)p->tty, &s) +
	      (size_t)p->tty;
	if (final || !p->tty)
		line[len++] = '\n';
	/* a progress line is best effort: a failed write is not an error */
	w = write(p->fd, line, len);
	(void)w;
	p->on_screen = p->tty && !final;
	pthread_mutex_unlock(&p->out);
}

void ff_progress_aside(struct ff_progress *p, void (*fn)(void *), void *ctx)
{
	static const char clear[] = "\r\033[K";
	ssize_t w;

	if (!p || !p->draw) {
		fn(ctx);
		return;
	}
	pthread_mutex_lock(&p->out);
	if (p->on_screen) {
		w = write(p->fd, clear, sizeof(clear) - 1);
		(void)w;
		p->on_screen = 0;
	}
	fn(ctx);
	pthread_mutex_unlock(&p->out);
	/* the bar comes back at the next frame */
	atomic_store(&p->last_draw_ns, 0);
}

struct message {
	FILE *f;
	const char *text;
};

static void put_message(void *ctx)
{
	struct message *m = ctx;

	fputs(m->text, m->f);
	fflush(m->f);
}

void ff_progress_message(struct ff_progress *p, FILE *f, const char *text)
{
	struct message m = {f, text};

	ff_progress_aside(p, put_message, &m);
}

void ff_progress_add(struct ff_progress *p, uint64_t bytes, uint64_t items)
{
	uint64_t now, last;

	if (!p)
		return;
	atomic_fetch_add(&p->done_bytes, bytes);
	atomic_fetch_add(&p->done_items, items);
	if (!p->draw)
		return;
	now = now_ns();
	last = atomic_load(&p->last_draw_ns);
	if (now - last < p->interval_ns)
		return;
	if (atomic_compare_exchange_strong(&p->last_draw_ns, &last, now))
		draw(p, now, 0);
}

void ff_progress_finish(struct ff_progress *p)
{
	if (p && p->draw)
		draw(p, now_ns(), 1);
}

void ff_progress_free(struct ff_progress *p)
{
	if (p)
		pthread_mutex_destroy(&p->out);
	free(p);
}
