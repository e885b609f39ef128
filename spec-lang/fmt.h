/* spec-lang/fmt.h -- canonical pretty-printing of a parsed spec.
 *
 * Borrows the spec (syntax fields only: it works on an unchecked parse) and
 * appends to a caller-owned strbuf. Every comment of the source is kept,
 * before the item it preceded or at the end of the line it ended.
 */
#ifndef ATHREAD_FMT_H
#define ATHREAD_FMT_H

#include "../core/strbuf.h"
#include "ast.h"

void fmt_spec(strbuf *out, const ast_spec *spec);

#endif
