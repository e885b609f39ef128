/* cli/cmd-review.c -- athread review: one self-contained HTML page about a
 * spec (review/review.h). The page goes to -o FILE (written atomically) or
 * to stdout; the command prints nothing else. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../review/review.h"
#include "cli.h"

typedef struct review_args {
  spec_options opts;       /* --set overrides */
  const char *output;      /* -o path; "-" (stdout) by default */
  explicit_options limits; /* --max-states, --timeout */
  const char *for_all;     /* --for-all N: the const, or NULL */
  diag_sink *sink;         /* the run's */
} review_args;

/* Applies one option (a cli_take_fn). */
static int review_option(int c, char *arg, void *args) {
  review_args *a = args;
  double x;
  switch (c) {
  case 'o': a->output = arg; return -1;
  case 'F': a->for_all = arg; return -1;
  case 'm':
    if (!cli_parse_number(a->sink, "--max-states", arg, &x)) return EXIT_BAD_INPUT;
    a->limits.max_states = (uint64_t)x;
    return -1;
  case 't':
    if (!cli_parse_number(a->sink, "--timeout", arg, &x)) return EXIT_BAD_INPUT;
    a->limits.timeout = x;
    return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

/* "athread review ARGS...", as typed, for the page. */
static char *command_line(int argc, char **argv) {
  strbuf b = {0};
  sbuf_puts(&b, "athread");
  for (int i = 0; i < argc; i++) sbuf_printf(&b, " %s", argv[i]);
  return sbuf_take(&b);
}

static int review(review_args *a, const char *spec, char *typed) {
  review_request rq = {.spec_path = spec,
                       .spec = &a->opts,
                       .output = a->output,
                       .command_line = typed,
                       .version = ATHREAD_VERSION,
                       .limits = a->limits,
                       .for_all = a->for_all};
  review_outcome r = review_write(a->sink, &rq);
  return r == REVIEW_WRITTEN ? cli_finish(a->sink, EXIT_HOLDS) : r == REVIEW_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

int cmd_review(diag_sink *sink, int argc, char **argv) {
  review_args a = {.opts = {.overrides = xcalloc((size_t)argc, sizeof(spec_override))}, .output = "-", .sink = sink};
  char *typed = command_line(argc, argv);
  cli_parse p = {"review", "output max-states timeout for-all", "o:h", &a.opts, review_option, &a, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code < 0 && optind != argc - 1)
    code = cli_usage_error(sink, "review", "expected exactly one specification (C files are not reviewed yet)");
  if (code < 0) code = review(&a, argv[optind], typed);
  free(typed);
  free(a.opts.overrides);
  return code;
}
