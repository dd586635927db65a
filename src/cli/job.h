/* keps: YAML job files. A job file is a mapping from option names (the
 * CLI's long names, without "--") to a scalar or a list of scalars, e.g.
 *
 *   command: anonymize
 *   input: adult.csv
 *   qi: [age:interval=5,10,20, sex:adult_hierarchy_sex.csv]
 *   k: 5
 *
 * The loader only parses; the CLI checks keys against the command's options
 * (an unknown key is an error naming it) and lets flags override them. */
#ifndef KEPS_JOB_H
#define KEPS_JOB_H

#include <stddef.h>

#include "keps/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_job_entry {
    char *key;
    char **values;
    size_t nvalues;
    size_t line, col;      /* 1-based position of the key */
} keps_job_entry;

typedef struct keps_job {
    char *source;
    keps_job_entry *entries;
    size_t n;
} keps_job;

keps_status keps_job_load(const char *path, keps_job **out, keps_error *err);
keps_status keps_job_load_buffer(const char *data, size_t len, const char *name,
                                 keps_job **out, keps_error *err);
void keps_job_free(keps_job *job);

#ifdef __cplusplus
}
#endif
#endif
