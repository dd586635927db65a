/* Private to keps's command layer (src/command/params.c) and its CLI
 * (src/cli/args.c): the one lookup of a parameter's values. Both keep a
 * command's parameters as the catalog's entries (opts[n]) with their values
 * in a parallel array, and resolve a job file's relative paths alike;
 * static inline, so nothing is exported. */
#ifndef KEPS_PARAM_LOOKUP_H
#define KEPS_PARAM_LOOKUP_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/command.h"

/* The index of parameter name in opts[0..n), or -1. */
static inline int param_index(const keps_param_info *const *opts, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(opts[i]->name, name) == 0)
            return (int)i;
    return -1;
}

/* The value that counts of a parameter given n times: the last one; NULL
 * when not given. */
static inline const char *param_last(char *const *v, size_t n)
{
    return n ? v[n - 1] : NULL;
}

/* Is a flag's value a yes: given, and not "false", "0" or "no"? */
static inline int param_true(const char *v)
{
    return v && strcmp(v, "false") != 0 && strcmp(v, "0") != 0 && strcmp(v, "no") != 0;
}

/* dir/path for a relative path (not "-") read from a job file in dir;
 * else a copy of path. Malloc'd; NULL when out of memory. */
static inline char *param_job_path(const char *dir, const char *path)
{
    if (!dir || path[0] == '/' || strcmp(path, "-") == 0 || !path[0])
        return strdup(path);
    size_t n = strlen(dir) + strlen(path) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, path);
    return p;
}

#endif
