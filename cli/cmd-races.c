/* cli/cmd-races.c -- `athread races [SPEC] FILES...`: data races in C
 * thread code, layer 1 (races/races.h). Without a spec the threads come
 * from main's thread creation (races_run drafts the spec). Prints a line
 * per thread and per cell, the reasons the run is not sure, the assumptions
 * and one verdict (or one JSON object). */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json-text.h"
#include "../races/races.h"
#include "../spec-lang/spec.h"
#include "cli.h"
#include "code-args.h"
#include "sarif-flows.h"

typedef struct races_args {
  spec_options spec;   /* --set overrides */
  cli_code_args code;  /* --thread T=func; -I, -D, -U */
  bool json;           /* --json */
  const char *sarif;   /* --sarif FILE: the verdicts as a SARIF log */
  const char *for_all; /* --for-all N: the proof layer for every N */
  const char *path;    /* the spec, or NULL */
  char **files;        /* the C files */
  int file_count;      /* how many */
  diag_sink *sink;     /* the run's */
} races_args;

/* Applies one option (a cli_take_fn). */
static int races_option(int c, char *arg, void *args) {
  races_args *a = args;
  switch (c) {
  case 'r':
    return cli_take_binding(&a->code, arg) ? -1 : cli_usage_error(a->sink, "races", "--thread expects THREAD=FUNCTION");
  case 'j': a->json = true; return -1;
  case 'R': a->sarif = arg; return -1;
  case 'F': a->for_all = arg; return -1;
  case 'I':
  case 'D':
  case 'U': cli_take_cpp_flag(&a->code, (char)c, arg); return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

static int races_options(int argc, char **argv, races_args *a) {
  cli_parse p = {"races", "thread json sarif for-all", "hI:D:U:", &a->spec, races_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (a->sarif && a->json && strcmp(a->sarif, "-") == 0)
    return cli_usage_error(a->sink, "races", "--sarif - and --json would both write to standard output");
  if (optind < argc && cli_is_spec_path(argv[optind])) a->path = argv[optind++];
  if (optind >= argc) return cli_usage_error(a->sink, "races", "no C file given");
  if (!a->path && a->code.bindings.len) return cli_usage_error(a->sink, "races", "--thread needs a specification");
  if (!a->path && a->for_all) return cli_usage_error(a->sink, "races", "--for-all needs a specification");
  a->files = argv + optind;
  a->file_count = argc - optind;
  return -1;
}

/* ---------------------------------------------------------------- text */

/* What the verdict takes for granted (the text's "assumptions:" line, the
 * JSON's assumptions.text). */
static const char assumptions[] =
    "layer 1 (lockset), a bounded search and, with a spec, the proof by its abstract threads (athread check's "
    "theorem: memory is sequentially consistent); each join waits for a thread not joined before; the C library "
    "touches shared objects only through its arguments and starts no thread; a race is two conflicting accesses "
    "enabled at once, one shared access a step";

static const char *instances_text(char *buf, size_t n, int64_t k) {
  if (k == INT64_MAX) return "any number of instances";
  snprintf(buf, n, "%lld instance%s", (long long)k, k == 1 ? "" : "s");
  return buf;
}

static void print_place(const races_access *x) {
  printf("%s %s at %s:%u:%u%s", x->thread, x->write ? "writes" : "reads", x->file, x->line, x->col,
         x->sync ? " (atomic)" : "");
}

static void print_access(const races_access *x) {
  print_place(x);
  printf(", locks held: %s", *x->locks ? x->locks : "none");
}

static void print_step(size_t n, const races_step *s) {
  printf("  %zu. %s#%d at %s:%u:%u: %s%s%s", n, s->thread, s->instance, s->file, s->line, s->col,
         s->starts ? "starts" : "", s->starts && *s->accesses ? ": " : "", !s->starts || *s->accesses ? s->text : "");
  if (*s->accesses) printf(" (%s)", s->accesses);
  if (*s->inputs) printf(" [nondeterministic: %s]", s->inputs);
  vec_foreach(&s->changes, i)
    printf("%s %s = %lld", i ? "," : "  ->", s->changes.items[i].cell, (long long)s->changes.items[i].value);
  printf("\n");
}

/* A race: the two accesses, then the trace to the state where both are enabled. */
static void print_race(const races_cell *c) {
  printf("data race: ");
  print_place(&c->first);
  printf(" (instance %d); ", c->first_instance);
  print_place(&c->second);
  printf(" (instance %d); both enabled after %zu step%s (replayed):\n", c->second_instance, c->trace.len,
         c->trace.len == 1 ? "" : "s");
  vec_foreach(&c->trace, i) print_step(i + 1, &c->trace.items[i]);
}

static void print_cell(const races_cell *c) {
  printf("cell %s: ", c->cell);
  if (c->kind == RACES_CELL_RACE) {
    print_race(c);
  } else if (c->kind == RACES_CELL_LOCK) {
    printf("a lock: only lock and unlock calls change it, each unlock by the thread that holds it\n");
  } else if (c->kind == RACES_CELL_FREE) {
    printf("race-free: %s\n", c->how);
  } else {
    printf("unknown: ");
    print_access(&c->first);
    printf("; ");
    print_access(&c->second);
    printf(" (%zu pair%s of accesses without a common lock)\n", c->pairs, c->pairs == 1 ? "" : "s");
  }
}

static void print_text(const races_result *r) {
  char buf[64];
  vec_foreach(&r->threads, i) {
    const races_thread *t = &r->threads.items[i];
    printf("thread %s: %s, ", t->function, instances_text(buf, sizeof buf, t->instances));
    if (t->lowered) printf("%zu accesses of shared cells\n", t->accesses);
    else printf("not analysed\n");
  }
  printf("main: %zu accesses while its threads run\n", r->main_accesses);
  vec_foreach(&r->cells, i) print_cell(&r->cells.items[i]);
  if (r->search) printf("search: %s\n", r->search);
  if (r->proof) printf("proof: %s\n", r->proof);
  vec_foreach(&r->reasons, i) printf("unknown: %s\n", r->reasons.items[i]);
  printf("assumptions: %s\n", assumptions);
}

static void print_verdict(const races_result *r) {
  size_t free_cells = 0;
  vec_foreach(&r->cells, i) free_cells += r->cells.items[i].kind <= RACES_CELL_FREE;
  if (r->verdict == RACES_FREE) {
    printf("verdict: no data race: %zu shared cell%s, each race-free\n", free_cells, free_cells == 1 ? "" : "s");
    return;
  }
  if (r->verdict == RACES_FOUND) {
    printf("verdict: data race: %zu cell%s with a replayed race, %zu other candidate%s\n", r->races,
           r->races == 1 ? "" : "s", r->candidates, r->candidates == 1 ? "" : "s");
    return;
  }
  printf("verdict: %s: %zu candidate%s, %zu other reason%s\n", races_verdict_text(r->verdict), r->candidates,
         r->candidates == 1 ? "" : "s", r->reasons.len, r->reasons.len == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- json */

static json_t *access_json(const races_access *x) {
  json_t *locks = json_array();
  const char *s = x->locks;
  while (*s) {
    const char *comma = strstr(s, ", ");
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    char *one = strndup(s, n);
    json_array_append_new(locks, json_text(one));
    free(one);
    s += n + (comma ? 2 : 0);
  }
  return json_pack("{s:o, s:o, s:i, s:i, s:s, s:b, s:o}", "thread", json_text(x->thread), "file", json_text(x->file),
                   "line", (json_int_t)x->line, "column", (json_int_t)x->col, "access", x->write ? "write" : "read",
                   "atomic", x->sync, "locks", locks);
}

static const char *const cell_kinds[] = {"lock", "race-free", "unknown", "race"};

static json_t *step_json(const races_step *s) {
  json_t *changes = json_array();
  vec_foreach(&s->changes, i)
    json_array_append_new(changes, json_pack("{s:o, s:I}", "cell", json_text(s->changes.items[i].cell), "value",
                                             (json_int_t)s->changes.items[i].value));
  return json_pack("{s:o, s:i, s:b, s:o, s:i, s:i, s:o, s:o, s:o, s:o}", "thread", json_text(s->thread), "instance",
                   s->instance, "starts", s->starts, "file", json_text(s->file), "line", (json_int_t)s->line, "column",
                   (json_int_t)s->col, "text", json_text(s->text), "accesses", json_text(s->accesses), "inputs",
                   json_text(s->inputs), "changes", changes);
}

static json_t *cell_json(const races_cell *c) {
  json_t *o = json_pack("{s:o, s:s}", "cell", json_text(c->cell), "verdict", cell_kinds[c->kind]);
  if (c->kind == RACES_CELL_FREE) json_object_set_new(o, "how", json_text(c->how));
  if (c->kind < RACES_CELL_CANDIDATE) return o;
  json_object_set_new(o, "first", access_json(&c->first));
  json_object_set_new(o, "second", access_json(&c->second));
  if (c->kind == RACES_CELL_CANDIDATE) {
    json_object_set_new(o, "pairs", json_integer((json_int_t)c->pairs));
    return o;
  }
  json_object_set_new(json_object_get(o, "first"), "instance", json_integer(c->first_instance));
  json_object_set_new(json_object_get(o, "second"), "instance", json_integer(c->second_instance));
  json_t *trace = json_array();
  vec_foreach(&c->trace, i) json_array_append_new(trace, step_json(&c->trace.items[i]));
  json_object_set_new(o, "trace", trace);
  return o;
}

static json_t *results_json(const races_result *r) {
  json_t *threads = json_array(), *cells = json_array(), *reasons = json_array();
  vec_foreach(&r->threads, i) {
    const races_thread *t = &r->threads.items[i];
    json_t *n = t->instances == INT64_MAX ? json_null() : json_integer((json_int_t)t->instances);
    json_array_append_new(threads, json_pack("{s:o, s:o, s:b, s:i}", "function", json_text(t->function), "instances", n,
                                             "analysed", t->lowered, "accesses", (json_int_t)t->accesses));
  }
  vec_foreach(&r->cells, i) json_array_append_new(cells, cell_json(&r->cells.items[i]));
  vec_foreach(&r->reasons, i) json_array_append_new(reasons, json_text(r->reasons.items[i]));
  json_t *search = json_pack("{s:o, s:I, s:I}", "text", r->search ? json_text(r->search) : json_null(), "states",
                             (json_int_t)r->searched, "races", (json_int_t)r->races);
  json_t *proof =
      json_pack("{s:o, s:I}", "text", r->proof ? json_text(r->proof) : json_null(), "proved", (json_int_t)r->proved);
  return json_pack("{s:s, s:{s:s}, s:o, s:i, s:o, s:i, s:o, s:o, s:o}", "verdict", races_verdict_text(r->verdict),
                   "assumptions", "text", assumptions, "threads", threads, "main_accesses",
                   (json_int_t)r->main_accesses, "cells", cells, "candidates", (json_int_t)r->candidates, "search",
                   search, "proof", proof, "unknown", reasons);
}

/* ---------------------------------------------------------------- run */

static int exit_code(const races_result *r) {
  return r->verdict == RACES_FREE ? EXIT_HOLDS : r->verdict == RACES_FOUND ? EXIT_VIOLATION : EXIT_UNKNOWN;
}

static void print_results(const races_args *a, const ast_spec *spec, const races_result *r) {
  if (!a->json) {
    print_text(r);
    print_verdict(r);
    return;
  }
  json_t *o = cli_json_report("races", a->path ? a->path : "", spec, results_json(r));
  if (!a->path) json_object_set_new(o, "spec", json_null());
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', stdout);
  json_decref(o);
}

/* --sarif: the verdicts as a SARIF log (sarif-flows.h), read off the JSON
 * report. True when not asked for. */
static bool write_sarif(const races_args *a, const ast_spec *spec, const races_result *r) {
  if (!a->sarif) return true;
  json_t *report = results_json(r);
  sarif_input in = {.spec = spec, .races = report};
  bool ok = sarif_flows_write(a->sink, a->sarif, &in, cli_werror_exit(a->sink, exit_code(r)));
  json_decref(report);
  return ok;
}

/* Runs layer 1 over the spec's threads (or, with no spec, main's). */
static int races(const races_args *a, ast_spec *spec, const char *include) {
  const char **function = xcalloc(spec ? spec->threads.len + 1 : 1, sizeof *function);
  races_request rq = {(const char *const *)a->files,
                      (size_t)a->file_count,
                      {a->code.cpp.items, a->code.cpp.len, include},
                      function,
                      &a->spec,
                      a->for_all};
  races_result r = {0};
  int code = EXIT_BAD_INPUT;
  if ((!spec || cli_resolve_bindings(a->sink, &a->code, a->path, spec, function)) &&
      races_run(a->sink, spec, &rq, &r) && write_sarif(a, spec ? spec : r.drafted, &r)) {
    print_results(a, spec ? spec : r.drafted, &r);
    code = cli_finish(a->sink, exit_code(&r));
  }
  races_free(&r);
  free(function);
  return code;
}

int cmd_races(diag_sink *sink, int argc, char **argv) {
  races_args a = {.sink = sink};
  a.spec.overrides = xcalloc((size_t)argc, sizeof *a.spec.overrides);
  int code = races_options(argc, argv, &a);
  const char *include = cli_include_dir();
  ast_spec *spec = NULL;
  if (code < 0 && a.path && !(spec = spec_load(sink, a.path, &a.spec))) code = EXIT_BAD_INPUT;
  if (code < 0) code = races(&a, spec, include);
  if (code == EXIT_BAD_INPUT && a.json) code = cli_json_failure(sink, "races");
  spec_free(spec);
  free((void *)include);
  cli_code_args_free(&a.code);
  free(a.spec.overrides);
  return code;
}
