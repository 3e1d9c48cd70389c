/* SPDX-License-Identifier: MIT
 * preempt_shieh.c - the `shieh` preemption policy (Shieh thesis §2.1-2.6, digest §2): per SM,
 * the candidate victim sets of the asking launch's aligned positions (shieh_cands.h), a
 * technique per running TB from the cost estimates (preempt_costs.h, Algorithm 1 lines 1-14)
 * and the final victim set under the latency constraint (lines 15-24, shieh_select.h); the TBs
 * outside it keep running beside the preempting ones (dual-kernel SMs). Also the `oracle`
 * baseline: the same decision with the true drain latency from a profiling run.
 *
 * Implementer choices where the thesis is silent or Heddle differs:
 * - One preempting TB per SM per plan (one final victim set), as many SMs as the launch still
 *   has CTAs to place. On dual-kernel SMs the next plan of an SM starts as soon as the previous
 *   one's victims were asked to leave (digest §2.6 item 2: "as soon as the previous victim's
 *   eviction has been initiated", so the preempting kernel "gains control" of the SM within
 *   one L_c, L192): the TBs asked by an earlier plan and still resident (leaving) are no
 *   candidates' members, a position made only of them is being freed already, and each plan
 *   still open (a victim of it resident) counts as one CTA of the launch's about to be placed.
 *   Without concurrent_kernels an SM whose victims have not left yet is not asked again. SMs
 *   are taken in Chimera's order of their final victim sets (those meeting the budget by least
 *   overhead, then the others by least latency; chimera_select.h), which the thesis leaves
 *   open. (Before session 15 a dual-kernel SM too waited for the previous plan's victims to
 *   leave, so an SM of 6 pathfinder TBs took 6 x L_CS to give the preempter all 6 positions.)
 * - The budget is the request's whole constraint: each plan opens fresh records whose latency is
 *   measured from that plan (ctx_preempt.c), so L_c - (now - t_req) = L_c.
 * - Empty valid candidates (a position no running TB overlaps) are skipped when the SM cannot
 *   take the CTA now (its thread or CTA-slot limit, or a drained victim still holding the
 *   space): freeing a non-empty candidate frees threads and a slot too.
 * - Without [sm] concurrent_kernels an SM cannot hold two kernels: the victim set is every CTA
 *   of the others, each with its own technique (Algorithm 1 lines 1-14).
 * - The asking launch's CTAs mark the positions they overlap as issued (with the aligned
 *   allocator, exactly their own positions).
 */
#include "preempt_costs.h"
#include "drain_profile.h"
#include "preempt_tables.h"
#include "shieh_mech.h"
#include "shieh_cands.h"
#include "shieh_select.h"
#include "chimera_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shieh_state {
    uint32_t nsms, max_ctas;
    uint32_t registers;
    uint64_t shared_bytes;
    double sm_bytes_per_cycle;
    enum hd_drain_est est_kind;
    struct hd_drain_profile prof;
    struct hd_drain_profile_owned prof_own; /* the oracle's profile (drain_profile.h) */
    uint32_t *marked;          /* [nsms * max_ctas]: ctx + 1 of a CTA asked to leave, else 0 */
    uint32_t *slots;           /* [max_ctas] scratch */
    struct hd_chimera_sm *sm_sum; /* [nsms] */
    unsigned *order;           /* [nsms] */
    uint64_t *victims;         /* [nsms] chosen slots per SM index */
    uint8_t *tech;             /* [nsms * max_ctas] */
    uint64_t *est;             /* [nsms * max_ctas * 2] drain estimates (env drain_est) */
    struct hd_preempt_cta *ctas; /* [max_ctas] the SM as the tables read it */
    struct hd_shieh_snap snap;
    uint64_t *plan_set;        /* [nsms * HD_SHIEH_MAX_TBS] victim slots of each plan made on
                                  the SM for plan_launch (dual-kernel SMs) */
    uint32_t *plan_n;          /* [nsms] plans recorded in plan_set */
    uint32_t plan_launch;      /* the launch those plans were made for */
};

/* Victims an earlier plan asked to leave are still on SM v. */
static bool busy(const struct shieh_state *st, const struct hd_preempt_sm *v)
{
    for (uint32_t c = 0; c < v->ncta; c++) {
        const struct hd_preempt_cta *x = &v->cta[c];
        if (st->marked[(size_t)v->sm * st->max_ctas + x->slot] == x->ctx + 1)
            return true;
    }
    return false;
}

