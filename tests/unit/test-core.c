/* tests/unit/test-core.c -- arena, interning, symtab, strbuf, diagnostics, arithmetic. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/barrier.h"
#include "../../core/diag.h"
#include "../../core/json-text.h"
#include "../../core/progress.h"
#include "../../core/sha256.h"
#include "../../core/strbuf.h"
#include "../../core/symtab.h"
#include "../../core/vec.h"
#include "../../core/ir.h"
#include "../../core/smt-print.h"
#include "../../core/smt-drive.h"
#include "../../core/smt.h"
#include "unit.h"

static void interned_strings_compare_by_pointer(void **state) {
  (void)state;
  arena *a = arena_new();
  const char *x = arena_intern(a, "pendingIO+", 9);
  const char *y = arena_intern_cstr(a, "pendingIO");
  assert_ptr_equal(x, y);
  assert_string_equal(x, "pendingIO");
  char name[32];
  const char *first = NULL;
  for (int i = 0; i < 5000; i++) { /* forces the table to grow several times */
    snprintf(name, sizeof name, "s%d", i);
    const char *p = arena_intern_cstr(a, name);
    if (i == 0) first = p;
  }
  assert_ptr_equal(arena_intern_cstr(a, "s0"), first);
  assert_ptr_not_equal(arena_intern_cstr(a, "s1"), first);
  arena_free(a);
}

