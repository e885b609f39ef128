/* cli/cli.h -- the command line: exit codes (reference section 9) and the
 * function of each subcommand. Each takes the run's sink (main's, on stderr:
 * every diagnostic of the run goes through it) and main's argc/argv from the
 * subcommand name on, and returns an exit code; all output goes to stdout.
 */
#ifndef ATHREAD_CLI_H
#define ATHREAD_CLI_H

#include "../compose/report.h"
#include "../compose/run.h"
#include "../core/diag.h"
#include "../spec-lang/spec.h"

typedef enum cli_exit {
  EXIT_HOLDS = 0,     /* lint clean / conforms / safe */
  EXIT_VIOLATION = 1, /* a counterexample was found (fmt --check: not formatted) */
  EXIT_BAD_INPUT = 2, /* bad input or usage; nothing else written */
  EXIT_UNKNOWN = 3,   /* bound, timeout or resource limit */
  EXIT_INTERNAL = 4   /* internal error, or a subcommand not built yet */
} cli_exit;

#define ATHREAD_VERSION "0.2.0"
/* The version of the JSON reports' layout (docs/json.md): raised when a
 * member changes meaning or goes away, not when one is added. */
#define ATHREAD_JSON_SCHEMA_VERSION 1

/* athread as the SARIF logs name it (--diagnostics-format sarif, --sarif). */
extern const diag_tool cli_tool;

int cmd_lint(diag_sink *sink, int argc, char **argv);
int cmd_fmt(diag_sink *sink, int argc, char **argv);
int cmd_promela(diag_sink *sink, int argc, char **argv);
int cmd_murphi(diag_sink *sink, int argc, char **argv);
int cmd_compose(diag_sink *sink, int argc, char **argv);
int cmd_viz(diag_sink *sink, int argc, char **argv);
int cmd_conform(diag_sink *sink, int argc, char **argv);
int cmd_check(diag_sink *sink, int argc, char **argv);
int cmd_skeleton(diag_sink *sink, int argc, char **argv);
int cmd_replay(diag_sink *sink, int argc, char **argv);
int cmd_review(diag_sink *sink, int argc, char **argv);
int cmd_races(diag_sink *sink, int argc, char **argv);
int cmd_infer(diag_sink *sink, int argc, char **argv);

/* Prints the usage of a subcommand (or the overview for NULL) to out. */
void cli_usage(FILE *out, const char *command);
/* Parses NAME=INTEGER into o (name borrowed from arg); reports bad syntax. */
bool cli_parse_override(diag_sink *sink, char *arg, spec_override *o);
/* Parses a non-negative number for option what; reports bad syntax to sink. */
bool cli_parse_number(diag_sink *sink, const char *what, const char *text, double *out);
/* Reports a usage error for a subcommand to sink; returns EXIT_BAD_INPUT. */
int cli_usage_error(diag_sink *sink, const char *command, const char *msg);
/* Takes --max-states N, --timeout SECONDS or --threads N (option code c,
 * 'm', 't' or 'N') into limits: -1 when taken, EXIT_BAD_INPUT after reporting a bad number. */
int cli_take_limit(diag_sink *sink, int c, const char *arg, explicit_options *limits);
/* "athread ARGS..." as typed (argv from the subcommand on), for a page that
 * says how it was made. Returns owned. */
char *cli_command_line(int argc, char **argv);
/* Applies -Werror (arg "error") or --warnings-as-errors (arg NULL): sets
 * *werror; returns -1, or EXIT_BAD_INPUT after a usage error (to sink) for another -W. */
int cli_take_werror(diag_sink *sink, const char *command, const char *arg, bool *werror);
/* Applies --certificate-format spec|smt: sets *certificate (the format
 * asks for the certificate) and *as_smt; returns -1, or EXIT_BAD_INPUT after
 * a usage error (to sink) for another value. */
int cli_take_certificate_format(diag_sink *sink, const char *command, const char *arg, bool *certificate, bool *as_smt);
/* The exit code of a run that would exit with code: EXIT_BAD_INPUT instead
 * of EXIT_HOLDS when sink printed a warning under -Werror. */
int cli_werror_exit(const diag_sink *sink, int code);
/* Applies one option (code as in cli/options.c, its argument or NULL) to
 * args; returns -1 to go on, else an exit code. */
typedef int (*cli_take_fn)(int code, char *arg, void *args);

/* One subcommand's options. */
typedef struct cli_parse {
  const char *command;       /* "compose": for --help and errors */
  const char *names;         /* its long options but help and set: "engine json" */
  const char *short_options; /* getopt's: "o:h" */
  spec_options *spec;        /* where --set goes (NULL: no --set) */
  cli_take_fn take;          /* the rest */
  void *args;                /* take's */
  diag_sink *sink;           /* the run's: usage errors, --diagnostics-format */
} cli_parse;

/* Runs getopt_long over argv with p's options; --help, --set and unknown
 * options are handled here, and so is --diagnostics-format (every subcommand
 * takes it). Returns -1 to go on (optind at the operands), else an exit code. */
int cli_parse_options(int argc, char **argv, const cli_parse *p);
/* The run's sink: on stderr, with the usual error limit, in the format the
 * last --diagnostics-format of argv names (text without one, or with a bad
 * value, which cli_parse_options then reports). Read before the options are
 * parsed, so that their errors come in that format too. Free with
 * diag_sink_free after diag_render. */
diag_sink cli_run_sink(int argc, char **argv);
/* A JSON report of command on the spec at path: athread_version,
 * schema_version, command, spec and consts, then report's members (taken;
 * a member of the same name keeps its place). Returns owned, release with
 * json_decref. */
json_t *cli_json_report(const char *command, const char *path, const ast_spec *spec, json_t *report);
/* spec with the consts the counterexample in trace (borrowed) was written
 * with: its "consts" (and --for-all's n), except those cmdline's --set
 * names. Takes ownership of spec: returns it when nothing changes, else a
 * reload (spec freed). NULL after an error. Free with spec_free. */
ast_spec *cli_spec_with_trace_consts(ast_spec *spec, const diag_source *trace, const spec_options *cmdline);
/* Where a run's progress lines go (core/progress.h): stderr when asked
 * (--progress) or when stderr is a terminal; NULL (off) in json and sarif
 * diagnostics, whose stderr holds one document. */
FILE *cli_progress_out(const diag_sink *sink, bool asked);
/* Flushes and checks stdout; turns a write failure (reported to sink) into
 * EXIT_INTERNAL. */
int cli_finish(diag_sink *sink, int code);
/* Writes a command's text to path (atomically; "-" is stdout) or, when
 * path is NULL, to stdout. EXIT_HOLDS, or EXIT_BAD_INPUT after reporting. */
int cli_put_output(diag_sink *sink, const char *path, const strbuf *text);
/* The answer of a --json run that stopped on bad input: prints
 * {"command", "verdict": "error", "exit_code": 2, "diagnostics"} (diag_json
 * of sink) on stdout. Returns cli_finish's code for EXIT_BAD_INPUT. */
int cli_json_failure(diag_sink *sink, const char *command);

#endif
