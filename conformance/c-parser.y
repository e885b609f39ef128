/* conformance/c-parser.y -- grammar of preprocessed C, wide enough to parse
 * ordinary C and say precisely what lies outside the subset of reference
 * section 7. A pure, reentrant parser with locations in the original files;
 * actions only build nodes through the cfe_* constructors (c-ast.c), which
 * mark unsupported constructs for lowering to report; every message goes
 * through core/diag. */
%define api.pure full
%define api.prefix {cfe_yy}
%define api.location.type {cfe_pos}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {cfe_ctx *ctx}

%code requires {
#include "c-ast.h"
typedef struct cfe_lit {
  int64_t value; /* the constant's value */
  bool big;      /* it does not fit in 63 bits */
} cfe_lit;
}

%code provides {
int cfe_yylex(CFE_YYSTYPE *yylval, CFE_YYLTYPE *yylloc, void *scanner);
}

%code {
#include <string.h>

/* The span of a rule runs from its first to its last symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                      \
  do {                                                                   \
    if (N) (Cur) = cfe_span(YYRHSLOC(Rhs, 1), YYRHSLOC(Rhs, N));         \
    else (Cur) = (cfe_pos){YYRHSLOC(Rhs, 0).file, {YYRHSLOC(Rhs, 0).at.end, YYRHSLOC(Rhs, 0).at.end}}; \
  } while (0)

static void cfe_yyerror(const CFE_YYLTYPE *at, void *scanner, cfe_ctx *ctx, const char *msg);
#define BAD(at, ...) cfe_bad_expr(ctx, (at), NULL, __VA_ARGS__)
}

%union {
  const char *name;
  cfe_lit lit;
  cfe_expr *expr;
  cfe_exprs *exprs;
  cfe_stmt *stmt;
  cfe_specs specs;
  cfe_type type;
  cfe_declarator *dtor;
  cfe_decl *decl;
  cfe_decls *decls;
  cfe_fields *fields;
  cfe_op op;
  bool flag;
  int stars;
}

%token END 0 "end of file"
%token <name> IDENT "identifier"
%token <name> TYPE_NAME "type name"
%token <lit> INTEGER "integer constant"
%token FLOATING "floating-point constant"
%token STRING "string literal"
%token INVALID_CHAR "invalid character"
%token KW_AUTO "'auto'" KW_BREAK "'break'" KW_CASE "'case'" KW_CHAR "'char'" KW_CONST "'const'"
%token KW_CONTINUE "'continue'" KW_DEFAULT "'default'" KW_DO "'do'" KW_DOUBLE "'double'"
%token KW_ELSE "'else'" KW_ENUM "'enum'" KW_EXTERN "'extern'" KW_FLOAT "'float'" KW_FOR "'for'"
%token KW_GOTO "'goto'" KW_IF "'if'" KW_INLINE "'inline'" KW_INT "'int'" KW_LONG "'long'"
%token KW_REGISTER "'register'" KW_RESTRICT "'restrict'" KW_RETURN "'return'" KW_SHORT "'short'"
%token KW_SIGNED "'signed'" KW_SIZEOF "'sizeof'" KW_STATIC "'static'" KW_STRUCT "'struct'"
%token KW_SWITCH "'switch'" KW_TYPEDEF "'typedef'" KW_UNION "'union'" KW_UNSIGNED "'unsigned'"
%token KW_VOID "'void'" KW_VOLATILE "'volatile'" KW_WHILE "'while'" KW_BOOL "'_Bool'"
%token KW_COMPLEX "'_Complex'" KW_THREAD_LOCAL "'_Thread_local'" KW_ATOMIC "'atomic'"
%token ELLIPSIS "'...'" ARROW "'->'" INC "'++'" DEC "'--'" SHL "'<<'" SHR "'>>'"
%token LE "'<='" GE "'>='" EQ "'=='" NE "'!='" ANDAND "'&&'" OROR "'||'"
%token MUL_ASSIGN "'*='" DIV_ASSIGN "'/='" MOD_ASSIGN "'%='" ADD_ASSIGN "'+='" SUB_ASSIGN "'-='"
%token SHL_ASSIGN "'<<='" SHR_ASSIGN "'>>='" AND_ASSIGN "'&='" XOR_ASSIGN "'^='" OR_ASSIGN "'|='"

%precedence THEN
%precedence KW_ELSE
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'

%type <expr> expr assign_expr cond_expr bin_expr cast_expr unary_expr postfix_expr primary
%type <expr> opt_expr condition initializer init_items init_item
%type <exprs> args
%type <stmt> stmt compound block_items declaration for_init
%type <specs> decl_specs specs_start
%type <type> type_name struct_spec enum_spec
%type <dtor> declarator direct_declarator abstract direct_abstract
%type <decl> init_declarator param member_declarator
%type <decls> init_declarators params member_declarators
%type <fields> members
%type <op> assign_op
%type <flag> param_list_tail
%type <stars> pointer
%type <name> any_name struct_kw

%%

unit
  : %empty
  | unit external
  ;

external
  : decl_specs declarator compound          { cfe_add_function(ctx, &$1, $2, $3, cfe_span(@1, @2)); }
  | declaration                             { cfe_add_globals(ctx, $1); }
  | ';'
  | error ';'
  | error '}'
  ;

/* ---------------------------------------------------------------- declarations */

declaration
  : decl_specs ';'                          { $$ = cfe_declaration(ctx, &$1, NULL, @1); }
  | decl_specs init_declarators semi        { $$ = cfe_declaration(ctx, &$1, $2, cfe_span(@1, @2)); }
  ;

decl_specs
  : specs_start decl_spec                   { $$ = $1; @$ = @2; }
  | decl_specs decl_spec                    { $$ = $1; }
  ;

specs_start
  : %empty                                  { $$ = cfe_specs_empty(); }
  ;

/* Each specifier updates the specifiers collected so far ($<specs>0). */
decl_spec
  : KW_TYPEDEF                              { cfe_specs_storage(&$<specs>0, SC_TYPEDEF, @1); }
  | KW_EXTERN                               { cfe_specs_storage(&$<specs>0, SC_EXTERN, @1); }
  | KW_STATIC                               { cfe_specs_storage(&$<specs>0, SC_STATIC, @1); }
  | KW_AUTO                                 { cfe_specs_storage(&$<specs>0, SC_OTHER, @1); }
  | KW_REGISTER                             { cfe_specs_storage(&$<specs>0, SC_OTHER, @1); }
  | KW_THREAD_LOCAL                         { cfe_specs_storage(&$<specs>0, SC_OTHER, @1); }
  | KW_INLINE                               { cfe_specs_storage(&$<specs>0, $<specs>0.storage, @1); }
  | qualifier                               { cfe_specs_storage(&$<specs>0, $<specs>0.storage, @1); }
  | KW_VOID                                 { cfe_specs_word(ctx, &$<specs>0, "void", @1); }
  | KW_CHAR                                 { cfe_specs_word(ctx, &$<specs>0, "char", @1); }
  | KW_SHORT                                { cfe_specs_word(ctx, &$<specs>0, "short", @1); }
  | KW_INT                                  { cfe_specs_word(ctx, &$<specs>0, "int", @1); }
  | KW_LONG                                 { cfe_specs_word(ctx, &$<specs>0, "long", @1); }
  | KW_SIGNED                               { cfe_specs_word(ctx, &$<specs>0, "signed", @1); }
  | KW_UNSIGNED                             { cfe_specs_word(ctx, &$<specs>0, "unsigned", @1); }
  | KW_BOOL                                 { cfe_specs_word(ctx, &$<specs>0, "_Bool", @1); }
  | KW_FLOAT                                { cfe_specs_word(ctx, &$<specs>0, "float", @1); }
  | KW_DOUBLE                               { cfe_specs_word(ctx, &$<specs>0, "double", @1); }
  | KW_COMPLEX                              { cfe_specs_word(ctx, &$<specs>0, "_Complex", @1); }
  | struct_spec                             { cfe_specs_type(&$<specs>0, $1, @1); }
  | enum_spec                               { cfe_specs_type(&$<specs>0, $1, @1); }
  | TYPE_NAME                               { cfe_specs_type(&$<specs>0, cfe_typedef_type(ctx, $1, @1), @1); }
  ;

qualifier
  : KW_CONST
  | KW_VOLATILE
  | KW_RESTRICT
  ;

any_name
  : IDENT
  | TYPE_NAME
  ;

struct_spec
  : struct_kw any_name                      { $$ = cfe_struct_ref(ctx, $1, $2, @$); }
  | struct_kw '{' members '}'               { $$ = cfe_struct_def(ctx, $1, NULL, $3, @1); }
  | struct_kw any_name '{' members '}'      { $$ = cfe_struct_def(ctx, $1, $2, $4, cfe_span(@1, @2)); }
  ;

struct_kw
  : KW_STRUCT                               { $$ = "struct"; }
  | KW_UNION                                { $$ = "union"; }
  ;

members
  : %empty                                  { $$ = cfe_fields_new(ctx); }
  | members decl_specs member_declarators ';' { $$ = $1; cfe_fields_add(ctx, $$, &$2, $3); }
  | members decl_specs ';'                  { $$ = $1; }
  ;

member_declarators
  : member_declarator                       { $$ = cfe_decls_new(ctx); cfe_decls_add(ctx, $$, $1); }
  | member_declarators ',' member_declarator { $$ = $1; cfe_decls_add(ctx, $$, $3); }
  ;

/* The specifiers are applied when the whole member declaration is reduced. */
member_declarator
  : declarator                              { $$ = cfe_decl_new(ctx, NULL, $1, NULL, @$); }
  | declarator ':' cond_expr                { $$ = cfe_decl_new(ctx, NULL, cfe_declarator_bitfield($1, cfe_span(@2, @3)), NULL, @$); }
  | ':' cond_expr                           { $$ = cfe_decl_new(ctx, NULL, cfe_declarator_abstract(ctx, @1), NULL, @$); }
  ;

enum_spec
  : KW_ENUM any_name '{' enumerators '}'    { $$ = (cfe_type){.kind = CT_INT}; ctx->enum_next = 0; }
  | KW_ENUM '{' enumerators '}'             { $$ = (cfe_type){.kind = CT_INT}; ctx->enum_next = 0; }
  | KW_ENUM any_name                        { $$ = (cfe_type){.kind = CT_INT}; }
  ;

enumerators
  : enumerator_list
  | enumerator_list ','
  ;

enumerator_list
  : enumerator
  | enumerator_list ',' enumerator
  ;

enumerator
  : IDENT                                   { cfe_add_enum_const(ctx, $1, @1, NULL); }
  | IDENT '=' cond_expr                     { cfe_add_enum_const(ctx, $1, @1, $3); }
  ;

init_declarators
  : init_declarator                         { $$ = cfe_decls_new(ctx); cfe_decls_add(ctx, $$, $1); }
  | init_declarators ',' init_declarator    { $$ = $1; cfe_decls_add(ctx, $$, $3); }
  ;

/* The specifiers are applied when the whole declaration is reduced. */
init_declarator
  : declarator                              { $$ = cfe_decl_new(ctx, NULL, $1, NULL, @$); }
  | declarator '=' initializer              { $$ = cfe_decl_new(ctx, NULL, $1, $3, @$); }
  ;

/* Brace initializers (designators too) parse for globals, whose C initializers
 * are ignored (the spec gives the initial values); lowering refuses one elsewhere. */
initializer
  : assign_expr
  | '{' '}'                                 { $$ = BAD(@$, "unsupported initializer list"); }
  | '{' init_items '}'                      { $$ = BAD(@$, "unsupported initializer list"); }
  | '{' init_items ',' '}'                  { $$ = BAD(@$, "unsupported initializer list"); }
  ;

init_items
  : init_item
  | init_items ',' init_item
  ;

init_item
  : initializer
  | designators '=' initializer             { $$ = $3; }
  ;

designators
  : designator
  | designators designator
  ;

designator
  : '[' cond_expr ']'
  | '.' any_name
  ;

declarator
  : direct_declarator
  | pointer direct_declarator               { $$ = cfe_declarator_pointer($2, $1, @$); }
  ;

pointer
  : '*' qualifiers                          { $$ = 1; }
  | '*' qualifiers pointer                  { $$ = $3 + 1; }
  ;

qualifiers
  : %empty
  | qualifiers qualifier
  ;

direct_declarator
  : IDENT                                   { $$ = cfe_declarator_name(ctx, $1, @1); }
  | '(' declarator ')'                      { $$ = $2; }
  | direct_declarator '[' ']'               { $$ = cfe_declarator_array(ctx, $1, NULL, @$); }
  | direct_declarator '[' assign_expr ']'   { $$ = cfe_declarator_array(ctx, $1, $3, @$); }
  | direct_declarator '(' params param_list_tail ')' { $$ = cfe_declarator_function(ctx, $1, $3, $4, @$); }
  | direct_declarator '(' ')'               { $$ = cfe_declarator_function(ctx, $1, NULL, false, @$); }
  ;

param_list_tail
  : %empty                                  { $$ = false; }
  | ',' ELLIPSIS                            { $$ = true; }
  ;

params
  : param                                   { $$ = cfe_decls_new(ctx); cfe_decls_add(ctx, $$, $1); }
  | params ',' param                        { $$ = $1; cfe_decls_add(ctx, $$, $3); }
  ;

param
  : decl_specs declarator                   { $$ = cfe_decl_new(ctx, &$1, $2, NULL, @$); }
  | decl_specs                              { $$ = cfe_decl_new(ctx, &$1, cfe_declarator_abstract(ctx, @1), NULL, @$); }
  | decl_specs abstract                     { $$ = cfe_decl_new(ctx, &$1, $2, NULL, @$); }
  ;

abstract
  : pointer                                 { $$ = cfe_declarator_pointer(cfe_declarator_abstract(ctx, @1), $1, @1); }
  | direct_abstract
  | pointer direct_abstract                 { $$ = cfe_declarator_pointer($2, $1, @$); }
  ;

direct_abstract
  : '[' ']'                                 { $$ = cfe_declarator_array(ctx, cfe_declarator_abstract(ctx, @1), NULL, @$); }
  | '[' assign_expr ']'                     { $$ = cfe_declarator_array(ctx, cfe_declarator_abstract(ctx, @1), $2, @$); }
  | direct_abstract '[' ']'                 { $$ = cfe_declarator_array(ctx, $1, NULL, @$); }
  | direct_abstract '[' assign_expr ']'     { $$ = cfe_declarator_array(ctx, $1, $3, @$); }
  ;

type_name
  : decl_specs                              { $$ = cfe_specs_result(&$1); }
  | decl_specs abstract                     { $$ = cfe_decl_new(ctx, &$1, $2, NULL, @$)->type; }
  ;

/* ---------------------------------------------------------------- statements */

compound
  : '{' block_items '}'                     { $$ = $2; $$->at = @$; }
  ;

block_items
  : %empty                                  { $$ = cfe_block(ctx, @$); }
  | block_items declaration                 { $$ = $1; cfe_block_add(ctx, $$, $2); }
  | block_items stmt                        { $$ = $1; cfe_block_add(ctx, $$, $2); }
  ;

stmt
  : compound
  | expr semi                               { $$ = cfe_expr_stmt(ctx, $1, @1); }
  | ';'                                     { $$ = cfe_stmt_new(ctx, CS_EMPTY, @$); }
  | KW_IF condition stmt %prec THEN         { $$ = cfe_if(ctx, @$, $2, $3, NULL); }
  | KW_IF condition stmt KW_ELSE stmt       { $$ = cfe_if(ctx, @$, $2, $3, $5); }
  | KW_WHILE condition stmt                 { $$ = cfe_loop(ctx, CS_WHILE, @$, $2, $3); }
  | KW_DO stmt KW_WHILE condition ';'       { $$ = cfe_loop(ctx, CS_DO, @$, $4, $2); }
  | KW_FOR '(' for_init opt_expr ';' opt_expr ')' stmt
                                            { $$ = cfe_for(ctx, @$, $3, $4, $6, $8); }
  | KW_BREAK ';'                            { $$ = cfe_stmt_new(ctx, CS_BREAK, @1); }
  | KW_CONTINUE ';'                         { $$ = cfe_stmt_new(ctx, CS_CONTINUE, @1); }
  | KW_RETURN ';'                           { $$ = cfe_return(ctx, @1, NULL); }
  | KW_RETURN expr ';'                      { $$ = cfe_return(ctx, cfe_span(@1, @2), $2); }
  | KW_ATOMIC compound                      { $$ = cfe_atomic(ctx, @$, $2); }
  | KW_GOTO any_name ';'                    { $$ = cfe_bad_stmt(ctx, cfe_span(@1, @2), "unsupported goto statement"); }
  | IDENT ':' stmt                          { $$ = cfe_bad_stmt(ctx, cfe_span(@1, @2), "unsupported label '%s'", $1); }
  | KW_SWITCH '(' expr ')' stmt             { $$ = cfe_bad_stmt(ctx, cfe_span(@1, @4), "unsupported switch statement"); }
  | KW_CASE cond_expr ':' stmt              { $$ = cfe_bad_stmt(ctx, cfe_span(@1, @3), "unsupported case label outside a switch"); }
  | KW_DEFAULT ':' stmt                     { $$ = cfe_bad_stmt(ctx, cfe_span(@1, @2), "unsupported default label outside a switch"); }
  | error ';'                               { $$ = NULL; }
  ;

/* A forgotten ';' is reported once and parsing goes on as if it were there. */
semi
  : ';'
  | error
  ;

/* A parenthesized condition; '*' alone is the nondeterministic choice. */
condition
  : '(' expr ')'                            { $$ = $2; }
  | '(' '*' ')'                             { $$ = cfe_star(ctx, @2); }
  ;

for_init
  : opt_expr ';'                            { $$ = $1 ? cfe_expr_stmt(ctx, $1, @1) : NULL; }
  | declaration
  ;

opt_expr
  : %empty                                  { $$ = NULL; }
  | expr
  ;

/* ---------------------------------------------------------------- expressions */

expr
  : assign_expr
  | expr ',' assign_expr                    { $$ = cfe_binary(ctx, @$, CO_COMMA, $1, $3); }
  ;

assign_expr
  : cond_expr
  | unary_expr assign_op assign_expr        { $$ = cfe_assign(ctx, @$, $2, $1, $3); }
  ;

assign_op
  : '='                                     { $$ = CO_ASSIGN; }
  | MUL_ASSIGN                              { $$ = CO_MUL; }
  | DIV_ASSIGN                              { $$ = CO_DIV; }
  | MOD_ASSIGN                              { $$ = CO_MOD; }
  | ADD_ASSIGN                              { $$ = CO_ADD; }
  | SUB_ASSIGN                              { $$ = CO_SUB; }
  | SHL_ASSIGN                              { $$ = CO_SHL; }
  | SHR_ASSIGN                              { $$ = CO_SHR; }
  | AND_ASSIGN                              { $$ = CO_BITAND; }
  | XOR_ASSIGN                              { $$ = CO_XOR; }
  | OR_ASSIGN                               { $$ = CO_BITOR; }
  ;

cond_expr
  : bin_expr
  | bin_expr '?' expr ':' cond_expr         { $$ = cfe_cond(ctx, @$, $1, $3, $5); }
  ;

bin_expr
  : cast_expr
  | bin_expr OROR bin_expr                  { $$ = cfe_binary(ctx, @$, CO_OR, $1, $3); }
  | bin_expr ANDAND bin_expr                { $$ = cfe_binary(ctx, @$, CO_AND, $1, $3); }
  | bin_expr '|' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_BITOR, $1, $3); }
  | bin_expr '^' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_XOR, $1, $3); }
  | bin_expr '&' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_BITAND, $1, $3); }
  | bin_expr EQ bin_expr                    { $$ = cfe_binary(ctx, @$, CO_EQ, $1, $3); }
  | bin_expr NE bin_expr                    { $$ = cfe_binary(ctx, @$, CO_NE, $1, $3); }
  | bin_expr '<' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_LT, $1, $3); }
  | bin_expr '>' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_GT, $1, $3); }
  | bin_expr LE bin_expr                    { $$ = cfe_binary(ctx, @$, CO_LE, $1, $3); }
  | bin_expr GE bin_expr                    { $$ = cfe_binary(ctx, @$, CO_GE, $1, $3); }
  | bin_expr SHL bin_expr                   { $$ = cfe_binary(ctx, @$, CO_SHL, $1, $3); }
  | bin_expr SHR bin_expr                   { $$ = cfe_binary(ctx, @$, CO_SHR, $1, $3); }
  | bin_expr '+' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_ADD, $1, $3); }
  | bin_expr '-' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_SUB, $1, $3); }
  | bin_expr '*' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_MUL, $1, $3); }
  | bin_expr '/' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_DIV, $1, $3); }
  | bin_expr '%' bin_expr                   { $$ = cfe_binary(ctx, @$, CO_MOD, $1, $3); }
  ;

