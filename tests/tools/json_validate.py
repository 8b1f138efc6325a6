#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""json_validate.py SCHEMA FILE...: validate each JSON file (one document,
or "-" for standard input) against a JSON Schema 2020-12 file with
python3-jsonschema's Draft202012Validator (formats are not checked).
Prints every error with its path in the document; exit 0 when all files
are valid, 1 when one is not, 2 on a usage error or an unreadable file."""
import json
import sys

import jsonschema


def load(path):
    with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
        return json.load(f)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        schema = load(argv[1])
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"json_validate: {argv[1]}: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    rc = 0
    for path in argv[2:]:
        try:
            doc = load(path)
        except (OSError, ValueError) as e:
            print(f"json_validate: {path}: {e}", file=sys.stderr)
            return 2
        for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print(f"json_validate: {path}: {where}: {err.message}", file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
