# completions/athread.bash -- bash completion for athread: subcommands, each
# subcommand's options (tests/cli.sh checks them against --help), the values
# of the options that take a few, and files. `make install` puts it in
# $(PREFIX)/share/bash-completion/completions/athread.

_athread_options() {
  case $1 in
    lint) echo "--help --no-warnings --set --warnings-as-errors" ;;
    fmt) echo "--check --help --in-place" ;;
    conform) echo "--atomicity --bound --certificate --coverage --emit-c --emit-smt2 --engine --env --help --int --json --no-timing --set --thread --timeout --warnings-as-errors" ;;
    check) echo "--atomicity --bound --certificate --coverage --emit-c --emit-smt2 --engine --env --for-all --help --int --json --no-timing --set --thread --timeout --warnings-as-errors" ;;
    compose) echo "--bound --certificate --engine --for-all --help --json --max-memory --max-states --no-symmetry --no-timing --progress --property --set --show-properties --timeout --trace-out --warnings-as-errors" ;;
    viz) echo "--help --idle --output --set --thread --trace" ;;
    promela) echo "--help --output --set" ;;
    skeleton) echo "--help --output" ;;
  esac
}

# The values an option takes, when there are a few.
_athread_values() {
  case $1 in
    --engine) [ "$2" = compose ] && echo "auto explicit symbolic" || echo "auto bmc chc" ;;
    --atomicity) echo "access statement" ;;
    --env) echo "system havoc" ;;
    --int) echo "c math" ;;
  esac
}

_athread() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} command=${COMP_WORDS[1]:-}
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "lint fmt conform check compose viz promela skeleton help --help --version" -- "$cur")
    return
  fi
  local values
  values=$(_athread_values "$prev" "$command")
  if [ -n "$values" ]; then
    mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_athread_options "$command")" -- "$cur")
    return
  fi
  local files='\.(athread|json)$'
  case $command in conform | check | skeleton) files='\.(athread|c|h)$' ;; esac
  mapfile -t COMPREPLY < <(compgen -f -- "$cur" | grep -E "$files"; compgen -d -- "$cur")
}

complete -o filenames -F _athread athread
