/* cli/code-args.c -- the C side of a command line (code-args.h). */
#include "code-args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/suggest.h"
#include "../core/arena.h"

bool cli_take_binding(cli_code_args *c, char *arg) {
  char *eq = strchr(arg, '=');
  if (!eq || eq == arg || !eq[1]) return false;
  *eq = '\0';
  cli_binding b = {arg, eq + 1};
  vec_push(NULL, &c->bindings, b);
  return true;
}

void cli_take_cpp_flag(cli_code_args *c, char flag, const char *value) {
  char *text = xmalloc(strlen(value) + 3);
  text[0] = '-';
  text[1] = flag;
  strcpy(text + 2, value);
  vec_push(NULL, &c->cpp, text);
}

const char *cli_include_dir(void) {
  const char *env = getenv("ATHREAD_INCLUDE");
  if (env && *env) return xstrdup(env);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 64);
  if (n <= 0) return xstrdup(ATHREAD_INCLUDE_DIR);
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  static const char *const tails[] = {"/../include", "/../share/athread/include"};
  for (int i = 0; slash && i < 2; i++) {
    snprintf(slash, sizeof exe - (size_t)(slash - exe), "%s/athread.h", tails[i]);
    if (access(exe, R_OK) == 0) {
      slash[strlen(tails[i])] = '\0';
      return xstrdup(exe);
    }
  }
  return xstrdup(ATHREAD_INCLUDE_DIR);
}

static const char *thread_names_suggestion(const ast_spec *spec, const char *name) {
  const char **names = xcalloc(spec->threads.len + 1, sizeof *names);
  vec_foreach(&spec->threads, i) names[i] = spec->threads.items[i]->name;
  const char *s = suggest_name(name, names, spec->threads.len);
  free(names);
  return s;
}

bool cli_resolve_bindings(diag_sink *sink, const cli_code_args *c, const char *spec_path, const ast_spec *spec,
                          const char **function) {
  vec_foreach(&spec->threads, i) function[i] = spec->threads.items[i]->impl;
  bool ok = true;
  vec_foreach(&c->bindings, k) {
    const ast_thread *t = ast_find_thread(spec, c->bindings.items[k].thread);
    if (t) {
      function[t->index] = c->bindings.items[k].function;
      continue;
    }
    const char *s = thread_names_suggestion(spec, c->bindings.items[k].thread);
    diag_error_at(sink, "athread", "--thread names '%s', which is not a thread of %s%s%s%s",
                  c->bindings.items[k].thread, spec_path, s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
    ok = false;
  }
  return ok;
}

void cli_code_args_free(cli_code_args *c) {
  vec_foreach(&c->cpp, i) free((void *)c->cpp.items[i]);
  vec_free(&c->cpp);
  vec_free(&c->bindings);
}

bool cli_is_spec_path(const char *path) {
  size_t n = strlen(path);
  return n > 8 && strcmp(path + n - 8, ".athread") == 0;
}

bool cli_atomicity_of(const char *name, conform_atomicity *out) {
  if (strcmp(name, "statement") == 0) return *out = ATOMICITY_STATEMENT, true;
  if (strcmp(name, "access") == 0) return *out = ATOMICITY_ACCESS, true;
  return false;
}
