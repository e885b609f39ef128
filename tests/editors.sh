#!/usr/bin/env bash
# tests/editors.sh -- the editor support in editors/: Vim's syntax file and
# the TextMate grammar of the VS Code extension, checked token by token on
# every example spec, every spec of tests/good, every ```athread block of
# README.md and docs/*.md and tests/editors/*.athread against an
# independent tokenizer (tests/editors/tokens.py, whose keywords are
# lexer.l's); each grammar broken on purpose must fail the same check;
# Vim's compiler file and the extension's problem matcher must read
# athread's own diagnostics.
# Vim runs headless (-Es); the TextMate grammar runs through vscode-textmate
# and vscode-oniguruma (VS Code's tokenizer), pinned in
# tests/editors/package-lock.json and installed here with npm ci when
# missing. Ends with "editors: N passed, N failed".
set -u
source "$(dirname "$0")/setup"
cd "$TESTS_DIR/.."
ROOT=$PWD
ED=tests/editors

# ---------------------------------------------------------------- the specs
specs=(examples/*/*.athread "$ED"/*.athread)
mkdir -p "$SCRATCH/good"
for case_file in tests/good/*.test; do
  spec=$SCRATCH/good/$(basename "$case_file" .test).athread
  awk '/^--- /{on = ($0 == "--- spec"); next} on' "$case_file" > "$spec"
  specs+=("$spec")
done
# The ```athread blocks of README.md and docs/*.md (tests/doc-examples.sh lints them).
mkdir -p "$SCRATCH/docs"
for doc in README.md docs/*.md; do
  awk -v dir="$SCRATCH/docs" -v base="$(basename "$doc" .md)" '
    /^```athread$/ { n++; file = sprintf("%s/%s-%d.athread", dir, base, n); on = 1; next }
    /^```$/ { on = 0 }
    on { print > file }' "$doc"
done
specs+=("$SCRATCH"/docs/*.athread)

# The expected group and scope of every token.
if python3 "$ED/tokens.py" "${specs[@]}" > "$SCRATCH/expect.tsv"; then pass; else fail "tokens.py"; fi
# Every keyword of lexer.l and every kind of token is in some spec, so every
# one is checked in both grammars.
keywords=$(python3 "$ED/tokens.py" --keywords)
seen=$(awk -F'\t' '$5 == "kw" {print $8}' "$SCRATCH/expect.tsv" | sort -u)
if [ -n "$keywords" ] && [ "$keywords" = "$seen" ]; then pass; else fail "keywords of lexer.l no spec here uses: $(comm -23 <(echo "$keywords") <(echo "$seen") | tr '\n' ' ')"; fi
kinds=$(cut -f5 "$SCRATCH/expect.tsv" | sort -u | tr '\n' ' ')
if [ "$kinds" = "binding comment error escape ident kw label name number op primed state " ]; then pass; else fail "kinds of tokens: $kinds"; fi

# The grammars broken on purpose are checked on tests/editors' specs alone
# (every kind of token is there), which keeps this suite fast.
fixtures=("$ED"/*.athread)
python3 "$ED/tokens.py" "${fixtures[@]}" > "$SCRATCH/expect-fixtures.tsv" || fail "tokens.py on ${fixtures[*]}"

# tokens.py's errors are the lexer's (athread lint's).
$VALGRIND "$ATHREAD" lint "$ED/lexical-errors.athread" > /dev/null 2> "$SCRATCH/lexical-errors.txt"
if python3 "$ED/lexer-errors.py" "$SCRATCH/expect-fixtures.tsv" "$ED/lexical-errors.athread" "$SCRATCH/lexical-errors.txt"; then pass; else
  fail "tokens.py and athread lint disagree on the lexical errors of $ED/lexical-errors.athread"
fi

# judge WHAT RESULT: one test per file and kind of token in a checker's
# RESULT (COUNT lines), which must name every spec; prints the checker's
# first WRONG lines.
judge() {
  local what=$1 result=$2 tag file kind checked wrong spec
  while IFS=$'\t' read -r tag file kind checked wrong; do
    [ "$tag" = COUNT ] || continue
    if [ "$wrong" = 0 ]; then pass; else fail "$what: $file: $wrong of $checked characters of kind '$kind' wrong"; fi
  done < "$result"
  for spec in "${specs[@]}"; do
    grep -q "^COUNT	$spec	space	" "$result" || fail "$what: no result for $spec"
  done
  grep '^WRONG' "$result" | cut -f2- | head -n 20
}

# wrong_kinds RESULT: the kinds of tokens some file got wrong, one a line.
wrong_kinds() { awk -F'\t' '$1 == "COUNT" && $5 != 0 {print $3}' "$1" | sort -u; }

# expect_broken WHAT KIND RESULT: a checker given a grammar broken on
# purpose must find kind KIND wrong.
expect_broken() {
  if wrong_kinds "$3" | grep -qx "$2"; then pass; else fail "$1: the check did not notice (wrong kinds: $(wrong_kinds "$3" | tr '\n' ' '))"; fi
}

# athread's diagnostics for the problem matchers: an error, a note, a
# warning, each followed by its source line and caret.
printf 'shared int g;\nthread A {\n  init state S;\n  state U;\n' > "$SCRATCH/unclosed.athread"
printf 'shared int g;\nthread A {\n  init state S;\n  state U;\n}\n' > "$SCRATCH/unreached.athread"
(cd "$SCRATCH" && $VALGRIND "$ATHREAD" lint unclosed.athread unreached.athread) > /dev/null 2> "$SCRATCH/diagnostics.txt"
want_diagnostics="unclosed.athread|4|11|e|unexpected end of file
unclosed.athread|2|10|n|this '{' is never closed
unreached.athread|4|9|w|state 'U' cannot be reached from an init state of thread 'A' [-Wunreachable-state]"

# ---------------------------------------------------------------- Vim
# run_vim RUNTIME-DIR RESULT [EXPECT]: checks every spec (or the tokens
# of EXPECT alone) with the syntax files under RUNTIME-DIR (laid out as
# editors/vim is).
run_vim() {
  local files=""
  [ $# -gt 2 ] || files=$(printf '%s\n' "${specs[@]}")
  EXPECT=${3:-$SCRATCH/expect.tsv} RESULT=$2 FILES=$files \
    timeout 120 vim -Nu NONE -i NONE -Es --cmd "set rtp^=$1" -S "$ED/check.vim" < /dev/null > "$2.log" 2>&1
}

if ! command -v vim > /dev/null; then
  fail "vim is not installed (scripts/deps.sh installs it)"
else
  if run_vim "$PWD/editors/vim" "$SCRATCH/vim.txt"; then pass; else fail "vim exited with $?: $(head -c 300 "$SCRATCH/vim.txt.log")"; fi
  touch "$SCRATCH/vim.txt"
  # ftdetect took every file for athread, and the syntax file loaded without error.
  for spec in "${specs[@]}"; do
    if grep -qx "FILETYPE	$spec	athread	athread	" "$SCRATCH/vim.txt"; then pass; else fail "vim: $spec: $(grep "^FILETYPE	$spec	" "$SCRATCH/vim.txt" | cut -f3-)"; fi
  done
  judge vim "$SCRATCH/vim.txt"

  # The compiler file (:compiler athread) reads the diagnostics into the
  # quickfix list.
  (cd "$SCRATCH" && vim -Nu NONE -i NONE -Es --cmd "set rtp^=$ROOT/editors/vim" -c 'compiler athread' -c 'cgetfile diagnostics.txt' \
    -c 'call writefile(map(getqflist(), {_, e -> bufname(e.bufnr) . "|" . e.lnum . "|" . e.col . "|" . e.type . "|" . e.text}), "quickfix.txt")' \
    -c 'qall!' < /dev/null > /dev/null 2>&1)
  if [ "$(cat "$SCRATCH/quickfix.txt" 2> /dev/null)" = "$want_diagnostics" ]; then pass; else
    fail "vim: :compiler athread read athread's diagnostics as"
    diff <(echo "$want_diagnostics") "$SCRATCH/quickfix.txt" | head -n 10
  fi

  # The same check with the syntax file broken three ways must fail.
  # vim_broken WHAT KIND SED-SCRIPT
  vim_broken() {
    rm -rf "$SCRATCH/vim-broken"
    cp -r editors/vim "$SCRATCH/vim-broken"
    sed -i "$3" "$SCRATCH/vim-broken/syntax/athread.vim"
    run_vim "$SCRATCH/vim-broken" "$SCRATCH/vim-broken.txt" "$SCRATCH/expect-fixtures.tsv"
    expect_broken "vim, $1" "$2" "$SCRATCH/vim-broken.txt"
  }
  vim_broken "'exists' not a keyword" kw 's/^\(syn keyword athreadQuantifier forall\) exists in$/\1 in/'
  vim_broken "no line comments" comment '/^syn match athreadLineComment /d'
  vim_broken "no invalid characters" error '/^syn match athreadError #/d'
fi

# ---------------------------------------------------------------- TextMate
GRAMMAR=editors/vscode/syntaxes/athread.tmLanguage.json
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  fail "node and npm are not installed: the TextMate grammar's test needs them (vscode-textmate)"
else
  if [ ! -f "$ED/node_modules/.package-lock.json" ] || [ "$ED/package-lock.json" -nt "$ED/node_modules/.package-lock.json" ]; then
    (cd "$ED" && npm ci --no-audit --no-fund --loglevel=error) > "$SCRATCH/npm.log" 2>&1 ||
      fail "npm ci in $ED: $(tail -n 5 "$SCRATCH/npm.log")"
  fi
  # run_tm GRAMMAR RESULT [EXPECT FILE...]: checks every spec, or FILEs.
  run_tm() {
    local grammar=$1 result=$2
    shift 2
    [ $# -gt 0 ] || set -- "$SCRATCH/expect.tsv" "${specs[@]}"
    timeout 120 node "$ED/check-textmate.js" "$grammar" "$@" > "$result" 2> "$result.log"
  }
  if run_tm "$GRAMMAR" "$SCRATCH/tm.txt"; then pass; else fail "check-textmate.js exited with $?: $(head -c 300 "$SCRATCH/tm.txt.log")"; fi
  judge textmate "$SCRATCH/tm.txt"

  # The same check with the grammar broken three ways must fail.
  # tm_broken WHAT KIND PYTHON-STATEMENT (on the grammar g)
  tm_broken() {
    python3 -c "import json, sys; g = json.load(open(sys.argv[1])); $3; json.dump(g, open(sys.argv[2], 'w'))" \
      "$GRAMMAR" "$SCRATCH/broken.tmLanguage.json" || { fail "textmate, $1: cannot break the grammar"; return; }
    run_tm "$SCRATCH/broken.tmLanguage.json" "$SCRATCH/tm-broken.txt" "$SCRATCH/expect-fixtures.tsv" "${fixtures[@]}"
    expect_broken "textmate, $1" "$2" "$SCRATCH/tm-broken.txt"
  }
  tm_broken "'exists' not a keyword" kw "g['repository']['keywords']['patterns'] = [p for p in g['repository']['keywords']['patterns'] if '(exists)' not in p['match']]"
  tm_broken "no line comments" comment "g['repository']['comments']['patterns'].pop(0)"
  tm_broken "no invalid characters" error "g['repository']['errors']['patterns'].pop()"
  tm_broken "a block comment that never ends" whole "g['repository']['comments']['patterns'][1]['end'] = 'never'"

  # The extension's package.json, and its problem matcher on athread's
  # diagnostics.
  if node "$ED/check-package.js" editors/vscode < "$SCRATCH/diagnostics.txt" > "$SCRATCH/matched.txt"; then pass; else fail "editors/vscode/package.json"; fi
  want=$(sed 's/|e|/|error|/; s/|n|/|note|/; s/|w|/|warning|/' <<< "$want_diagnostics")
  if [ "$(cat "$SCRATCH/matched.txt")" = "$want" ]; then pass; else
    fail "the problem matcher read athread's diagnostics as"
    diff <(echo "$want") "$SCRATCH/matched.txt" | head -n 10
  fi
fi

summary editors
[ "$failed" = 0 ]
