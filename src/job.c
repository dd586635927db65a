#include "keps/job.h"

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

static int push_value(keps_job_entry *e, const char *s)
{
    char **v = realloc(e->values, (e->nvalues + 1) * sizeof *v);
    if (!v)
        return -1;
    e->values = v;
    if (!(v[e->nvalues] = strdup(s)))
        return -1;
    e->nvalues++;
    return 0;
}

static keps_status yerr(keps_error *err, const char *name, const yaml_mark_t *m, const char *what)
{
    return keps_error_at(err, KEPS_EINPUT, name, m->line + 1, m->column + 1, "%s", what);
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
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
    keps_status st = KEPS_OK;
    int state = WANT_KEY, depth = 0, done = 0, seen_map = 0;
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
                keps_job_entry *e = realloc(job->entries, (job->n + 1) * sizeof *e);
                if (!e) {
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                    break;
                }
                job->entries = e;
                e = &job->entries[job->n++];
                memset(e, 0, sizeof *e);
                while (*v == '-')
                    v++;
                if (!(e->key = strdup(v))) {
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                    break;
                }
                e->line = ev.start_mark.line + 1;
                e->col = ev.start_mark.column + 1;
                for (size_t i = 0; i + 1 < job->n; i++)
                    if (strcmp(job->entries[i].key, e->key) == 0)
                        st = yerr(err, name, &ev.start_mark, "this option is given twice; use a list for several values");
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
    if (st) {
        keps_job_free(job);
        return st;
    }
    *out = job;
    return KEPS_OK;
}

keps_status keps_job_load(const char *path, keps_job **out, keps_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return keps_error_at(err, KEPS_EINPUT, path, 0, 0, "cannot open the job file: %s", strerror(errno));
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!b)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st = keps_job_load_buffer(b, n, path, out, err);
    free(b);
    return st;
}
