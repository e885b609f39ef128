# completions/athread.bash -- bash completion for athread: subcommands, each
# subcommand's options (tests/cli.sh checks them against --help), the values
# of the options that take a few, and files. `make install` puts it in
# $(PREFIX)/share/bash-completion/completions/athread.

_athread_options() {
  case $1 in
    lint) echo "--diagnostics-format --help --no-warnings --set --warnings-as-errors" ;;
    fmt) echo "--check --diagnostics-format --diff --help --in-place --list" ;;
    conform) echo "--atomicity --bound --certificate --certificate-format --coverage --diagnostics-format --emit-c --emit-smt2 --engine --env --help --int --json --no-timing --progress --sarif --set --thread --timeout --warnings-as-errors --witness" ;;
    check) echo "--atomicity --bound --certificate --certificate-format --coverage --diagnostics-format --emit-c --emit-smt2 --engine --env --for-all --help --html --int --json --no-timing --progress --sarif --set --thread --timeout --warnings-as-errors --witness" ;;
    compose) echo "--bound --certificate --certificate-format --diagnostics-format --engine --for-all --help --json --max-memory --max-states --no-symmetry --no-timing --progress --property --sarif --set --show-properties --threads --timeout --trace-out --warnings-as-errors" ;;
    viz) echo "--diagnostics-format --format --help --idle --output --set --thread --trace" ;;
    review) echo "--diagnostics-format --for-all --help --max-states --output --set --thread --timeout" ;;
    replay) echo "--diagnostics-format --help --no-timing --set" ;;
    promela) echo "--diagnostics-format --help --output --set" ;;
    murphi) echo "--diagnostics-format --help --no-symmetry --output --set" ;;
    skeleton) echo "--diagnostics-format --help --output" ;;
    races) echo "--diagnostics-format --for-all --help --json --sarif --set --thread" ;;
    infer) echo "--all --atomicity --diagnostics-format --help --output" ;;
  esac
}

# The values an option takes, when there are a few.
_athread_values() {
  case $1 in
    --engine) [ "$2" = compose ] && echo "auto explicit symbolic" || echo "auto bmc chc" ;;
    --atomicity) echo "access statement" ;;
    --env) echo "system havoc" ;;
    --int) echo "c math" ;;
    -T | --format) echo "svg png pdf dot gv" ;;
    --diagnostics-format) echo "text json sarif" ;;
    --certificate-format) echo "spec smt" ;;
  esac
}

_athread() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} command=${COMP_WORDS[1]:-}
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "lint fmt conform check compose replay viz review promela murphi skeleton races infer help --help --version" -- "$cur")
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
  case $command in conform | check | skeleton | races | infer) files='\.(athread|c|h)$' ;; esac
  mapfile -t COMPREPLY < <(compgen -f -- "$cur" | grep -E "$files"; compgen -d -- "$cur")
}

complete -o filenames -F _athread athread
