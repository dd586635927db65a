/* keps: a small JSON writer for reports (writing only; keps parses no JSON).
 * Builds into a growing string; commas and nesting are tracked for the
 * caller. Non-finite numbers are written as null. */
#ifndef KEPS_JSON_H
#define KEPS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_json {
    char *buf;
    size_t len, cap;
    int depth;
    int first[64];  /* no member written yet at this depth */
    char close[64]; /* closing bracket owed at this depth */
    int oom;
} keps_json;

void keps_json_init(keps_json *j);
void keps_json_free(keps_json *j);
/* key may be NULL inside arrays or at top level. */
void keps_json_object(keps_json *j, const char *key);
void keps_json_array(keps_json *j, const char *key);
void keps_json_end(keps_json *j);     /* closes the innermost object/array */
void keps_json_str(keps_json *j, const char *key, const char *v);
void keps_json_num(keps_json *j, const char *key, double v);
void keps_json_int(keps_json *j, const char *key, long long v);
void keps_json_bool(keps_json *j, const char *key, int v);
void keps_json_null(keps_json *j, const char *key);
/* Inserts already-formatted JSON text as a value. */
void keps_json_raw(keps_json *j, const char *key, const char *json);
/* The text so far (NUL-terminated); NULL after an allocation failure. */
const char *keps_json_text(const keps_json *j);

#ifdef __cplusplus
}
#endif
#endif
