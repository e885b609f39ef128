/* compose/result.c -- freeing a compose_result. */
#include "result.h"

#include <stdlib.h>

void compose_result_free(compose_result *r) {
  free(r->trace_states);
  free(r->trace);
  r->trace_states = NULL;
  r->trace = NULL;
}
