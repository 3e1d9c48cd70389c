/* SPDX-License-Identifier: MIT
 * expars_mech.c - EXPARS's registry entry (Yu et al., "Improving Thread-level Parallelism in GPUs
 * Through Expanding Register File to Scratchpad Memory", TACO 2018; model/policy/mech.h,
 * docs/expars.md): selected per run by [sm] allocator = expars. The allocator is served through
 * the registry's allocator table; attach() then returns a hook with two callbacks:
 *   oloc  installs the operand-location policy (expars_oloc.c) on every SM over that SM's EXPARS
 *         allocator, and keeps the SM's state for hold;
 *   hold  the warp pool's gate (expars_rp.c): the bundles of the warp's kernel (the compiler
 *         pass of model/compiler/bundles.h, computed once per kernel image and kept here, over
 *         ranks by static weight with [expars] renumber (the paper's register re-ordering: the
 *         SM renames every register EXPARS sees to its rank, expars_sm.h), else in register
 *         numbering; oc_lines lines, at most 32 instructions, cut at barriers) give the
 *         bundle of the PC and its registers; those the RAT puts in the scratchpad are the
 *         prefetcher's request ([expars] prefetch); before that, an instruction that would
 *         write a scratchpad register an earlier instruction of the warp has still to read
 *         (its fill under way) is held (expars_val.h: the write-after-read interlock).
 */
#include "expars_mech.h"

#include "bundles.h"
#include "expars_loop.h"
#include "expars_loop_ltlws.h"
#include "timing_stats.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hd_mech_alloc expars_allocs[] = {
    {HD_ALLOC_EXPARS, hd_expars_alloc_create},
};

#define MAX_KERNELS 64

struct ex_kernel {
    const struct hd_annot *an;
    struct hd_bundles *b;     /* NULL: the pass failed (no holds for this kernel) */
};

struct ex_hook {
    const struct hd_gpu_timing_params *p;
    struct hd_expars_sm **sms; /* [num_sms] */
    struct ex_kernel k[MAX_KERNELS];
    unsigned nk;
    struct hd_expars_loop *L;  /* [expars] blocks: the RAT and operand-cache tags in the loop */
    struct hd_expars_ltlws_loop *LT; /* ... and the LTLWS counters (ltlws_lrr / ltlws_gto) */
    struct hd_timing_stats *tst; /* the run's statistics (sm_made): the energy model's events */
};

/* sm_made: the run's statistics, where the energy model (model/power, docs/power.md) reads
 * EXPARS's events; no operand-location policy here (hk_oloc installs it). */
static int hk_sm_made(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                      struct hd_timing_stats *stats, const struct hd_oloc_ops **ops, void **oimpl,
                      char *err, size_t errlen)
{
    (void)sm, (void)alloc, (void)ops, (void)oimpl, (void)err, (void)errlen;
    ((struct ex_hook *)impl)->tst = stats;
    return 0;
}

/* A CTA left SM c->sm: the SM's EXPARS counters (expars_sm.h) copied into its statistics, so
 * they are final when its last CTA has left (nothing fills or writes back after that). */
static void hk_left(void *impl, const struct hd_hook_cta *c, bool finished, uint64_t now)
{
    struct ex_hook *h = impl;
    struct hd_expars_sm *s = c->sm < h->p->num_sms ? h->sms[c->sm] : NULL;
    if (!s)
        return;
    if (finished && now >= c->first) { /* its lifetime, by slot type ([expars] log) */
        const unsigned k = s->plan.on && s->plan.cta_mix && c->slot >= s->plan.cta_rf;
        const uint64_t d = now - c->first;
        s->st.life_n[k]++;
        s->st.life_cycles[k] += d;
        if (d > s->st.life_max[k])
            s->st.life_max[k] = d;
    }
    if (!h->tst)
        return;
    struct hd_sm_stats *t = &h->tst->sm[c->sm];
    t->expars_fills = s->st.fills;
    t->expars_writebacks = s->st.evict_dirty;
    t->expars_oc_writes = s->st.writes_oc + s->st.writes_alloc;
    t->expars_rat_lookups = t->reg_reads + t->reg_writes + s->st.fills + s->st.evict_dirty;
}

