/* conformance/cfront-cpp.c -- the C preprocessor and the way back from its
 * output to the user's files: running cpp without a shell, following its
 * line markers, mapping each token to a span of its original file, and
 * scanning system headers for the names they declare. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cfront/c-ast.h"
#include "c-parser.h"

extern char **environ;

/* ---------------------------------------------------------------- running cpp */

/* The largest preprocessed text athread reads (system headers included). */
#define CPP_MAX_OUTPUT (64u << 20)

/* The argument vector: cpp, our flags, the user's flags, the file. Heap array. */
static char **cpp_argv(const char *const *prefix, const char *path, const cfe_options *o) {
  size_t n = 0, cap = o->cpp_flag_count + 8;
  char **argv = xcalloc(cap, sizeof *argv);
  for (; *prefix; prefix++) argv[n++] = (char *)*prefix;
  argv[n++] = "-D__ATHREAD__";
  if (o->include_dir) {
    argv[n++] = "-I";
    argv[n++] = (char *)o->include_dir;
  }
  for (size_t i = 0; i < o->cpp_flag_count; i++) argv[n++] = (char *)o->cpp_flags[i];
  argv[n++] = (char *)path;
  return argv;
}

/* Starts the first preprocessor that exists with stdout and stderr on the
 * pipes' write ends; returns its pid or -1 (errno set). */
static pid_t spawn_cpp(const char *path, const cfe_options *o, int out_fd, int err_fd) {
  static const char *const cpp[] = {"cpp", NULL};
  static const char *const cc[] = {"cc", "-E", NULL};
  static const char *const *const tries[] = {cpp, cc};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
  pid_t pid = -1;
  int rc = ENOENT;
  for (size_t i = 0; i < 2 && rc == ENOENT; i++) {
    char **argv = cpp_argv(tries[i], path, o);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    free(argv);
  }
  posix_spawn_file_actions_destroy(&fa);
  errno = rc;
  return rc == 0 ? pid : -1;
}

/* Reads both pipes to their ends; false when the output is too large. */
static bool drain(int out_fd, int err_fd, strbuf *out, strbuf *err) {
  struct pollfd fds[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
  strbuf *bufs[2] = {out, err};
  int open_count = 2;
  char chunk[65536];
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        open_count--;
        continue;
      }
      if (bufs[i]->len + (size_t)n <= CPP_MAX_OUTPUT) sbuf_putn(bufs[i], chunk, (size_t)n);
      else if (i == 0) return false;
    }
  }
  return true;
}

