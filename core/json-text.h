/* core/json-text.h -- JSON strings from bytes that need not be UTF-8.
 *
 * jansson refuses text that is not valid UTF-8: json_string returns NULL,
 * json_object_set_new then drops the key and json_pack fails whole. Paths,
 * C statements and messages that quote them come from the user and may hold
 * any byte, so they go through json_text. Returns a new reference.
 */
#ifndef ATHREAD_JSON_TEXT_H
#define ATHREAD_JSON_TEXT_H

#include <jansson.h>

/* A JSON string of s, each byte that is not part of a valid UTF-8 sequence
 * replaced by U+FFFD. */
json_t *json_text(const char *s);

#endif
