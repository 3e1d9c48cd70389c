/* SPDX-License-Identifier: MIT
 * sm_sched_locality.c - Gong's hint-driven warp-group scheduler (thesis ch.6 §6.3.2; digest
 * ../shared/reference/papers/gong-thesis-haws-locality.md §2.10, §3.7, §8 items 29-30).
 *
 * Design: see sm_sched_ext.h. Groups are per scheduler (each of an SM's schedulers groups the
 * warps it owns; the thesis does not say whether groups span schedulers, §8 item 30). State: per
 * slot its age, arrival number and group key (computed from the warp's view on first offer), the
 * active group and the warp that issued last. order() puts the ready warps of the active group
 * first, round-robin after the last issued warp; when none of them is ready the next group in
 * ascending key order (wrapping) that has a ready warp becomes active. The other groups' ready
 * warps follow in that group order, so that a warp whose collector unit is free still issues
 * when the active group's cannot (the thesis's one-issue-per-cycle model never meets this case).
 * Hint 0 puts every warp in one group: exactly lrr.
 */
#include "cta_dist_locality.h"
#include "sm_sched_ext.h"

#include <stdlib.h>

#define NONE UINT32_MAX

enum { KIND_ALL = 0, KIND_ROW = 1, KIND_SEAM = 2, KIND_COL = 3, KIND_DEAL = 4 };

/* kind (3 bits) | a (32 bits) | b (29 bits) */
static uint64_t pack(uint64_t kind, uint64_t a, uint64_t b)
{
    return kind << 61 | (a & 0xffffffffull) << 29 | (b & 0x1fffffffull);
}

uint64_t hd_locality_group(uint32_t hint, uint32_t x, uint32_t y, uint32_t k, uint32_t nwarps,
                           uint64_t arrival, uint32_t ngroups)
{
    switch (HD_LOCALITY_HINT(hint)) {
    case 1:
        return pack(KIND_ROW, y, k);
    case 2:
        if (nwarps > 1 && k == nwarps - 1)
            return pack(KIND_SEAM, x, y); /* seam between rows y and y + 1 */
        if (nwarps > 1 && k == 0 && y > 0)
            return pack(KIND_SEAM, x, y - 1);
        return pack(KIND_COL, x, 0);
    case 3:
        return pack(KIND_DEAL, 0, arrival % (ngroups ? ngroups : 1));
    default:
        return pack(KIND_ALL, 0, 0);
    }
}

struct loc_sched {
    uint32_t max;
    uint32_t ngroups;    /* hint 3 */
    uint64_t *age;       /* [max]; UINT64_MAX when not resident */
    uint64_t *arrival;   /* [max] */
    uint64_t *key;       /* [max]: group key, valid when known */
    bool *known;         /* [max] */
    uint32_t *launch;    /* [max]: launch of the warp (groups never span launches) */
    uint64_t arrivals;
    uint32_t last;       /* warp that issued last */
    bool has_active;
    uint32_t act_launch;
    uint64_t act_key;
};

static void ls_add(void *impl, uint32_t w, uint64_t age)
{
    struct loc_sched *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = age;
    s->arrival[w] = s->arrivals++;
    s->known[w] = false;
}

static void ls_remove(void *impl, uint32_t w)
{
    struct loc_sched *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = UINT64_MAX;
    s->known[w] = false;
    if (s->last == w)
        s->last = NONE;
}

static void ls_issued(void *impl, uint32_t w)
{
    struct loc_sched *s = impl;
    s->last = w;
}

static void ls_long_wait(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}

static void ls_destroy(void *impl)
{
    struct loc_sched *s = impl;
    if (!s)
        return;
    free(s->age);
    free(s->arrival);
    free(s->key);
    free(s->known);
    free(s->launch);
    free(s);
}

static void learn(struct loc_sched *s, const struct hd_sched_env *env, uint32_t w)
{
    if (s->known[w])
        return;
    struct hd_warp_view v;
    env->view(env->sm, w, &v);
    s->key[w] = hd_locality_group(v.hint, v.ctaid[0], v.ctaid[1], v.warp_in_cta, v.cta_warps,
                                  s->arrival[w], s->ngroups);
    /* hint 0: one group over every launch (lrr); otherwise groups never span launches */
    s->launch[w] = HD_LOCALITY_HINT(v.hint) ? v.launch : 0;
    s->known[w] = true;
}

/* group order: (launch, key) ascending, rotated so that the active group comes first */
static bool before(uint32_t la, uint64_t ka, uint32_t lb, uint64_t kb)
{
    return la != lb ? la < lb : ka < kb;
}

/* w's group comes before the active one: it is visited after the ring wraps */
static bool wraps(const struct loc_sched *s, uint32_t w)
{
    return s->has_active && before(s->launch[w], s->key[w], s->act_launch, s->act_key);
}

static bool same_group(const struct loc_sched *s, uint32_t a, uint32_t b)
{
    return s->launch[a] == s->launch[b] && s->key[a] == s->key[b];
}

/* a sorts before b: group ring order, then round-robin after `last` inside the group */
static bool prior(const struct loc_sched *s, uint32_t a, uint32_t b)
{
    if (!same_group(s, a, b)) {
        bool wa = wraps(s, a), wb = wraps(s, b);
        if (wa != wb)
            return wb;
        return before(s->launch[a], s->key[a], s->launch[b], s->key[b]);
    }
    bool aa = s->last != NONE && a <= s->last, ab = s->last != NONE && b <= s->last;
    if (aa != ab)
        return ab;
    return a < b;
}

static unsigned ls_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                         unsigned n, uint32_t *out)
{
    struct loc_sched *s = impl;
    if (n == 0)
        return 0;
    for (unsigned i = 0; i < n; i++)
        learn(s, env, ready[i]);
    for (unsigned i = 0; i < n; i++) { /* insertion sort: ready sets are small */
        uint32_t w = ready[i];
        unsigned j = i;
        while (j > 0 && prior(s, w, out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = w;
    }
    /* the active group has no ready warp: the next group in ring order becomes active */
    if (!s->has_active || s->launch[out[0]] != s->act_launch || s->key[out[0]] != s->act_key) {
        s->has_active = true;
        s->act_launch = s->launch[out[0]];
        s->act_key = s->key[out[0]];
    }
    return n;
}

static const struct hd_sched_ops ls_ops = {"locality", false,       ls_add,       ls_remove,
                                           ls_order,   ls_issued,   ls_long_wait, ls_destroy};

int hd_sched_locality_create(const struct hd_sm_params *p, struct hd_sched *out)
{
    struct loc_sched *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->max = p->max_warps;
    s->last = NONE;
    uint32_t per = p->sched_active ? p->sched_active : 1; /* hint 3: warps per group */
    uint32_t own = (p->max_warps + (p->num_sched ? p->num_sched : 1) - 1) /
                   (p->num_sched ? p->num_sched : 1);
    s->ngroups = (own + per - 1) / per ? (own + per - 1) / per : 1;
    s->age = malloc(s->max * sizeof *s->age);
    s->arrival = calloc(s->max, sizeof *s->arrival);
    s->key = calloc(s->max, sizeof *s->key);
    s->known = calloc(s->max, sizeof *s->known);
    s->launch = calloc(s->max, sizeof *s->launch);
    if (!s->age || !s->arrival || !s->key || !s->known || !s->launch) {
        ls_destroy(s);
        return -1;
    }
    for (uint32_t i = 0; i < s->max; i++)
        s->age[i] = UINT64_MAX;
    out->ops = &ls_ops;
    out->impl = s;
    return 0;
}
