" Vim syntax file
" Language:    athread specification (.athread)
" Maintainer:  the athread authors
" Reference:   docs/language.md section 2; the tokens are spec-lang/lexer.l's.
" Tested by:   tests/editors.sh (every example spec, token by token)

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn iskeyword a-z,A-Z,48-57,_
syn case match

" Anything the lexer refuses: a character outside the language, non-ASCII
" text outside comments and labels, a prime not after a name. Defined
" first: a later item that matches at the same place wins.
syn match athreadError #[^ \t\r\f\v\nA-Za-z0-9_;,{}\[\]()!<>+\-*/%=?:@"]#

" Operators, the longer after the shorter so that they win (the lexer takes
" the longest).
syn match athreadOperator "[!<>+\-*/%=?:@]"
syn match athreadOperator "\%(<==>\|==>\|:=\|==\|!=\|<=\|>=\|&&\|||\|\.\.\)"
syn match athreadArrow "->"
syn match athreadDelimiter "[;,{}\[\]()]"

" Numbers: decimal, hexadecimal; digits running into letters are an error.
syn match athreadError "\<\d\+\h\w*"
syn match athreadNumber "\<\d\+\>"
syn match athreadNumber "\<0[xX]\x\+\>"

" Names: a primed (next-state) variable, the states of an edge (the name
" before '->', the one after it, the one after '@'), thread and system names.
syn match athreadPrimed "\<\h\w*'"
syn match athreadState "\<\h\w*\>\ze[ \t]*->"
syn match athreadState "\%(->[ \t]*\)\@<=\<\h\w*\>'\@!"
syn match athreadState "\%(@[ \t]*\)\@<=\<\h\w*\>'\@!"
syn match athreadName "\h\w*" contained

" Keywords (lexer.l). 'state' starts the list of the states it declares.
syn keyword athreadStorage const shared
syn keyword athreadStructure thread system implements nextgroup=athreadName skipwhite
syn keyword athreadStructure binds nextgroup=athreadBinding skipwhite
syn keyword athreadProperty init assert invariant
syn keyword athreadConditional when do
syn keyword athreadQuantifier forall exists in
syn keyword athreadType int bool
syn keyword athreadBoolean true false
syn keyword athreadBuiltin count
syn keyword athreadTid tid
syn region athreadStateList transparent matchgroup=athreadStructure start="\<state\>" end="\%(;\|}\|\<assert\>\)\@=" contains=athreadStateName,athreadDelimiter,athreadLineComment,athreadBlockComment,athreadError
syn match athreadStateName "\<\%(assert\>\)\@!\h\w*\>'\@!" contained
" A keyword cannot be primed: the keyword shows, its prime is an error.
syn match athreadError "\%(\<\%(const\|shared\|thread\|system\|state\|init\|assert\|invariant\|implements\|when\|do\|true\|false\|int\|bool\|count\|tid\|binds\|forall\|exists\|in\)\)\@<='"

" What a shared variable binds: a C global, field or element, in which spec
" keywords are plain names.
syn match athreadBinding "\h\w*\%(\.\h\w*\|\[\d\+\]\)*" contained

" Edge labels: one line, the escapes \" and \\ only.
syn region athreadLabel start=+"+ skip=+\\[\\"]+ end=+"+ oneline contains=athreadEscape,athreadEscapeError
syn match athreadEscape +\\[\\"]+ contained
syn match athreadEscapeError +\\[^\\"]+ contained
syn match athreadError +"\%([^"\\]\|\\.\)*$+

" Comments, defined last: they win over '/'.
syn keyword athreadTodo contained TODO FIXME XXX
syn match athreadLineComment "//.*$" contains=athreadTodo,@Spell
syn region athreadBlockComment start="/\*" end="\*/" contains=athreadTodo,@Spell
syn sync ccomment athreadBlockComment minlines=50

hi def link athreadError Error
hi def link athreadEscapeError Error
hi def link athreadOperator Operator
hi def link athreadArrow Operator
hi def link athreadDelimiter Delimiter
hi def link athreadNumber Number
hi def link athreadPrimed Identifier
hi def link athreadState Label
hi def link athreadStateName Label
hi def link athreadName Function
hi def link athreadStorage StorageClass
hi def link athreadStructure Structure
hi def link athreadProperty Keyword
hi def link athreadConditional Conditional
hi def link athreadQuantifier Repeat
hi def link athreadType Type
hi def link athreadBoolean Boolean
hi def link athreadBuiltin Function
hi def link athreadTid Special
hi def link athreadBinding Identifier
hi def link athreadLabel String
hi def link athreadEscape SpecialChar
hi def link athreadTodo Todo
hi def link athreadLineComment Comment
hi def link athreadBlockComment Comment

let b:current_syntax = "athread"

let &cpo = s:cpo_save
unlet s:cpo_save
