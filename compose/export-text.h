/* compose/export-text.h -- the text that athread murphi and athread promela
 * write alike, each in its own comment syntax: names and labels made safe
 * inside a comment or a string, the model's title, a thread's heading, a
 * step's name, and the names of a shared variable's cells. The header
 * texts are templates in real files (compose/murphi-header.txt,
 * compose/promela-header.txt), made C arrays at build time by xxd.
 *
 * Everything appends to a caller-owned strbuf or fills caller-owned arrays;
 * names live in the caller's arena. The module owns nothing.
 */
#ifndef ATHREAD_EXPORT_TEXT_H
#define ATHREAD_EXPORT_TEXT_H

#include <stddef.h>

#include "../core/arena.h"
#include "../core/strbuf.h"
#include "../spec-lang/ast.h"
#include "step-plan.h"

/* Where text from the spec goes. */
typedef enum ex_place {
  EX_LINE_COMMENT,  /* to the end of the line */
  EX_BLOCK_COMMENT, /* inside C's comment */
  EX_STRING         /* inside a "string" */
} ex_place;

/* How a target writes its comments, and its model's header. */
typedef struct ex_style {
  const char *open;            /* a comment's first line's start */
  const char *close;           /* a comment's end */
  ex_place place;              /* what text inside a comment must avoid */
  const unsigned char *header; /* the header comment after its first line, where @MODEL@ is the model's name */
  size_t header_len;           /* its bytes */
} ex_style;

/* Appends s, safe at place: no control bytes (each is '?'), no end of a
 * block comment, no '"' in a string (it is '\''). */
void ex_text(strbuf *out, const char *s, ex_place place);

/* Appends the model's header comment: a first line with the model's name,
 * the system and the spec's file, then the target's header text. */
void ex_header(strbuf *out, const ex_style *c, const ast_spec *spec, const char *name);

/* Appends "\nthread T (implements I)" as a comment line. */
void ex_thread_title(strbuf *out, const ex_style *c, const ast_thread *t);

/* Appends step s's name: "FROM -> TO", its edge's label quoted, and which
 * part of the edge it is, safe at place. */
void ex_step_name(strbuf *out, const ast_thread *t, const step *s, ex_place place);

/* Names the cells of variable v, called name: var[cell] is name itself, or
 * its element "name[k]", whose array[cell] is name. Arena-owned. */
void ex_name_cells(arena *a, const ast_shared *v, const char *name, const char **var, const char **array);

#endif
