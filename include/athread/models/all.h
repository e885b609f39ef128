/* athread/models/all.h -- the primitive models that `athread conform` reads
 * with every C program (the C front end parses this file before the user's
 * files). Each model is a C function named athread_model_NAME: a call to
 * NAME in the checked code, when the code has no body for NAME, runs the
 * model's body instead (inlined like any call). To model a function of your
 * own, give NAME a body in your code (it wins over the model), or add a
 * header here that defines athread_model_NAME.
 *
 * The models speak only of shared state the spec can bind: a lock object is
 * a bool cell ("held"), a semaphore an int cell (its count), an event a bool
 * cell (signaled), atomic integers the int cells of their objects. Bind one
 * to each object the code uses: `shared bool m_held binds m;`.
 */
#include "state.h"

#include "gcc.h"
#include "linux.h"
#include "pthread.h"
#include "stdatomic.h"
#include "windows.h"
