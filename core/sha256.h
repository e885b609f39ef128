/* core/sha256.h -- SHA-256 (FIPS 180-4) of a byte string, as the lowercase
 * hex digest that SV-COMP witnesses name their input files by.
 *
 * Borrows everything; writes into the caller's buffer.
 */
#ifndef ATHREAD_SHA256_H
#define ATHREAD_SHA256_H

#include <stddef.h>

/* Writes the 64 hex digits of SHA-256(data[0 .. len)) and a NUL to hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
