#include "job.h"
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

void keps_job_free(keps_job *job)
{
    if (!job)
        return;
    for (size_t i = 0; i < job->n; i++) {
        free(job->entries[i].key);
        for (size_t v = 0; v < job->entries[i].nvalues; v++)
            free(job->entries[i].values[v]);
        free(job->entries[i].values);
    }
    free(job->entries);
    free(job->source);
    free(job);
}

/* Arrays of n items grow to the next power of two when n is one (their
 * capacity, never stored), so that a long list costs linear time. */
static int grow(void **a, size_t n, size_t size)
{
    if (n & (n - 1))
        return 0;
    void *b = realloc(*a, (n ? 2 * n : 1) * size);
    if (!b)
        return -1;
    *a = b;
    return 0;
}

static int push_value(keps_job_entry *e, const char *s)
{
    if (grow((void **)&e->values, e->nvalues, sizeof *e->values))
        return -1;
    char **v = e->values;
    if (!(v[e->nvalues] = strdup(s)))
        return -1;
    e->nvalues++;
    return 0;
}

static keps_status yerr(keps_error *err, const char *name, const yaml_mark_t *m, const char *what)
{
    return keps_error_at(err, KEPS_EINPUT, name, m->line + 1, m->column + 1, "%s", what);
}

static int by_key(const void *a, const void *b)
{
    const keps_job_entry *x = *(keps_job_entry *const *)a, *y = *(keps_job_entry *const *)b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x < y ? -1 : x > y);
}

/* A key given twice is an error at its second place (the first such in
 * the file); sorted, not compared pairwise, so that a large file of
 * distinct keys costs n log n. */
static keps_status no_key_twice(const keps_job *job, keps_error *err)
{
    const keps_job_entry **e = malloc((job->n ? job->n : 1) * sizeof *e);
    if (!e)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; i < job->n; i++)
        e[i] = &job->entries[i];
    qsort(e, job->n, sizeof *e, by_key);
    const keps_job_entry *dup = NULL;
    for (size_t i = 1; i < job->n; i++)
        if (strcmp(e[i - 1]->key, e[i]->key) == 0 && (!dup || e[i] < dup))
            dup = e[i];
    free(e);
    if (!dup)
        return KEPS_OK;
    return keps_error_at(err, KEPS_EINPUT, job->source, dup->line, dup->col,
                         "this option is given twice; use a list for several values");
}

/* States of the small event machine: top mapping, key read, inside a list. */
enum { WANT_KEY, WANT_VALUE, IN_LIST };

keps_status keps_job_load_buffer(const char *data, size_t len, const char *name,
                                 keps_job **out, keps_error *err)
{
    *out = NULL;
    keps_job *job = calloc(1, sizeof *job);
    if (!job || !(job->source = strdup(name))) {
        free(job);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    const char *nul = memchr(data, '\0', len);
    if (nul) { /* libyaml would say "control characters are not allowed" */
        size_t line = 1, col = 1;
        for (const char *q = data; q < nul; q++)
            *q == '\n' ? (line++, col = 1) : col++;
        keps_job_free(job);
        return keps_error_at(err, KEPS_EINPUT, name, line, col,
                             "NUL byte: a job file is YAML text (UTF-8); this file looks binary or UTF-16");
    }
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
    keps_status st = KEPS_OK;
    int state = WANT_KEY, depth = 0, done = 0, seen_map = 0, docs = 0;
    while (!st && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            char what[300];
            snprintf(what, sizeof what, "invalid YAML: %s%s%s", p.problem ? p.problem : "syntax error",
                     p.context ? " " : "", p.context ? p.context : "");
            st = yerr(err, name, &p.problem_mark, what);
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (docs++)
                st = yerr(err, name, &ev.start_mark,
                          "a second YAML document ('---') starts here; a job file holds one: put all options in "
                          "one mapping, or one job per file");
            break;
        case YAML_MAPPING_START_EVENT:
            if (depth != 0 || seen_map)
                st = yerr(err, name, &ev.start_mark,
                          "nested mappings are not allowed: each option takes a value or a list of values");
            depth++;
            seen_map = 1;
            break;
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_SEQUENCE_START_EVENT:
            if (state != WANT_VALUE)
                st = yerr(err, name, &ev.start_mark,
                          state == IN_LIST ? "nested lists are not allowed" : "the job file must be a mapping of option: value");
            state = IN_LIST;
            break;
        case YAML_SEQUENCE_END_EVENT:
            state = WANT_KEY;
            break;
        case YAML_SCALAR_EVENT: {
            const char *v = (const char *)ev.data.scalar.value;
            if (depth != 1) {
                st = yerr(err, name, &ev.start_mark, "the job file must be a mapping of option: value");
            } else if (state == WANT_KEY) {
                if (grow((void **)&job->entries, job->n, sizeof *job->entries)) {
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                    break;
                }
                keps_job_entry *e = &job->entries[job->n++];
                memset(e, 0, sizeof *e);
                while (*v == '-')
                    v++;
                if (!(e->key = strdup(v))) {
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                    break;
                }
                e->line = ev.start_mark.line + 1;
                e->col = ev.start_mark.column + 1;
                state = WANT_VALUE;
            } else {
                if (push_value(&job->entries[job->n - 1], v))
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                if (state == WANT_VALUE)
                    state = WANT_KEY;
            }
            break;
        }
        case YAML_ALIAS_EVENT:
            st = yerr(err, name, &ev.start_mark, "YAML aliases are not supported in job files");
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    if (!st)
        st = no_key_twice(job, err);
    if (st) {
        keps_job_free(job);
        return st;
    }
    *out = job;
    return KEPS_OK;
}

/* A job file holds options: far below this. A larger file (or a device
 * such as /dev/zero) is refused after reading one byte more, not read
 * until memory runs out. */
#define JOB_MAX (1u << 20)

keps_status keps_job_load(const char *path, keps_job **out, keps_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return keps_error_at(err, keps_status_of_errno(errno), path, 0, 0, "cannot open the job file: %s",
                             strerror(errno));
    char *b = malloc(JOB_MAX + 1);
    size_t n = b ? fread(b, 1, JOB_MAX + 1, f) : 0;
    int e = ferror(f) ? errno : 0;
    fclose(f);
    if (!b)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st;
    if (e)
        st = keps_error_at(err, keps_status_of_errno(e), path, 0, 0, "cannot read the job file: %s", strerror(e));
    else if (!memchr(b, '\0', n) && n > JOB_MAX)
        st = keps_error_at(err, KEPS_EINPUT, path, 0, 0,
                           "the job file is larger than 1 MiB; a job file holds a command's options (is this the "
                           "right file?)");
    else
        st = keps_job_load_buffer(b, n, path, out, err);
    free(b);
    return st;
}
