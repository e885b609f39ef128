/* spec-lang/parse-ctx.h -- state shared by the spec lexer and parser.
 *
 * Private to spec-lang/. Borrows the spec (and through it the arena and the
 * source) while one parse runs; owns nothing.
 */
#ifndef ATHREAD_PARSE_CTX_H
#define ATHREAD_PARSE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

#define PARSE_MAX_NESTING 16

typedef struct parse_ctx {
  ast_spec *spec;                     /* the spec being built */
  uint32_t offset;                    /* lexer: offset of the next unread byte */
  uint32_t last_end;                  /* lexer: end of the token just read (the parser's lookahead) */
  uint32_t prev_end;                  /* lexer: end of the token before it */
  bool lex_failed_at_eof;             /* an unterminated comment ended the input */
  loc open_braces[PARSE_MAX_NESTING]; /* lexer: the '{' not yet closed, innermost last */
  int open_brace_count;               /* entries in open_braces (deeper ones are not kept) */
} parse_ctx;

#endif
