/* SPDX-License-Identifier: MIT
 * sm_sched_cta_aware.c - CTA-aware warp scheduling in the style of OWL (Jog et al., ASPLOS 2013),
 * the CTA-aware baseline of Gong's ch.5 and ch.6 (digest Appendix A: +4 % over GTO on AMD,
 * +5 % over RR on Kepler).
 *
 * Design: see sm_sched_ext.h. OWL forms CTA groups and gives one group priority until its warps
 * stall, so that the group's working set stays in the L1 (and, with its bank-level part, DRAM
 * parallelism; not modelled). Here a group is one CTA and the priority is strict by CTA age: the
 * ready warps of the oldest resident CTA first (round-robin after the last issued warp inside
 * it), then those of the next oldest, and so on. A CTA's age is the age of its oldest warp the
 * scheduler holds (warps of one CTA arrive together). State: per slot its age and CTA slot
 * (from the warp's view on first offer), the warp that issued last.
 */
#include "sm_sched_ext.h"

#include <stdlib.h>

#define NONE UINT32_MAX

struct cta_sched {
    uint32_t max;
    uint64_t *age;        /* [max]; UINT64_MAX when not resident */
    uint32_t *cta;        /* [max]: the warp's CTA slot (known[w]) */
    bool *known;
    uint64_t *cta_age;    /* per CTA slot: the age of its oldest warp here */
    uint32_t ncta;
    uint32_t last;
};

static void ca_add(void *impl, uint32_t w, uint64_t age)
{
    struct cta_sched *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = age;
    s->known[w] = false;
}

static void ca_remove(void *impl, uint32_t w)
{
    struct cta_sched *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = UINT64_MAX;
    s->known[w] = false;
    if (s->last == w)
        s->last = NONE;
}

static void ca_issued(void *impl, uint32_t w)
{
    struct cta_sched *s = impl;
    s->last = w;
}

static void ca_long_wait(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}

static void ca_destroy(void *impl)
{
    struct cta_sched *s = impl;
    if (!s)
        return;
    free(s->age);
    free(s->cta);
    free(s->known);
    free(s->cta_age);
    free(s);
}

/* the age of w's CTA: its own age when the CTA's record is older than any warp here */
static uint64_t group_age(const struct cta_sched *s, uint32_t w)
{
    uint32_t c = s->cta[w];
    return c < s->ncta ? s->cta_age[c] : s->age[w];
}

static bool prior(const struct cta_sched *s, uint32_t a, uint32_t b)
{
    uint64_t ga = group_age(s, a), gb = group_age(s, b);
    if (s->cta[a] != s->cta[b])
        return ga != gb ? ga < gb : s->cta[a] < s->cta[b];
    bool aa = s->last != NONE && a <= s->last, ab = s->last != NONE && b <= s->last;
    if (aa != ab)
        return ab;
    return a < b;
}

static unsigned ca_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                         unsigned n, uint32_t *out)
{
    struct cta_sched *s = impl;
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = ready[i];
        if (s->known[w])
            continue;
        struct hd_warp_view v;
        env->view(env->sm, w, &v);
        s->cta[w] = v.cta_slot;
        s->known[w] = true;
    }
    /* CTA ages over the offered warps (a CTA none of whose warps is ready is not ordered) */
    for (unsigned i = 0; i < n; i++)
        if (s->cta[ready[i]] < s->ncta)
            s->cta_age[s->cta[ready[i]]] = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        uint32_t c = s->cta[ready[i]];
        if (c < s->ncta && s->age[ready[i]] < s->cta_age[c])
            s->cta_age[c] = s->age[ready[i]];
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = ready[i];
        unsigned j = i;
        while (j > 0 && prior(s, w, out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = w;
    }
    return n;
}

static const struct hd_sched_ops ca_ops = {"cta_aware", false,       ca_add,       ca_remove,
                                           ca_order,    ca_issued,   ca_long_wait, ca_destroy};

int hd_sched_cta_aware_create(const struct hd_sm_params *p, struct hd_sched *out)
{
    struct cta_sched *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->max = p->max_warps;
    s->ncta = p->max_ctas > p->max_warps ? p->max_ctas : p->max_warps;
    s->last = NONE;
    s->age = malloc(s->max * sizeof *s->age);
    s->cta = calloc(s->max, sizeof *s->cta);
    s->known = calloc(s->max, sizeof *s->known);
    s->cta_age = calloc(s->ncta, sizeof *s->cta_age);
    if (!s->age || !s->cta || !s->known || !s->cta_age) {
        ca_destroy(s);
        return -1;
    }
    for (uint32_t i = 0; i < s->max; i++)
        s->age[i] = UINT64_MAX;
    out->ops = &ca_ops;
    out->impl = s;
    return 0;
}
