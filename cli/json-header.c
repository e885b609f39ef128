/* cli/json-header.c -- the members every JSON report of athread opens with
 * (docs/json.md): which athread and which schema wrote it, the command, the
 * spec and the consts it ran with. */
#include <jansson.h>

#include "../core/json-text.h"
#include "cli.h"

/* The consts as the run used them (after --set), so that a reader of the
 * report, viz --trace among them, needs no repeated --set. */
static json_t *consts_json(const ast_spec *spec) {
  json_t *o = json_object();
  vec_foreach(&spec->consts, i) {
    const ast_const *k = spec->consts.items[i];
    json_object_set_new(o, k->name, json_integer((json_int_t)k->value));
  }
  return o;
}

json_t *cli_json_report(const char *command, const char *path, const ast_spec *spec, json_t *report) {
  json_t *o =
      json_pack("{s:s, s:i, s:s, s:o, s:o}", "athread_version", ATHREAD_VERSION, "schema_version",
                ATHREAD_JSON_SCHEMA_VERSION, "command", command, "spec", json_text(path), "consts", consts_json(spec));
  json_object_update(o, report);
  json_decref(report);
  return o;
}
