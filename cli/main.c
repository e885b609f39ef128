/* cli/main.c -- athread's entry point: global options and dispatch to one
 * function per subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/suggest.h"
#include "cli.h"

typedef struct command {
  const char *name;                      /* as typed */
  int (*run)(diag_sink *, int, char **); /* its function */
} command;

static const command commands[] = {
    {"lint", cmd_lint},     {"fmt", cmd_fmt},         {"conform", cmd_conform},   {"compose", cmd_compose},
    {"viz", cmd_viz},       {"promela", cmd_promela}, {"skeleton", cmd_skeleton}, {"check", cmd_check},
    {"replay", cmd_replay}, {"review", cmd_review},   {"murphi", cmd_murphi},     {"races", cmd_races},
    {"infer", cmd_infer},
};

static const command *find_command(const char *name) {
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

static int unknown_command(diag_sink *sink, const char *name) {
  const char *names[sizeof commands / sizeof *commands];
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) names[i] = commands[i].name;
  const char *similar = suggest_name(name, names, sizeof commands / sizeof *commands);
  diag_error_at(sink, "athread", "unknown command '%s'%s%s%s (try 'athread --help')", name,
                similar ? "; did you mean '" : "", similar ? similar : "", similar ? "'?" : "");
  return EXIT_BAD_INPUT;
}

/* "athread help [COMMAND]" */
static int help(diag_sink *sink, int argc, char **argv) {
  if (argc < 2) {
    cli_usage(stdout, NULL);
    return cli_finish(sink, EXIT_HOLDS);
  }
  if (!find_command(argv[1])) {
    return unknown_command(sink, argv[1]);
  }
  cli_usage(stdout, argv[1]);
  return cli_finish(sink, EXIT_HOLDS);
}

/* Runs the command argv[1] names with its arguments; returns the exit code. */
static int dispatch(diag_sink *sink, int argc, char **argv) {
  const char *name = argv[1];
  if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
    printf("athread %s\n", ATHREAD_VERSION);
    return cli_finish(sink, EXIT_HOLDS);
  }
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    cli_usage(stdout, NULL);
    return cli_finish(sink, EXIT_HOLDS);
  }
  if (strcmp(name, "help") == 0) return help(sink, argc - 1, argv + 1);
  const command *c = find_command(name);
  if (!c) {
    return unknown_command(sink, name);
  }
  return c->run(sink, argc - 1, argv + 1);
}

const diag_tool cli_tool = {"athread", ATHREAD_VERSION, NULL}; /* no home page to name yet */

int main(int argc, char **argv) {
  if (argc < 2) {
    cli_usage(stderr, NULL);
    return EXIT_BAD_INPUT;
  }
  diag_sink sink = cli_run_sink(argc, argv);
  int code = dispatch(&sink, argc, argv);
  diag_render(&sink, &cli_tool, code);
  diag_sink_free(&sink);
  return code;
}
