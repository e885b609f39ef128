#!/usr/bin/env bash
# tests/dist.sh -- the distribution: the man pages render without warnings
# and document every subcommand and option that --help prints, the zsh
# completion parses and completes what --help lists, and make install /
# make uninstall put and remove the man pages, completions and athread.pc,
# whose Cflags let an ordinary build include <athread.h>.
set -u
source "$(dirname "$0")/setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
cd "$SCRATCH"
# man-db's seccomp sandbox fails in some containers; the pages are our own files.
export MANPAGER=cat PAGER=cat MAN_DISABLE_SECCOMP=1
# make install from this script: not part of an outer make's jobserver or
# command-line variables, and the binary under test is never rebuilt.
unset MAKEFLAGS MFLAGS MAKELEVEL
make_dist() { make --no-print-directory -C "$ROOT" -o "$ATHREAD" ATHREAD="$ATHREAD" "$@" > make.out 2>&1 || { cat make.out; return 1; }; }

# ---------------------------------------------------------------- the man pages render cleanly
for page in "$ROOT/man/athread.1" "$ROOT/man/athread-spec.5"; do
  name=${page##*/}
  MANWIDTH=80 man --warnings -l "$page" > man.out 2> man.err
  if [ $? = 0 ] && [ -s man.out ] && [ ! -s man.err ]; then pass; else fail "man --warnings -l $name: $(head -n 5 man.err)"; fi
  groff -man -ww -z "$page" > groff.out 2>&1
  if [ $? = 0 ] && [ ! -s groff.out ]; then pass; else fail "groff -man -ww -z $name: $(head -n 5 groff.out)"; fi
  if command -v mandoc > /dev/null; then
    mandoc -Tlint "$page" > mandoc.out 2>&1
    if [ $? = 0 ] && [ ! -s mandoc.out ]; then pass; else fail "mandoc -Tlint $name: $(head -n 5 mandoc.out)"; fi
  else
    echo "SKIP: mandoc is not installed (scripts/deps.sh installs it): $name not linted by mandoc"
  fi
done

# ---------------------------------------------------------------- athread.1 documents what --help prints
# One line per paragraph (no filling), so an option tag is a line of its own.
MANWIDTH=1000 man -l "$ROOT/man/athread.1" > athread.1.txt 2> /dev/null
# man_section CMD: the rendered subsection "athread CMD" of COMMANDS.
man_section() {
  awk -v h="   athread $1" '$0 == h { on = 1; next } on && /^ ? ? ?[^ ]/ { on = 0 } on' athread.1.txt
}
# help_items CMD: each option of CMD's --help with its argument as printed
# ("-o", "--output FILE", "-I DIR", "--int c|math"), one per line.
help_items() {
  "$ATHREAD" "$1" --help | grep -E '^  -' | sed -E 's/^  //; s/ {2,}.*//' | sed 's/, /\n/g'
}
# documented ITEM < SECTION: ITEM is the tag of an option (alone, before a
# ", ", or followed by its description on the same line).
documented() {
  local line part
  while IFS= read -r line; do
    [[ $line == '       -'* ]] || continue
    line=${line#       }
    while [[ $line == *", "* ]]; do
      part=${line%%, *}
      line=${line#*, }
      [ "$part" = "$1" ] && return 0
    done
    [[ $line == "$1" || $line == "$1 "* ]] && return 0
  done
  return 1
}
commands=$("$ATHREAD" --help | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')
[ "$(wc -w <<< "$commands")" -ge 8 ] && pass || fail "athread --help lists only: $commands"
for c in $commands; do
  man_section "$c" > section.txt
  if [ ! -s section.txt ]; then fail "athread.1 has no subsection 'athread $c'"; continue; fi
  missing=""
  while IFS= read -r item; do
    documented "$item" < section.txt || missing+=" '$item'"
  done < <(help_items "$c")
  if [ -z "$missing" ]; then pass; else fail "athread.1's 'athread $c' does not document$missing"; fi
done
grep -q '^   athread help$' athread.1.txt && pass || fail "athread.1 does not document 'athread help'"
for word in '--version' 'ATHREAD_INCLUDE'; do
  grep -q -- "^       $word\|, $word" athread.1.txt && pass || fail "athread.1 does not document $word"
done
# every exit status that athread --help names
for code in $("$ATHREAD" --help | sed -n 's/^Exit codes: //p' | grep -oE '[0-9]+ ' | tr -d ' '); do
  sed -n '/^EXIT STATUS/,/^[A-Z]/p' athread.1.txt | grep -qE "^       $code  " && pass || fail "athread.1 does not document exit status $code"
done

# ---------------------------------------------------------------- athread-spec.5 follows the language
MANWIDTH=1000 man -l "$ROOT/man/athread-spec.5" > athread-spec.5.txt 2> /dev/null
keywords=$(grep -E '^"[a-z]+"[[:space:]].*TOK\(KW_' "$ROOT/spec-lang/lexer.l" | grep -oE '^"[a-z]+"' | tr -d '"')
listed=$(grep -A1 'Keywords' athread-spec.5.txt | tr -s ' .,:' '\n' | sort -u)
missing=""
for k in $keywords; do grep -qx "$k" <<< "$listed" || missing+=" $k"; done
[ -n "$keywords" ] && [ -z "$missing" ] && pass || fail "athread-spec.5's keyword list lacks:$missing"
# the example of the page is a spec that athread lint accepts
sed -n '/^EXAMPLES/,/^SEE ALSO/p' athread-spec.5.txt | grep '^       ' | grep -v '^       [A-Z]' | sed 's/^              //' > example.athread
if grep -q '^system P' example.athread && "$ATHREAD" lint example.athread > lint.out 2>&1; then pass; else fail "athread-spec.5's example does not lint: $(head -n 3 lint.out)"; fi

# ---------------------------------------------------------------- zsh completion (completions/_athread)
zsh_completion=$ROOT/completions/_athread
if zsh -n "$zsh_completion" 2> zsh.err; then pass; else fail "zsh -n _athread: $(head -n 3 zsh.err)"; fi
head -n 1 "$zsh_completion" | grep -qx '#compdef athread' && pass || fail "_athread does not begin with #compdef athread"
# zcomplete LINE...: completes each LINE (a TAB at its end) in an interactive
# zsh on a pseudo-terminal (zpty) with compinit and _athread, and prints the
# words each completion offers (sorted, on one line).
cat > complete.zsh << 'ZSH'
zmodload zsh/zpty || exit 2
dir=$1 out=$2
shift 2
: > $out
zpty athread_z zsh -f -i || exit 2
# (LISTMAX: a long list of matches is shown without asking, which would eat the next key)
zpty -w athread_z "LISTMAX=100000; fpath=(${(q)dir} \$fpath); autoload -Uz compinit && compinit -u -D"
# compadd records the words that match before it adds them (not when it only filters: -O, -A, -D)
zpty -w athread_z "_athread_capture() { compadd() { (( \${@[(I)-[OAD]]} )) && { builtin compadd \"\$@\"; return }; local -a got; builtin compadd -O got \"\$@\"; (( \$#got )) && print -rl -- \$got >> ${(q)out}; builtin compadd \"\$@\" }; _main_complete; unfunction compadd; print -r -- --end-- >> ${(q)out} }"
zpty -w athread_z "zle -C athread-capture complete-word _athread_capture; bindkey '^I' athread-capture"
integer n=0 tries
for line in "$@"; do
  (( n++ ))
  zpty -w -n athread_z "$line"$'\t'
  tries=0
  while (( $(grep -c -- '^--end--$' $out) < n )); do
    while zpty -rt athread_z junk; do :; done  # drain the terminal: once the pty is full, zsh blocks
    (( ++tries > 100 )) && { print -u2 "no completion for '$line'"; zpty -d athread_z; exit 3 }
    # read what zsh echoes: a full pseudo-terminal buffer would block it
    while zpty -rt athread_z echoed; do :; done
    sleep 0.1
  done
  zpty -w -n athread_z $'\C-u'
done
zpty -d athread_z
ZSH
zcomplete() {
  timeout 120 zsh -f complete.zsh "${ZSH_COMPLETIONS_DIR:-$ROOT/completions}" zsh.words "$@" 2> zsh.err ||
    { fail "driving zsh completion: $(head -n 3 zsh.err)"; return 1; }
  # one line per completion: its words, sorted and unique
  local cur=() w
  while IFS= read -r w; do
    if [ "$w" = --end-- ]; then
      printf '%s\n' "${cur[@]}" | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//'
      echo
      cur=()
    else
      cur+=("$w")
    fi
  done < zsh.words
}
# each subcommand's options as its --help lists them, short ones too (check: conform's and --for-all)
help_opts() {
  { "$ATHREAD" "$1" --help; [ "$1" = check ] && "$ATHREAD" conform --help; } | grep -E '^  -' | sed -E 's/^  //; s/ {2,}.*//' |
    grep -oE '(^|[ ,] ?)--?[a-zA-Z][a-z0-9-]*' | grep -oE -- '--?[a-zA-Z][a-z0-9-]*' | sort -u | tr '\n' ' ' | sed 's/ $//'
}
lines=()
for c in $commands; do lines+=("athread $c -"); done
mkdir -p w && touch w/b.c w/t.json w/x.txt && printf 'const N = 2;\n  const MAX = N + 1;\nshared int g;\n' > w/a.athread
cases=("compose|athread comp" "symbolic|athread compose --engine s" "auto bmc chc|athread conform --engine "
  "explicit|athread compose --engine=e" "access|athread check --atomicity a" "c math|athread conform --int "
  "havoc system|athread check --env " "a.athread|athread conform w/" "b.c|athread conform w/a.athread w/"
  "t.json|athread viz w/a.athread --trace w/" "--for-all|athread check --fo" "check compose conform|athread help c"
  "MAX N|athread compose w/a.athread --set "
  "$(printf '%s\n' $commands help | sort | tr '\n' ' ' | sed 's/ $//')|athread " "--help --version -V -h|athread -" "MAX|athread lint w/a.athread --set M" "MAX N|athread promela w/a.athread --set=")
for case in "${cases[@]}"; do lines+=("${case#*|}"); done
if zcomplete "${lines[@]}" > zsh.got; then
  i=0
  for c in $commands; do
    i=$((i + 1))
    got=$(sed -n "${i}p" zsh.got)
    if [ "$got" = "$(help_opts "$c")" ]; then pass; else fail "zsh completion of $c's options: '$got', --help lists '$(help_opts "$c")'"; fi
  done
  for case in "${cases[@]}"; do
    i=$((i + 1))
    got=$(sed -n "${i}p" zsh.got)
    if [ "$got" = "${case%%|*}" ]; then pass; else fail "zsh completing '${case#*|}': '$got', expected '${case%%|*}'"; fi
  done
fi

# ---------------------------------------------------------------- make install with DESTDIR, PREFIX=/usr
dest=$SCRATCH/dest
version=$("$ATHREAD" --version | sed 's/^athread //')
if make_dist install DESTDIR="$dest" PREFIX=/usr; then
  missing=""
  for f in bin/athread share/man/man1/athread.1 share/man/man5/athread-spec.5 share/zsh/site-functions/_athread \
    share/bash-completion/completions/athread share/pkgconfig/athread.pc share/athread/include/athread.h; do
    [ -f "$dest/usr/$f" ] || missing+=" $f"
  done
  [ -z "$missing" ] && pass || fail "make install DESTDIR=... PREFIX=/usr did not install:$missing"
  cmp -s "$dest/usr/share/man/man1/athread.1" "$ROOT/man/athread.1" && cmp -s "$dest/usr/share/zsh/site-functions/_athread" "$zsh_completion" &&
    pass || fail "the installed man page or zsh completion differs from the source"
  found=$(man -M "$dest/usr/share/man" -w 5 athread-spec 2> /dev/null)
  [ "$found" = "$dest/usr/share/man/man5/athread-spec.5" ] && pass || fail "man -M finds athread-spec(5) at '$found'"
  got=$(PKG_CONFIG_PATH="$dest/usr/share/pkgconfig" pkg-config --cflags athread 2>&1 | sed 's/ *$//')
  [ "$got" = "-I/usr/share/athread/include" ] && pass || fail "pkg-config --cflags athread (DESTDIR install): '$got'"
  ! grep -q '@' "$dest/usr/share/pkgconfig/athread.pc" && pass || fail "athread.pc keeps a placeholder: $(grep '@' "$dest/usr/share/pkgconfig/athread.pc")"
  got=$(PKG_CONFIG_PATH="$dest/usr/share/pkgconfig" pkg-config --modversion athread 2>&1)
  [ "$got" = "$version" ] && [ -n "$version" ] && pass || fail "pkg-config --modversion athread: '$got', athread --version: '$version'"
  make_dist uninstall DESTDIR="$dest" PREFIX=/usr && [ -z "$(find "$dest" ! -type d)" ] && pass ||
    fail "make uninstall DESTDIR=... left: $(find "$dest" ! -type d | head -n 5)"
else
  fail "make install DESTDIR=$dest PREFIX=/usr failed"
fi

# ---------------------------------------------------------------- PREFIX=<dir>: a driver builds with pkg-config
prefix=$SCRATCH/prefix
if make_dist install PREFIX="$prefix"; then
  cflags=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags athread 2>&1 | sed 's/ *$//')
  [ "$cflags" = "-I$prefix/share/athread/include" ] && pass || fail "pkg-config --cflags athread: '$cflags'"
  cat > driver.c << 'C'
#include <athread.h>
#include <assert.h>
#include <stdatomic.h>
int g;
void thread_a(void) {
  assume(g > 0);
  assert(g > 0);
}
C
  # shellcheck disable=SC2086 # the flags are words
  if cc -std=c11 -Wall -Werror $cflags -c driver.c -o driver.o 2> cc.err && [ -s driver.o ] &&
    ! cc -std=c11 -c driver.c -o /dev/null 2> /dev/null; then
    pass
  else
    fail "cc -std=c11 \$(pkg-config --cflags athread) -c driver.c: $(head -n 3 cc.err)"
  fi
  if make_dist uninstall PREFIX="$prefix"; then
    left=$(find "$prefix" ! -type d)
    [ -z "$left" ] && pass || fail "make uninstall PREFIX=... left: $left"
  else
    fail "make uninstall PREFIX=$prefix failed"
  fi
else
  fail "make install PREFIX=$prefix failed"
fi

summary dist
[ $failed = 0 ]
