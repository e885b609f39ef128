#!/usr/bin/env bash
# scripts/deps.sh -- installs the Debian packages athread needs and says
# which ones it installed. Run by `make deps` (and so by `make test`/`make demo`).
set -eu

packages=(
  bison flex pkg-config   # the spec front end
  libz3-dev z3            # conformance and symbolic composition
  libgraphviz-dev graphviz # viz
  xxd                     # review/page.css and page.js become C arrays (Makefile)
  chromium chromium-driver python3-selenium # tests/review/browser.py: the review page in headless Chromium
  libcmocka-dev           # unit tests
  libjansson-dev          # JSON output and traces
  spin                    # reference model checker for differential tests
  rumur                   # Murphi model checker: athread murphi's peer in the differential tests and bench/compose-vs-rumur
  clang libclang-rt-14-dev # make fuzz-build: libFuzzer harnesses (fuzz/), its fuzzer runtime
  libclang-19-dev         # athread skeleton: cfront/ reads C through libclang (>= 17 for operator kinds)
  man-db groff-base mandoc zsh # tests/dist.sh: the man pages render without warnings, zsh completion
  nodejs                  # tests/editors.sh: VS Code's own TextMate tokenizer (npm ci of tests/editors/package-lock.json)
  python3-jsonschema      # tests/json-contract.sh, tests/diagnostics/validate.sh, tests/witness.sh,
                          # tests/sarif-flows.sh: reports, --sarif logs,
                          # diagnostics and --witness files against their schemas (run with /usr/bin/python3,
                          # which sees Debian's Python packages)
  python3-yaml            # tests/witness.sh: parses the YAML of conform --witness
  vim                     # tests/editors.sh runs editors/vim headless: needs +syntax and +eval, which vim-tiny lacks
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo > /dev/null; then sudo="sudo"; else
    echo "deps: missing ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
echo "deps: installed ${missing[*]}"
