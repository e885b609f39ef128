/* cfront/skeleton.h -- athread skeleton: a draft .athread spec from a C
 * program read by cfront/program.h. One shared variable per scalar part of
 * each global the threads touch (arrays of scalars stay arrays; structs are
 * flattened and bound to their C paths), one thread with one state per
 * function that is started as a thread, and a system with the instance
 * counts and the init predicates that main's code gives. The text is in the
 * canonical layout of athread fmt.
 *
 * Borrows the program; the text goes to a caller-owned strbuf.
 */
#ifndef ATHREAD_CFRONT_SKELETON_H
#define ATHREAD_CFRONT_SKELETON_H

#include "../core/strbuf.h"
#include "program.h"

/* Appends the draft of p, read from files, to out. When p starts no thread
 * it reports that to sink (with a hint) and returns false, out untouched. */
bool skel_write(diag_sink *sink, const cfp_program *p, const char *const *files, size_t file_count, strbuf *out);
/* As skel_write; with_main: the globals main (and its callees) touches get
 * shared variables too (athread races runs main beside the threads). */
bool skel_write_with_main(diag_sink *sink, const cfp_program *p, const char *const *files, size_t file_count,
                          bool with_main, strbuf *out);

/* ---------------------------------------------------------------- names (skeleton-names.c) */

/* True when s is a keyword of the spec language (or reserved for one). */
bool skel_is_keyword(const char *s);
/* The C path of a part of a global: "ext.slots", "devs[0].count". Arena-owned. */
const char *skel_c_path(arena *a, const char *global, const cfp_step *steps, size_t len);
/* The path as one identifier: "ext_slots", "devs_0_count". Arena-owned. */
const char *skel_flat_name(arena *a, const char *global, const cfp_step *steps, size_t len);
/* "float ratio", "int *p", "int *ptrs[4]": a declaration of name with C type spelling. */
const char *skel_declarator(arena *a, const char *spelling, const char *name);
/* A valid spec identifier from C text (other characters become '_'). */
const char *skel_identifier(arena *a, const char *text);
/* Thread name from a function name: valid, first letter upper-cased. */
const char *skel_thread_name(arena *a, const char *function);
/* System name from a file path: its base name without the extension. */
const char *skel_system_name(arena *a, const char *path);

#endif