/* Slots of SM v whose CTAs an earlier plan asked to leave and that are still resident. */
static uint64_t leaving_slots(const struct shieh_state *st, const struct hd_preempt_sm *v)
{
    uint64_t m = 0;
    for (uint32_t c = 0; c < v->ncta; c++) {
        const struct hd_preempt_cta *x = &v->cta[c];
        if (x->slot < HD_SHIEH_MAX_TBS &&
            st->marked[(size_t)v->sm * st->max_ctas + x->slot] == x->ctx + 1)
            m |= 1ull << x->slot;
    }
    return m;
}

/* Plans of SM v (for the current launch) still open: one of their victims is resident and
 * leaving. Closed plans are dropped from the list. */
static uint32_t open_plans(struct shieh_state *st, const struct hd_preempt_sm *v,
                           uint64_t leaving)
{
    uint64_t *set = &st->plan_set[(size_t)v->sm * HD_SHIEH_MAX_TBS];
    uint32_t n = 0;
    for (uint32_t j = 0; j < st->plan_n[v->sm]; j++)
        if (set[j] & leaving)
            set[n++] = set[j];
    st->plan_n[v->sm] = n;
    return n;
}

/* Positions of footprint f that [base, base + n) overlaps (n > 0), as bits below k. */
static uint64_t overlapped(uint64_t base, uint64_t n, uint64_t unit, uint32_t k)
{
    if (!unit || !n)
        return 0;
    uint64_t bits = 0;
    for (uint64_t p = base / unit; p < k && p * unit < base + n; p++)
        bits |= 1ull << p;
    return bits;
}

/* Plan SM v: the victim slots (bitset) and their techniques; false if it gives no room. */
static bool plan_sm(struct shieh_state *st, const struct hd_preempt_sm *v,
                    const struct hd_preempt_need *need, const struct hd_preempt_env *env,
                    const struct hd_shieh_snap *snap, uint64_t budget, uint64_t leaving,
                    uint64_t *victims, uint8_t *tech, uint64_t *est, struct hd_chimera_sm *sum)
{
    struct hd_preempt_costs pc;
    hd_preempt_costs_sm(v, need, st->max_ctas, st->sm_bytes_per_cycle, st->est_kind, &st->prof,
                        &pc);
    if (leaving) { /* (dual-kernel SMs only) CTAs an earlier plan asked are no candidates, and
                      those of them in transit (being saved) do not hold this plan back */
        bool other_transit = false;
        for (uint32_t c = 0; c < v->ncta; c++) {
            const struct hd_preempt_cta *x = &v->cta[c];
            if (x->launch != need->launch && x->in_transit &&
                !(x->slot < HD_SHIEH_MAX_TBS && (leaving >> x->slot & 1)))
                other_transit = true;
        }
        pc.transit = other_transit;
        for (uint32_t s = 0; s < st->max_ctas && s < HD_SHIEH_MAX_TBS; s++)
            if ((leaving >> s & 1) && pc.present[s]) {
                pc.present[s] = false;
                pc.npresent--;
            }
    }
    if (pc.transit || pc.npresent == 0)
        return false;
    hd_preempt_costs_est(&pc, st->max_ctas, est);
    unsigned t[HD_SHIEH_MAX_TBS] = {0};
    for (uint32_t s = 0; s < st->max_ctas; s++)
        if (pc.present[s])
            t[s] = hd_shieh_choose_tech(&pc.cost[s], budget);
    uint64_t set = 0;
    if (!env->mixing) {
        for (uint32_t s = 0; s < st->max_ctas; s++)
            if (pc.present[s])
                set |= 1ull << s;
        for (uint32_t c = 0; c < v->ncta; c++)
            if (v->cta[c].launch != need->launch && !pc.present[v->cta[c].slot])
                return false; /* a CTA that may not leave: no room on this SM */
        *sum = (struct hd_chimera_sm){0, 0, false};
        for (uint32_t s = 0; s < st->max_ctas; s++)
            if (set >> s & 1) {
                sum->lat = pc.cost[s].lat[t[s]] > sum->lat ? pc.cost[s].lat[t[s]] : sum->lat;
                sum->ovh += pc.cost[s].ovh[t[s]];
            }
        sum->meets = sum->lat <= budget;
    } else {
        const struct hd_shieh_footprint f = {need->demand.regs, need->demand.smem};
        uint64_t cand[HD_SHIEH_MAX_POS], valid = 0;
        uint32_t k;
        if (snap) { /* the candidate rows the firmware read back (shieh_loop.h) */
            k = snap->k;
            memcpy(cand, snap->cand, sizeof cand);
            valid = snap->row_valid & ~snap->issued;
        } else {
            k = hd_shieh_positions(&f, st->registers, st->shared_bytes, HD_SHIEH_MAX_POS);
            struct hd_shieh_range r[HD_SHIEH_MAX_TBS];
            memset(r, 0, sizeof r);
            uint64_t issued = 0;
            for (uint32_t c = 0; c < v->ncta; c++) {
                const struct hd_preempt_cta *x = &v->cta[c];
                if (x->slot >= HD_SHIEH_MAX_TBS)
                    continue;
                if (x->launch == need->launch) {
                    issued |= overlapped(x->grant.reg_base, x->grant.regs, f.regs, k) |
                              overlapped(x->grant.smem_base, x->grant.smem, f.smem, k);
                    continue;
                }
                r[x->slot] = (struct hd_shieh_range){true, x->grant.reg_base, x->grant.regs,
                                                     x->grant.smem_base, x->grant.smem};
            }
            hd_shieh_candidates(&f, k, r, HD_SHIEH_MAX_TBS, issued, cand, &valid);
        }
        if (k == 0)
            return false;
        /* only candidates made of CTAs that may leave now */
        uint64_t present = 0;
        for (uint32_t s = 0; s < HD_SHIEH_MAX_TBS; s++)
            if (pc.present[s])
                present |= 1ull << s;
        for (uint32_t p = 0; p < k; p++) {
            cand[p] &= ~leaving; /* (those TBs leave for an earlier plan: their room frees) */
            if ((valid >> p & 1) && ((cand[p] & ~present) || cand[p] == 0))
                valid &= ~(1ull << p);
        }
        struct hd_shieh_pick pick;
        hd_shieh_select(cand, valid, k, pc.cost, t, budget, &pick);
        if (pick.cand < 0 || pick.victims == 0)
            return false;
        set = pick.victims;
        *sum = (struct hd_chimera_sm){pick.lat, pick.ovh, pick.meets};
    }
    *victims = set;
    for (uint32_t s = 0; s < st->max_ctas; s++)
        tech[s] = (uint8_t)t[s];
    return true;
}

