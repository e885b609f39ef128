" tests/editors/check.vim -- run by tests/editors.sh as
"   vim -Nu NONE -i NONE -Es --cmd 'set rtp^=<repo>/editors/vim' -S check.vim
" with $EXPECT (tests/editors/tokens.py's rows) and $RESULT (where to write).
" Opens every file the rows name (and those $FILES lists), says which
" filetype and syntax Vim took for it and any error loading them:
"   FILETYPE<TAB>FILE<TAB>FILETYPE<TAB>SYNTAX<TAB>ERROR-MESSAGE
" then compares the syntax group of every byte with the row that
" covers it; a byte no row covers (whitespace between tokens) must have no
" group. Writes per file and per kind of token:
"   COUNT<TAB>FILE<TAB>KIND<TAB>BYTES-CHECKED<TAB>BYTES-WRONG
" and, for the first wrong bytes of each, a line starting with "WRONG".
set encoding=utf-8
set nomore
" No swap files beside the specs (another run may have them open).
set noswapfile
filetype on
syntax on

let s:out = []
let s:rows = {}
let s:order = []
for s:line in readfile($EXPECT)
  let s:f = split(s:line, "\t", 1)
  if !has_key(s:rows, s:f[0])
    let s:rows[s:f[0]] = []
    call add(s:order, s:f[0])
  endif
  call add(s:rows[s:f[0]], s:f)
endfor
" Files with no token at all are still opened (an empty spec).
for s:file in split($FILES, "\n")
  if !has_key(s:rows, s:file)
    let s:rows[s:file] = []
    call add(s:order, s:file)
  endif
endfor

for s:file in s:order
  let v:errmsg = ''
  execute 'silent edit' fnameescape(s:file)
  call add(s:out, printf("FILETYPE\t%s\t%s\t%s\t%s", s:file, &filetype, get(b:, 'current_syntax', ''), v:errmsg))
  let s:counts = {}
  let s:wrong = {}
  let s:covered = {}
  for s:f in s:rows[s:file]
    let [s:lnum, s:col, s:len, s:kind, s:want] = [str2nr(s:f[1]), str2nr(s:f[2]), str2nr(s:f[3]), s:f[4], s:f[5]]
    let s:counts[s:kind] = get(s:counts, s:kind, 0)
    let s:wrong[s:kind] = get(s:wrong, s:kind, 0)
    for s:c in range(s:col, s:col + s:len - 1)
      let s:covered[s:lnum . ':' . s:c] = 1
      let s:got = synIDattr(synID(s:lnum, s:c, 1), 'name')
      let s:counts[s:kind] += 1
      if s:got !~# s:want
        let s:wrong[s:kind] += 1
        if s:wrong[s:kind] <= 3
          call add(s:out, printf("WRONG\t%s:%d:%d: %s '%s': group '%s', expected /%s/", s:file, s:lnum, s:c, s:kind, s:f[7], s:got, s:want))
        endif
      endif
    endfor
  endfor
  " Bytes between tokens: whitespace with no group.
  let [s:counts.space, s:wrong.space] = [0, 0]
  for s:lnum in range(1, line('$'))
    let s:text = getline(s:lnum)
    for s:c in range(1, strlen(s:text))
      if has_key(s:covered, s:lnum . ':' . s:c)
        continue
      endif
      let s:counts.space += 1
      let s:got = synIDattr(synID(s:lnum, s:c, 1), 'name')
      if s:got != '' || s:text[s:c - 1] !~ '[ \t\r\f\v]'
        let s:wrong.space += 1
        if s:wrong.space <= 3
          call add(s:out, printf("WRONG\t%s:%d:%d: byte %d between tokens: group '%s', expected none", s:file, s:lnum, s:c, char2nr(s:text[s:c - 1]), s:got))
        endif
      endif
    endfor
  endfor
  for s:kind in sort(keys(s:counts))
    call add(s:out, printf("COUNT\t%s\t%s\t%d\t%d", s:file, s:kind, s:counts[s:kind], s:wrong[s:kind]))
  endfor
  silent bwipeout!
endfor

call writefile(s:out, $RESULT)
qall!
