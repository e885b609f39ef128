" Vim compiler file
" Compiler:    athread lint (diagnostics like gcc's: file:line:col: error: message)
" Maintainer:  the athread authors
" Tested by:   tests/editors.sh
" Use:         :compiler athread, then :make to lint the current spec and
"              walk its errors, warnings and notes in the quickfix list.

if exists("current_compiler")
  finish
endif
let current_compiler = "athread"

if exists(":CompilerSet") != 2
  command -nargs=* CompilerSet setlocal <args>
endif

let s:cpo_save = &cpo
set cpo&vim

CompilerSet makeprg=athread\ lint\ %:S
" The source line and the caret that follow each diagnostic are dropped.
CompilerSet errorformat=%f:%l:%c:\ %trror:\ %m,%f:%l:%c:\ %tarning:\ %m,%f:%l:%c:\ %tote:\ %m,%-G%.%#

let &cpo = s:cpo_save
unlet s:cpo_save
