/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/json.c: escaping (quotes, backslashes, every control character,
 * UTF-8 passed through), typed values, nesting with commas, compact and
 * pretty layouts; common/info.c: typed items written as JSON, each group
 * closed by its own bracket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "common/info.h"
#include "common/json.h"

static char buf[4096];

static FILE *mem(void)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	return f;
}

static void escaping(void **state)
{
	FILE *f = mem();

	(void)state;
	ff_json_string(f, "a\"b\\c\n\t\x01\x1f\x7f caf\xc3\xa9 \xe2\x82\xac");
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\u000a\\u0009\\u0001\\u001f\x7f caf\xc3\xa9 "
				 "\xe2\x82\xac\"");
}

static void every_control_char(void **state)
{
	char in[33];
	FILE *f = mem();

	(void)state;
	for (int i = 1; i < 32; i++)
		in[i - 1] = (char)i;
	in[31] = '\0';
	ff_json_string(f, in);
	fclose(f);
	assert_int_equal(strlen(buf), 2 + 31 * 6);
	for (int i = 1; i < 32; i++) {
		char want[8];

		snprintf(want, sizeof(want), "\\u%04x", i);
		assert_memory_equal(buf + 1 + (i - 1) * 6, want, 6);
	}
}

static void compact_nesting(void **state)
{
	struct ff_json j;
	FILE *f = mem();

	(void)state;
	ff_json_init(&j, f, 0);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "s", "x");
	ff_json_kv_uint(&j, "u", UINT64_MAX);
	ff_json_key(&j, "i");
	ff_json_int(&j, -5);
	ff_json_kv_real(&j, "r", 0.5, 3);
	ff_json_kv_real(&j, "nan", NAN, 3);
	ff_json_kv_bool(&j, "t", 1);
	ff_json_key(&j, "a");
	ff_json_begin_array(&j);
	ff_json_uint(&j, 1);
	ff_json_begin_object(&j);
	ff_json_end_object(&j);
	ff_json_begin_array(&j);
	ff_json_end_array(&j);
	ff_json_null(&j);
	ff_json_end_array(&j);
	ff_json_key(&j, "n");
	ff_json_number_text(&j, "42");
	ff_json_key(&j, "n2");
	ff_json_number_text(&j, "012");
	ff_json_end_object(&j);
	ff_json_finish(&j);
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"x\",\"u\":18446744073709551615,\"i\":-5,\"r\":0.500,"
				 "\"nan\":null,\"t\":true,\"a\":[1,{},[],null],\"n\":42,"
				 "\"n2\":\"012\"}\n");
}

static void pretty_layout(void **state)
{
	struct ff_json j;
	FILE *f = mem();

	(void)state;
	ff_json_init(&j, f, 1);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "k", "v");
	ff_json_key(&j, "l");
	ff_json_begin_array(&j);
	ff_json_bool(&j, 0);
	ff_json_end_array(&j);
	ff_json_end_object(&j);
	ff_json_finish(&j);
	fclose(f);
	assert_string_equal(buf, "{\n  \"k\": \"v\",\n  \"l\": [\n    false\n  ]\n}\n");
}

static void info_items(void **state)
{
	static const char *const names[] = { "a", "b", "c", NULL };
	struct ff_json j;
	FILE *f = mem();

	(void)state;
	ff_json_init(&j, f, 0);
	ff_json_begin_object(&j);
	ff_info_begin(ff_info_json, &j, FF_INFO_OBJECT, "o", "text only");
	ff_info_str(ff_info_json, &j, "s", "x");
	ff_info_uint(ff_info_json, &j, "u", 18446744073709551615ull);
	ff_info_int(ff_info_json, &j, "i", -3);
	ff_info_bool(ff_info_json, &j, "b", 2);
	ff_info_null(ff_info_json, &j, "n", "none stored");
	ff_info_names(ff_info_json, &j, "l", 5, names, "a,c");
	ff_info_names(ff_info_json, &j, "e", 0, names, "");
	ff_info_end(ff_info_json, &j);
	ff_info_begin(ff_info_json, &j, FF_INFO_LIST, "v", NULL);
	ff_info_begin(ff_info_json, &j, FF_INFO_OBJECT, NULL, NULL);
	ff_info_uint(ff_info_json, &j, "id", 0);
	ff_info_end(ff_info_json, &j);
	ff_info_end(ff_info_json, &j);
	ff_json_end(&j);
	ff_json_finish(&j);
	fclose(f);
	assert_string_equal(buf, "{\"o\":{\"s\":\"x\",\"u\":18446744073709551615,\"i\":-3,"
				 "\"b\":true,\"n\":null,\"l\":[\"a\",\"c\"],\"e\":[]},"
				 "\"v\":[{\"id\":0}]}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escaping),
		cmocka_unit_test(every_control_char),
		cmocka_unit_test(compact_nesting),
		cmocka_unit_test(pretty_layout),
		cmocka_unit_test(info_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