static void arena_blocks_are_zeroed_and_aligned(void **state) {
  (void)state;
  arena *a = arena_new();
  for (size_t n = 1; n < 40000; n = n * 3 + 1) {
    unsigned char *p = arena_alloc(a, n);
    assert_int_equal((uintptr_t)p % 16, 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(p[i], 0);
    memset(p, 0xff, n);
  }
  arena_free(a);
}

static void symtab_maps_and_refuses_duplicates(void **state) {
  (void)state;
  static char keys[3000];
  symtab t = {0};
  for (int i = 0; i < 3000; i++) assert_int_equal(symtab_put(&t, &keys[i], i), -1);
  assert_int_equal(symtab_put(&t, &keys[7], 99), 7);
  for (int i = 0; i < 3000; i++) assert_int_equal(symtab_get(&t, &keys[i]), i);
  assert_int_equal(symtab_get(&t, "elsewhere"), -1);
  symtab_free(&t);
}

static void heap_vectors_grow(void **state) {
  (void)state;
  VEC(int) v = {0};
  for (int i = 0; i < 1000; i++) vec_push(NULL, &v, i * 2);
  assert_int_equal(v.len, 1000);
  assert_int_equal(v.items[999], 1998);
  vec_free(&v);
  assert_null(v.items);
}

static void strbuf_formats(void **state) {
  (void)state;
  strbuf b = {0};
  assert_string_equal(sbuf_str(&b), "");
  sbuf_printf(&b, "%s=%d", "N", 8);
  sbuf_putc(&b, ';');
  assert_string_equal(sbuf_str(&b), "N=8;");
  char *owned = sbuf_take(&b);
  assert_string_equal(owned, "N=8;");
  assert_int_equal(b.len, 0);
  free(owned);
}

/* sbuf_line: the indent, the formatted text (longer than the buffer's
 * first allocation) and the newline. */
static void strbuf_lines(void **state) {
  (void)state;
  strbuf b = {0};
  sbuf_line(&b, 0, "a%d", 1);
  sbuf_line(&b, 3, "%s", "b");
  sbuf_line(&b, 2, "%0100d", 7);
  assert_int_equal(b.len, 3 + 5 + 103);
  assert_memory_equal(sbuf_str(&b), "a1\n   b\n  0000", 14);
  assert_string_equal(sbuf_str(&b) + b.len - 3, "07\n");
  sbuf_free(&b);
}

/* Runs report(src) with the sink on a memory stream; returns the text. */
static char *captured(const char *text, void (*report)(diag_source *)) {
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  diag_sink sink = {.out = mem};
  diag_source *src = diag_source_from_string(&sink, "t.athread", text, strlen(text));
  report(src);
  diag_source_free(src);
  fclose(mem);
  return out;
}

static void report_span(diag_source *src) { diag_error(src, (loc){17, 20}, "unknown state '%s'", "X3"); }
static void report_point(diag_source *src) { diag_warning(src, (loc){5, 5}, "test", "here"); }
static void report_tab(diag_source *src) { diag_note(src, (loc){2, 4}, "tab"); }

static void diagnostics_have_location_line_and_caret(void **state) {
  (void)state;
  char *out = captured("thread A {\n  X1 -> X3 : true;\n}\n", report_span);
  assert_string_equal(out, "t.athread:2:7: error: unknown state 'X3'\n  X1 -> X3 : true;\n      ^~~\n");
  free(out);
  out = captured("state", report_point);
  assert_string_equal(out, "t.athread:1:6: warning: here [-Wtest]\nstate\n     ^\n");
  free(out);
  out = captured("\t\tab c", report_tab);
  assert_string_equal(out, "t.athread:1:3: note: tab\n\t\tab c\n\t\t^~\n");
  free(out);
}

static void report_after_cr(diag_source *src) { diag_error(src, (loc){5, 6}, "after"); }
static void report_past_end(diag_source *src) { diag_error(src, (loc){900, 901}, "past"); }

/* Lines are split at '\n' only: a span after a lone '\r' is shown on its
 * line (the '\r' as '?'); "\r\n" ends a line; a span past the end is
 * clipped to it (found by fuzz-cfront: reads past the text). */
static void excerpts_stay_inside_the_text(void **state) {
  (void)state;
  char *out = captured("ab\rcdef\r\nx", report_after_cr);
  assert_string_equal(out, "t.athread:1:6: error: after\nab?cdef\n     ^\n");
  free(out);
  strbuf long_line = {0};
  for (int i = 0; i < 300; i++) sbuf_putc(&long_line, i == 200 ? '\r' : 'a');
  out = captured(sbuf_str(&long_line), report_past_end);
  assert_non_null(strstr(out, "t.athread:1:301: error: past\n...aaa"));
  free(out);
  sbuf_free(&long_line);
}

static void report_many(diag_source *src) {
  for (int i = 0; i < 5; i++) diag_error(src, (loc){0, 1}, "e%d", i);
}

static void error_limit_stops_printing(void **state) {
  (void)state;
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  diag_sink sink = {.out = mem, .max_errors = 2};
  diag_source *src = diag_source_from_string(&sink, "t", "x", 1);
  report_many(src);
  diag_source_free(src);
  fclose(mem);
  assert_int_equal(sink.errors, 5);
  assert_non_null(strstr(out, "e1"));
  assert_null(strstr(out, "e2"));
  assert_non_null(strstr(out, "too many errors"));
  free(out);
}

/* In json format nothing is printed while the run goes on; each message is
 * kept with its span (a note under the error before it), and the error
 * limit's note is kept once, without a file. */
static void json_format_keeps_messages(void **state) {
  (void)state;
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  diag_sink sink = {.out = mem, .max_errors = 2, .format = DIAG_JSON};
  diag_source *src = diag_source_from_string(&sink, "t", "ab\ncd\n", 6);
  diag_error(src, (loc){3, 5}, "first");
  diag_note(src, (loc){0, 0}, "see");
  diag_warning(src, (loc){5, 5}, "test", "point at the line end");
  report_many(src);
  diag_source_free(src);
  fflush(mem);
  assert_int_equal(len, 0);
  assert_int_equal(sink.record_count, 5); /* first, see, point, e0, too many (e1 to e4 are over the limit) */
  diag_record *r = sink.records;
  assert_int_equal(r[0].line, 2), assert_int_equal(r[0].column, 1);
  assert_int_equal(r[0].end_line, 2), assert_int_equal(r[0].end_column, 3);
  assert_int_equal(r[1].parent, 0), assert_int_equal(r[1].end_column, 2);
  assert_int_equal(r[2].line, 2), assert_int_equal(r[2].end_line, 2), assert_int_equal(r[2].end_column, 4);
  assert_string_equal(r[4].message, "too many errors (limit 2); stopping");
  assert_null(r[4].file), assert_int_equal(r[4].level, DIAG_NOTE), assert_int_equal(r[4].parent, -1);
  json_t *all = diag_json(&sink);
  assert_int_equal(json_array_size(all), 4);
  assert_int_equal(json_array_size(json_object_get(json_array_get(all, 0), "notes")), 1);
  json_decref(all);
  diag_sink_free(&sink);
  assert_int_equal(sink.record_count, 0);
  fclose(mem);
  free(out);
}

/* SARIF counts columns in code points (a byte that is not UTF-8 as one);
 * the text form and json count bytes. A quiet sink keeps nothing. */
static void sarif_columns_count_code_points(void **state) {
  (void)state;
  diag_sink quiet = {.format = DIAG_SARIF};
  diag_sink sink = {.out = stderr, .keep = true};
  const char *text = "\"\xC3\xA9\xFF\xF0\x9F\x98\x80\" x";
  diag_source *src = diag_source_from_string(&quiet, "t", text, strlen(text));
  diag_error(src, (loc){9, 10}, "quiet");
  assert_int_equal(quiet.record_count, 0);
  src->sink = &sink;
  sink.format = DIAG_SARIF; /* kept, not printed */
  diag_error(src, (loc){9, 10}, "x");
  diag_error_at(&sink, "athread", "usage");
  diag_source_free(src);
  assert_int_equal(sink.record_count, 2);
  assert_int_equal(sink.records[0].column, 10), assert_int_equal(sink.records[0].column_cp, 6);
  assert_int_equal(sink.records[0].end_column_cp, 7);
  json_t *log = diag_sarif(&sink, &(diag_tool){"athread", "0", NULL}, 2);
  json_t *results = json_object_get(json_array_get(json_object_get(log, "runs"), 0), "results");
  assert_int_equal(json_array_size(results), 2);
  assert_null(json_object_get(json_array_get(results, 1), "locations"));
  json_decref(log);
  diag_sink_free(&sink);
}

/* Bytes that are not UTF-8 become U+FFFD; valid text (up to 4-byte
 * sequences) is kept as it is; overlong forms and surrogates are not valid. */
static void json_text_repairs_utf8(void **state) {
  (void)state;
  struct {
    const char *in, *out;
  } cases[] = {
      {"plain", "plain"},
      {"caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x98\x80"},
      {"x = '\xFF'", "x = '\xEF\xBF\xBD'"},
      {"\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD"},                 /* overlong '/' */
      {"\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"}, /* a surrogate */
      {"end \xE2\x80", "end \xEF\xBF\xBD\xEF\xBF\xBD"},         /* cut short by the end */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *j = json_text(cases[i].in);
    assert_non_null(j);
    assert_string_equal(json_string_value(j), cases[i].out);
    json_decref(j);
  }
}

static void line_and_column_of_offsets(void **state) {
  (void)state;
  diag_sink sink = {.out = stderr};
  diag_source *src = diag_source_from_string(&sink, "t", "ab\ncd\n\nef", 9);
  size_t line, col;
  diag_line_col(src, 0, &line, &col);
  assert_true(line == 1 && col == 1);
  diag_line_col(src, 4, &line, &col);
  assert_true(line == 2 && col == 2);
  diag_line_col(src, 6, &line, &col);
  assert_true(line == 3 && col == 1);
  diag_line_col(src, 9, &line, &col);
  assert_true(line == 4 && col == 3);
  diag_source_free(src);
}

/* One operation of ir_arith: its fault and, when there is none, its value. */
static void check_arith(ir_op op, int64_t a, int64_t b, ir_fault fault, int64_t value) {
  int64_t out = 42;
  assert_int_equal(ir_arith(op, a, b, &out), fault);
  assert_int_equal(out, fault == IR_FAULT_NONE ? value : 0);
}

static void arithmetic_is_exact_or_faults(void **state) {
  (void)state;
  check_arith(OP_DIV, -7, 2, IR_FAULT_NONE, -3);
  check_arith(OP_MOD, -7, 2, IR_FAULT_NONE, -1);
  check_arith(OP_MOD, INT64_MIN, -1, IR_FAULT_NONE, 0);
  check_arith(OP_DIV, INT64_MIN, -1, IR_FAULT_OVERFLOW, 0);
  check_arith(OP_DIV, INT64_MAX, -1, IR_FAULT_NONE, -INT64_MAX);
  check_arith(OP_DIV, 1, 0, IR_FAULT_DIVISION, 0);
  check_arith(OP_MOD, 1, 0, IR_FAULT_DIVISION, 0);
  check_arith(OP_NEG, INT64_MIN, 0, IR_FAULT_OVERFLOW, 0);
  check_arith(OP_NEG, 5, 0, IR_FAULT_NONE, -5);
  check_arith(OP_NOT, 5, 0, IR_FAULT_NONE, 0);
  check_arith(OP_ADD, INT64_MAX, 1, IR_FAULT_OVERFLOW, 0);
  check_arith(OP_SUB, INT64_MIN, 1, IR_FAULT_OVERFLOW, 0);
  check_arith(OP_MUL, INT64_MAX / 2 + 1, 2, IR_FAULT_OVERFLOW, 0);
  check_arith(OP_MUL, -3, 4, IR_FAULT_NONE, -12);
  check_arith(OP_LE, 3, 3, IR_FAULT_NONE, 1);
  check_arith(OP_GT, 3, 3, IR_FAULT_NONE, 0);
  check_arith(OP_GE, 3, 4, IR_FAULT_NONE, 0);
  check_arith(OP_LT, 3, 4, IR_FAULT_NONE, 1);
  check_arith(OP_NE, 3, 4, IR_FAULT_NONE, 1);
  check_arith(OP_EQ, 4, 4, IR_FAULT_NONE, 1);
  check_arith(OP_IFF, 0, 0, IR_FAULT_NONE, 1);
  check_arith(OP_AND, 1, 0, IR_FAULT_NONE, 0);
  check_arith(OP_OR, 1, 0, IR_FAULT_NONE, 1);
  check_arith(OP_IMPLIES, 0, 0, IR_FAULT_NONE, 1);
}

/* One operation of ir_c_arith in type t. */
static void check_c(ir_op op, ir_ctype t, int64_t a, int64_t b, ir_fault fault, int64_t value) {
  int64_t out = 42;
  assert_int_equal(ir_c_arith(op, t, a, b, &out), fault);
  assert_int_equal(out, fault == IR_FAULT_NONE ? value : 0);
}

static const ir_ctype u8 = {8, true}, s8 = {8, false}, s32 = {32, false}, u32 = {32, true}, u64 = {64, true};

static void c_integers_wrap_and_fault(void **state) {
  (void)state;
  check_c(OP_WRAP, u32, -1, 0, IR_FAULT_NONE, 4294967295);
  check_c(OP_WRAP, u8, 300, 0, IR_FAULT_NONE, 44);
  check_c(OP_WRAP, s8, 200, 0, IR_FAULT_NONE, -56);
  check_c(OP_WRAP, s8, -129, 0, IR_FAULT_NONE, 127);
  check_c(OP_WRAP, s32, 2147483648, 0, IR_FAULT_NONE, INT32_MIN);
  check_c(OP_WRAP, u64, -1, 0, IR_FAULT_OVERFLOW, 0); /* 2^64 - 1 is beyond int64_t */
  check_c(OP_BITNOT, u8, 5, 0, IR_FAULT_NONE, 250);
  check_c(OP_BITNOT, s32, 5, 0, IR_FAULT_NONE, -6);
  check_c(OP_BITAND, s32, -4, 7, IR_FAULT_NONE, 4);
  check_c(OP_BITOR, u8, 0xf0, 0x0f, IR_FAULT_NONE, 255);
  check_c(OP_BITXOR, s32, -1, 1, IR_FAULT_NONE, -2);
  check_c(OP_SHL, u8, 0x81, 1, IR_FAULT_NONE, 2);
  check_c(OP_SHL, u32, 1, 31, IR_FAULT_NONE, 2147483648);
  check_c(OP_SHL, s32, 1, 31, IR_FAULT_NONE, INT32_MIN); /* the value; a check reports the overflow */
  check_c(OP_SHR, s32, -7, 1, IR_FAULT_NONE, -4);        /* arithmetic, as GCC does */
  check_c(OP_SHR, u32, 4294967295, 31, IR_FAULT_NONE, 1);
  check_c(OP_SHL, s32, 1, 32, IR_FAULT_SHIFT, 0);
  check_c(OP_SHR, s32, 1, -1, IR_FAULT_SHIFT, 0);
  check_c(OP_ADD, s32, INT64_MAX, 1, IR_FAULT_OVERFLOW, 0); /* the others are ir_arith's */
  assert_true(ir_ctype_min(s8) == -128 && ir_ctype_max(s8) == 127 && ir_ctype_max(u32) == 4294967295);
  assert_true(ir_ctype_holds(u8, 255) && !ir_ctype_holds(u8, 256) && ir_ctype_holds((ir_ctype){0, false}, -9));
  assert_string_equal(ir_ctype_name(u8), "unsigned char");
}

/* An int literal with value v (negative: - literal). */
static ir_expr *lit(arena *a, int64_t v) {
  ir_expr *e = ir_int(a, (loc){0, 0}, arena_printf(a, "%lld", (long long)(v < 0 ? -v : v)));
  e->type = TY_INT;
  if (v >= 0) return e;
  e = ir_unary(a, (loc){0, 0}, OP_NEG, e);
  e->type = TY_INT;
  return e;
}

/* v as an operand: the literal, or (computed) v + 0, which the translation
 * cannot take for a constant. */
static ir_expr *operand(arena *a, int64_t v, bool computed) {
  if (!computed) return lit(a, v);
  ir_expr *e = ir_binary(a, (loc){0, 0}, OP_ADD, lit(a, v), lit(a, 0));
  e->type = TY_INT;
  return e;
}

/* The Z3 translation of op in t on a and b (literals, or computed: the
 * translations for constant operands and for any two differ), evaluated. */
static bool z3_value(smt *s, arena *ar, ir_op op, ir_ctype t, int64_t a, int64_t b, bool computed, int64_t *out) {
  bool unary = op == OP_WRAP || op == OP_BITNOT;
  ir_expr *x = operand(ar, a, computed), *y = operand(ar, b, computed);
  ir_expr *e = unary ? ir_unary(ar, (loc){0, 0}, op, x) : ir_binary(ar, (loc){0, 0}, op, x, y);
  e->type = TY_INT;
  e->ity = t;
  smt_env env = {0};
  Z3_ast v = smt_keep(s, Z3_simplify(smt_z3(s), smt_expr(s, e, &env)));
  return Z3_get_numeral_int64(smt_z3(s), v, out);
}

/* The Z3 translation agrees with ir_c_arith (prog_eval's) on every operator
 * of C's integers, for values across each type, shift amounts included. */
static void z3_agrees_with_c_arith(void **state) {
  (void)state;
  static const ir_ctype types[] = {{8, true},  {8, false},  {16, false}, {16, true},
                                   {32, true}, {32, false}, {64, false}};
  static const int64_t values[] = {0,  1,  2,    3,     7,          127,           128,         255,
                                   -1, -2, -128, 65535, 2147483647, -2147483648LL, 5000000000LL};
  static const ir_op ops[] = {OP_WRAP, OP_BITNOT, OP_BITAND, OP_BITOR, OP_BITXOR, OP_SHL, OP_SHR};
  smt *s = smt_new();
  arena *ar = arena_new();
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
      for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        for (size_t j = 0; j < sizeof values / sizeof *values; j++) {
          int64_t a = values[i], b = values[j], want, got;
          bool operands_in = ops[o] == OP_WRAP || (ir_ctype_holds(types[t], a) && ir_ctype_holds(types[t], b));
          if (ops[o] == OP_SHL || ops[o] == OP_SHR) operands_in = ir_ctype_holds(types[t], a);
          if (!operands_in || ir_c_arith(ops[o], types[t], a, b, &want) != IR_FAULT_NONE) continue;
          for (int computed = 0; computed < 2; computed++) {
            assert_true(z3_value(s, ar, ops[o], types[t], a, b, computed, &got));
            if (got != want)
              fail_msg("%s in %s on %lld, %lld (%s): Z3 %lld, ir_c_arith %lld", ir_op_text(ops[o]),
                       ir_ctype_name(types[t]), (long long)a, (long long)b, computed ? "computed" : "literals",
                       (long long)got, (long long)want);
          }
        }
  arena_free(ar);
  smt_free(s);
}

/* An ill-sorted term (an int as an ite's condition) is a Z3 error: it marks
 * the solver failed, and what is built on it next is still a term (Z3 does
 * not survive a NULL argument; this crashed once). */
static void z3_errors_fail_without_crashing(void **state) {
  (void)state;
  smt *s = smt_new();
  Z3_ast one = smt_int(s, 1), bad = smt_ite(s, one, one, one);
  assert_true(smt_failed(s));
  assert_non_null(bad);
  assert_non_null(smt_ite(s, smt_bool(s, true), bad, smt_not(s, bad)));
  smt_free(s);
}

static int64_t value_in(smt *s, Z3_model m, Z3_ast t) {
  int64_t v = 0;
  assert_true(smt_model_value(s, m, t, &v));
  return v;
}

/* smt_small_model: each input as close to 0 (or to its near term) as the
 * formula allows, in order, with the kept term (the path) as in the model
 * given; sv as it was after; and the model given when no time is left. */
static void small_models_keep_the_formula(void **state) {
  (void)state;
  smt *s = smt_new();
  Z3_context c = smt_z3(s);
  Z3_solver sv = smt_solver(s, 0, false);
  Z3_ast x = smt_var(s, "x", false), y = smt_var(s, "y", false), z = smt_var(s, "z", false);
  Z3_ast w = smt_var(s, "w", false), sel = smt_var(s, "sel", false), sum[2] = {x, y};
  Z3_solver_assert(c, sv, smt_eq(s, smt_add(s, 2, sum), smt_int(s, 1000)));
  Z3_solver_assert(c, sv, smt_implies(s, smt_eq(s, sel, smt_int(s, 0)), smt_le(s, smt_int(s, 3), x)));
  Z3_solver_assert(c, sv, smt_implies(s, smt_eq(s, sel, smt_int(s, 1)), smt_le(s, x, smt_int(s, -3))));
  Z3_solver_assert(c, sv, smt_le(s, smt_int(s, 8), z));
  Z3_solver_assert(c, sv, smt_eq(s, w, smt_int(s, 20)));
  Z3_solver_push(c, sv); /* a model with large values, on path 1 */
  Z3_solver_assert(c, sv, smt_eq(s, sel, smt_int(s, 1)));
  Z3_solver_assert(c, sv, smt_eq(s, x, smt_int(s, -700)));
  Z3_solver_assert(c, sv, smt_eq(s, z, smt_int(s, 99)));
  assert_int_equal(Z3_solver_check(c, sv), Z3_L_TRUE);
  Z3_model m = Z3_solver_get_model(c, sv);
  Z3_model_inc_ref(c, m);
  Z3_solver_pop(c, sv, 1);
  Z3_ast inputs[3] = {x, y, z}, near[3] = {NULL, NULL, w};
  smt_small want = {inputs, near, 3, &sel, 1};
  Z3_model small = smt_small_model(s, sv, m, 0, &want);
  assert_int_equal(value_in(s, small, sel), 1);
  assert_int_equal(value_in(s, small, x), -3);
  assert_int_equal(value_in(s, small, y), 1003);
  assert_int_equal(value_in(s, small, z), 20);
  assert_int_equal(Z3_solver_get_num_scopes(c, sv), 0);
  Z3_model late = smt_small_model(s, sv, m, smt_now() - 1, &want);
  assert_ptr_equal(late, m);
  assert_false(smt_failed(s));
  Z3_model_dec_ref(c, late);
  Z3_model_dec_ref(c, small);
  Z3_model_dec_ref(c, m);
  Z3_solver_dec_ref(c, sv);
  smt_free(s);
}

/* FIPS 180-4's examples, and lengths around the padding's edges (55, 56, 64 bytes). */
static void sha256_matches_the_standard(void **state) {
  (void)state;
  char hex[65];
  sha256_hex("", 0, hex);
  assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  sha256_hex("abc", 3, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes */
  sha256_hex(two, strlen(two), hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char a64[65];
  memset(a64, 'a', 64);
  sha256_hex(a64, 55, hex);
  assert_string_equal(hex, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  sha256_hex(a64, 64, hex);
  assert_string_equal(hex, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

/* Events print at once under the head; phases only once an interval passed,
 * and a timer's beat does not repeat a line within its floor; off is silent. */
static void progress_lines_are_rate_limited(void **state) {
  (void)state;
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  progress p;
  progress_init(&p, out, "conform");
  p.interval = 3600;
  progress_phase(&p, "bounded model checking, depth %u", 3u); /* not due */
  progress_context(&p, "thread %s (%d/%d)", "A", 1, 2);
  progress_say(&p, "checking %s", "a");
  progress_beat(&p); /* the context cleared the phase */
  p.interval = 0;
  progress_phase(&p, "Spacer");
  progress_beat(&p); /* within the floor of a beat */
  progress_context(&p, NULL);
  progress_say(&p, "done");
  fclose(out);
  assert_non_null(strstr(text, "conform: thread A (1/2): checking a\nconform: thread A (1/2): Spacer ("));
  assert_null(strstr(text, "depth 3"));
  assert_null(strstr(strstr(text, "Spacer") + 1, "Spacer")); /* one Spacer line */
  assert_non_null(strstr(text, " s)\nconform: done\n"));
  free(text);
  progress_free(&p);
  progress off;
  progress_init(&off, NULL, "compose");
  off.interval = 0;
  progress_phase(&off, "x");
  progress_say(&off, "y");
  progress_beat(NULL);
  assert_false(progress_on(&off) || progress_on(NULL) || progress_due(&off));
  progress_free(&off);
}

/* ---------------------------------------------------------------- smt-print */

/* The conjuncts smt_print_conjuncts gives an SMT-LIB formula over x, y (Int),
 * b (Bool) and T (Int: a control state, A to D), joined by " ; "; "(none)"
 * when it gives none. */
static char *printed(const char *formula) {
  smt *s = smt_new();
  Z3_context c = smt_z3(s);
  Z3_ast terms[4] = {smt_var(s, "x", false), smt_var(s, "y", false), smt_var(s, "b", true), smt_var(s, "T", false)};
  Z3_symbol names[4];
  Z3_func_decl decls[4];
  for (int i = 0; i < 4; i++) {
    decls[i] = Z3_get_app_decl(c, Z3_to_app(c, terms[i]));
    names[i] = Z3_get_decl_name(c, decls[i]);
  }
  char text[512];
  snprintf(text, sizeof text, "(assert %s)", formula);
  Z3_ast_vector v = Z3_parse_smtlib2_string(c, text, 0, NULL, NULL, 4, names, decls);
  Z3_ast_vector_inc_ref(c, v);
  Z3_ast f = smt_keep(s, Z3_ast_vector_get(c, v, 0));
  Z3_ast_vector_dec_ref(c, v);
  static const char *const states[] = {"A", "B", "C", "D"};
  smt_leaf leaves[] = {{terms[0], "x", NULL, 0},
                       {terms[1], "old(y)", NULL, 0},
                       {terms[2], "F[Work]", NULL, 0},
                       {terms[3], "T[1]", states, 4}};
  smt_texts out = {0};
  strbuf b = {0};
  if (!smt_print_conjuncts(s, f, leaves, 4, &out)) sbuf_puts(&b, "(none)");
  vec_foreach(&out, i) sbuf_printf(&b, "%s%s", i ? " ; " : "", out.items[i]);
  smt_texts_free(&out);
  smt_free(s);
  return sbuf_take(&b);
}

static void expect_printed(const char *formula, const char *want) {
  char *got = printed(formula);
  if (strcmp(got, want) != 0) fail_msg("%s printed as '%s', expected '%s'", formula, got, want);
  free(got);
}

/* Every rewrite keeps the meaning: negations flip comparisons, negative
 * terms move across, control states become the states a comparison allows
 * (as a number inside arithmetic), and what has no spec syntax gives none. */
static void smt_prints_in_the_spec_syntax(void **state) {
  (void)state;
  expect_printed("(and (not (<= x 1)) (and b (not b)))", "x > 1 ; F[Work] ; !F[Work]");
  expect_printed("(<= (+ x (* (- 1) y)) 0)", "x <= old(y)");
  expect_printed("(>= (+ x (* (- 2) y) 3) 0)", "x + 3 >= 2 * old(y)");
  expect_printed("(not (<= (+ x (* (- 1) y)) (- 2)))", "x > old(y) - 2");
  expect_printed("(<= x (- 3))", "x <= -3");
  expect_printed("(or (>= T 2) (= T 0))", "T[1]@C || T[1]@D || T[1]@A");
  expect_printed("(not (>= T 3))", "!T[1]@D");
  expect_printed("(and (>= T 0) (> T 5) (<= 1 T))", "true ; false ; !T[1]@A");
  expect_printed("(distinct T 1)", "!T[1]@B");
  expect_printed("(= (+ T x) 2)", "(T[1]@A ? 0 : T[1]@B ? 1 : T[1]@C ? 2 : 3) + x == 2");
  expect_printed("(=> b (= x (ite b x (- y))))", "!F[Work] || x == (F[Work] ? x : -old(y))");
  expect_printed("(= b (<= x 0))", "F[Work] == (x <= 0)");
  expect_printed("(< (* 3 (- x y)) 7)", "3 * (x - old(y)) < 7");
  expect_printed("(not (and b (or b (< x y))))", "!(F[Work] && (F[Work] || x < old(y)))");
  expect_printed("true", "true");
  expect_printed("(> (div x 2) 0)", "(none)");
  expect_printed("(and b (= (mod x 2) 0))", "(none)");
  expect_printed("(exists ((z Int)) (> z x))", "(none)");
}

/* Threads that pass a barrier many times: each sees every write made before
 * the barrier by all of them, exactly one is told it is the last of each
 * pass, and more threads than cores (so some sleep past the spin) still
 * pass. */
enum { BARRIER_PASSES = 2000, BARRIER_THREADS_MAX = 6 };

typedef struct barrier_run {
  barrier b;
  unsigned threads;
  atomic_uint written; /* one per thread per pass */
  atomic_uint lasts;   /* passes whose last thread was told so */
  atomic_uint wrong;   /* reads that missed a write */
} barrier_run;

static void *barrier_party(void *arg) {
  barrier_run *r = arg;
  for (unsigned pass = 1; pass <= BARRIER_PASSES; pass++) {
    atomic_fetch_add(&r->written, 1);
    if (barrier_wait(&r->b)) atomic_fetch_add(&r->lasts, 1);
    if (atomic_load(&r->written) < pass * r->threads) atomic_fetch_add(&r->wrong, 1);
    barrier_wait(&r->b); /* none writes for the next pass before all have read */
  }
  return NULL;
}

static void barrier_passes(unsigned threads) {
  barrier_run r = {.threads = threads};
  barrier_init(&r.b, threads);
  pthread_t t[BARRIER_THREADS_MAX];
  for (unsigned i = 1; i < threads; i++) assert_int_equal(pthread_create(&t[i], NULL, barrier_party, &r), 0);
  barrier_party(&r);
  for (unsigned i = 1; i < threads; i++) pthread_join(t[i], NULL);
  barrier_destroy(&r.b);
  assert_int_equal(atomic_load(&r.written), BARRIER_PASSES * threads);
  assert_int_equal(atomic_load(&r.lasts), BARRIER_PASSES);
  assert_int_equal(atomic_load(&r.wrong), 0);
}

static void barriers_let_all_pass_together(void **state) {
  (void)state;
  barrier_passes(1);
  barrier_passes(2);
  barrier_passes(BARRIER_THREADS_MAX);
}

/* The serial section of barrier_wait_then writes a plain int; every thread
 * must read the new value after the wait. */
typedef struct serial_run {
  barrier b;
  unsigned value;    /* written only in the serial section */
  atomic_uint wrong; /* reads that missed it */
} serial_run;

static void bump(void *ctx) { ((serial_run *)ctx)->value++; }

static void *serial_party(void *arg) {
  serial_run *r = arg;
  for (unsigned pass = 1; pass <= BARRIER_PASSES; pass++) {
    barrier_wait_then(&r->b, bump, r);
    if (r->value != pass) atomic_fetch_add(&r->wrong, 1);
    barrier_wait(&r->b); /* none bumps for the next pass before all have read */
  }
  return NULL;
}

static void barriers_run_the_serial_section_once_before_all_leave(void **state) {
  (void)state;
  for (unsigned threads = 1; threads <= BARRIER_THREADS_MAX; threads *= 2) {
    serial_run r = {.value = 0};
    barrier_init(&r.b, threads);
    pthread_t t[BARRIER_THREADS_MAX];
    for (unsigned i = 1; i < threads; i++) assert_int_equal(pthread_create(&t[i], NULL, serial_party, &r), 0);
    serial_party(&r);
    for (unsigned i = 1; i < threads; i++) pthread_join(t[i], NULL);
    barrier_destroy(&r.b);
    assert_int_equal(r.value, BARRIER_PASSES);
    assert_int_equal(atomic_load(&r.wrong), 0);
  }
}

int run_core_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(interned_strings_compare_by_pointer),
      cmocka_unit_test(arena_blocks_are_zeroed_and_aligned),
      cmocka_unit_test(symtab_maps_and_refuses_duplicates),
      cmocka_unit_test(heap_vectors_grow),
      cmocka_unit_test(strbuf_formats),
      cmocka_unit_test(strbuf_lines),
      cmocka_unit_test(diagnostics_have_location_line_and_caret),
      cmocka_unit_test(error_limit_stops_printing),
      cmocka_unit_test(json_format_keeps_messages),
      cmocka_unit_test(sarif_columns_count_code_points),
      cmocka_unit_test(excerpts_stay_inside_the_text),
      cmocka_unit_test(line_and_column_of_offsets),
      cmocka_unit_test(json_text_repairs_utf8),
      cmocka_unit_test(sha256_matches_the_standard),
      cmocka_unit_test(progress_lines_are_rate_limited),
      cmocka_unit_test(arithmetic_is_exact_or_faults),
      cmocka_unit_test(c_integers_wrap_and_fault),
      cmocka_unit_test(z3_agrees_with_c_arith),
      cmocka_unit_test(z3_errors_fail_without_crashing),
      cmocka_unit_test(smt_prints_in_the_spec_syntax),
      cmocka_unit_test(small_models_keep_the_formula),
      cmocka_unit_test(barriers_let_all_pass_together),
      cmocka_unit_test(barriers_run_the_serial_section_once_before_all_leave),
  };
  return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