cast_expr
  : unary_expr
  | '(' type_name ')' cast_expr             { $$ = cfe_cast(ctx, @$, $2, $4); }
  ;

unary_expr
  : postfix_expr
  | INC unary_expr                          { $$ = cfe_incdec(ctx, @$, 1, false, $2); }
  | DEC unary_expr                          { $$ = cfe_incdec(ctx, @$, -1, false, $2); }
  | '&' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_ADDR, $2); }
  | '*' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_DEREF, $2); }
  | '+' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_PLUS, $2); }
  | '-' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_NEG, $2); }
  | '~' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_BITNOT, $2); }
  | '!' cast_expr                           { $$ = cfe_unary(ctx, @$, CO_NOT, $2); }
  | KW_SIZEOF unary_expr                    { $$ = cfe_bad_expr(ctx, @$, $2, "unsupported sizeof"); }
  | KW_SIZEOF '(' type_name ')'             { $$ = BAD(@$, "unsupported sizeof"); }
  ;

postfix_expr
  : primary
  | postfix_expr '[' expr ']'               { $$ = cfe_index(ctx, @$, $1, $3); }
  | postfix_expr '(' ')'                    { $$ = cfe_call(ctx, @$, $1, NULL); }
  | postfix_expr '(' args ')'               { $$ = cfe_call(ctx, @$, $1, $3); }
  | postfix_expr '.' any_name               { $$ = cfe_member(ctx, @$, $1, $3, @3); }
  | postfix_expr ARROW any_name             { $$ = cfe_member(ctx, @$, cfe_unary(ctx, @1, CO_DEREF, $1), $3, @3); }
  | postfix_expr INC                        { $$ = cfe_incdec(ctx, @$, 1, true, $1); }
  | postfix_expr DEC                        { $$ = cfe_incdec(ctx, @$, -1, true, $1); }
  ;

