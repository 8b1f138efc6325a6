/* Progress bar: atomic counters updated by any thread; whichever thread
 * wins the compare-and-swap on the last-draw time redraws the line. */
#include "common/progress.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 20
#define TTY_INTERVAL_NS 100000000ull  /* 10 redraws a second */
#define LOG_INTERVAL_NS 1000000000ull /* plain lines: once a second */

struct ff_progress {
	int fd;
	int tty;
	int draw;
	char unit[32];
	uint64_t start_ns;
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

static void fmt_time_part(char *buf, size_t cap, const struct ff_progress_state *s,
			  double rate)
{
	char t[32];
	uint64_t total = s->total_bytes, done = s->done_bytes;

	if (s->final) {
		fmt_duration(t, sizeof(t), s->elapsed_ns / 1000000000ull);
		snprintf(buf, cap, "in %s", t);
	} else if (total > done && rate > 0) {
		fmt_duration(t, sizeof(t), (uint64_t)((double)(total - done) / rate + 0.5));
		snprintf(buf, cap, "ETA %s", t);
	} else {
		snprintf(buf, cap, "ETA --:--");
	}
}

size_t ff_progress_format(char *buf, size_t cap, const struct ff_progress_state *s)
{
	char bar[BAR_WIDTH + 1], tpart[48];
	double secs = (double)s->elapsed_ns / 1e9;
	double rate = secs > 0 ? (double)s->done_bytes / secs : 0;
	unsigned pm = permille(s);
	unsigned fill = pm * BAR_WIDTH / 1000;
	int n;

	memset(bar, '#', fill);
	memset(bar + fill, ' ', BAR_WIDTH - fill);
	bar[BAR_WIDTH] = '\0';
	fmt_time_part(tpart, sizeof(tpart), s, rate);
	n = snprintf(buf, cap, "[%s] %3u%%  %llu/%llu %s  %.1f/%.1f MB  %.1f MB/s  %s", bar,
		     pm / 10, (unsigned long long)s->done_items,
		     (unsigned long long)s->total_items, s->unit ? s->unit : "items",
		     (double)s->done_bytes / 1e6, (double)s->total_bytes / 1e6, rate / 1e6, tpart);
	if (n < 0 || cap == 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

static void draw(struct ff_progress *p, uint64_t now, int final)
{
	struct ff_progress_state s = {
		.done_bytes = atomic_load(&p->done_bytes),
		.total_bytes = atomic_load(&p->total_bytes),
		.done_items = atomic_load(&p->done_items),
		.total_items = atomic_load(&p->total_items),
		.elapsed_ns = now - p->start_ns,
		.unit = p->unit,
		.final = final,
	};
	char line[256];
	size_t len;
	ssize_t w;

	line[0] = p->tty ? '\r' : '\0';
	len = ff_progress_format(line + p->tty, sizeof(line) - 2 - (size_t)p->tty, &s) +
	      (size_t)p->tty;
	if (final || !p->tty)
		line[len++] = '\n';
	/* a progress line is best effort: a failed write is not an error */
	w = write(p->fd, line, len);
	(void)w;
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
	if (now - last < (p->tty ? TTY_INTERVAL_NS : LOG_INTERVAL_NS))
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
	free(p);
}