static int hk_oloc(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                   const struct hd_oloc_ops **ops, void **oimpl, char *err, size_t errlen)
{
    struct ex_hook *h = impl;
    if (sm < h->p->num_sms)
        h->sms[sm] = hd_expars_sm_of(alloc);
    const int rc = hd_expars_oloc_create(&h->p->sm, sm, alloc, ops, oimpl, err, errlen);
    if (rc == 0 && h->L && sm < h->p->num_sms)
        hd_expars_loop_bind(h->L, sm, h->sms[sm]);
    return rc;
}

static const struct hd_bundles *bundles_of(struct ex_hook *h, const struct hd_annot *an)
{
    for (unsigned i = 0; i < h->nk; i++)
        if (h->k[i].an == an)
            return h->k[i].b;
    struct hd_bundles *b = NULL;
    char err[128];
    const struct hd_bundle_params bp = {h->p->sm.expars_oc_lines, h->p->sm.expars_oc_ways, 32,
                                        true, h->p->sm.expars_renumber,
                                        h->p->sm.expars_bundle_regs};
    if (hd_bundles_build(an, &bp, &b, err, sizeof err) != 0)
        b = NULL;
    if (b && b->note[0]) {
        hd_bundles_free(b);
        b = NULL;
    }
    if (h->nk == MAX_KERNELS) { /* more kernel images than kept: no holds for them */
        hd_bundles_free(b);
        return NULL;
    }
    h->k[h->nk++] = (struct ex_kernel){an, b};
    return b;
}

/* [expars] renumber: SM s learns kernel an's renumbering (its bundles' ranks) before the
 * kernel's first issue there, so that every register number EXPARS sees from then on (the
 * operand-location queries, the checker's words, the PREF vectors) is a rank. */
static void ren_note(struct ex_hook *h, struct hd_expars_sm *s, const struct hd_annot *an)
{
    for (uint32_t i = 0; i < s->nren && i < HD_EXPARS_MAX_REN; i++)
        if (s->ren[i].an == an)
            return;
    const struct hd_bundles *b = bundles_of(h, an);
    if (!b)
        return; /* no pass: physical numbers, as the bundles (none) */
    const uint32_t i = s->nren++ % HD_EXPARS_MAX_REN;
    s->ren[i].an = an;
    s->ren[i].rank = b->rank;
    s->ren[i].n = b->nphys < HD_BUNDLE_MAX_REGS ? b->nphys : HD_BUNDLE_MAX_REGS;
}

static bool hk_hold(void *impl, uint32_t sm, uint32_t slot, uint32_t cta_slot, uint32_t pc,
                    const struct hd_annot *an, uint64_t now)
{
    struct ex_hook *h = impl;
    (void)cta_slot;
    struct hd_expars_sm *s = sm < h->p->num_sms ? h->sms[sm] : NULL;
    if (s && an && h->p->sm.expars_renumber)
        ren_note(h, s, an);
    if (s && hd_expars_val_war(s, slot, pc, an))
        return true; /* a write-after-read interlock (expars_val.h) */
    if (!s || !s->prefetch || !s->rat.on || !an || slot >= s->nwarps)
        return false;
    const struct hd_expars_slot *c = &s->slot[s->warp_cta[slot]];
    if (!c->used || !c->mix)
        return false;
    const struct hd_bundles *bs = bundles_of(h, an);
    if (!bs || pc >= bs->ncode || bs->of_pc[pc] == UINT32_MAX)
        return false;
    const uint32_t bi = bs->of_pc[pc];
    const struct hd_bundle *b = &bs->b[bi];
    _Static_assert(HD_BUNDLE_MAX_REGS == 64 * HD_EXPARS_PREF_MAX_WORDS, "PREF vector words");
    return hd_expars_pool_hold(s, slot, an, bi, b->pc, b->pc + b->n - 1, pc, b->vec, now);
}

/* Is the warp in the prefetching queue (the two-level schedulers' refresh, mech.h pooled)? */
static bool hk_pooled(void *impl, uint32_t sm, uint32_t slot)
{
    struct ex_hook *h = impl;
    const struct hd_expars_sm *s = sm < h->p->num_sms ? h->sms[sm] : NULL;
    return s && h->p->sm.expars_pool_sched && hd_expars_pool_pooled(s, slot);
}

/* A warp began a long wait (sm_signals.c): the warp pool's pending queue (hd_expars_pool_wait). */
static void hk_stalled(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now)
{
    (void)why, (void)now;
    struct ex_hook *h = impl;
    struct hd_expars_sm *s = w->sm < h->p->num_sms ? h->sms[w->sm] : NULL;
    if (s && w->slot != HD_HOOK_NO_SLOT)
        hd_expars_pool_wait(s, w->slot);
}

