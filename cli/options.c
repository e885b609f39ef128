/* cli/options.c -- every long option of every subcommand, defined once
 * (name, whether it takes an argument, the code getopt_long returns), and the
 * getopt_long loop the subcommands share. A subcommand names the options it
 * takes; --help and --set are handled here, and so are the helpers every
 * subcommand uses to read option values and report usage errors. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/suggest.h"
#include "../core/outfile.h"
#include "cli.h"

/* ---------------------------------------------------------------- helpers */

/* The values of --diagnostics-format, in diag_format's order. */
static const char *const format_names[] = {"text", "json", "sarif"};

static bool parse_format(const char *name, diag_format *out) {
  for (int i = 0; i < 3; i++)
    if (strcmp(name, format_names[i]) == 0) return *out = (diag_format)i, true;
  return false;
}

diag_sink cli_run_sink(int argc, char **argv) {
  static const char option[] = "--diagnostics-format";
  diag_sink sink = {.out = stderr, .max_errors = 20, .keep = true};
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], option) == 0 && i + 1 < argc) parse_format(argv[++i], &sink.format);
    else if (strncmp(argv[i], option, sizeof option - 1) == 0 && argv[i][sizeof option - 1] == '=')
      parse_format(argv[i] + sizeof option, &sink.format);
  }
  return sink;
}

FILE *cli_progress_out(const diag_sink *sink, bool asked) {
  if (sink->format != DIAG_TEXT) return NULL; /* stderr holds one document */
  return asked || isatty(STDERR_FILENO) ? stderr : NULL;
}

int cli_finish(diag_sink *sink, int code) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    diag_error_at(sink, "athread", "cannot write to standard output: %s", strerror(errno));
    return EXIT_INTERNAL;
  }
  return code;
}

int cli_put_output(diag_sink *sink, const char *path, const strbuf *text) {
  if (!path) {
    fwrite(sbuf_str(text), 1, text->len, stdout);
    return EXIT_HOLDS;
  }
  return outfile_write(sink, path, sbuf_str(text), text->len) ? EXIT_HOLDS : EXIT_BAD_INPUT;
}

int cli_json_failure(diag_sink *sink, const char *command) {
  json_t *o = json_pack("{s:s,s:i,s:s,s:s,s:i,s:o}", "athread_version", ATHREAD_VERSION, "schema_version",
                        ATHREAD_JSON_SCHEMA_VERSION, "command", command, "verdict", "error", "exit_code",
                        EXIT_BAD_INPUT, "diagnostics", diag_json(sink));
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', stdout);
  json_decref(o);
  return cli_finish(sink, EXIT_BAD_INPUT);
}

