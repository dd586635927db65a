/* keps: the guarantee a method states, as a value (docs/spec.md, "The
 * guarantee value").
 *
 * Every method fills one from the parameters it actually used: the model
 * ("epsilon-DP", "(k,epsilon)-anonymity", ...), its parameters as named
 * values in the order the report lists them (each with what it means),
 * what it covers, the released columns it does not cover, the parameters
 * that were read from the data (which make a DP model "MODEL
 * (data-dependent)"), the criteria of a combined model, whether parts of
 * the report are the curator's only, and the composition steps whose total
 * is the stated epsilon (keps/accountant.h). The CLI prints it with
 * keps_guarantee_json (the report's "guarantee" object) and
 * keps_guarantee_text (summaries and warnings); a C caller reads the same
 * fields. */
#ifndef KEPS_GUARANTEE_H
#define KEPS_GUARANTEE_H

#include <stddef.h>

#include "keps/accountant.h"
#include "keps/criteria.h"
#include "keps/json.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum keps_gkind {
    KEPS_G_NUM,            /* num */
    KEPS_G_INT,            /* i */
    KEPS_G_STR,            /* str */
    KEPS_G_BOOL,           /* i (0 or 1) */
    KEPS_G_MODELS,         /* strs: model names, each marked "(data-dependent)" like the model */
    KEPS_G_CRITERIA,       /* sub[0..nsub): one guarantee per criterion */
    KEPS_G_DATA_DEPENDENT, /* where data_dependent is listed */
    KEPS_G_NOT_COVERED     /* where not_covered is listed */
} keps_gkind;

typedef struct keps_guarantee keps_guarantee;

typedef struct keps_gfield {
    char *name; /* the report's key */
    keps_gkind kind;
    double num;
    long long i;
    char *str;
    char **strs;
    size_t nstrs;
    keps_guarantee *sub;
    size_t nsub;
    const char *meaning; /* what the parameter means (static text), NULL if none given */
    int markup;          /* str names parameters as {name} (keps_guarantee_spell) */
} keps_gfield;

struct keps_guarantee {
    char *model;            /* the plain model name */
    int dp;                 /* 1: a DP model, which data-dependent items mark "(data-dependent)" */
    int curator_only;       /* 1: the report holds figures from the original values (report_note) */
    keps_gfield *field;     /* in the report's order */
    size_t nfield;
    char **data_dependent;  /* parameters read from the data, e.g. "bounds: FICA, FEDTAX" */
    unsigned char *dd_markup; /* [ndd] 1: the item names parameters as {name} */
    size_t ndd;
    char **not_covered;     /* released columns outside the guarantee */
    size_t nnc;
    keps_accountant acct;   /* composition steps; epsilon/delta their total (nsteps 0: none recorded) */
    int oom;                /* 1 if an allocation failed (the value is then incomplete) */
};

void keps_guarantee_init(keps_guarantee *g, const char *model, int dp);
void keps_guarantee_free(keps_guarantee *g);

/* Parameters, appended in order; meaning may be NULL (static text). */
void keps_guarantee_num(keps_guarantee *g, const char *name, double v, const char *meaning);
void keps_guarantee_int(keps_guarantee *g, const char *name, long long v, const char *meaning);
void keps_guarantee_str(keps_guarantee *g, const char *name, const char *v);
void keps_guarantee_bool(keps_guarantee *g, const char *name, int v);
/* A text that names parameters as {name} (the library speaks of parameters,
 * a front-end spells them: keps_guarantee_spell). */
void keps_guarantee_note(keps_guarantee *g, const char *name, const char *text);
/* A list of model names (e.g. rr's "models"); add them with keps_guarantee_model_add. */
void keps_guarantee_models(keps_guarantee *g, const char *name);
void keps_guarantee_model_add(keps_guarantee *g, const char *model);
/* A list of criteria of a combined model (e.g. "criteria"), and a
 * criterion appended to the last list: returns the sub-guarantee to fill,
 * NULL when out of memory. */
void keps_guarantee_criteria(keps_guarantee *g, const char *name);
keps_guarantee *keps_guarantee_criterion(keps_guarantee *g, const char *model);
/* Where "data_dependent" and "not_covered" go in the report. */
void keps_guarantee_place_data_dependent(keps_guarantee *g);
void keps_guarantee_place_not_covered(keps_guarantee *g);
/* A data-dependent item: a sentence that may name parameters as {name},
 * or a text kept verbatim (one holding column names). */
void keps_guarantee_data_dependent(keps_guarantee *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void keps_guarantee_data_dependent_text(keps_guarantee *g, const char *text);
void keps_guarantee_not_covered(keps_guarantee *g, const char *column);

/* Spells the {name} markup of notes and data-dependent items the way a
 * front-end spells its parameters (keps/command.h's keps_render; the CLI:
 * "--name"), in place. */
void keps_guarantee_spell(keps_guarantee *g, const char *(*spell)(void *ud, const char *name, char *buf, size_t len),
                          void *ud);

/* The model as stated: "MODEL (data-dependent)" for a DP model with
 * data-dependent items, else MODEL. Static per-thread buffer. */
const char *keps_guarantee_model(const keps_guarantee *g);
/* The field named name, NULL if none. */
const keps_gfield *keps_guarantee_get(const keps_guarantee *g, const char *name);
/* The numeric parameter name (NUM or INT), NaN if absent. */
double keps_guarantee_value(const keps_guarantee *g, const char *name);

/* The criteria-based models (keps anonymize: OLA, Mondrian, MDAV): the
 * criteria's names joined by " + " ("k-anonymity" when c is NULL), k when
 * k > 0, then (c not NULL) "criteria": every criterion with its parameters
 * and column. crit, spec and t name the sensitive columns. */
void keps_criteria_guarantee(keps_guarantee *g, long long k, const keps_criteria *crit, const keps_criterion *c,
                             size_t nc, const keps_sensitive_spec *spec, const keps_table *t);
/* The lattice search's suppression terms after the criteria: the limit as
 * a share and in rows; subset: only the research subset is released. */
void keps_suppression_guarantee(keps_guarantee *g, double limit, size_t limit_rows, int subset);
/* The report's names of a criterion's parameters p[0] and p[1] (NULL: none)
 * and of a ground distance. */
void keps_criterion_param_names(keps_criterion_kind k, const char **a, const char **b);
const char *keps_sensitive_type_name(keps_sensitive_type ty);

/* The report's object under key (NULL inside an array). */
void keps_guarantee_json(const keps_guarantee *g, keps_json *j, const char *key);
/* One line: "MODEL: name value, ..." plus not covered / data-dependent
 * items and composition steps, written into buf (always terminated).
 * Returns the length it needed. */
size_t keps_guarantee_text(const keps_guarantee *g, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
