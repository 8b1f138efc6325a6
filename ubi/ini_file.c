/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The ini syntax of ubinize's configuration files, as mtd-utils' iniparser
 * reads it, into sections of keys that remember their line numbers. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ubi/ini_file.h"

static char *strip(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static int add_section(struct ff_ini *ini, const char *name, unsigned line)
{
	struct ff_ini_section *s;

	for (size_t i = 0; i < ini->n; i++)
		if (!strcmp(ini->sects[i].name, name))
			return 0; /* a repeated section continues the first */
	s = realloc(ini->sects, (ini->n + 1) * sizeof(*s));
	if (!s)
		return -1;
	ini->sects = s;
	s = &ini->sects[ini->n];
	*s = (struct ff_ini_section){.name = strdup(name), .line = line};
	if (!s->name)
		return -1;
	ini->n++;
	return 0;
}

static int add_key(struct ff_ini_section *s, const char *key, const char *val, unsigned line)
{
	struct ff_ini_key *k = realloc(s->keys, (s->n + 1) * sizeof(*k));

	if (!k)
		return -1;
	s->keys = k;
	k = &s->keys[s->n];
	*k = (struct ff_ini_key){.key = strdup(key), .val = strdup(val), .line = line};
	if (!k->key || !k->val)
		return -1;
	s->n++;
	return 0;
}

/* The value after '=': quoted, or up to an inline comment. */
static char *value_of(char *v)
{
	char *end;

	v = strip(v);
	if ((*v == '"' || *v == '\'') && (end = strchr(v + 1, *v)) != NULL) {
		*end = '\0';
		return v + 1;
	}
	v[strcspn(v, ";#")] = '\0';
	return strip(v);
}

static int parse_line(struct ff_ini *ini, char *line, unsigned no, struct ff_err *err)
{
	char *s = strip(line), *eq;
	size_t n = strlen(s);

	if (!n || *s == '#' || *s == ';')
		return 0;
	if (*s == '[' && s[n - 1] == ']') {
		s[strcspn(s, "]")] = '\0';
		s = strip(s + 1);
		lower(s);
		return add_section(ini, s, no) < 0 ? ff_err_set(err, ENOMEM, "out of memory") : 0;
	}
	eq = strchr(s, '=');
	if (!eq || eq == s)
		return ff_err_set(err, EINVAL, "%s:%u: syntax error: expected [section] or "
				  "key=value, got \"%s\"", ini->path, no, s);
	*eq = '\0';
	s = strip(s);
	lower(s);
	if (!ini->n)
		return ff_err_set(err, EINVAL, "%s:%u: key \"%s\" outside any [section]",
				  ini->path, no, s);
	if (add_key(&ini->sects[ini->n - 1], s, value_of(eq + 1), no) < 0)
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Reads lines, joining those that end in a backslash, and parses each. */
static int parse_stream(struct ff_ini *ini, FILE *f, struct ff_err *err)
{
	char *line = NULL, *acc = NULL;
	size_t cap = 0, acc_len = 0;
	unsigned no = 0, first = 0;
	ssize_t len;
	int rc = 0;

	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		char *l = line, *grown;
		size_t n;

		no++;
		n = (size_t)len;
		while (n && isspace((unsigned char)l[n - 1]))
			l[--n] = '\0';
		n = strlen(l); /* a NUL byte ends the line */
		if (!acc_len)
			first = no;
		grown = realloc(acc, acc_len + n + 1);
		if (!grown) {
			rc = ff_err_set(err, ENOMEM, "out of memory");
			break;
		}
		acc = grown;
		memcpy(acc + acc_len, l, n + 1);
		acc_len += n;
		if (n && l[n - 1] == '\\') {
			acc[--acc_len] = '\0';
			continue;
		}
		rc = parse_line(ini, acc, first, err);
		acc_len = 0;
	}
	if (rc == 0 && acc_len)
		rc = parse_line(ini, acc, first, err);
	free(line);
	free(acc);
	return rc;
}

int ff_ini_load(struct ff_ini *ini, const char *path, struct ff_err *err)
{
	FILE *f = fopen(path, "re");
	int rc;

	*ini = (struct ff_ini){.path = path};
	if (!f)
		return ff_err_sys(err, errno, "%s", path);
	rc = parse_stream(ini, f, err);
	if (rc == 0 && ferror(f))
		rc = ff_err_sys(err, EIO, "%s: read error", path);
	fclose(f);
	if (rc < 0)
		ff_ini_free(ini);
	return rc;
}

const struct ff_ini_key *ff_ini_get(const struct ff_ini_section *s, const char *key)
{
	const struct ff_ini_key *found = NULL;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->keys[i].key, key))
			found = &s->keys[i]; /* the last one wins, as in iniparser */
	return found;
}

void ff_ini_free(struct ff_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		for (size_t j = 0; j < ini->sects[i].n; j++) {
			free(ini->sects[i].keys[j].key);
			free(ini->sects[i].keys[j].val);
		}
		free(ini->sects[i].keys);
		free(ini->sects[i].name);
	}
	free(ini->sects);
	ini->sects = NULL;
	ini->n = 0;
}