bool cli_parse_number(diag_sink *sink, const char *what, const char *text, double *out) {
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  if (errno || end == text || *end || *out < 0) {
    diag_error_at(sink, "athread", "%s expects a non-negative number, got '%s'", what, text);
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

int cli_take_werror(diag_sink *sink, const char *command, const char *arg, bool *werror) {
  if (arg && strcmp(arg, "error") != 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown option '-W%.100s'; -Werror is the one -W option", arg);
    return cli_usage_error(sink, command, msg);
  }
  *werror = true;
  return -1;
}

int cli_werror_exit(const diag_sink *sink, int code) {
  return code == EXIT_HOLDS && sink->warnings_as_errors && sink->warnings ? EXIT_BAD_INPUT : code;
}

int cli_take_certificate_format(diag_sink *sink, const char *command, const char *arg, bool *certificate,
                                bool *as_smt) {
  if (strcmp(arg, "spec") != 0 && strcmp(arg, "smt") != 0)
    return cli_usage_error(sink, command, "--certificate-format must be spec or smt");
  *certificate = true;
  *as_smt = strcmp(arg, "smt") == 0;
  return -1;
}

int cli_take_limit(diag_sink *sink, int c, const char *arg, explicit_options *limits) {
  double x;
  const char *name = c == 'm' ? "--max-states" : c == 'N' ? "--threads" : "--timeout";
  if (!cli_parse_number(sink, name, arg, &x)) return EXIT_BAD_INPUT;
  if (c == 'N' && (x < 1 || x > 64 || x != (unsigned)x)) {
    diag_error_at(sink, "athread", "--threads expects a whole number from 1 to 64, got '%s'", arg);
    return EXIT_BAD_INPUT;
  }
  if (c == 'm') limits->max_states = (uint64_t)x;
  else if (c == 'N') limits->threads = (unsigned)x;
  else limits->timeout = x;
  return -1;
}

char *cli_command_line(int argc, char **argv) {
  strbuf b = {0};
  sbuf_puts(&b, "athread");
  for (int i = 0; i < argc; i++) sbuf_printf(&b, " %s", argv[i]);
  return sbuf_take(&b);
}

int cli_usage_error(diag_sink *sink, const char *command, const char *msg) {
  diag_error_at(sink, "athread", "%s (try 'athread %s --help')", msg, command);
  return EXIT_BAD_INPUT;
}

/* ---------------------------------------------------------------- the table */

/* The codes are unique across subcommands; short options use the same codes. */
static const struct option every_option[] = {
    {"set", required_argument, NULL, 's'},
    {"engine", required_argument, NULL, 'e'},
    {"for-all", required_argument, NULL, 'F'},
    {"max-states", required_argument, NULL, 'm'},
    {"timeout", required_argument, NULL, 't'},
    {"threads", required_argument, NULL, 'N'},
    {"max-memory", required_argument, NULL, 'M'},
    {"trace-out", required_argument, NULL, 'O'},
    {"json", no_argument, NULL, 'j'},
    {"no-symmetry", no_argument, NULL, 'n'},
    {"progress", no_argument, NULL, 'p'},
    {"no-timing", no_argument, NULL, 'T'},
    {"certificate", no_argument, NULL, 'c'},
    {"certificate-format", required_argument, NULL, 'K'},
    {"bound", required_argument, NULL, 'b'},
    {"property", required_argument, NULL, 'P'},
    {"show-properties", no_argument, NULL, 'Q'},
    {"thread", required_argument, NULL, 'r'},
    {"int", required_argument, NULL, 'Z'},
    {"emit-c", required_argument, NULL, 'C'},
    {"emit-smt2", required_argument, NULL, 'S'},
    {"witness", required_argument, NULL, 'Y'},
    {"sarif", required_argument, NULL, 'R'},
    {"html", required_argument, NULL, 'H'},
    {"output", required_argument, NULL, 'o'},
    {"trace", required_argument, NULL, 'X'},
    {"idle", no_argument, NULL, 'd'},
    {"format", required_argument, NULL, 'f'},
    {"no-warnings", no_argument, NULL, 'w'},
    {"warnings-as-errors", no_argument, NULL, 'W'},
    {"coverage", no_argument, NULL, 'g'},
    {"in-place", no_argument, NULL, 'i'},
    {"check", no_argument, NULL, 'k'},
    {"list", no_argument, NULL, 'l'},
    {"diff", no_argument, NULL, 'u'},
    {"all", no_argument, NULL, 'a'},
    {"atomicity", required_argument, NULL, 'A'},
    {"env", required_argument, NULL, 'V'},
    {"diagnostics-format", required_argument, NULL, 'G'},
    {"help", no_argument, NULL, 'h'},
};

#define OPTION_COUNT (sizeof every_option / sizeof every_option[0])

/* True when no two options share a code (a shared one made --coverage parse
 * as --diagnostics-format once). */
static bool codes_unique(void) {
  for (size_t i = 0; i < OPTION_COUNT; i++)
    for (size_t j = i + 1; j < OPTION_COUNT; j++)
      if (every_option[i].val == every_option[j].val) return false;
  return true;
}

/* Appends the long option called name (length len) to table. */
static void add_option(struct option *table, size_t *n, const char *name, size_t len) {
  for (size_t i = 0; i < OPTION_COUNT; i++)
    if (strlen(every_option[i].name) == len && strncmp(every_option[i].name, name, len) == 0)
      table[(*n)++] = every_option[i];
}

/* The table of names (space-separated) plus help, diagnostics-format and,
 * with p->spec, set. */
static struct option *table_of(const cli_parse *p) {
  assert(codes_unique());
  struct option *table = xcalloc(OPTION_COUNT + 1, sizeof *table);
  size_t n = 0;
  add_option(table, &n, "help", 4);
  add_option(table, &n, "diagnostics-format", 18);
  if (p->spec) add_option(table, &n, "set", 3);
  for (const char *s = p->names; *s;) {
    size_t len = strcspn(s, " ");
    add_option(table, &n, s, len);
    s += len + strspn(s + len, " ");
  }
  return table;
}

/* ---------------------------------------------------------------- usage errors */

/* The name of a long option as typed ("--trace=x" gives "trace"), in buf. */
static const char *typed_name(const char *text, char *buf, size_t size) {
  snprintf(buf, size, "%.*s", (int)strcspn(text + 2, "="), text + 2);
  return buf;
}

/* "unknown option '--tiemout' (did you mean '--timeout'?)", for the
 * subcommand's own options. */
static int unknown_option(const cli_parse *p, const struct option *table, const char *text) {
  char msg[240], name[80];
  const char *names[OPTION_COUNT], *similar = NULL;
  size_t n = 0;
  for (; table[n].name; n++) names[n] = table[n].name;
  if (strncmp(text, "--", 2) == 0) similar = suggest_name(typed_name(text, name, sizeof name), names, n);
  if (similar && strcmp(similar, name) == 0) /* "--json=3" */
    snprintf(msg, sizeof msg, "option '--%s' takes no value", name);
  else
    snprintf(msg, sizeof msg, "unknown option '%.100s'%s%s%s", text, similar ? "; did you mean '--" : "",
             similar ? similar : "", similar ? "'?" : "");
  return cli_usage_error(p->sink, p->command, msg);
}

static int missing_value(const cli_parse *p, const char *text) {
  char msg[160];
  snprintf(msg, sizeof msg, "option '%.100s' needs a value", text);
  return cli_usage_error(p->sink, p->command, msg);
}

/* getopt_long takes a unique prefix of a long option for the option
 * ("--trace" for "--trace-out"); athread takes whole names only, so that a
 * name added later never changes what an old command line means. */
static int abbreviated(const cli_parse *p, const struct option *o, const char *text) {
  char msg[240], name[80];
  if (strncmp(text, "--", 2) != 0 || strcmp(typed_name(text, name, sizeof name), o->name) == 0) return -1;
  snprintf(msg, sizeof msg, "unknown option '%.100s'; did you mean '--%s'? (options are not abbreviated)", text,
           o->name);
  return cli_usage_error(p->sink, p->command, msg);
}

/* ---------------------------------------------------------------- the loop */

/* Handles the options every subcommand shares; -2 when c is not one of them. */
static int shared_option(const cli_parse *p, int c) {
  spec_options *o = p->spec;
  if (c == 'h') {
    cli_usage(stdout, p->command);
    return cli_finish(p->sink, EXIT_HOLDS);
  }
  if (c == 's' && o)
    return cli_parse_override(p->sink, optarg, &o->overrides[o->override_count++]) ? -1 : EXIT_BAD_INPUT;
  if (c == 'G' && !parse_format(optarg, &p->sink->format))
    return cli_usage_error(p->sink, p->command, "--diagnostics-format must be text, json or sarif");
  return c == 'G' ? -1 : -2;
}

/* What getopt_long rejected: a long option (optopt 0, or a value given to
 * one that takes none: "--json=3") is the last element it read; a short
 * one is optopt (in "-xo", x is rejected before the element is done). */
static const char *rejected(char **argv, char flag[3]) {
  const char *last = argv[optind - 1];
  if (!optopt || (strncmp(last, "--", 2) == 0 && strchr(last, '='))) return last;
  flag[0] = '-', flag[1] = (char)optopt, flag[2] = '\0';
  return flag;
}

/* One option getopt_long returned (long_index >= 0 for a long one), its
 * text argv[optind - 1] or, with a separate value, argv[optind - 2]. */
static int one_option(const cli_parse *p, const struct option *table, int c, int long_index, char **argv) {
  char flag[3];
  if (c == '?') return unknown_option(p, table, rejected(argv, flag));
  if (c == ':') return missing_value(p, argv[optind - 1]);
  const char *text = argv[optind - (optarg && optarg == argv[optind - 1] && optind >= 2 ? 2 : 1)];
  int code = long_index >= 0 ? abbreviated(p, &table[long_index], text) : -1;
  if (code >= 0) return code;
  if ((code = shared_option(p, c)) == -2) code = p->take(c, optarg, p->args);
  return code;
}

int cli_parse_options(int argc, char **argv, const cli_parse *p) {
  struct option *table = table_of(p);
  size_t len = strlen(p->short_options);
  char *shorts = xcalloc(len + 2, 1); /* a leading ':': a missing value is ':', not '?' */
  shorts[0] = ':';
  memcpy(shorts + 1, p->short_options, len);
  int c, code = -1, long_index = -1;
  opterr = 0;
  while (code < 0 && (c = getopt_long(argc, argv, shorts, table, &long_index)) != -1) {
    code = one_option(p, table, c, long_index, argv);
    long_index = -1;
  }
  free(shorts);
  free(table);
  return code;
}
