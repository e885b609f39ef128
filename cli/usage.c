/* cli/usage.c -- the --help text of every subcommand. */
#include <string.h>

#include "cli.h"

typedef struct usage {
  const char *command; /* NULL for the overview */
  const char *text;    /* printed as is */
} usage;

/* clang-format off */
static const usage usages[] = {
  {NULL,
   "usage: athread COMMAND [OPTIONS] ARGS...\n"
   "Abstract threads: check that each thread's C code conforms to a small state\n"
   "machine, then check the composition of the state machines.\n"
   "\n"
   "Commands:\n"
   "  lint     parse and check a specification\n"
   "  fmt      print a specification in canonical layout\n"
   "  check    the C program's verdict: compose, then conform every thread\n"
   "           under the environment of the abstract system\n"
   "  conform  check C code against its abstract threads\n"
   "  compose  model-check the composition of the abstract threads\n"
   "  viz      draw threads, systems and counterexamples\n"
   "  promela  export the system for SPIN\n"
   "  skeleton draft a specification from multithreaded C code\n"
   "\n"
   "  athread help COMMAND   or   athread COMMAND --help   for a command's options\n"
   "  athread --version\n"
   "\n"
   "Exit codes: 0 holds, 1 violation found, 2 bad input or usage, 3 unknown, 4 internal error.\n"},
  {"lint",
   "usage: athread lint [OPTIONS] SPEC.athread...\n"
   "Parse and check each specification. Prints nothing when it is clean;\n"
   "errors and warnings go to stderr as file:line:col: messages.\n"
   "\n"
   "  --set NAME=VALUE   override the const NAME (repeatable)\n"
   "  -w, --no-warnings  do not report warnings\n"
   "  --warnings-as-errors, -Werror  print each warning as an error\n"
   "                     ([-Werror,-Wname]) and exit 2 after any\n"
   "  -h, --help         show this help\n"
   "\n"
   "Warnings, by name: unreachable-state, unused-thread, false-guard (a guard or\n"
   "relation no values of the shared variables satisfy, decided with Z3 within 1 s),\n"
   "false-assertion (likewise a state assertion, except 'assert false').\n"
   "\n"
   "Exit codes: 0 no errors, 2 errors (or bad usage, or a warning with -Werror).\n"},
  {"fmt",
   "usage: athread fmt [OPTIONS] SPEC.athread\n"
   "Print the specification in canonical layout, keeping every comment.\n"
   "\n"
   "  -i, --in-place     rewrite the file instead of printing it\n"
   "  --check            print nothing; exit 1 if the file is not in canonical layout\n"
   "  -h, --help         show this help\n"
   "\n"
   "Exit codes: 0 done (or already canonical), 1 not canonical (--check), 2 syntax errors.\n"},
  {"conform",
   "usage: athread conform SPEC.athread FILE.c... [OPTIONS]\n"
   "Check that each thread's C implementation conforms to its abstract thread:\n"
   "build the sequential program C(T, T#) and prove it with Z3.\n"
   "\n"
   "  --thread T=FUNC       check thread T against C function FUNC (repeatable;\n"
   "                        overrides 'implements')\n"
   "  --engine E            auto (default: bmc when the code has no loop, else chc),\n"
   "                        chc (Spacer on Horn clauses: proofs with loops), or bmc\n"
   "  --bound K             bmc: explore up to K segments (about one per step)\n"
   "  --timeout SEC         stop with verdict unknown after SEC seconds (whole run)\n"
   "  --atomicity A         access (default: each read or write of shared memory is\n"
   "                        one atomic step) or statement (each C statement is one)\n"
   "  --env E               what the other threads do between two steps: system\n"
   "                        (default: edges of the spec, each where the abstract\n"
   "                        system can take it) or havoc (any values: the paper's)\n"
   "  --certificate         chc: print the invariant of the proof (re-checked)\n"
   "  --int c|math          the code's integers: C's (widths, wrap-around; overflow,\n"
   "                        division by zero and bad shifts are violations) or\n"
   "                        mathematical ones (the paper's semantics); default c\n"
   "  --emit-c OUT.c        write C(T, T#) as a sequential C program (SV-COMP style)\n"
   "  --emit-smt2 OUT.smt2  write the Horn clauses (sat means conforms)\n"
   "                        (with several threads: OUT.THREAD.c, OUT.THREAD.smt2)\n"
   "  -I DIR, -D NAME[=V], -U NAME   passed to the C preprocessor\n"
   "  --set NAME=VALUE      override the const NAME (repeatable)\n"
   "  --json                print one JSON object instead of text\n"
   "  --no-timing           leave out times (reproducible output)\n"
   "  --coverage            after a thread conforms, warn about each edge of its\n"
   "                        abstract thread that no step of the code uses\n"
   "                        [-Wunused-edge] (proved: costs up to 4 times the proof)\n"
   "  --warnings-as-errors, -Werror  print warnings as errors; exit 2 instead of 0\n"
   "  -h, --help            show this help\n"
   "\n"
   "Exit codes: 0 every checked thread conforms, 1 some thread does not conform\n"
   "(a counterexample is printed), 2 bad input, 3 unknown (bound, timeout, or\n"
   "interrupted by Ctrl-C or SIGTERM during the proofs; a second Ctrl-C kills).\n"},
  {"check",
   "usage: athread check SPEC.athread FILE.c... [OPTIONS]\n"
   "The verdict for the C program: model-check the abstract system; when it is\n"
   "safe, check that every thread's C code conforms to its abstract thread while\n"
   "the other threads take the spec's edges where the system can take them. Every\n"
   "thread conforms and the system is safe, so the program is safe (under the\n"
   "assumptions printed). Options are conform's (see athread conform --help), and\n"
   "\n"
   "  --for-all N           the verdict for every N >= 1 instances of the threads\n"
   "                        listed T[N]: the system by compose --for-all N, each\n"
   "                        thread while the others move where the counter\n"
   "                        system's invariants allow (no thread may read tid,\n"
   "                        and only the system line may depend on N)\n"
   "\n"
   "Exit codes: 0 safe, 1 not proved (the abstract system is unsafe or a thread\n"
   "does not conform: a counterexample is printed), 2 bad input, 3 unknown (a\n"
   "limit, an engine that gave up, or a thread of the spec without C code).\n"},
  {"compose",
   "usage: athread compose SPEC.athread [OPTIONS]\n"
   "Model-check the system composed of the abstract threads: search every\n"
   "reachable state for an instance that goes wrong or a false system invariant.\n"
   "\n"
   "  --set NAME=VALUE      override the const NAME (repeatable)\n"
   "  --engine E            auto (default: explicit when every choice is finite), explicit, or symbolic\n"
   "  --no-symmetry         do not reduce interchangeable instances\n"
   "  --max-states K        stop with verdict unknown after K states\n"
   "  --timeout SEC         stop with verdict unknown after SEC seconds\n"
   "  --max-memory MIB      memory for the state store (default: 80% of what is available)\n"
   "  --trace-out FILE      write the counterexample as JSON (for athread viz)\n"
   "  --json                print one JSON object instead of text\n"
   "  --progress            report progress on stderr every 2 s (always on a terminal)\n"
   "  --no-timing           leave out times and rates (reproducible output)\n"
   "  --certificate         symbolic: print the inductive invariant of a proof\n"
   "  --bound K             symbolic: search counterexamples up to K steps (default 100)\n"
   "  --for-all N           prove for every N >= 1 (counter abstraction of the threads with N\n"
   "                        instances, which must not use tid nor be named by index; N's value\n"
   "                        in the spec is not used); unsafe: the trace for the N found\n"
   "  --show-properties     list the spec's properties (ID, place, kind, formula); check nothing\n"
   "  --property ID         check only property ID (repeatable; IDs from --show-properties)\n"
   "  --warnings-as-errors, -Werror  print warnings as errors; exit 2 instead of 0\n"
   "  -h, --help            show this help\n"
   "\n"
   "After a safe verdict the explicit engine warns about each state no reachable\n"
   "state has an instance in [-Wnever-reached] and each edge out of a reached\n"
   "state that no reachable state enables [-Wnever-taken]: the verdict does not\n"
   "depend on them.\n"
   "\n"
   "Exit codes: 0 safe, 1 unsafe (a shortest counterexample is printed), 2 bad input,\n"
   "3 unknown (a limit was reached, or Ctrl-C or SIGTERM interrupted the search;\n"
   "statistics are printed; a second Ctrl-C kills). No --trace-out file is written\n"
   "unless the verdict is unsafe.\n"},
  {"viz",
   "usage: athread viz SPEC.athread [OPTIONS]\n"
   "Draw the abstract threads and the system with Graphviz: one box per thread,\n"
   "its states (the assertion under the name; an arrow from a dot into each init\n"
   "state; a red octagon when the assertion is constantly false) and its edges\n"
   "(the label, or the guard, relation and assignments), and a legend with the\n"
   "shared variables, the instances, the init predicates and the invariants.\n"
   "In SVG, hovering over a state or edge shows it in full.\n"
   "\n"
   "  --set NAME=VALUE    override the const NAME (repeatable)\n"
   "  -o, --output FILE   write FILE instead of DOT on stdout; the extension picks\n"
   "                      the format: .svg, .png, .pdf, or .dot/.gv (DOT, before layout)\n"
   "  --thread T          draw only thread T\n"
   "  --trace FILE        overlay the counterexample of 'athread compose --trace-out FILE'\n"
   "                      (visited states filled, taken edges red and numbered by step,\n"
   "                      the failing state marked, final shared values in the legend)\n"
   "                      or of 'athread conform --json' (the candidate states after each step)\n"
   "  --idle              show the implicit idle steps as dashed self-loops\n"
   "  -h, --help          show this help\n"
   "\n"
   "Exit codes: 0 written, 2 bad input or usage (a trace that does not fit the spec,\n"
   "an unknown format or thread, an unwritable output), 4 Graphviz failed.\n"},
  {"promela",
   "usage: athread promela [OPTIONS] SPEC.athread\n"
   "Export the system as a Promela model for SPIN, with athread's semantics:\n"
   "one process per instance, one atomic step per edge, and an assertion that\n"
   "fails exactly when the system goes wrong. Check the model with\n"
   "  spin -a OUT.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E\n"
   "(\"errors: 0\" means safe).\n"
   "\n"
   "  --set NAME=VALUE   override the const NAME (repeatable)\n"
   "  -o, --output FILE  write the model to FILE (atomically) instead of stdout\n"
   "  -h, --help         show this help\n"
   "\n"
   "Exit codes: 0 written, 2 bad input or usage, or a spec that has no exact Promela\n"
   "counterpart (an unbounded int whose next or initial value is not determined).\n"},
  {"skeleton",
   "usage: athread skeleton [OPTIONS] FILE.c...\n"
   "Draft a specification from a multithreaded C program (read with libclang):\n"
   "the globals its threads touch, directly or through the functions they call,\n"
   "as shared variables with their C initial values (structs flattened and bound\n"
   "to their C paths, locks as bools that are true while held); one thread with\n"
   "one state per function started by pthread_create, CreateThread,\n"
   "PsCreateSystemThread or kthread_run, with the variables it reads and writes;\n"
   "and a system with the instance counts from main's creation calls and loops,\n"
   "and main's constant writes before the first start as init predicates.\n"
   "The draft passes athread lint and is in athread fmt's layout.\n"
   "\n"
   "  -o, --output FILE   write the draft to FILE (atomically) instead of stdout\n"
   "  -I DIR, -D NAME[=V], -U NAME   passed to clang\n"
   "  -h, --help          show this help\n"
   "\n"
   "Exit codes: 0 written, 2 bad input (clang's errors, or no thread started) or usage.\n"},
};
/* clang-format on */

void cli_usage(FILE *out, const char *command) {
  for (size_t i = 0; i < sizeof usages / sizeof *usages; i++) {
    const char *c = usages[i].command;
    if ((!c && !command) || (c && command && strcmp(c, command) == 0)) {
      fputs(usages[i].text, out);
      return;
    }
  }
}