static void hk_destroy(void *impl)
{
    struct ex_hook *h = impl;
    for (unsigned i = 0; i < h->nk; i++)
        hd_bundles_free(h->k[i].b);
    hd_expars_ltlws_loop_destroy(h->LT);
    hd_expars_loop_destroy(h->L);
    free(h->sms);
    free(h);
}

static int hk_start(void *impl, char *err, size_t errlen)
{
    struct ex_hook *h = impl;
    if (h->L && hd_expars_loop_make(h->L, err, errlen) != 0)
        return -1;
    return h->LT ? hd_expars_ltlws_loop_make(h->LT, err, errlen) : 0;
}

static int hk_sched_made(void *impl, uint32_t sm, uint32_t idx, const struct hd_sched *s,
                         char *err, size_t errlen)
{
    struct ex_hook *h = impl;
    return h->LT ? hd_expars_ltlws_loop_sched(h->LT, sm, idx, s, err, errlen) : 0;
}

static int hk_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    struct ex_hook *h = impl;
    *ready = *busy = false;
    return h->L ? hd_expars_loop_cycle(h->L, now, err, errlen) : 0;
}

static const struct hd_hook_ops expars_hook_ops = {
    .name = "expars",
    .destroy = hk_destroy,
    .oloc = hk_oloc,
    .hold = hk_hold,
    .stalled = hk_stalled,
    .pooled = hk_pooled,
    .sm_made = hk_sm_made,
    .left = hk_left,
};
/* (with [expars] blocks: the blocks made at the start and their failures reported each cycle) */
static const struct hd_hook_ops expars_hook_blocks = {
    .name = "expars",
    .start = hk_start,
    .cycle = hk_cycle,
    .destroy = hk_destroy,
    .oloc = hk_oloc,
    .hold = hk_hold,
    .stalled = hk_stalled,
    .pooled = hk_pooled,
    .sched_made = hk_sched_made,
    .sm_made = hk_sm_made,
    .left = hk_left,
};

static int expars_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                         size_t errlen)
{
    if (env->p->sm.alloc != HD_ALLOC_EXPARS)
        return 0;
    if (env->p->sm.residency) { /* a warp moving alone would leave its registers' copies */
        snprintf(err, errlen, "[sm] allocator = expars does not support warp-granular residency "
                              "([sm] logical_warps, logical_ctas, warp_stress_period)");
        return -1;
    }
    if (env->p->sm.expars_ideal && env->p->exb.blocks) { /* the bound is not a hardware scheme */
        snprintf(err, errlen, "[expars] ideal = true (a bound with no scratchpad register) "
                              "cannot run with [expars] blocks (the RAT block would place them)");
        return -1;
    }
    const char *log = env->p->sm.expars_log;
    if (log[0]) {
        FILE *f = fopen(log, "w");
        if (!f) {
            snprintf(err, errlen, "[expars] log '%s': cannot write it", log);
            return -1;
        }
        fclose(f);
    }
    struct ex_hook *h = calloc(1, sizeof *h);
    if (!h || !(h->sms = calloc(env->p->num_sms ? env->p->num_sms : 1, sizeof *h->sms))) {
        free(h);
        snprintf(err, errlen, "host out of memory creating EXPARS");
        return -1;
    }
    h->p = env->p;
    if (env->p->exb.blocks && (!(h->L = hd_expars_loop_create(env->p, env->hw, err, errlen)) ||
                               hd_expars_ltlws_loop_create(env->p, h->L, &h->LT, err,
                                                           errlen) != 0)) {
        hk_destroy(h);
        return -1;
    }
    *out = (struct hd_hook){h->L ? &expars_hook_blocks : &expars_hook_ops, h};
    return 0;
}

const struct hd_mech hd_mech_expars = {
    "expars",
    "Yu et al. TACO 2018 (EXPARS): maximum-CTA calculator (§3.3.1), resource allocator "
    "(§3.3.2), RAT (§3.3.3), register prefetcher and operand cache (§3.3.4, §3.3.7), bank "
    "arbitrator (§3.3.5), warp pool (§3.3.6)",
    expars_allocs, sizeof expars_allocs / sizeof expars_allocs[0],
    NULL, 0, expars_attach,
};
