/* A driver's dispatch routine: it waits until the device is free, takes it,
 * sends one request to the hardware, and gives the device back. */
#include <athread.h>

bool busy = false;   /* a dispatch routine owns the device */
int  sent = 0;       /* requests sent to the hardware */

void Dispatch(void) {
  atomic {           /* wait for the device and take it, in one step */
    await(!busy);    /* (real code needs a lock or an */
    busy = true;     /* atomic compare-and-swap here) */
  }
  sent = sent + 1;   /* send the request */
  busy = false;      /* give the device back */
}