static unsigned shieh_plan(void *impl, const struct hd_preempt_need *need,
                           const struct hd_preempt_sm *sms, unsigned nsms,
                           const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act)
{
    struct shieh_state *st = impl;
    const uint64_t budget = hd_preempt_budget(need->bound);
    uint64_t pending = 0; /* plans whose victims for this launch are still leaving */
    unsigned ncand = 0;
    if (need->launch != st->plan_launch) { /* plans of an earlier launch are no longer open */
        memset(st->plan_n, 0, st->nsms * sizeof *st->plan_n);
        st->plan_launch = need->launch;
    }
    for (unsigned i = 0; i < nsms && i < st->nsms; i++) {
        const struct hd_preempt_sm *v = &sms[i];
        uint64_t leaving = 0;
        if (env->mixing) { /* the next plan may start while earlier victims leave */
            leaving = leaving_slots(st, v);
            const uint32_t open = open_plans(st, v, leaving);
            pending += leaving && v->reserved_for_asker ? (open ? open : 1) : 0;
        } else if (busy(st, v)) {
            pending += v->reserved_for_asker;
            continue;
        }
        if (v->reserved || v->holds_higher || v->ncta == 0 || (v->holds_asker && !env->mixing))
            continue;
        if (env->mixing) { /* it fits now: the launch will place it without a victim */
            if (env->plan_victims(env->gpu, v->sm, &need->demand, st->slots) == 0)
                continue;
        }
        struct hd_preempt_sm tv;
        if (env->tables) { /* progress and candidates from the tables' reads */
            if (!hd_preempt_tables_view(env->tables, v, need, st->ctas, &tv, &st->snap))
                continue;
        }
        uint64_t *est = &st->est[(size_t)ncand * st->max_ctas * 2];
        for (size_t e = 0; e < (size_t)st->max_ctas * 2; e++)
            est[e] = UINT64_MAX;
        if (!plan_sm(st, env->tables ? &tv : v, need, env, env->tables ? &st->snap : NULL, budget,
                     leaving, &st->victims[ncand], &st->tech[(size_t)ncand * st->max_ctas], est,
                     &st->sm_sum[ncand]))
            continue;
        st->order[ncand] = i; /* (reused below as the index of the SM) */
        ncand++;
    }
    if (pending >= need->ctas_left || ncand == 0)
        return 0;
    uint64_t want = need->ctas_left - pending;
    if (!env->mixing && want > need->sms_needed)
        want = need->sms_needed;
    unsigned *rank = malloc(ncand * sizeof *rank);
    unsigned *smi = malloc(ncand * sizeof *smi);
    if (!rank || !smi) {
        free(rank);
        free(smi);
        return 0;
    }
    memcpy(smi, st->order, ncand * sizeof *smi);
    hd_chimera_order_sms(st->sm_sum, ncand, rank);
    unsigned n = 0;
    for (unsigned j = 0; j < ncand && n < want; j++) {
        const unsigned c = rank[j];
        const struct hd_preempt_sm *v = &sms[smi[c]];
        for (uint32_t s = 0; s < st->max_ctas; s++) {
            if (!(st->victims[c] >> s & 1))
                continue;
            act[(size_t)v->sm * env->max_ctas + s] =
                hd_preempt_act_of_tech(st->tech[(size_t)c * st->max_ctas + s]);
            if (env->drain_est)
                memcpy(&env->drain_est[((size_t)v->sm * env->max_ctas + s) * 2],
                       &st->est[((size_t)c * st->max_ctas + s) * 2], 2 * sizeof *st->est);
            for (uint32_t x = 0; x < v->ncta; x++)
                if (v->cta[x].slot == s)
                    st->marked[(size_t)v->sm * st->max_ctas + s] = v->cta[x].ctx + 1;
        }
        if (env->mixing) { /* (the list keeps at most HD_SHIEH_MAX_TBS open plans) */
            const uint32_t np = st->plan_n[v->sm];
            if (np < HD_SHIEH_MAX_TBS) {
                st->plan_set[(size_t)v->sm * HD_SHIEH_MAX_TBS + np] = st->victims[c];
                st->plan_n[v->sm] = np + 1;
            }
            if (env->tables) { /* the next iteration reads the SM's tables at once: their
                                  result asks the policy again (mech.h hook `ready`) */
                const struct hd_shieh_footprint f = {need->demand.regs, need->demand.smem};
                struct hd_shieh_snap unused;
                hd_shieh_loop_read(env->tables, v->sm, need->launch, &f, need->now, &unused);
            }
        }
        chosen[n++] = v->sm;
    }
    free(rank);
    free(smi);
    return n;
}

