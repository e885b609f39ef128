/* cli/cmd-conform.c -- `athread conform`: parse the options, load the spec,
 * say which function implements each thread, call conform_run, print the
 * verdicts. Every input error is reported before any verdict is printed. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/report.h"
#include "../conformance/check.h"
#include "../conformance/report.h"
#include "../core/interrupt.h"
#include "../conformance/run.h"
#include "../conformance/witness.h"
#include "../core/json-text.h"
#include "../core/smt.h"
#include "../review/review.h"
#include "cli.h"
#include "code-args.h"
#include "sarif-flows.h"

typedef struct conform_args {
  const char *command;         /* "conform" or "check" */
  spec_options spec;           /* --set overrides */
  cli_code_args code;          /* --thread T=func; -I, -D, -U flags for cpp */
  conform_options check;       /* engine, bound, deadline, certificate */
  const char *emit_c;          /* --emit-c OUT.c */
  const char *emit_smt2;       /* --emit-smt2 OUT.smt2 */
  const char *witness;         /* --witness FILE: the failing threads' SV-COMP violation witness */
  const char *sarif;           /* --sarif FILE: the verdicts as a SARIF log */
  const char *html;            /* check --html FILE: the review page of the run (review/review.h) */
  const char *typed;           /* the command line as typed (owned), for the page */
  double timeout;              /* --timeout SEC, 0 for none */
  conform_atomicity atomicity; /* --atomicity statement|access */
  cfe_ints ints;               /* --int c|math */
  env_kind env;                /* --env system|havoc */
  const char *for_all;         /* check --for-all N, or NULL */
  bool json;                   /* --json */
  bool timing;                 /* off with --no-timing */
  bool certificate_smt;        /* --certificate-format smt: the invariant as SMT-LIB (else in C's syntax) */
  bool werror;                 /* -Werror, --warnings-as-errors */
  bool coverage;               /* --coverage: warn about edges no step of the code uses */
  bool progress;               /* --progress (always on a terminal) */
  const char *path;            /* the spec */
  char **files;                /* the C files */
  int file_count;              /* how many */
  diag_sink *sink;             /* the run's */
} conform_args;

/* ---------------------------------------------------------------- options */

static bool parse_engine(const char *name, conform_engine *out) {
  static const char *const names[] = {"auto", "chc", "bmc"};
  for (int i = 0; i < 3; i++)
    if (strcmp(name, names[i]) == 0) return *out = (conform_engine)i, true;
  return false;
}

static bool parse_ints(const char *name, cfe_ints *out) {
  for (cfe_ints i = CFE_INTS_C; i <= CFE_INTS_MATH; i++)
    if (strcmp(name, cfe_ints_name(i)) == 0) return *out = i, true;
  return false;
}

static bool parse_env(const char *name, env_kind *out) {
  if (strcmp(name, "system") == 0) return *out = ENV_SYSTEM, true;
  if (strcmp(name, "havoc") == 0) return *out = ENV_HAVOC, true;
  return false;
}

