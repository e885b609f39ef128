/* cfront/skeleton-names.c -- names in a draft spec: keywords, identifiers
 * made from C names and paths, and C declarators for the comments. */
#include <ctype.h>
#include <string.h>

#include "../core/strbuf.h"
#include "skeleton.h"

/* The spec language's keywords, and the ones it reserves for quantifiers. */
static const char *const keywords[] = {
    "const", "shared", "thread", "system", "state", "init", "assert", "invariant", "implements", "when", "do",
    "true",  "false",  "int",    "bool",   "count", "tid",  "binds",  "forall",    "exists",     "in",
};

bool skel_is_keyword(const char *s) {
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strcmp(s, keywords[i]) == 0) return true;
  return false;
}

static const char *take(arena *a, strbuf *b) {
  const char *s = arena_intern_cstr(a, sbuf_str(b));
  sbuf_free(b);
  return s;
}

const char *skel_c_path(arena *a, const char *global, const cfp_step *steps, size_t len) {
  strbuf b = {0};
  sbuf_puts(&b, global);
  for (size_t i = 0; i < len; i++) {
    if (!steps[i].field) sbuf_printf(&b, "[%lld]", (long long)steps[i].index);
    else if (!cfp_is_anonymous(steps[i].field)) sbuf_printf(&b, ".%s", steps[i].field);
  }
  return take(a, &b);
}

const char *skel_flat_name(arena *a, const char *global, const cfp_step *steps, size_t len) {
  strbuf b = {0};
  sbuf_puts(&b, global);
  for (size_t i = 0; i < len; i++) {
    if (!steps[i].field) sbuf_printf(&b, "_%lld", (long long)steps[i].index);
    else if (!cfp_is_anonymous(steps[i].field)) sbuf_printf(&b, "_%s", steps[i].field);
  }
  return take(a, &b);
}

const char *skel_declarator(arena *a, const char *spelling, const char *name) {
  const char *fn = strstr(spelling, "(*");
  const char *bracket = strchr(spelling, '[');
  if (fn) return arena_printf(a, "%.*s%s%s", (int)(fn + 2 - spelling), spelling, name, fn + 2);
  if (bracket) {
    size_t head = (size_t)(bracket - spelling);
    while (head > 0 && spelling[head - 1] == ' ') head--;
    const char *gap = head > 0 && spelling[head - 1] == '*' ? "" : " ";
    return arena_printf(a, "%.*s%s%s%s", (int)head, spelling, gap, name, bracket);
  }
  size_t n = strlen(spelling);
  return arena_printf(a, "%s%s%s", spelling, n && spelling[n - 1] == '*' ? "" : " ", name);
}

const char *skel_identifier(arena *a, const char *text) {
  strbuf b = {0};
  if (!isalpha((unsigned char)*text) && *text != '_') sbuf_putc(&b, '_');
  for (const char *s = text; *s; s++) sbuf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
  return take(a, &b);
}

const char *skel_thread_name(arena *a, const char *function) {
  char *name = arena_strndup(a, skel_identifier(a, function), strlen(function) + 1);
  for (char *s = name; *s; s++)
    if (isalpha((unsigned char)*s)) {
      *s = (char)toupper((unsigned char)*s);
      break;
    }
  return arena_intern_cstr(a, name);
}

const char *skel_system_name(arena *a, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strchr(base, '.');
  char *stem = arena_strndup(a, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
  if (isdigit((unsigned char)*stem)) stem = arena_printf(a, "System_%s", stem);
  return skel_thread_name(a, *stem ? stem : "system");
}
