/* SPDX-License-Identifier: MIT
 * kernel_sel.c - the oldest-first and round-robin kernel-selection policies.
 *
 * Design: see kernel_sel.h. State: the launch served last.
 */
#include "kernel_sel.h"

#include <stdlib.h>

struct ksel_state {
    uint32_t last;
    bool any;
};

static unsigned oldest_rank(void *impl, const struct hd_ksel_cand *c, unsigned n, uint32_t *order)
{
    (void)impl;
    (void)c;
    for (unsigned i = 0; i < n; i++)
        order[i] = i;
    return n;
}

static unsigned rr_rank(void *impl, const struct hd_ksel_cand *c, unsigned n, uint32_t *order)
{
    const struct ksel_state *s = impl;
    unsigned start = 0;
    if (s->any)
        while (start < n && c[start].launch <= s->last)
            start++;
    for (unsigned i = 0; i < n; i++)
        order[i] = (start + i) % n;
    return n;
}

static void ksel_served(void *impl, uint32_t launch)
{
    struct ksel_state *s = impl;
    s->last = launch;
    s->any = true;
}

static void ksel_destroy(void *impl)
{
    free(impl);
}

static const struct hd_ksel_ops oldest_ops = {"oldest", oldest_rank, ksel_served, ksel_destroy};
static const struct hd_ksel_ops rr_ops = {"round_robin", rr_rank, ksel_served, ksel_destroy};

int hd_ksel_create(enum hd_cfg_ksel kind, struct hd_ksel *out)
{
    struct ksel_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    out->ops = kind == HD_KSEL_ROUND_ROBIN ? &rr_ops : &oldest_ops;
    out->impl = s;
    return 0;
}