args
  : assign_expr                             { $$ = cfe_args_new(ctx); cfe_args_add(ctx, $$, $1); }
  | args ',' assign_expr                    { $$ = $1; cfe_args_add(ctx, $$, $3); }
  ;

primary
  : IDENT                                   { $$ = cfe_name(ctx, @$, $1); }
  | INTEGER                                 { $$ = cfe_int(ctx, @$, $1.value, $1.big); }
  | FLOATING                                { $$ = BAD(@$, "unsupported floating-point constant"); }
  | strings                                 { $$ = BAD(@$, "unsupported string literal"); }
  | '(' expr ')'                            { $$ = $2; }
  | '(' error ')'                           { $$ = cfe_int(ctx, @$, 0, false); }
  ;

strings
  : STRING
  | strings STRING
  ;

%%

/* ---------------------------------------------------------------- syntax errors */

/* Bison calls this only when its stack is exhausted (syntax errors go
 * through yyreport_syntax_error). */
static void cfe_yyerror(const CFE_YYLTYPE *at, void *scanner, cfe_ctx *ctx, const char *msg) {
  (void)scanner;
  cfe_error(ctx->unit, *at, "%s: the code is nested too deeply", msg);
}

/* Appends a token's name as users read it: 'while', identifier 'x'. */
static void describe_token(strbuf *out, const cfe_ctx *ctx, yysymbol_kind_t sym, const CFE_YYLTYPE *at) {
  sbuf_puts(out, yysymbol_name(sym));
  if (!at || at->file < 0) return;
  const diag_source *src = ctx->unit->files.items[at->file].src;
  size_t len = at->at.end - at->at.start;
  bool named = sym == YYSYMBOL_IDENT || sym == YYSYMBOL_TYPE_NAME || sym == YYSYMBOL_INTEGER;
  if (src && named && len <= 40 && at->at.end <= src->len) sbuf_printf(out, " '%.*s'", (int)len, src->text + at->at.start);
}

