/* Basic sequential / parallel composition (see include/keps/accountant.h). */
#include "keps/accountant.h"

#include "fp_up.h"

#include <stdio.h>
#include <string.h>

void keps_acct_init(keps_accountant *a)
{
    memset(a, 0, sizeof *a);
}

void keps_acct_add(keps_accountant *a, const char *label, double epsilon, double delta)
{
    a->epsilon = keps_add_up(a->epsilon, epsilon); /* a stated total is never below the true one */
    a->delta = keps_add_up(a->delta, delta);
    if (a->nsteps < KEPS_ACCT_MAX_STEPS) {
        keps_acct_step *s = &a->steps[a->nsteps];
        snprintf(s->label, sizeof s->label, "%s", label ? label : "");
        s->epsilon = epsilon;
        s->delta = delta;
    }
    a->nsteps++;
}

void keps_acct_add_times(keps_accountant *a, const char *label, double epsilon, double delta, double times)
{
    keps_acct_add(a, label, keps_mul_up(epsilon, times), keps_mul_up(delta, times));
}

double keps_acct_sum(double epsilon_a, double epsilon_b)
{
    return keps_add_up(epsilon_a, epsilon_b);
}

void keps_acct_max(keps_accountant *group, double epsilon, double delta)
{
    if (epsilon > group->epsilon)
        group->epsilon = epsilon;
    if (delta > group->delta)
        group->delta = delta;
}

void keps_acct_add_parallel(keps_accountant *a, const char *label, const keps_accountant *parts,
                            size_t n)
{
    keps_accountant g;
    keps_acct_init(&g);
    for (size_t i = 0; i < n; i++)
        keps_acct_max(&g, parts[i].epsilon, parts[i].delta);
    keps_acct_add(a, label, g.epsilon, g.delta);
}

void keps_acct_json(const keps_accountant *a, keps_json *j, const char *key)
{
    keps_json_object(j, key);
    keps_json_num(j, "epsilon", a->epsilon);
    keps_json_num(j, "delta", a->delta);
    keps_json_array(j, "steps");
    size_t n = a->nsteps < KEPS_ACCT_MAX_STEPS ? a->nsteps : KEPS_ACCT_MAX_STEPS;
    for (size_t i = 0; i < n; i++) {
        keps_json_object(j, NULL);
        keps_json_str(j, "label", a->steps[i].label);
        keps_json_num(j, "epsilon", a->steps[i].epsilon);
        keps_json_num(j, "delta", a->steps[i].delta);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_end(j);
}
