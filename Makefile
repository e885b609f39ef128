# athread -- build, test and install.
#   make              build bin/athread
#   make test         install missing packages, build, run the whole suite
#   make asan-test    the whole suite again with AddressSanitizer + UBSan
#   make demo         run athread on every example
#   make format       lay out the C sources with clang-format (.clang-format)
#   make install PREFIX=/usr/local   the binary, headers, man pages, bash and zsh
#                     completions, athread.pc (make uninstall PREFIX=... removes them)

PREFIX   ?= /usr/local
CC       ?= cc
BUILD    ?= build
BIN      ?= bin
SAN      ?=
OPT      ?= -O2
CFLAGS   ?=
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g $(OPT) $(WARN) $(CFLAGS) $(shell pkg-config --cflags libgvc) -MMD -MP
LDLIBS    = -pthread $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) $(shell pkg-config --libs z3 2>/dev/null || echo -lz3) $(shell pkg-config --libs libgvc)

# libclang 19 for cfront/ (athread skeleton): from llvm-config-19 when it is
# installed, else Debian's layout of libclang-19-dev.
LLVM_CONFIG ?= llvm-config-19
LLVM_INCDIR := $(or $(shell $(LLVM_CONFIG) --includedir 2>/dev/null),/usr/lib/llvm-19/include)
LLVM_LIBDIR := $(or $(shell $(LLVM_CONFIG) --libdir 2>/dev/null),/usr/lib/llvm-19/lib)
CLANG_RESOURCE_INCLUDE := $(firstword $(wildcard $(LLVM_LIBDIR)/clang/*/include))
LDLIBS   += -L$(LLVM_LIBDIR) -lclang -Wl,-rpath,$(LLVM_LIBDIR)

ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS    += -fsanitize=address,undefined
endif

# Generated scanners and parsers trip warnings in code we do not own.
GEN_CFLAGS = -Wno-unused-function -Wno-sign-compare -Wno-missing-prototypes -Wno-unused-parameter

CORE_SRC = core/arena.c core/barrier.c core/vec.c core/strbuf.c core/diag.c core/diag-render.c core/ir.c core/symtab.c core/outfile.c core/suggest.c core/smt.c core/smt-drive.c core/smt-print.c core/interrupt.c core/progress.c core/json-text.c core/utf8.c core/linediff.c core/sha256.c
SPEC_SRC = spec-lang/ast.c spec-lang/spec.c spec-lang/sema.c spec-lang/sema-expr.c spec-lang/semantics.c spec-lang/plans.c spec-lang/fmt.c spec-lang/fmt-wrap.c spec-lang/properties.c spec-lang/vacuity.c
COMPOSE_SRC = compose/model.c compose/result.c compose/model-product.c compose/model-compiled.c compose/store.c compose/engine-explicit.c compose/report.c compose/promela.c compose/step-plan.c compose/expr-print.c compose/export-text.c compose/murphi.c compose/edge-smt.c compose/symbolic.c compose/model-product-smt.c compose/engine-symbolic.c compose/engine-forall.c compose/forall-counters.c compose/forall-hull.c compose/forall-param.c compose/run.c compose/replay.c
CONFORM_SRC = conformance/prog.c conformance/instrument.c conformance/encode.c conformance/lemmas.c conformance/engine-chc.c conformance/engine-bmc.c conformance/conform.c conformance/trace.c conformance/report.c conformance/emit-c.c conformance/initial.c conformance/atomicity.c conformance/environment.c conformance/env-closure.c conformance/env-counters.c conformance/replay.c conformance/run.c conformance/check.c conformance/witness.c conformance/coverage.c
RACES_SRC = races/lockset.c races/races.c races/search.c races/hunt.c races/proof.c
INFER_SRC = infer/draft.c infer/infer.c
CFRONT_SRC = cfront/clang.c cfront/c-ast.c cfront/cfront.c cfront/translate.c cfront/translate-expr.c cfront/translate-stmt.c cfront/cfront-lower.c cfront/cfront-expr.c cfront/cfront-access.c cfront/cfront-copy.c cfront/cfront-sequence.c cfront/cfront-pointer.c cfront/cfront-models.c cfront/program.c cfront/types.c cfront/init.c cfront/walk.c cfront/skeleton.c cfront/skeleton-names.c
VIZ_SRC  = viz/viz.c viz/viz-graph.c viz/viz-legend.c viz/viz-text.c viz/viz-trace.c viz/viz-race.c
REVIEW_SRC = review/review.c review/review-page.c
CLI_SRC  = cli/main.c cli/usage.c cli/options.c cli/cmd-spec.c cli/cmd-compose.c cli/cmd-promela.c cli/cmd-murphi.c cli/cmd-viz.c cli/cmd-conform.c cli/code-args.c cli/cmd-skeleton.c cli/json-header.c cli/trace-consts.c cli/cmd-replay.c cli/sarif-flows.c cli/cmd-review.c cli/cmd-races.c cli/cmd-infer.c
GEN_SRC  = $(BUILD)/gen/spec-parser.c $(BUILD)/gen/spec-lexer.c

LIB_OBJ  = $(CORE_SRC:%.c=$(BUILD)/%.o) $(SPEC_SRC:%.c=$(BUILD)/%.o) $(COMPOSE_SRC:%.c=$(BUILD)/%.o) $(CONFORM_SRC:%.c=$(BUILD)/%.o) $(VIZ_SRC:%.c=$(BUILD)/%.o) $(REVIEW_SRC:%.c=$(BUILD)/%.o) $(CFRONT_SRC:%.c=$(BUILD)/%.o) $(RACES_SRC:%.c=$(BUILD)/%.o) $(INFER_SRC:%.c=$(BUILD)/%.o) $(GEN_SRC:%.c=%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB      = $(BUILD)/libathread.a
ATHREAD  = $(BIN)/athread

UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_BIN = $(BUILD)/tests/unit-tests
ROUNDTRIP_BIN = $(BUILD)/tests/roundtrip

.PHONY: all deps test check asan-test valgrind-test demo install uninstall clean format
all: $(ATHREAD)

$(ATHREAD): $(CLI_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/gen/spec-parser.c $(BUILD)/gen/spec-parser.h: spec-lang/parser.y
	@mkdir -p $(BUILD)/gen
	bison -Wall -Werror --defines=$(BUILD)/gen/spec-parser.h -o $(BUILD)/gen/spec-parser.c $<

$(BUILD)/gen/spec-lexer.c $(BUILD)/gen/spec-lexer.h: spec-lang/lexer.l
	@mkdir -p $(BUILD)/gen
	flex --header-file=$(BUILD)/gen/spec-lexer.h -o $(BUILD)/gen/spec-lexer.c $<

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/spec-parser.h $(BUILD)/gen/spec-lexer.h
	$(CC) $(ALL_CFLAGS) $(GEN_CFLAGS) -Ispec-lang -I$(BUILD)/gen -c -o $@ $<

$(BUILD)/spec-lang/%.o: spec-lang/%.c $(BUILD)/gen/spec-parser.h $(BUILD)/gen/spec-lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Ispec-lang -I$(BUILD)/gen -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/cfront/%.o: ALL_CFLAGS += -I$(LLVM_INCDIR) -DCFRONT_CLANG_INCLUDE='"$(CLANG_RESOURCE_INCLUDE)"'

# The builtins header when athread runs from neither bin/ nor an install tree.
$(BUILD)/cli/code-args.o: ALL_CFLAGS += -DATHREAD_INCLUDE_DIR='"$(PREFIX)/share/athread/include"'

# The review page's styles and script, as C arrays (review_page_css,
# review_page_js and their _len) that review-page.c inlines.
$(BUILD)/gen/review-assets.h: review/page.css review/page.js
	@mkdir -p $(dir $@)
	(xxd -i review/page.css && xxd -i review/page.js) > $@.tmp && mv -f $@.tmp $@

$(BUILD)/review/review-page.o: $(BUILD)/gen/review-assets.h
$(BUILD)/review/review-page.o: ALL_CFLAGS += -I$(BUILD)/gen

# The exporters' header comments, templates in compose/*-header.txt, as C
# arrays (compose_murphi_header_txt, compose_promela_header_txt).
$(BUILD)/gen/%-header.h: compose/%-header.txt
	@mkdir -p $(dir $@)
	xxd -i $< > $@.tmp && mv -f $@.tmp $@

$(BUILD)/compose/murphi.o: $(BUILD)/gen/murphi-header.h
$(BUILD)/compose/promela.o: $(BUILD)/gen/promela-header.h
$(BUILD)/compose/murphi.o $(BUILD)/compose/promela.o: ALL_CFLAGS += -I$(BUILD)/gen

# The text of core/ir-arith.h, as a C array (core_ir_arith_h) that the C
# written for a compiled model starts with.
$(BUILD)/gen/ir-arith-text.h: core/ir-arith.h
	@mkdir -p $(dir $@)
	xxd -i $< > $@.tmp && mv -f $@.tmp $@

$(BUILD)/compose/model-compiled.o: $(BUILD)/gen/ir-arith-text.h
$(BUILD)/compose/model-compiled.o: ALL_CFLAGS += -I$(BUILD)/gen

# ---------------------------------------------------------------- tests

$(UNIT_BIN): $(UNIT_SRC) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(UNIT_SRC) $(LIB) $$(pkg-config --cflags --libs cmocka) $(LDLIBS)

$(ROUNDTRIP_BIN): tests/roundtrip.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB)

deps:
	@scripts/deps.sh

# The suite without the package check (CI and asan-test call it directly).
check: $(ATHREAD) $(UNIT_BIN) $(ROUNDTRIP_BIN)
	@ATHREAD=$(ATHREAD) ATHREAD_INCLUDE=$(CURDIR)/include UNIT_BIN=$(UNIT_BIN) ROUNDTRIP_BIN=$(ROUNDTRIP_BIN) tests/run-all.sh

test: deps
	@$(MAKE) --no-print-directory check

# Under the sanitizers the random oracles run fewer cases (the same seeds): they
# look for memory errors on the paths our code takes, which the first cases
# reach; make test has already run the full counts (CI runs both). The
# theorem oracles' time limit doubles: a proof near the limit in the plain
# build (12 s of 20 s) passes it under the sanitizers.
ASAN_ORACLE_COUNTS = ORACLE_SLOWDOWN=2 ORACLE_CASES=50 RUMUR_CASES=2 RACE_PROOF_CASES=40 THEOREM_CASES=60 THEOREM_ACCESS_CASES=30 THEOREM_CHECK_CASES=40 THEOREM_FORALL_CASES=20 THEOREM_INFER_CASES=30 THEOREM_INFER_ACCESS_CASES=20 FORALL_CASES=10 SVCOMP_TIMEOUT=20

asan-test: deps
	@STRESS_SLOWDOWN=4 $(ASAN_ORACLE_COUNTS) $(MAKE) --no-print-directory SAN=1 BUILD=build-asan BIN=build-asan/bin OPT=-O1 check

valgrind-test: deps $(ATHREAD) $(UNIT_BIN) $(ROUNDTRIP_BIN)
	@VALGRIND="valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --suppressions=$(CURDIR)/tests/viz/graphviz.supp -q" \
	  ATHREAD=$(ATHREAD) ATHREAD_INCLUDE=$(CURDIR)/include UNIT_BIN=$(UNIT_BIN) ROUNDTRIP_BIN=$(ROUNDTRIP_BIN) tests/run-all.sh

FORMAT_SRC = $(wildcard core/*.[ch] spec-lang/*.[ch] compose/*.[ch] conformance/*.[ch] viz/*.[ch] review/*.[ch] cfront/*.[ch] races/*.[ch] infer/*.[ch] cli/*.[ch] fuzz/*.c tests/unit/*.[ch]) tests/roundtrip.c

format:
	clang-format -i $(FORMAT_SRC)

demo: deps
	@$(MAKE) --no-print-directory $(ATHREAD)
	@ATHREAD=$(ATHREAD) scripts/demo.sh

COMPLETIONS = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
MANDIR      = $(DESTDIR)$(PREFIX)/share/man
# athread.pc: no library and nothing architecture-dependent, so share/pkgconfig
# (on pkg-config's default path for /usr and /usr/local, like lib/pkgconfig).
PKGCONFIG   = $(DESTDIR)$(PREFIX)/share/pkgconfig
VERSION    := $(shell sed -n 's/^\#define ATHREAD_VERSION "\(.*\)"/\1/p' cli/cli.h)

install: $(ATHREAD)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/athread/include/athread/models $(COMPLETIONS) $(ZSH_COMPLETIONS) $(MANDIR)/man1 $(MANDIR)/man5 $(PKGCONFIG)
	install -m 755 $(ATHREAD) $(DESTDIR)$(PREFIX)/bin/athread
	install -m 644 include/athread.h include/assert.h include/stdatomic.h $(DESTDIR)$(PREFIX)/share/athread/include/
	install -m 644 include/athread/models/*.h $(DESTDIR)$(PREFIX)/share/athread/include/athread/models/
	install -m 644 completions/athread.bash $(COMPLETIONS)/athread
	install -m 644 completions/_athread $(ZSH_COMPLETIONS)/_athread
	install -m 644 man/athread.1 $(MANDIR)/man1/athread.1
	install -m 644 man/athread-spec.5 $(MANDIR)/man5/athread-spec.5
	sed -e '/^#/d' -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' athread.pc.in > $(PKGCONFIG)/athread.pc.tmp
	chmod 644 $(PKGCONFIG)/athread.pc.tmp
	mv -f $(PKGCONFIG)/athread.pc.tmp $(PKGCONFIG)/athread.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/athread $(COMPLETIONS)/athread $(ZSH_COMPLETIONS)/_athread
	rm -f $(MANDIR)/man1/athread.1 $(MANDIR)/man5/athread-spec.5 $(PKGCONFIG)/athread.pc
	rm -rf $(DESTDIR)$(PREFIX)/share/athread

clean:
	rm -rf build build-asan bin out build-fuzz

# ---------------------------------------------------------------- fuzzing (fuzz/README.md)
#   make fuzz-build   the libFuzzer harnesses, built with clang in $(FUZZ_BUILD)
#   make fuzz-smoke   replay tests/fuzz-regress/, then each harness FUZZ_SECONDS (60)
#   make fuzz         each harness FUZZ_SECONDS (3600), corpus kept in $(FUZZ_BUILD)/corpus

FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES    = spec cfront trace
FUZZ_BINS     = $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz-%)

.PHONY: fuzz-build fuzz-harnesses fuzz-smoke fuzz
fuzz-build:
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) BIN=$(FUZZ_BUILD)/bin OPT=-O1 \
	  CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" LDFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-harnesses

# athread itself too (instrumented the same way): it writes the trace seeds.
fuzz-harnesses: $(FUZZ_BINS) $(ATHREAD)

# A spec a harness embeds, as the lines of a C string literal.
$(BUILD)/gen/fuzz-cfront-spec.inc: fuzz/cfront.athread
$(BUILD)/gen/fuzz-trace-spec.inc: examples/bluetooth/bluetooth.athread
$(BUILD)/gen/fuzz-%-spec.inc:
	@mkdir -p $(dir $@)
	sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&\\n"/' $(filter %.athread,$^) > $@

$(BUILD)/fuzz/fuzz-spec: fuzz/fuzz-spec.c fuzz/fuzz.h $(LIB)
$(BUILD)/fuzz/fuzz-cfront: fuzz/fuzz-cfront.c fuzz/fuzz.h $(BUILD)/gen/fuzz-cfront-spec.inc $(LIB)
$(BUILD)/fuzz/fuzz-trace: fuzz/fuzz-trace.c fuzz/fuzz.h $(BUILD)/gen/fuzz-trace-spec.inc $(LIB)
$(BUILD)/fuzz/fuzz-%:
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -I$(BUILD)/gen -o $@ $(filter %.c,$^) $(LIB) $(LDLIBS)

fuzz-smoke: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) fuzz/run.sh smoke $(FUZZ_NAMES)

fuzz: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(or $(FUZZ_SECONDS),3600) FUZZ_JOBS=$(or $(FUZZ_JOBS),1) FUZZ_WORKERS=$(FUZZ_WORKERS) fuzz/run.sh long $(FUZZ_NAMES)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