/* Applies one option (a cli_take_fn). */
static int conform_option(int c, char *arg, void *args) {
  conform_args *a = args;
  double x;
  switch (c) {
  case 'r':
    return cli_take_binding(&a->code, arg) ? -1
                                           : cli_usage_error(a->sink, a->command, "--thread expects THREAD=FUNCTION");
  case 'e':
    return parse_engine(arg, &a->check.engine)
               ? -1
               : cli_usage_error(a->sink, a->command, "--engine must be auto, chc or bmc");
  case 'b':
    if (!cli_parse_number(a->sink, "--bound", arg, &x)) return EXIT_BAD_INPUT;
    a->check.bound = (unsigned)x;
    return -1;
  case 't': return cli_parse_number(a->sink, "--timeout", arg, &a->timeout) ? -1 : EXIT_BAD_INPUT;
  case 'A':
    return cli_atomicity_of(arg, &a->atomicity)
               ? -1
               : cli_usage_error(a->sink, a->command, "--atomicity must be statement or access");
  case 'V': return parse_env(arg, &a->env) ? -1 : cli_usage_error(a->sink, a->command, "--env must be system or havoc");
  case 'F': a->for_all = arg; return -1;
  case 'C': a->emit_c = arg; return -1;
  case 'S': a->emit_smt2 = arg; return -1;
  case 'Y': a->witness = arg; return -1;
  case 'R': a->sarif = arg; return -1;
  case 'H': a->html = arg; return -1;
  case 'j': a->json = true; return -1;
  case 'T': a->timing = false; return -1;
  case 'c': a->check.certificate = true; return -1;
  case 'K': return cli_take_certificate_format(a->sink, a->command, arg, &a->check.certificate, &a->certificate_smt);
  case 'Z': return parse_ints(arg, &a->ints) ? -1 : cli_usage_error(a->sink, a->command, "--int must be c or math");
  case 'W': return cli_take_werror(a->sink, a->command, arg, &a->werror);
  case 'g': a->coverage = true; return -1;
  case 'p': a->progress = true; return -1;
  case 'I':
  case 'D':
  case 'U': cli_take_cpp_flag(&a->code, (char)c, arg); return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

static int conform_options_parse(int argc, char **argv, conform_args *a) {
  bool check = strcmp(a->command, "check") == 0;
  const char *names = check ? "thread engine bound timeout atomicity env emit-c emit-smt2 witness sarif json no-timing "
                              "certificate certificate-format int warnings-as-errors coverage progress for-all html"
                            : "thread engine bound timeout atomicity env emit-c emit-smt2 witness sarif json no-timing "
                              "certificate certificate-format int warnings-as-errors coverage progress";
  cli_parse p = {a->command, names, "hI:D:U:W:", &a->spec, conform_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind > argc - 2)
    return cli_usage_error(a->sink, a->command, "expected a specification and at least one C file");
  if (a->check.bound && a->check.engine == CONFORM_CHC)
    return cli_usage_error(a->sink, a->command, "--bound applies to --engine bmc");
  if (a->json && a->witness && strcmp(a->witness, "-") == 0)
    return cli_usage_error(a->sink, a->command, "--witness - and --json would both write to standard output");
  if (a->sarif && strcmp(a->sarif, "-") == 0 && (a->json || (a->witness && strcmp(a->witness, "-") == 0)))
    return cli_usage_error(a->sink, a->command,
                           a->json ? "--sarif - and --json would both write to standard output"
                                   : "--sarif - and --witness - would both write to standard output");
  if (a->html && strcmp(a->html, "-") == 0)
    return cli_usage_error(a->sink, a->command, "--html needs a file: check prints its verdicts on standard output");
  if (a->html && a->for_all)
    return cli_usage_error(a->sink, a->command, "--html does not show --for-all's result yet: leave one of them out");
  a->path = argv[optind];
  a->files = argv + optind + 1;
  a->file_count = argc - optind - 1;
  return -1;
}

/* ---------------------------------------------------------------- checking */

static int exit_code(const conform_run_result *run) {
  strbuf why = {0};
  conform_verdict v = conform_run_verdict(run, &why);
  sbuf_free(&why);
  return v == CONFORM_HOLDS ? EXIT_HOLDS : v == CONFORM_VIOLATED ? EXIT_VIOLATION : EXIT_UNKNOWN;
}

/* conform's last line: "verdict: conforms: threads A, B conform". */
static void print_verdict(const conform_run_result *run) {
  strbuf why = {0};
  conform_verdict v = conform_run_verdict(run, &why);
  printf("verdict: %s: %s\n", report_verdict_text(v), sbuf_str(&why));
  sbuf_free(&why);
}

static json_t *verdict_json(const conform_run_result *run) {
  strbuf why = {0};
  conform_verdict v = conform_run_verdict(run, &why);
  json_t *j = json_pack("{s:s, s:s}", "verdict", report_verdict_text(v), "reason", sbuf_str(&why));
  sbuf_free(&why);
  return j;
}

/* The run as one JSON object (conform's --json output; a member of check's). */
static json_t *results_json(const conform_args *a, const ast_spec *spec, const char **function,
                            const conform_run_result *run) {
  json_t *threads = json_array(), *unchecked = json_array(), *notes = json_array();
  vec_foreach(&run->jobs, i) {
    const conform_job *j = &run->jobs.items[i];
    conform_report c = {.thread = j->thread,
                        .ins = j->ins,
                        .r = &j->r,
                        .env = &run->env,
                        .timing = a->timing,
                        .certificate_smt = a->certificate_smt};
    json_array_append_new(threads, report_conform_json(&c));
  }
  vec_foreach(&spec->threads, i)
    if (!function[i]) json_array_append_new(unchecked, json_string(spec->threads.items[i]->name));
  vec_foreach(&run->unchecked, i) json_array_append_new(notes, json_text(run->unchecked.items[i]));
  conform_semantics semantics = {.atomicity = a->atomicity, .ints = a->ints, .env = &run->env};
  json_t *o = verdict_json(run);
  json_object_set_new(o, "assumptions", report_assumptions_json(&semantics));
  json_object_set_new(o, "threads", threads);
  json_object_set_new(o, "not_checked", unchecked);
  if (run->unchecked.len) json_object_set_new(o, "initial_values_not_checked", notes);
  else json_decref(notes);
  return o;
}

static void print_text(const conform_args *a, const ast_spec *spec, const char **function,
                       const conform_run_result *run) {
  vec_foreach(&run->jobs, i) {
    const conform_job *j = &run->jobs.items[i];
    conform_report c = {.thread = j->thread,
                        .ins = j->ins,
                        .r = &j->r,
                        .env = &run->env,
                        .timing = a->timing,
                        .certificate_smt = a->certificate_smt};
    report_conform_text(stdout, &c);
  }
  vec_foreach(&spec->threads, i)
    if (!function[i])
      printf("thread %s: not checked (no implementation: add 'implements' or --thread %s=FUNCTION)\n",
             spec->threads.items[i]->name, spec->threads.items[i]->name);
  vec_foreach(&run->unchecked, i) printf("note: %s\n", run->unchecked.items[i]);
  conform_semantics semantics = {.atomicity = a->atomicity, .ints = a->ints, .env = &run->env};
  report_assumptions_text(stdout, &semantics);
}

static void print_json(json_t *o) {
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', stdout);
  json_decref(o);
}

static void print_results(const conform_args *a, const ast_spec *spec, const char **function,
                          const conform_run_result *run) {
  if (a->json) {
    print_json(cli_json_report("conform", a->path, spec, results_json(a, spec, function, run)));
    return;
  }
  print_text(a, spec, function, run);
  print_verdict(run);
}

static bool any_binding(const ast_spec *spec, const char **function) {
  vec_foreach(&spec->threads, i)
    if (function[i]) return true;
  return false;
}

static conform_request request_of(const conform_args *a, const char **function, const char *include) {
  return (conform_request){
      .files = (const char *const *)a->files,
      .file_count = (size_t)a->file_count,
      .cpp = {.cpp_flags = a->code.cpp.items, .cpp_flag_count = a->code.cpp.len, .include_dir = include},
      .function = function,
      .emit_c = a->emit_c,
      .emit_smt2 = a->emit_smt2,
      .check = a->check,
      .timeout = a->timeout,
      .atomicity = a->atomicity,
      .ints = a->ints,
      .env = a->env,
      .coverage = a->coverage,
      .env_max_states = ENV_MAX_STATES};
}

/* --witness: the failing threads' witness, written before any verdict is
 * printed, so a file that cannot be written is an input error like
 * --emit-c's. True when not asked for. */
static bool write_witness(const conform_args *a, const conform_run_result *run) {
  if (!a->witness) return true;
  conform_semantics semantics = {.atomicity = a->atomicity, .ints = a->ints, .env = &run->env};
  witness_task task = {(const char *const *)a->files, (size_t)a->file_count, a->path, ATHREAD_VERSION, &semantics};
  return witness_write(a->sink, a->witness, run, &task);
}

/* --sarif: the verdicts as a SARIF log (sarif-flows.h), written before any
 * verdict is printed, like --witness. True when not asked for. */
static bool write_sarif(const conform_args *a, const ast_spec *spec, const char **function,
                        const conform_run_result *run) {
  if (!a->sarif) return true;
  json_t *report = results_json(a, spec, function, run);
  sarif_input in = {.spec = spec, .conform = report, .threads = run, .code = true};
  bool ok = sarif_flows_write(a->sink, a->sarif, &in, cli_werror_exit(a->sink, exit_code(run)));
  json_decref(report);
  return ok;
}

/* Checks every implemented thread; returns the exit code. */
static int conform(const conform_args *a, ast_spec *spec) {
  const char **function = xcalloc(spec->threads.len + 1, sizeof *function);
  const char *include = cli_include_dir();
  conform_request rq = request_of(a, function, include);
  conform_run_result run = {0};
  int code = EXIT_BAD_INPUT;
  if (!cli_resolve_bindings(a->sink, &a->code, a->path, spec, function)) code = EXIT_BAD_INPUT;
  else if (!any_binding(spec, function))
    code = cli_usage_error(
        a->sink, a->command,
        "no thread has an implementation: add 'implements FUNCTION' to a thread or use --thread T=FUNCTION");
  else if (conform_run(a->sink, spec, &rq, &run) && write_witness(a, &run) && write_sarif(a, spec, function, &run)) {
    print_results(a, spec, function, &run);
    code = cli_finish(a->sink, exit_code(&run));
  }
  conform_run_free(&run);
  free((void *)include);
  free(function);
  return code;
}

/* ---------------------------------------------------------------- check */

static int check_exit_code(check_verdict v) {
  return v == CHECK_SAFE ? EXIT_HOLDS : v == CHECK_NOT_PROVED ? EXIT_VIOLATION : EXIT_UNKNOWN;
}

static void system_text(const compose_report *rep, const check_result *c) {
  const compose_run_result *run = &c->compose;
  if (!run->for_all_ran) return report_text(stdout, &rep->c, run->m, &run->r);
  report_forall_text(stdout, &rep->c, &rep->f, run->fr.verdict == VERDICT_UNSAFE ? run->m : NULL, &run->r);
}

static void print_check(const conform_args *a, const ast_spec *spec, const char **function, const check_result *c) {
  compose_report rep;
  compose_report_of(a->path, spec, a->for_all, &c->compose, true, &rep);
  rep.c.timing = a->timing;
  if (a->json) {
    json_t *o = json_object();
    json_object_set_new(o, "verdict", json_string(check_verdict_text(c->verdict)));
    json_object_set_new(o, "reason", json_string(c->reason));
    json_object_set_new(o, "system", compose_report_json(&rep, &c->compose));
    json_object_set_new(o, "conform", c->conform_ran ? results_json(a, spec, function, &c->conform) : json_null());
    print_json(cli_json_report("check", a->path, spec, o));
    return;
  }
  system_text(&rep, c);
  if (c->conform_ran) print_text(a, spec, function, &c->conform);
  printf("verdict: %s: %s\n", check_verdict_text(c->verdict), c->reason);
}

/* check --witness: the threads' witness when conform ran (the system was safe). */
static bool check_witness(const conform_args *a, const check_result *c) {
  if (a->witness && !c->conform_ran)
    fprintf(stderr, "athread: note: --witness: the threads were not checked; nothing written to %s\n", a->witness);
  return !c->conform_ran || write_witness(a, &c->conform);
}

/* check --sarif: the system's verdict and, when conform ran, the threads'. */
static bool check_sarif(const conform_args *a, const ast_spec *spec, const char **function, const check_result *c) {
  if (!a->sarif) return true;
  compose_report rep;
  compose_report_of(a->path, spec, a->for_all, &c->compose, true, &rep);
  json_t *system = compose_report_json(&rep, &c->compose);
  json_t *threads = c->conform_ran ? results_json(a, spec, function, &c->conform) : NULL;
  sarif_input in = {.spec = spec,
                    .compose = system,
                    .conform = threads,
                    .threads = c->conform_ran ? &c->conform : NULL,
                    .code = true};
  bool ok = sarif_flows_write(a->sink, a->sarif, &in, cli_werror_exit(a->sink, check_exit_code(c->verdict)));
  json_decref(system);
  json_decref(threads);
  return ok;
}

/* check --html: the review page of the run, written before any verdict is
 * printed, like --witness. REVIEW_WRITTEN when not asked for. */
static review_outcome check_html(const conform_args *a, const ast_spec *spec, const conform_request *code,
                                 const check_result *c) {
  if (!a->html) return REVIEW_WRITTEN;
  review_request rq = {.spec_path = a->path,
                       .spec = &a->spec,
                       .output = a->html,
                       .command_line = a->typed,
                       .version = ATHREAD_VERSION,
                       .code = code};
  return review_write_checked(a->sink, spec, &rq, c);
}

/* Composes, then checks every thread under the system's environment; returns the exit code. */
static int check(const conform_args *a, ast_spec *spec) {
  const char **function = xcalloc(spec->threads.len + 1, sizeof *function);
  const char *include = cli_include_dir();
  check_request rq = {request_of(a, function, include), a->for_all, &a->spec};
  check_result c = {0};
  int code = EXIT_BAD_INPUT;
  interrupt_install();
  review_outcome page = REVIEW_BAD_INPUT;
  if (cli_resolve_bindings(a->sink, &a->code, a->path, spec, function) && check_run(a->sink, spec, &rq, &c) &&
      check_witness(a, &c) && check_sarif(a, spec, function, &c) &&
      (page = check_html(a, spec, &rq.conform, &c)) == REVIEW_WRITTEN) {
    print_check(a, spec, function, &c);
    code = cli_finish(a->sink, check_exit_code(c.verdict));
  }
  if (page == REVIEW_FAILED) code = EXIT_INTERNAL;
  check_run_free(&c);
  free((void *)include);
  free(function);
  return code;
}

static int conform_main(diag_sink *sink, int argc, char **argv, const char *command) {
  conform_args a = {
      .command = command, .timing = true, .ints = CFE_INTS_C, .atomicity = ATOMICITY_ACCESS, .env = ENV_SYSTEM};
  a.sink = sink;
  a.spec.overrides = xcalloc((size_t)argc, sizeof *a.spec.overrides);
  a.typed = cli_command_line(argc, argv);
  int code = conform_options_parse(argc, argv, &a);
  sink->warnings_as_errors = a.werror;
  ast_spec *spec = code < 0 ? spec_load(sink, a.path, &a.spec) : NULL;
  if (code < 0 && !spec) code = EXIT_BAD_INPUT;
  if (code < 0) {
    progress lines;
    progress_init(&lines, cli_progress_out(sink, a.progress), command);
    a.check.progress = &lines;
    smt_unknown_on_abort("verdict: unknown: ");
    code = cli_werror_exit(sink, strcmp(command, "check") == 0 ? check(&a, spec) : conform(&a, spec));
    smt_shutdown();
    progress_free(&lines);
  }
  if (code == EXIT_BAD_INPUT && a.json) code = cli_json_failure(sink, command); /* nothing was printed */
  spec_free(spec);
  cli_code_args_free(&a.code);
  free((void *)a.typed);
  free(a.spec.overrides);
  return code;
}

int cmd_conform(diag_sink *sink, int argc, char **argv) { return conform_main(sink, argc, argv, "conform"); }

int cmd_check(diag_sink *sink, int argc, char **argv) { return conform_main(sink, argc, argv, "check"); }
