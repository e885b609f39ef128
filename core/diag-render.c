/* core/diag-render.c -- the messages a sink kept, as JSON (athread's own
 * shape, docs/diagnostics.schema.json) or as a SARIF 2.1.0 log
 * (tests/sarif/sarif-schema-2.1.0.json). docs/language.md section 9 tells
 * what each field means. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "json-text.h"
#include "strbuf.h"

static const char *const level_names[] = {"error", "warning", "note"};

/* ---------------------------------------------------------------- json */

/* One message; its notes are added by the caller. */
static json_t *record_json(const diag_record *r) {
  json_t *o = json_object();
  json_object_set_new(o, "level", json_string(level_names[r->level]));
  json_object_set_new(o, "message", json_text(r->message));
  if (r->file) json_object_set_new(o, "file", json_text(r->file));
  if (r->warning) json_object_set_new(o, "warning", json_string(r->warning));
  if (!r->line) return o;
  json_object_set_new(o, "line", json_integer(r->line));
  json_object_set_new(o, "column", json_integer(r->column));
  json_object_set_new(o, "end_line", json_integer(r->end_line));
  json_object_set_new(o, "end_column", json_integer(r->end_column));
  return o;
}

/* The notes of record i (kept after it). */
static json_t *notes_json(const diag_sink *sink, size_t i) {
  json_t *notes = json_array();
  for (size_t k = i + 1; k < sink->record_count; k++)
    if (sink->records[k].parent == (long)i) json_array_append_new(notes, record_json(&sink->records[k]));
  return notes;
}

json_t *diag_json(const diag_sink *sink) {
  json_t *all = json_array();
  for (size_t i = 0; i < sink->record_count; i++) {
    if (sink->records[i].parent >= 0) continue;
    json_t *o = record_json(&sink->records[i]);
    json_object_set_new(o, "notes", notes_json(sink, i));
    json_array_append_new(all, o);
  }
  return all;
}

/* ---------------------------------------------------------------- sarif */

/* A path as a URI reference (RFC 3986): an absolute path as a file: URI, a
 * relative one relative to the directory athread ran in; every byte outside
 * the unreserved characters and '/' percent-encoded. Returns owned. */
static char *path_uri(const char *path) {
  strbuf b = {0};
  if (path[0] == '/') sbuf_puts(&b, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
      sbuf_putc(&b, (char)*p);
    else sbuf_printf(&b, "%%%02X", *p);
  }
  return sbuf_take(&b);
}

/* The index of file in the run's artifacts, added when new. */
static size_t artifact_index(json_t *artifacts, const char *file) {
  char *uri = path_uri(file);
  size_t i, n = json_array_size(artifacts);
  for (i = 0; i < n; i++) {
    json_t *u = json_object_get(json_object_get(json_array_get(artifacts, i), "location"), "uri");
    if (strcmp(json_string_value(u), uri) == 0) break;
  }
  if (i == n) json_array_append_new(artifacts, json_pack("{s:{s:s}}", "location", "uri", uri));
  free(uri);
  return i;
}

json_t *diag_sarif_location(json_t *artifacts, const char *file, uint32_t line, uint32_t column_cp) {
  size_t index = artifact_index(artifacts, file);
  json_t *artifact = json_object_get(json_array_get(artifacts, index), "location");
  json_t *where = json_pack("{s:{s:O,s:I}}", "artifactLocation", "uri", json_object_get(artifact, "uri"), "index",
                            (json_int_t)index);
  if (line)
    json_object_set_new(where, "region",
                        json_pack("{s:I,s:I}", "startLine", (json_int_t)line, "startColumn", (json_int_t)column_cp));
  return where;
}

/* Where r is: its file and, when it has one, its region (the span). */
static json_t *physical_location(const diag_record *r, json_t *artifacts) {
  json_t *where = diag_sarif_location(artifacts, r->file, r->line, r->column_cp);
  json_t *region = json_object_get(where, "region");
  if (region) {
    json_object_set_new(region, "endLine", json_integer(r->end_line));
    json_object_set_new(region, "endColumn", json_integer(r->end_column_cp));
  }
  return where;
}

/* A note as a related location of its result (id: its place among them). */
static json_t *related_location(const diag_record *r, json_t *artifacts, size_t id) {
  json_t *o = json_pack("{s:I,s:{s:o}}", "id", (json_int_t)id, "message", "text", json_text(r->message));
  if (r->file) json_object_set_new(o, "physicalLocation", physical_location(r, artifacts));
  return o;
}

/* Record i (not a note) as a result, its notes as related locations. */
static json_t *result_of(const diag_sink *sink, size_t i, json_t *artifacts) {
  const diag_record *r = &sink->records[i];
  json_t *o = json_pack("{s:s,s:{s:o}}", "level", level_names[r->level], "message", "text", json_text(r->message));
  if (r->warning) json_object_set_new(o, "ruleId", json_sprintf("-W%s", r->warning)); /* as GCC's SARIF names them */
  if (r->file)
    json_object_set_new(o, "locations", json_pack("[{s:o}]", "physicalLocation", physical_location(r, artifacts)));
  json_t *related = json_array();
  for (size_t k = i + 1; k < sink->record_count; k++)
    if (sink->records[k].parent == (long)i)
      json_array_append_new(related, related_location(&sink->records[k], artifacts, json_array_size(related)));
  if (json_array_size(related)) json_object_set_new(o, "relatedLocations", related);
  else json_decref(related);
  return o;
}

static json_t *driver_of(const diag_tool *tool) {
  json_t *driver = json_pack("{s:s,s:s}", "name", tool->name, "version", tool->version);
  if (tool->uri) json_object_set_new(driver, "informationUri", json_string(tool->uri));
  return driver;
}

/* Exit codes 0, 1 and 3 are verdicts: the run did its work. */
static bool successful(int exit_code) { return exit_code == 0 || exit_code == 1 || exit_code == 3; }

json_t *diag_sarif(const diag_sink *sink, const diag_tool *tool, int exit_code) {
  json_t *artifacts = json_array(), *results = json_array();
  for (size_t i = 0; i < sink->record_count; i++)
    if (sink->records[i].parent < 0) json_array_append_new(results, result_of(sink, i, artifacts));
  json_t *run = json_pack("{s:{s:o},s:s,s:o,s:o,s:[{s:b,s:i}]}", "tool", "driver", driver_of(tool), "columnKind",
                          "unicodeCodePoints", "artifacts", artifacts, "results", results, "invocations",
                          "executionSuccessful", successful(exit_code), "exitCode", exit_code);
  return json_pack("{s:s,s:s,s:[o]}", "version", "2.1.0", "$schema",
                   "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", "runs",
                   run);
}

/* ---------------------------------------------------------------- render */

/* The json format's document: the messages and how many of each kind. */
static json_t *json_document(const diag_sink *sink, const diag_tool *tool, int exit_code) {
  return json_pack("{s:s,s:s,s:i,s:i,s:i,s:o}", "tool", tool->name, "version", tool->version, "exit_code", exit_code,
                   "errors", sink->errors, "warnings", sink->warnings, "diagnostics", diag_json(sink));
}

void diag_render(const diag_sink *sink, const diag_tool *tool, int exit_code) {
  if (sink->format == DIAG_TEXT || !sink->out) return;
  json_t *doc = sink->format == DIAG_JSON ? json_document(sink, tool, exit_code) : diag_sarif(sink, tool, exit_code);
  json_dumpf(doc, sink->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', sink->out);
  json_decref(doc);
}
