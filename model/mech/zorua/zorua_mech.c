/* SPDX-License-Identifier: MIT
 * zorua_mech.c - Zorua's registry entry (model/policy/mech.h; docs/zorua.md): the allocator
 * values `zorua` and `wlm`, and a hook that, for each SM made, hands the allocator its
 * statistics and installs the mapping tables' operand-location policy (Zorua only), gives the
 * SMT each shared-memory access (the smem_access hook; session 16), and, with
 * [zorua] in_loop, steps each SM's three mapping tables as zorua_map blocks in the timing loop
 * (zorua_maploop.h).
 * Vijaykumar et al., "Zorua", ISCA 2016 / arXiv 1802.02573, Sec. 3-5.
 */
#include "mech.h"
#include "zorua_alloc.h"
#include "zorua_coordloop.h"
#include "zorua_maploop.h"

#include <stdio.h>
#include <stdlib.h>

struct zhook {
    struct zph ph;   /* the kernels' phases, shared by the SMs */
    struct zml *loop; /* the mapping tables in the loop ([zorua] in_loop), or NULL */
    struct zdl *dec;  /* the phase-specifier decoders in the loop, or NULL */
    struct zcl *cl;   /* the coordinator blocks in the loop, or NULL */
    struct zalloc **za; /* [nsm] each SM's allocator (hold, stalled) */
    uint32_t nsm;
    const struct hd_mech_act *act; /* env->act (a barrier waiter's switch-out) */
    bool zorua;       /* allocator zorua (WLM: no phases) */
};

static int zh_sm_made(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                      struct hd_timing_stats *stats, const struct hd_oloc_ops **ops, void **oimpl,
                      char *err, size_t errlen)
{
    struct zhook *h = impl;
    struct zalloc *a = hd_zorua_alloc_state(alloc);
    if (!a) {
        snprintf(err, errlen, "zorua: SM %u does not run the zorua or wlm allocator", sm);
        return -1;
    }
    a->sm = sm;
    a->act = h->act;
    if (sm < h->nsm)
        h->za[sm] = a;
    a->st = &stats->sm[sm];
    a->sched = &stats->sched[(size_t)sm * stats->num_sched];
    if (a->zorua) {
        a->ph = &h->ph;
        *ops = &hd_zorua_oloc_ops;
        *oimpl = a;
    }
    if (!h->loop)
        return 0;
    if (zml_add_sm(h->loop, sm, &a->z.rmt, &a->z.smt, &a->z.tmt.t, err, errlen) != 0)
        return -1;
    if (a->zorua && zcl_fits(a->z.rmt.nphys, a->z.smt.nphys, a->z.tmt.t.nphys)) {
        /* (the coordinator block is built for Fermi's, Kepler's and Maxwell's physical sizes:
           the configuration of the SM's, session 15) */
        if (zcl_add_sm(h->cl, sm, a->bd ? a->bd->kind : "zorua_coord", a->p->z_o_default,
                       a->p->z_o_step, a->p->z_o_max, a->p->z_c_delta, a->p->z_epoch, err,
                       errlen) != 0)
            return -1;
        if (!a->bd) {
            snprintf(err, errlen,
                     "key 'in_loop' ([zorua]): the zorua_coord block is built for 64 logical "
                     "warps and 16 logical CTAs over 48 warp slots (Fermi) or 96 and 16 over 64 "
                     "(Kepler, Maxwell; configs/rtl/zorua_coord.ini), this GPU has %u and %u "
                     "over %u ([sm] logical_warps, logical_ctas, max_warps)",
                     a->z.nwarps, a->z.nctas, a->z.tmt.t.nphys);
            return -1;
        }
        a->cl = h->cl;
    }
    if (!a->zorua || !zdl_fits(a->z.nwarps, a->reg_sets_max, a->z.smt.nsets, a->p->z_reg_set,
                               a->p->z_smem_set))
        return 0; /* (WLM has no phases; the decoder's kinds hold Fermi's 64 logical warps and
                     Kepler's and Maxwell's 96, session 20: another size steps no decoder) */
    if (zdl_add_sm(h->dec, sm, a->z.nwarps, a->reg_sets_max, a->z.smt.nsets, a->p->z_reg_set,
                   a->p->z_smem_set, err, errlen) != 0)
        return -1;
    a->dec = h->dec;
    return 0;
}

static int zh_start(void *impl, char *err, size_t errlen)
{
    const struct zhook *h = impl;
    if (!h->loop)
        return 0;
    return zml_make(h->loop, err, errlen) != 0 || zdl_make(h->dec, err, errlen) != 0
               ? -1
               : zcl_make(h->cl, err, errlen);
}

static int zh_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    const struct zhook *h = impl;
    *ready = *busy = false;
    if (!h->loop)
        return 0;
    bool b2 = false;
    if (zml_cycle(h->loop, now, busy, err, errlen) != 0 ||
        zdl_cycle(h->dec, now, &b2, err, errlen) != 0)
        return -1;
    *busy |= b2;
    return 0;
}

/* A warp waits at a barrier (the substrate's stalled hook): the coordinator block's barrier
 * event (L235: a barrier is a phase boundary; the warp waits in the thread/barrier queue). */
static void zh_stalled(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now)
{
    (void)now;
    const struct zhook *h = impl;
    if (why != HD_HSTALL_BARRIER || w->sm >= h->nsm || w->slot == HD_HOOK_NO_SLOT)
        return;
    struct zalloc *a = h->za[w->sm];
    if (a && a->bd && w->slot < a->p->max_warps) {
        zbd_seen(a, a->slot_wid[w->slot], w->ctx);
        zbd_barrier(a, a->slot_wid[w->slot]);
    }
}

