"""tests/json/validate.py SCHEMA REPORT... -- validates each JSON report
against the schema (JSON Schema draft 2020-12) with Debian's
python3-jsonschema; prints one line per report that does not validate and
exits 1 if any did not."""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:3]:
            print(f"{path}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message[:200]}")
        bad += bool(errors)
    sys.exit(1 if bad else 0)


main()
