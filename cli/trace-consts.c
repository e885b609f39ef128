/* cli/trace-consts.c -- loading a spec with the consts a counterexample was
 * written with (viz --trace, replay), so that no --set needs repeating. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The value a trace gives const name: its "consts" member's, except for the
 * parameter of --for-all, whose counterexample is at "for_all"'s n. */
static json_t *trace_const(json_t *root, const char *name, json_t *value) {
  json_t *fa = json_object_get(root, "for_all");
  const char *param = json_string_value(json_object_get(fa, "parameter"));
  json_t *n = json_object_get(fa, "n");
  return param && n && strcmp(param, name) == 0 ? n : value;
}

/* The consts the trace ran with (docs/json.md) that the spec does not have
 * already, after the command line's --set (which wins), in a new array.
 * Returns owned (free with free), *count its entries. */
static spec_override *trace_overrides(const diag_source *trace, const ast_spec *spec, const spec_options *cmdline,
                                      size_t *count) {
  json_t *root = json_loadb(trace->text, trace->len, 0, NULL), *consts = json_object_get(root, "consts");
  spec_override *o = xcalloc(cmdline->override_count + json_object_size(consts) + 1, sizeof *o);
  memcpy(o, cmdline->overrides, cmdline->override_count * sizeof *o);
  *count = cmdline->override_count;
  const char *name;
  json_t *v;
  json_object_foreach(consts, name, v) {
    const ast_const *k = ast_find_const(spec, name);
    v = trace_const(root, name, v);
    if (k && !k->overridden && json_is_integer(v) && json_integer_value(v) != k->value)
      o[(*count)++] = (spec_override){.name = k->name, .value = json_integer_value(v)};
  }
  json_decref(root);
  return o;
}

ast_spec *cli_spec_with_trace_consts(ast_spec *spec, const diag_source *trace, const spec_options *cmdline) {
  spec_options opts = *cmdline;
  spec_override *o = trace_overrides(trace, spec, cmdline, &opts.override_count);
  opts.overrides = o;
  ast_spec *again = opts.override_count > cmdline->override_count ? spec_reload(spec, &opts) : spec;
  if (again != spec) spec_free(spec);
  free(o);
  return again;
}
