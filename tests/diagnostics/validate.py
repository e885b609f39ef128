"""tests/diagnostics/validate.py SCHEMA FILE... -- validates each JSON FILE
against the JSON schema SCHEMA (its $schema picks the draft) with Debian's
python3-jsonschema; prints each file that does not validate and why. Exit 0
when every file validates, 1 when one does not, 2 when it cannot run."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate.py: python3-jsonschema is missing (scripts/deps.sh installs it)", file=sys.stderr)
    sys.exit(2)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if error is not None:
            message = error.message if len(error.message) < 300 else error.message[:300] + "..."
            print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {message}")
            bad += 1
    sys.exit(1 if bad else 0)


main()
