/* spec-lang/parser.y -- grammar of the .athread language (reference sections
 * 3-6). A pure, reentrant parser with locations; actions only build AST nodes
 * through the ast_* constructors; every message goes through core/diag. */
%define api.pure full
%define api.prefix {sl_}
%define api.location.type {loc}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {parse_ctx *ctx}

%code requires {
#include "parse-ctx.h"
}

%code provides {
int sl_lex(SL_STYPE *yylval, SL_LTYPE *yylloc, void *scanner);
}

%code {
#include <string.h>

#define A (ctx->spec->arena)
#define S (ctx->spec)
/* The span of a rule runs from its first to its last symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                             \
  do {                                                          \
    if (N) {                                                    \
      (Cur).start = YYRHSLOC(Rhs, 1).start;                     \
      (Cur).end = YYRHSLOC(Rhs, N).end;                         \
    } else {                                                    \
      (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;           \
    }                                                           \
  } while (0)

static void sl_error(const SL_LTYPE *at, void *scanner, parse_ctx *ctx, const char *msg);
}

%union {
  const char *name;
  ir_expr *expr;
  ast_init init;
  ast_type type;
  ast_thread *thread;
  ast_state_decl *states;
  ast_edge *edge;
  ast_target target;
  ast_system *system;
  bool flag;
}

%token END 0 "end of file"
%token <name> IDENT "identifier"
%token <name> PRIMED "primed identifier"
%token <name> INTEGER "integer"
%token <name> STRING "string"
%token INVALID_CHAR "invalid character"
%token KW_BINDS "'binds'" KW_FORALL "'forall'" KW_EXISTS "'exists'" KW_IN "'in'"
%token KW_CONST "'const'" KW_SHARED "'shared'" KW_THREAD "'thread'" KW_SYSTEM "'system'"
%token KW_STATE "'state'" KW_INIT "'init'" KW_ASSERT "'assert'" KW_INVARIANT "'invariant'"
%token KW_IMPLEMENTS "'implements'" KW_WHEN "'when'" KW_DO "'do'" KW_TRUE "'true'"
%token KW_FALSE "'false'" KW_INT "'int'" KW_BOOL "'bool'" KW_COUNT "'count'" KW_TID "'tid'"
%token ARROW "'->'" ASSIGN "':='" IFF "'<==>'" IMPLIES "'==>'" EQ "'=='" NE "'!='"
%token LE "'<='" GE "'>='" AND "'&&'" OR "'||'" DOTDOT "'..'"

%right '?' ':'
%left IFF
%right IMPLIES
%left OR
%left AND
%left EQ NE
%left '<' LE '>' GE
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <expr> expr primary opt_assert opt_size
%type <init> opt_init init_list
%type <type> type
%type <thread> thread_head thread_body
%type <states> state_names
%type <edge> edge_body assigns
%type <target> target
%type <system> system_head system_body
%type <name> opt_impl opt_label opt_binding
%type <flag> opt_init_kw

%%

spec
  : %empty
  | spec decl
  ;

decl
  : KW_CONST IDENT '=' expr semi             { ast_add_const(S, @$, $2, @2, $4); }
  | KW_SHARED type IDENT opt_size opt_init opt_binding semi
                                            { ast_add_shared(S, @$, $2, $3, @3, $4, $5); ast_bind_shared(S, $6, @6); }
  | thread_body '}'                         { ast_add_thread(S, @$, $1, $1->impl, $1->impl_at, @2.start); }
  | system_body '}'                         { ast_add_system(S, @$, $1, $1->name, $1->name_at, @2.start); }
  | KW_THREAD error '}'
  | KW_SYSTEM error '}'
  | error ';'
  ;

type
  : KW_BOOL                                 { $$ = ast_type_make(TYPE_BOOL, @$, NULL, NULL); }
  | KW_INT                                  { $$ = ast_type_make(TYPE_INT, @$, NULL, NULL); }
  | KW_INT '[' expr DOTDOT expr ']'         { $$ = ast_type_make(TYPE_RANGE, @$, $3, $5); }
  ;

/* The length of an array: shared int a[N]. */
opt_size
  : %empty                                  { $$ = NULL; }
  | '[' expr ']'                            { $$ = $2; }
  ;

/* One value (for every element of an array), or one per element: {1, 2}. */
opt_init
  : %empty                                  { $$ = (ast_init){0}; }
  | '=' expr                                { $$ = (ast_init){0}; $$.value = $2; }
  | '=' '{' init_list '}'                   { $$ = $3; $$.list_at = @$; }
  ;

init_list
  : expr                                    { $$ = (ast_init){0}; ast_init_add(S, &$$, $1); }
  | init_list ',' expr                      { $$ = $1; ast_init_add(S, &$$, $3); }
  ;

/* The C object a shared variable stands for, when its name differs: a
 * global, a field (ext.PendingIo) or an element (slots[2]); the lexer reads
 * the whole path as one name. */
opt_binding
  : %empty                                  { $$ = NULL; }
  | KW_BINDS IDENT                          { $$ = $2; @$ = @2; }
  ;

/* A forgotten ';' is reported once and parsing goes on as if it were there. */
semi
  : ';'
  | error
  ;

/* ---------------------------------------------------------------- threads */

thread_head
  : KW_THREAD IDENT opt_impl '{'            { $$ = ast_thread_new(S, $2, @2); $$->impl = $3; $$->impl_at = @3; }
  ;

opt_impl
  : %empty                                  { $$ = NULL; }
  | KW_IMPLEMENTS IDENT                     { $$ = $2; @$ = @2; }
  ;

thread_body
  : thread_head
  | thread_body thread_item                 { $$ = $1; }
  ;

thread_item
  : KW_INVARIANT expr semi                  { ast_thread_add_invariant(S, $<thread>0, @$, $2); }
  | opt_init_kw KW_STATE state_names opt_assert semi
                                            { ast_thread_add_states(S, $<thread>0, @$, $1, $3, $4); }
  | IDENT ARROW IDENT opt_label edge_body semi
                                            { ast_thread_add_edge(S, $<thread>0, @$, $1, @1, $3, @3, $4, @4, $5); }
  | error ';'
  ;

opt_init_kw
  : %empty                                  { $$ = false; }
  | KW_INIT                                 { $$ = true; }
  ;

state_names
  : IDENT                                   { $$ = ast_state_decl_new(S, $1, @1); }
  | state_names ',' IDENT                   { $$ = $1; ast_state_decl_add(S, $$, $3, @3); }
  ;

opt_assert
  : %empty                                  { $$ = NULL; }
  | KW_ASSERT expr                          { $$ = $2; }
  ;

opt_label
  : %empty                                  { $$ = NULL; }
  | STRING                                  { $$ = $1; }
  ;

edge_body
  : ':' expr                                { $$ = ast_edge_new(S, EDGE_RELATION); $$->relation = $2; }
  | KW_WHEN expr                            { $$ = ast_edge_new(S, EDGE_COMMAND); $$->guard = $2; }
  | KW_WHEN expr KW_DO assigns              { $$ = $4; $$->guard = $2; }
  | KW_DO assigns                           { $$ = $2; }
  ;

assigns
  : target ASSIGN expr                      { $$ = ast_edge_new(S, EDGE_COMMAND); ast_edge_add_assign(S, $$, $1, $3); }
  | target ASSIGN '*'                       { $$ = ast_edge_new(S, EDGE_COMMAND); ast_edge_add_assign(S, $$, $1, NULL); }
  | assigns ',' target ASSIGN expr          { $$ = $1; ast_edge_add_assign(S, $$, $3, $5); }
  | assigns ',' target ASSIGN '*'           { $$ = $1; ast_edge_add_assign(S, $$, $3, NULL); }
  ;

/* What an assignment writes: a shared variable or an array element. */
target
  : IDENT                                   { $$ = (ast_target){$1, @1, NULL, @$}; }
  | IDENT '[' expr ']'                      { $$ = (ast_target){$1, @1, $3, @$}; }
  ;

/* ---------------------------------------------------------------- systems */

system_head
  : KW_SYSTEM IDENT '{'                     { $$ = ast_system_new(S); $$->name = $2; $$->name_at = @2; }
  ;

system_body
  : system_head
  | system_body system_item                 { $$ = $1; }
  ;

system_item
  : IDENT semi                              { ast_system_add_instance(S, $<system>0, @$, $1, @1, NULL); }
  | IDENT '[' expr ']' semi                 { ast_system_add_instance(S, $<system>0, @$, $1, @1, $3); }
  | KW_INIT expr semi                       { ast_system_add_expr(S, $<system>0, @$, SYS_INIT, $2); }
  | KW_INVARIANT expr semi                  { ast_system_add_expr(S, $<system>0, @$, SYS_INVARIANT, $2); }
  | error ';'
  ;

/* ---------------------------------------------------------------- expressions */

expr
  : expr '?' expr ':' expr                  { $$ = ir_ite(A, @$, $1, $3, $5); }
  | expr IFF expr                           { $$ = ir_binary(A, @$, OP_IFF, $1, $3); }
  | expr IMPLIES expr                       { $$ = ir_binary(A, @$, OP_IMPLIES, $1, $3); }
  | expr OR expr                            { $$ = ir_binary(A, @$, OP_OR, $1, $3); }
  | expr AND expr                           { $$ = ir_binary(A, @$, OP_AND, $1, $3); }
  | expr EQ expr                            { $$ = ir_binary(A, @$, OP_EQ, $1, $3); }
  | expr NE expr                            { $$ = ir_binary(A, @$, OP_NE, $1, $3); }
  | expr '<' expr                           { $$ = ir_binary(A, @$, OP_LT, $1, $3); }
  | expr LE expr                            { $$ = ir_binary(A, @$, OP_LE, $1, $3); }
  | expr '>' expr                           { $$ = ir_binary(A, @$, OP_GT, $1, $3); }
  | expr GE expr                            { $$ = ir_binary(A, @$, OP_GE, $1, $3); }
  | expr '+' expr                           { $$ = ir_binary(A, @$, OP_ADD, $1, $3); }
  | expr '-' expr                           { $$ = ir_binary(A, @$, OP_SUB, $1, $3); }
  | expr '*' expr                           { $$ = ir_binary(A, @$, OP_MUL, $1, $3); }
  | expr '/' expr                           { $$ = ir_binary(A, @$, OP_DIV, $1, $3); }
  | expr '%' expr                           { $$ = ir_binary(A, @$, OP_MOD, $1, $3); }
  | '!' expr %prec UNARY                    { $$ = ir_unary(A, @$, OP_NOT, $2); }
  | '-' expr %prec UNARY                    { $$ = ir_unary(A, @$, OP_NEG, $2); }
  | KW_FORALL IDENT KW_IN expr DOTDOT expr ':' expr
                                            { $$ = ir_quant(A, @$, OP_AND, $2, @2, $4, $6, $8); }
  | KW_EXISTS IDENT KW_IN expr DOTDOT expr ':' expr
                                            { $$ = ir_quant(A, @$, OP_OR, $2, @2, $4, $6, $8); }
  | primary
  ;

primary
  : KW_TRUE                                 { $$ = ir_bool(A, @$, true); }
  | KW_FALSE                                { $$ = ir_bool(A, @$, false); }
  | INTEGER                                 { $$ = ir_int(A, @$, $1); }
  | IDENT                                   { $$ = ir_name(A, @$, $1, false); }
  | PRIMED                                  { $$ = ir_name(A, @$, $1, true); }
  | KW_TID                                  { $$ = ir_tid(A, @$); }
  | '(' expr ')'                            { $$ = $2; }
  | '(' error ')'                           { $$ = ir_bool(A, @$, true); }
  | KW_COUNT '(' IDENT '@' IDENT ')'        { $$ = ir_count(A, @$, $3, @3, $5, @5); }
  | IDENT '[' expr ']' '@' IDENT            { $$ = ir_at(A, @$, $1, @1, $3, $6, @6); }
  | IDENT '[' expr ']'                      { $$ = ir_index(A, @$, $1, @1, false, $3); }
  | PRIMED '[' expr ']'                     { $$ = ir_index(A, @$, $1, @1, true, $3); }
  ;

%%

/* ---------------------------------------------------------------- syntax errors */

/* Bison calls this only when its stack is exhausted (syntax errors go
 * through yyreport_syntax_error). */
static void sl_error(const SL_LTYPE *at, void *scanner, parse_ctx *ctx, const char *msg) {
  (void)scanner;
  diag_error(ctx->spec->src, *at, "%s: the text is nested too deeply", msg);
}

/* Appends a token's name as users read it: 'state', identifier 'x'. */
static void describe_token(strbuf *out, const parse_ctx *ctx, yysymbol_kind_t sym, const SL_LTYPE *at) {
  sbuf_puts(out, yysymbol_name(sym));
  if (!at) return;
  const char *text = ctx->spec->src->text + at->start;
  size_t len = at->end - at->start;
  if ((sym == YYSYMBOL_IDENT || sym == YYSYMBOL_INTEGER || sym == YYSYMBOL_PRIMED) && len <= 40)
    sbuf_printf(out, " '%.*s'", (int)len, text);
}

static bool expects(const yysymbol_kind_t *expected, int n, yysymbol_kind_t sym) {
  for (int i = 0; i < n; i++)
    if (expected[i] == sym) return true;
  return false;
}

/* True if sym is the token written as text ("';'"): names of character tokens. */
static bool is_token(yysymbol_kind_t sym, const char *text) { return strcmp(yysymbol_name(sym), text) == 0; }

static bool expects_token(const yysymbol_kind_t *expected, int n, const char *text) {
  for (int i = 0; i < n; i++)
    if (is_token(expected[i], text)) return true;
  return false;
}

static bool is_keyword(yysymbol_kind_t sym) {
  return (sym >= YYSYMBOL_KW_CONST && sym <= YYSYMBOL_KW_TID) || (sym >= YYSYMBOL_KW_BINDS && sym <= YYSYMBOL_KW_IN);
}

/* A hint for mistakes that the expected-token list explains badly, or NULL. */
static const char *hint_for(yysymbol_kind_t got, const yysymbol_kind_t *expected, int n) {
  if (is_token(got, "'='"))
    return "'=' only defines consts and initial values; compare with '==', assign with ':=' in a 'do' part";
  bool declaration = got == YYSYMBOL_KW_CONST || got == YYSYMBOL_KW_SHARED || got == YYSYMBOL_KW_THREAD || got == YYSYMBOL_KW_SYSTEM;
  if (declaration && expects(expected, n, YYSYMBOL_KW_STATE))
    return "consts, shared variables, threads and systems are declared outside threads; is a '}' missing?";
  if (is_keyword(got) && n == 1 && expected[0] == YYSYMBOL_IDENT) return "a keyword cannot be used as a name";
  if (is_token(got, "':'") && expects(expected, n, YYSYMBOL_KW_DO))
    return "an edge has either ': RELATION' or 'when GUARD do ASSIGNMENTS', not both";
  return NULL;
}

static size_t line_of(const parse_ctx *ctx, uint32_t offset) {
  size_t line, col;
  diag_line_col(ctx->spec->src, offset, &line, &col);
  return line;
}

/* Where the missing token goes: right after the previous token when the
 * offending one starts a later line (a forgotten ';'), else at the offender. */
static loc error_site(const parse_ctx *ctx, const SL_LTYPE *at, bool wants_semicolon) {
  if (wants_semicolon && ctx->prev_end < at->start && line_of(ctx, ctx->prev_end) < line_of(ctx, at->start))
    return (loc){ctx->prev_end, ctx->prev_end};
  return *at;
}

/* Appends "A, B or C" for the expected tokens. */
static void list_expected(strbuf *msg, const parse_ctx *ctx, const yysymbol_kind_t *expected, int n) {
  for (int i = 0; i < n; i++) {
    if (i) sbuf_puts(msg, i == n - 1 ? " or " : ", ");
    describe_token(msg, ctx, expected[i], NULL);
  }
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner, parse_ctx *ctx) {
  (void)scanner;
  yysymbol_kind_t got = yypcontext_token(yyctx);
  const SL_LTYPE *at = yypcontext_location(yyctx);
  if (got == YYSYMBOL_YYEOF && ctx->lex_failed_at_eof) return 0;
  if (got == YYSYMBOL_INVALID_CHAR) return 0; /* the lexer said what is wrong */
  yysymbol_kind_t expected[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
  bool wants_semicolon = expects_token(expected, n, "';'");
  strbuf msg = {0};
  strbuf seen = {0};
  describe_token(&seen, ctx, got, at);
  if (wants_semicolon && error_site(ctx, at, true).start != at->start) {
    sbuf_printf(&msg, "expected ';' before %s", sbuf_str(&seen));
  } else if (n == 1) {
    sbuf_puts(&msg, "expected ");
    list_expected(&msg, ctx, expected, 1);
    sbuf_printf(&msg, " before %s", sbuf_str(&seen));
  } else if (expects(expected, n, YYSYMBOL_KW_TRUE)) {
    sbuf_printf(&msg, "expected an expression before %s", sbuf_str(&seen));
  } else if (n > 1 && n <= 4) {
    sbuf_printf(&msg, "unexpected %s, expected ", sbuf_str(&seen));
    list_expected(&msg, ctx, expected, n);
  } else {
    sbuf_printf(&msg, "unexpected %s", sbuf_str(&seen));
  }
  const char *hint = hint_for(got, expected, n);
  if (hint) sbuf_printf(&msg, " (%s)", hint);
  diag_error(ctx->spec->src, error_site(ctx, at, wants_semicolon), "%s", sbuf_str(&msg));
  if (got == YYSYMBOL_YYEOF && ctx->open_brace_count > 0) {
    int innermost = (ctx->open_brace_count < PARSE_MAX_NESTING ? ctx->open_brace_count : PARSE_MAX_NESTING) - 1;
    diag_note(ctx->spec->src, ctx->open_braces[innermost], "this '{' is never closed");
  }
  sbuf_free(&msg);
  sbuf_free(&seen);
  return 0;
}
