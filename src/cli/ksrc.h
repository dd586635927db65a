/* Where `keps kepsilon` gets its equivalence classes: OLA (ksrc_ola.c),
 * Mondrian (ksrc_mondrian.c) or the input's own QI values (given). Each
 * source fills one of these; cmd_kepsilon.c does the rest. */
#ifndef KEPS_CLI_KSRC_H
#define KEPS_CLI_KSRC_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "keps/mondrian.h"

typedef struct ksrc ksrc;
struct ksrc {
    uint32_t *cls;        /* [n] class per row; KEPS_NONE = suppressed by the k-anonymization */
    size_t suppressed;    /* rows the k-anonymization suppressed */
    double search_ms;     /* time spent in the k-anonymization */
    /* Released text of QI number q (index into schema->qi) for row i; buf
     * has 256 bytes. Only called for rows with a class. */
    const char *(*label)(ksrc *src, size_t row, size_t q, char *buf);
    /* Adds the source's own report members (transformation, metrics...). */
    void (*json)(ksrc *src, keps_json *j);
    void (*free)(ksrc *src);
    const keps_schema *s;
    void *state;
};

/* Each returns 0 or an exit code after printing the error. */
int ksrc_given(cli_ctx *c, const keps_schema *s, size_t k, ksrc *out);
int ksrc_ola(cli_ctx *c, const keps_schema *s, size_t k, ksrc *out);
int ksrc_mondrian(cli_ctx *c, keps_schema *s, keps_table *t, size_t k, ksrc *out);

/* Mondrian labels of one row, never truncated: buf (256 bytes) when the
 * label fits, else a per-QI buffer grown to its length (valid until the
 * next call for the same QI). Out of memory: buf, truncated (never NULL,
 * which a release's cell callback reads as "the input's value"). */
typedef struct label_bufs {
    char **big;
    size_t *cap;
    size_t n;
} label_bufs;
const char *mondrian_row_label(const keps_schema *s, const keps_mondrian_result *r, size_t cls, size_t q, char *buf,
                               label_bufs *lb);
void label_bufs_free(label_bufs *lb);

#endif
