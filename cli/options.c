/* cli/options.c -- every long option of every subcommand, defined once
 * (name, whether it takes an argument, the code getopt_long returns), and the
 * getopt_long loop the subcommands share. A subcommand names the options it
 * takes; --help and --set are handled here, and so are the helpers every
 * subcommand uses to read option values and report usage errors. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---------------------------------------------------------------- helpers */

diag_sink cli_stderr_sink(void) { return (diag_sink){.out = stderr, .max_errors = 20}; }

int cli_finish(int code) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    diag_sink sink = cli_stderr_sink();
    diag_error_at(&sink, "athread", "cannot write to standard output: %s", strerror(errno));
    return EXIT_INTERNAL;
  }
  return code;
}

bool cli_parse_number(const char *what, const char *text, double *out) {
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  if (errno || end == text || *end || *out < 0) {
    diag_sink sink = cli_stderr_sink();
    diag_error_at(&sink, "athread", "%s expects a non-negative number, got '%s'", what, text);
    return false;
  }
  return true;
}

bool cli_parse_override(diag_sink *sink, char *arg, spec_override *o) {
  char *eq = strchr(arg, '=');
  char *end = NULL;
  if (eq && eq > arg) {
    errno = 0;
    o->value = strtoll(eq + 1, &end, 0);
  }
  if (!eq || eq == arg || end == eq + 1 || *end) {
    diag_error_at(sink, "athread", "--set expects NAME=INTEGER, got '%s'", arg);
    return false;
  }
  if (errno == ERANGE) {
    diag_error_at(sink, "athread", "--set %s: the value does not fit in 64 bits", arg);
    return false;
  }
  *eq = '\0';
  o->name = arg;
  o->used = false;
  return true;
}

int cli_usage_error(const char *command, const char *msg) {
  diag_sink sink = cli_stderr_sink();
  diag_error_at(&sink, "athread", "%s (try 'athread %s --help')", msg, command);
  return EXIT_BAD_INPUT;
}

int cli_bad_option(const char *command, char **argv) {
  char msg[160];
  snprintf(msg, sizeof msg, "unknown option or missing argument: '%.100s'", argv[optind - 1]);
  return cli_usage_error(command, msg);
}

/* ---------------------------------------------------------------- the table */

/* The codes are unique across subcommands; short options use the same codes. */
static const struct option every_option[] = {
    {"set", required_argument, NULL, 's'},
    {"engine", required_argument, NULL, 'e'},
    {"for-all", required_argument, NULL, 'F'},
    {"max-states", required_argument, NULL, 'm'},
    {"timeout", required_argument, NULL, 't'},
    {"max-memory", required_argument, NULL, 'M'},
    {"trace-out", required_argument, NULL, 'O'},
    {"json", no_argument, NULL, 'j'},
    {"no-symmetry", no_argument, NULL, 'n'},
    {"progress", no_argument, NULL, 'p'},
    {"no-timing", no_argument, NULL, 'T'},
    {"certificate", no_argument, NULL, 'c'},
    {"bound", required_argument, NULL, 'b'},
    {"thread", required_argument, NULL, 'r'},
    {"int", required_argument, NULL, 'Z'},
    {"emit-c", required_argument, NULL, 'C'},
    {"emit-smt2", required_argument, NULL, 'S'},
    {"output", required_argument, NULL, 'o'},
    {"trace", required_argument, NULL, 'X'},
    {"idle", no_argument, NULL, 'd'},
    {"no-warnings", no_argument, NULL, 'w'},
    {"in-place", no_argument, NULL, 'i'},
    {"check", no_argument, NULL, 'k'},
    {"atomicity", required_argument, NULL, 'A'},
    {"env", required_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
};

#define OPTION_COUNT (sizeof every_option / sizeof every_option[0])

/* Appends the long option called name (length len) to table. */
static void add_option(struct option *table, size_t *n, const char *name, size_t len) {
  for (size_t i = 0; i < OPTION_COUNT; i++)
    if (strlen(every_option[i].name) == len && strncmp(every_option[i].name, name, len) == 0)
      table[(*n)++] = every_option[i];
}

/* The table of names (space-separated) plus help and, with p->spec, set. */
static struct option *table_of(const cli_parse *p) {
  struct option *table = xcalloc(OPTION_COUNT + 1, sizeof *table);
  size_t n = 0;
  add_option(table, &n, "help", 4);
  if (p->spec) add_option(table, &n, "set", 3);
  for (const char *s = p->names; *s;) {
    size_t len = strcspn(s, " ");
    add_option(table, &n, s, len);
    s += len + strspn(s + len, " ");
  }
  return table;
}

/* Handles the options every subcommand shares; -2 when c is not one of them. */
static int shared_option(const cli_parse *p, int c, char **argv) {
  diag_sink sink = cli_stderr_sink();
  spec_options *o = p->spec;
  if (c == 'h') {
    cli_usage(stdout, p->command);
    return cli_finish(EXIT_HOLDS);
  }
  if (c == 's' && o) return cli_parse_override(&sink, optarg, &o->overrides[o->override_count++]) ? -1 : EXIT_BAD_INPUT;
  if (c == '?' || c == ':') return cli_bad_option(p->command, argv);
  return -2;
}

int cli_parse_options(int argc, char **argv, const cli_parse *p) {
  struct option *table = table_of(p);
  int c, code = -1;
  opterr = 0;
  while (code < 0 && (c = getopt_long(argc, argv, p->short_options, table, NULL)) != -1)
    if ((code = shared_option(p, c, argv)) == -2) code = p->take(c, optarg, p->args);
  free(table);
  return code;
}