/* May the warp issue? Only while its schedulable bit is set (L222 fn 5, L208: the warp
 * scheduler sees the schedulable warps) and no event of it waits for the block. */
static bool zh_hold(void *impl, uint32_t sm, uint32_t slot, uint32_t cta_slot, uint32_t pc,
                    const struct hd_annot *an, uint64_t now)
{
    (void)now;
    const struct zhook *h = impl;
    struct zalloc *a = sm < h->nsm ? h->za[sm] : NULL;
    if (!a || !a->bd || slot >= a->p->max_warps)
        return false;
    if (zbd_may_run(a, a->slot_wid[slot])) /* (a phase boundary: its event, it waits) */
        hd_zorua_issue_phase(a, slot, an, pc);
    return zbd_hold(a, cta_slot, a->slot_wid[slot]);
}

/* An ld/st.shared (the substrate's smem_access hook): the SMT lookups, +mt_latency, the lanes
 * of sets in the swap space (zorua_oloc.c). */
static void zh_smem_access(void *impl, const struct hd_hook_smem *acc,
                           struct hd_hook_smem_ans *ans, uint64_t now)
{
    (void)now;
    const struct zhook *h = impl;
    struct zalloc *a = acc->sm < h->nsm ? h->za[acc->sm] : NULL;
    if (a)
        hd_zorua_smem_access(a, acc, ans);
}

static void zh_kernel_annot(void *impl, uint32_t launch, uint32_t kernel, struct hd_annot *an)
{
    struct zhook *h = impl;
    if (h->zorua) /* (WLM has no phase specifiers: no phases, no specifier fetch cycles) */
        zph_launch(&h->ph, launch, kernel, an);
}

static void zh_destroy(void *impl)
{
    struct zhook *h = impl;
    zph_free(&h->ph);
    zml_destroy(h->loop);
    zdl_destroy(h->dec);
    zcl_destroy(h->cl);
    free(h->za);
    free(h);
}

static const struct hd_hook_ops zorua_hook = {.name = "zorua", .sm_made = zh_sm_made,
                                              .kernel_annot = zh_kernel_annot,
                                              .destroy = zh_destroy, .stalled = zh_stalled,
                                              .hold = zh_hold, .smem_access = zh_smem_access};
static const struct hd_hook_ops zorua_loop_hook = {.name = "zorua", .start = zh_start,
                                                   .cycle = zh_cycle, .sm_made = zh_sm_made,
                                                   .kernel_annot = zh_kernel_annot,
                                                   .destroy = zh_destroy, .stalled = zh_stalled,
                                                   .hold = zh_hold,
                                                   .smem_access = zh_smem_access};

static int zorua_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                        size_t errlen)
{
    if (env->p->sm.alloc != HD_ALLOC_ZORUA && env->p->sm.alloc != HD_ALLOC_WLM)
        return 0;
    const struct hd_sm_params *sp = &env->p->sm;
    const double pcts[3] = {sp->z_o_default, sp->z_o_step, sp->z_o_max};
    static const char *const pct_keys[3] = {"o_default_pct", "o_step_pct", "o_max_pct"};
    for (unsigned i = 0; i < 3 && env->p->sm.alloc == HD_ALLOC_ZORUA; i++)
        if (pcts[i] != (double)(uint32_t)pcts[i]) {
            snprintf(err, errlen,
                     "key '%s' ([zorua]): %g is not a whole percent (the o_thresh controller "
                     "counts whole percents, as the zorua_coord block does)",
                     pct_keys[i], pcts[i]);
            return -1;
        }
    struct zhook *h = calloc(1, sizeof *h);
    if (!h || !(h->za = calloc(env->p->num_sms ? env->p->num_sms : 1, sizeof *h->za))) {
        free(h);
        snprintf(err, errlen, "zorua: host out of memory");
        return -1;
    }
    h->nsm = env->p->num_sms;
    h->zorua = env->p->sm.alloc == HD_ALLOC_ZORUA;
    h->act = env->act;
    h->ph.reg_set = env->p->sm.z_reg_set ? env->p->sm.z_reg_set : 4;
    if (env->p->sm.z_in_loop &&
        (!(h->loop = zml_create(env->p->num_sms, env->hw, env->p->sm.z_loop_fault)) ||
         !(h->dec = zdl_create(env->p->num_sms, env->hw, 0)) ||
         !(h->cl = zcl_create(env->p->num_sms, env->hw)))) {
        snprintf(err, errlen, "zorua: host out of memory");
        zml_destroy(h->loop);
        zdl_destroy(h->dec);
        free(h->za);
        free(h);
        return -1;
    }
    *out = (struct hd_hook){h->loop ? &zorua_loop_hook : &zorua_hook, h};
    return 0;
}

static const struct hd_mech_alloc zorua_allocs[] = {
    {HD_ALLOC_ZORUA, hd_zorua_alloc_create},
    {HD_ALLOC_WLM, hd_zorua_wlm_create},
};

const struct hd_mech hd_mech_zorua = {
    "zorua",
    "Zorua (Vijaykumar et al., ISCA 2016): mapping tables with free lists, the coordinator's "
    "queues and o_thresh (Sec. 3-4); WLM (Sec. 5.3)",
    zorua_allocs, sizeof zorua_allocs / sizeof zorua_allocs[0],
    NULL, 0,
    zorua_attach,
};