static void shieh_destroy(void *impl)
{
    struct shieh_state *st = impl;
    if (!st)
        return;
    hd_drain_profile_free(&st->prof_own);
    free(st->marked);
    free(st->slots);
    free(st->sm_sum);
    free(st->order);
    free(st->victims);
    free(st->tech);
    free(st->est);
    free(st->ctas);
    free(st->plan_set);
    free(st->plan_n);
    free(st);
}

static const struct hd_preempt_policy_ops shieh_ops = {"shieh", shieh_plan, shieh_destroy,
                                                       HD_PTAB_ALL};

int hd_preempt_shieh_create(const struct hd_gpu_timing_params *p, bool oracle,
                            const struct hd_drain_profile *prof, struct hd_preempt_policy *out,
                            char *err, size_t errlen)
{
    if (p->sm.max_ctas > HD_SHIEH_MAX_TBS) {
        snprintf(err, errlen,
                 "key 'preempt_policy': Shieh's policy tracks at most %d CTAs per SM, [sm] "
                 "max_ctas is %u", HD_SHIEH_MAX_TBS, p->sm.max_ctas);
        return -1;
    }
    struct shieh_state *st = calloc(1, sizeof *st);
    if (!st)
        goto oom;
    st->nsms = p->num_sms;
    st->max_ctas = p->sm.max_ctas;
    st->registers = p->sm.registers;
    st->shared_bytes = p->sm.shared_bytes;
    st->sm_bytes_per_cycle = p->ctx.sm_bytes_per_cycle;
    st->est_kind = oracle ? HD_DRAIN_EST_ORACLE : HD_DRAIN_EST_SHIEH;
    st->marked = calloc((size_t)p->num_sms * p->sm.max_ctas, sizeof *st->marked);
    st->slots = calloc(p->sm.max_ctas, sizeof *st->slots);
    st->sm_sum = calloc(p->num_sms, sizeof *st->sm_sum);
    st->order = calloc(p->num_sms, sizeof *st->order);
    st->victims = calloc(p->num_sms, sizeof *st->victims);
    st->tech = calloc((size_t)p->num_sms * p->sm.max_ctas, 1);
    st->est = calloc((size_t)p->num_sms * p->sm.max_ctas * 2, sizeof *st->est);
    st->ctas = calloc(p->sm.max_ctas, sizeof *st->ctas);
    st->plan_set = calloc((size_t)p->num_sms * HD_SHIEH_MAX_TBS, sizeof *st->plan_set);
    st->plan_n = calloc(p->num_sms, sizeof *st->plan_n);
    st->plan_launch = UINT32_MAX;
    if (!st->marked || !st->slots || !st->sm_sum || !st->order || !st->victims || !st->tech ||
        !st->est || !st->ctas || !st->plan_set || !st->plan_n)
        goto oom;
    if (hd_drain_profile_copy(prof, &st->prof_own) != 0)
        goto oom;
    st->prof = st->prof_own.p;
    out->ops = &shieh_ops;
    out->impl = st;
    return 0;
oom:
    shieh_destroy(st);
    snprintf(err, errlen, "host out of memory");
    return -1;
}