static bool expects(const yysymbol_kind_t *expected, int n, const char *text) {
  for (int i = 0; i < n; i++)
    if (strcmp(yysymbol_name(expected[i]), text) == 0) return true;
  return false;
}

static size_t line_of(const cfe_ctx *ctx, cfe_pos p) {
  size_t line, col;
  diag_line_col(ctx->unit->files.items[p.file].src, p.at.start, &line, &col);
  return line;
}

/* A forgotten ';': the previous token ends an earlier line of the same file
 * and does not itself end a statement. */
static bool missing_semicolon(const cfe_ctx *ctx, const CFE_YYLTYPE *at) {
  const cfe_pos *prev = &ctx->prev;
  if (prev->file < 0 || prev->file != at->file || !ctx->unit->files.items[at->file].src) return false;
  char last = prev->at.end > 0 ? ctx->unit->files.items[prev->file].src->text[prev->at.end - 1] : ';';
  if (last == ';' || last == '}' || last == '{') return false;
  return prev->at.end <= at->at.start && line_of(ctx, *prev) < line_of(ctx, *at);
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner, cfe_ctx *ctx) {
  (void)scanner;
  yysymbol_kind_t got = yypcontext_token(yyctx);
  const CFE_YYLTYPE *at = yypcontext_location(yyctx);
  if (got == YYSYMBOL_INVALID_CHAR) return 0; /* the lexer said what is wrong */
  yysymbol_kind_t expected[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
  strbuf msg = {0};
  strbuf seen = {0};
  describe_token(&seen, ctx, got, at);
  cfe_pos where = *at;
  if (expects(expected, n, "';'") && missing_semicolon(ctx, at)) {
    sbuf_printf(&msg, "syntax error, expected ';' before %s", sbuf_str(&seen));
    where = (cfe_pos){ctx->prev.file, {ctx->prev.at.end, ctx->prev.at.end}};
  } else {
    sbuf_printf(&msg, "syntax error, unexpected %s", sbuf_str(&seen));
    for (int i = 0; n <= 4 && i < n; i++) {
      sbuf_puts(&msg, i == 0 ? ", expected " : i == n - 1 ? " or " : ", ");
      describe_token(&msg, ctx, expected[i], NULL);
    }
  }
  cfe_error(ctx->unit, where, "%s", sbuf_str(&msg));
  if (got == YYSYMBOL_YYEOF && ctx->open_brace_count > 0) {
    int innermost = (ctx->open_brace_count < CFE_MAX_BRACES ? ctx->open_brace_count : CFE_MAX_BRACES) - 1;
    cfe_note(ctx->unit, ctx->open_braces[innermost], "this '{' is never closed");
  }
  sbuf_free(&msg);
  sbuf_free(&seen);
  return 0;
}
