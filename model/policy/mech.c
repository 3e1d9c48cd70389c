/* SPDX-License-Identifier: MIT
 * mech.c - the hooks of one GPU and the look-ups in the mechanism registry (mech.h).
 */
#include "mech.h"

#include <stdio.h>

int hd_hooks_add(struct hd_hooks *hs, struct hd_hook k, char *err, size_t errlen)
{
    if (!k.ops)
        return 0;
    if (hs->n == HD_MAX_HOOKS) {
        snprintf(err, errlen, "more than %d mechanisms' hooks in one run (mech.h HD_MAX_HOOKS)",
                 HD_MAX_HOOKS);
        return -1;
    }
    hs->h[hs->n++] = k;
    hs->any_placed |= k.ops->placed != NULL;
    hs->any_left |= k.ops->left != NULL;
    hs->any_issued |= k.ops->issued != NULL;
    hs->any_stalled |= k.ops->stalled != NULL;
    hs->any_load_returned |= k.ops->load_returned != NULL;
    hs->any_hold |= k.ops->hold != NULL;
    hs->any_pooled |= k.ops->pooled != NULL;
    hs->any_sched |= k.ops->sched_warp != NULL || k.ops->sched_order != NULL;
    hs->any_dist |= k.ops->dist_reset != NULL || k.ops->dist_pick != NULL;
    hs->any_load_sent |= k.ops->load_sent != NULL;
    hs->any_smem |= k.ops->smem_access != NULL;
    return 0;
}

void hd_hooks_destroy(struct hd_hooks *hs)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->destroy)
            hs->h[i].ops->destroy(hs->h[i].impl);
    hs->n = 0;
    hs->any_placed = hs->any_left = hs->any_issued = false;
    hs->any_stalled = hs->any_load_returned = false;
    hs->any_hold = hs->any_pooled = false;
    hs->any_sched = hs->any_dist = false;
    hs->any_load_sent = false;
    hs->any_smem = false;
}

int hd_hooks_start(struct hd_hooks *hs, char *err, size_t errlen)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->start && hs->h[i].ops->start(hs->h[i].impl, err, errlen) != 0)
            return -1;
    return 0;
}

int hd_hooks_launch(struct hd_hooks *hs, uint32_t launch, uint32_t kernel, const char *name,
                    char *err, size_t errlen)
{
    for (unsigned i = 0; i < hs->n; i++) {
        if (!hs->h[i].ops->launch)
            continue;
        const int st = hs->h[i].ops->launch(hs->h[i].impl, launch, kernel, name, err, errlen);
        if (st != 0)
            return st;
    }
    return 0;
}

int hd_hooks_cycle(struct hd_hooks *hs, uint64_t now, bool *ready, bool *busy, char *err,
                   size_t errlen)
{
    *ready = *busy = false;
    for (unsigned i = 0; i < hs->n; i++) {
        bool r = false, b = false;
        if (hs->h[i].ops->cycle &&
            hs->h[i].ops->cycle(hs->h[i].impl, now, &r, &b, err, errlen) != 0)
            return -1;
        *ready |= r;
        *busy |= b;
    }
    return 0;
}

const struct hd_mech_alloc *hd_mech_find_alloc(int v)
{
    for (unsigned m = 0; m < hd_nmechs; m++)
        for (unsigned i = 0; i < hd_mechs[m]->nallocs; i++)
            if (hd_mechs[m]->allocs[i].value == v)
                return &hd_mechs[m]->allocs[i];
    return NULL;
}

const struct hd_mech_ppol *hd_mech_find_ppol(int v, unsigned *mech)
{
    for (unsigned m = 0; m < hd_nmechs; m++)
        for (unsigned i = 0; i < hd_mechs[m]->nppols; i++)
            if (hd_mechs[m]->ppols[i].value == v) {
                if (mech)
                    *mech = m;
                return &hd_mechs[m]->ppols[i];
            }
    return NULL;
}