bool cfe_preprocess(diag_sink *sink, const char *path, const cfe_options *o, strbuf *out) {
  int po[2], pe[2];
  if (pipe(po) != 0 || pipe(pe) != 0) {
    diag_error_at(sink, path, "cannot run the preprocessor: %s", strerror(errno));
    return false;
  }
  pid_t pid = spawn_cpp(path, o, po[1], pe[1]);
  int spawn_errno = errno;
  close(po[1]);
  close(pe[1]);
  strbuf err = {0};
  bool fits = pid > 0 && drain(po[0], pe[0], out, &err);
  close(po[0]);
  close(pe[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  fputs(sbuf_str(&err), sink->out);
  bool ok = pid > 0 && fits && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (pid <= 0) diag_error_at(sink, path, "cannot run the preprocessor 'cpp': %s", strerror(spawn_errno));
  else if (!fits)
    diag_error_at(sink, path, "the preprocessed file is too large (the limit is %u bytes)", CPP_MAX_OUTPUT);
  else if (!ok) sink->errors++;
  sbuf_free(&err);
  return ok;
}

/* ---------------------------------------------------------------- line markers */

/* The source of a file a line marker names: cpp read it, or a #line in the
 * code names it. Only regular files are read: a device (#line 1 "/dev/tty")
 * could block or never end. */
static diag_source *marked_file(cfe_unit *u, const char *name) {
  struct stat st;
  diag_source *src = NULL;
  if (stat(name, &st) == 0 && !S_ISREG(st.st_mode))
    diag_error_at(u->sink, name, "named by a line marker (#line) but not a regular file");
  else src = diag_source_load(u->sink, name);
  return src ? src : diag_source_from_string(u->sink, name, "", 0);
}

static int file_index(cfe_ctx *ctx, const char *name, bool system) {
  cfe_unit *u = ctx->unit;
  vec_foreach(&u->files, i)
    if (u->files.items[i].name == name) return (int)i;
  cfe_file f = {.name = name, .system = system || name[0] == '<'};
  if (!f.system) f.src = marked_file(u, name);
  vec_push(u->arena, &u->files, f);
  return (int)u->files.len - 1;
}

/* Reads the quoted file name at *p (C escapes) into an interned string. */
static const char *marker_name(cfe_ctx *ctx, const char **p, const char *end) {
  strbuf name = {0};
  for (const char *s = *p + 1; s < end && *s != '"'; s++) {
    if (*s == '\\' && s + 1 < end) s++;
    sbuf_putc(&name, *s);
  }
  const char *interned = arena_intern(ctx->unit->arena, sbuf_str(&name), name.len);
  sbuf_free(&name);
  return interned;
}

void cfe_directive(cfe_ctx *ctx, const char *line, size_t len) {
  const char *p = memchr(line, '#', len) + 1, *end = line + len;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (end - p > 4 && strncmp(p, "line", 4) == 0) p += 4;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p == end || *p < '0' || *p > '9') { /* #pragma, #ident: nothing to do */
    if (line[len - 1] == '\n') ctx->line++;
    return;
  }
  size_t number = strtoul(p, (char **)&p, 10);
  while (p < end && *p == ' ') p++;
  const char *name = p < end && *p == '"' ? marker_name(ctx, &p, end) : NULL;
  bool flag[5] = {false};
  for (const char *s = p; s + 1 < end; s++)
    if (s[0] == ' ' && s[1] >= '1' && s[1] <= '4' && (s + 2 == end || s[2] == ' ' || s[2] == '\n'))
      flag[s[1] - '0'] = true;
  if (name) ctx->file = file_index(ctx, name, flag[3]);
  if (name && flag[1]) ctx->unit->files.items[ctx->file].cursor = 0; /* entering it (again) */
  ctx->line = number;
  ctx->system = ctx->file < 0 || ctx->unit->files.items[ctx->file].system;
  ctx->in_macro = false;
}

/* ---------------------------------------------------------------- mapping tokens back */

static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The first byte at or after i that is not white space, a comment or a
 * backslash-newline. */
static uint32_t skip_blank(const diag_source *src, uint32_t i) {
  const char *t = src->text;
  while (i < src->len) {
    if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' || t[i] == '\f' || t[i] == '\v') i++;
    else if (t[i] == '\\' && t[i + 1] == '\n') i += 2;
    else if (t[i] == '/' && t[i + 1] == '*') {
      const char *close = strstr(t + i + 2, "*/");
      i = close ? (uint32_t)(close - t) + 2 : (uint32_t)src->len;
    } else if (t[i] == '/' && t[i + 1] == '/') {
      while (i < src->len && t[i] != '\n') i++;
    } else break;
  }
  return i;
}

static bool matches_at(const diag_source *src, uint32_t i, const char *text, size_t len) {
  if (i + len > src->len || memcmp(src->text + i, text, len) != 0) return false;
  return !ident_char(text[len - 1]) || i + len == src->len || !ident_char(src->text[i + len]);
}

/* End of a macro invocation starting with the name at [i, e): past the
 * argument list when one follows. */
static uint32_t invocation_end(const diag_source *src, uint32_t e) {
  uint32_t p = skip_blank(src, e);
  if (p >= src->len || src->text[p] != '(') return e;
  int depth = 0;
  for (; p < src->len; p++) {
    if (src->text[p] == '(') depth++;
    if (src->text[p] == ')' && --depth == 0) return p + 1;
  }
  return e;
}

/* The token somewhere later on the current source line, or a point. */
static cfe_pos search_line(cfe_ctx *ctx, cfe_file *f, uint32_t from, const char *text, size_t len) {
  const diag_source *src = f->src;
  for (uint32_t i = from; i < src->len && src->text[i] != '\n'; i++) {
    if (!matches_at(src, i, text, len) || (i > 0 && ident_char(text[0]) && ident_char(src->text[i - 1]))) continue;
    f->cursor = i + (uint32_t)len;
    return (cfe_pos){ctx->file, {i, i + (uint32_t)len}};
  }
  return (cfe_pos){ctx->file, {from, from}};
}

/* The preprocessor keeps each token on its original line but not its
 * column. Tokens appear in source order, so the next token is normally the
 * next source token after blanks; a different identifier there was a macro
 * that expanded to this token (and what follows, until the source matches
 * again): those tokens get the span of the macro's use. */
cfe_pos cfe_map_token(cfe_ctx *ctx, const char *text, size_t len) {
  if (ctx->file < 0) return (cfe_pos){-1, {0, 0}};
  cfe_file *f = &ctx->unit->files.items[ctx->file];
  const diag_source *src = f->src;
  uint32_t line_start =
      ctx->line >= 1 && ctx->line <= src->line_count ? src->line_starts[ctx->line - 1] : (uint32_t)src->len;
  if (f->cursor < line_start) {
    f->cursor = line_start;
    ctx->in_macro = false;
  }
  uint32_t p = skip_blank(src, f->cursor);
  if (matches_at(src, p, text, len)) {
    f->cursor = p + (uint32_t)len;
    ctx->in_macro = false;
    return (cfe_pos){ctx->file, {p, f->cursor}};
  }
  if (p < src->len && ident_char(src->text[p]) && !(src->text[p] >= '0' && src->text[p] <= '9')) {
    uint32_t e = p;
    while (e < src->len && ident_char(src->text[e])) e++;
    f->cursor = invocation_end(src, e);
    ctx->in_macro = true;
    ctx->macro_at = (cfe_pos){ctx->file, {p, e}};
    return ctx->macro_at;
  }
  if (ctx->in_macro) return ctx->macro_at;
  return search_line(ctx, f, p, text, len);
}

/* ---------------------------------------------------------------- system headers */

/* Words a typedef of an integer type is made of. */
static bool scalar_keyword(int tok) {
  return tok == KW_CHAR || tok == KW_SHORT || tok == KW_INT || tok == KW_LONG || tok == KW_SIGNED ||
         tok == KW_UNSIGNED || tok == KW_BOOL || tok == KW_CONST || tok == KW_VOLATILE;
}

/* GNU words that change nothing here. */
static bool ignorable(const char *text, size_t len) {
  static const char *const words[] = {"__extension__", "__signed__", "__signed", "__inline", "__inline__", "__const"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == len && memcmp(words[i], text, len) == 0) return true;
  return false;
}

static void system_name(cfe_ctx *ctx, const char *name, bool scalar) {
  cfe_entity e = {.kind = ENT_SYSTEM};
  if (ctx->sys_typedef) {
    e.kind = ENT_TYPEDEF;
    e.system = true;
    e.type.kind = !scalar ? CT_BAD : ctx->sys_bool ? CT_BOOL : CT_INT;
  }
  cfe_define(ctx->unit, name, e, false);
}

/* The identifier before tok is a declared name when tok can follow a declarator. */
static void settle_ident(cfe_ctx *ctx, int tok) {
  const char *name = ctx->sys_ident;
  ctx->sys_ident = NULL;
  bool star_paren = ctx->sys_after_star && tok == ')' && ctx->sys_parens == 1;
  if (ctx->sys_parens > 0 && !star_paren) return;
  if (tok == ';' || tok == ',' || tok == '=' || tok == '[' || tok == '(' || star_paren) {
    system_name(ctx, name, ctx->sys_scalar && ctx->sys_words > 0 && !star_paren);
    return;
  }
  if (ctx->sys_prev_scalar) ctx->sys_words++;
  else ctx->sys_scalar = false;
}

static void end_declaration(cfe_ctx *ctx) {
  ctx->sys_typedef = false;
  ctx->sys_scalar = true;
  ctx->sys_bool = false;
  ctx->sys_words = 0;
}

void cfe_system_token(cfe_ctx *ctx, int tok, const char *text, size_t len) {
  if (tok == IDENT && ignorable(text, len)) return;
  if (ctx->sys_braces == 0 && ctx->sys_ident) settle_ident(ctx, tok);
  if (tok == '{') ctx->sys_braces++;
  if (tok == '}' && ctx->sys_braces > 0) ctx->sys_braces--;
  if (ctx->sys_braces > 0 || tok == '}') return;
  if (tok == '(') ctx->sys_parens++;
  if (tok == ')' && ctx->sys_parens > 0) ctx->sys_parens--;
  if (tok == ';' && ctx->sys_parens == 0) end_declaration(ctx);
  else if (tok == KW_TYPEDEF) ctx->sys_typedef = true;
  else if (scalar_keyword(tok)) {
    if (tok != KW_CONST && tok != KW_VOLATILE) ctx->sys_words++;
    if (tok == KW_BOOL) ctx->sys_bool = true;
  } else if (tok == IDENT || tok == TYPE_NAME) {
    ctx->sys_ident = arena_intern(ctx->unit->arena, text, len);
    cfe_entity *e = cfe_lookup(ctx->unit, ctx->sys_ident);
    ctx->sys_prev_scalar = tok == TYPE_NAME && e->type.kind != CT_BAD;
    if (ctx->sys_prev_scalar && e->type.kind == CT_BOOL) ctx->sys_bool = true;
  } else if (tok != ',') ctx->sys_scalar = false;
  ctx->sys_after_star = tok == '*';
}
