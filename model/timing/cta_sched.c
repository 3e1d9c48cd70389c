/* SPDX-License-Identifier: MIT
 * cta_sched.c - the GPU top's CTA scheduler: which launches may place CTAs, in which order, and
 * on which SMs (GPGPU-Sim's kernel-selection and CTA-issue stage; docs/timing.md "The GPU top").
 *
 * Design: it runs when something changed (a CTA retired, a context was saved, a launch arrived
 * or was added). Per round, the launches that may place a CTA (stream order, the default
 * stream's barriers, their arrival cycle, at most [timing] max_concurrent_kernels started) are
 * ranked by the kernel-selection policy (kernel_sel.h), then by launch priority (a stable
 * insertion sort keeps the policy's order among equals); the first whose CTA some SM can take
 * (allocation layer, kernel mixing, the admission veto of cta_admit.h, no reservation for a
 * launch of higher priority) gets one, on the SM the distribution policy picks (cta_dist.h). A
 * context to resume or restart comes before the launch's fresh CTAs. At most one CTA per SM per
 * cycle. A launch of higher priority that finds no SM asks the preemption layer
 * (ctx_preempt.c) to free SMs held by lower-priority CTAs.
 */
#include "gpu_impl.h"

#include "func_status.h"
#include "sm_policy.h"

#include <string.h>

/* May launch i place CTAs (stream order and the default stream's barriers)? */
static bool eligible(const struct hd_gpu_timing *g, unsigned i)
{
    const struct tlaunch *t = g->L[i];
    if (t->prev_same >= 0 && !g->L[t->prev_same]->finished)
        return false;
    if (t->prev_zero >= 0 && !g->L[t->prev_zero]->finished)
        return false;
    if (t->sl.l->attr.arrive_cycle > g->now)
        return false; /* it has not arrived yet */
    return t->stream != 0 || i <= g->first_unfinished;
}

void hd_gpu_admit_query(const struct hd_gpu_timing *g, uint32_t s, const struct hd_sm_launch *la,
                        uint64_t cta, struct hd_admit_query *q)
{
    *q = (struct hd_admit_query){s, la->id, la->demand.priority, hd_sm_resident_ctas(g->sm[s]),
                                 cta, 0, la->tk->id, 0, la->l->attr.hint, &la->demand,
                                 la->l->nctas};
    hd_sm_launch_residency(g->sm[s], la, &q->launch_resident, &q->kernel_resident);
}

/* cta: the linear index of the fresh CTA to place if no context comes back (cta_dist.h). */
static int place(struct hd_gpu_timing *g, unsigned li, uint32_t s, uint64_t cta, char *err,
                 size_t errlen)
{
    struct tlaunch *t = g->L[li];
    hd_gpu_sm_wake(g, s, g->now);
    int st;
    struct hd_ctx *x = hd_ctx_queue_pop(&g->pool, &t->sl.ctxs);
    if (x) { /* a context saved or flushed earlier comes back first */
        st = hd_sm_resume_cta(g->sm[s], x, g->now, err, errlen);
    } else {
        x = hd_ctx_acquire(&g->pool, &t->sl, &t->sl.ctxs, t->sl.l, cta, s, err, errlen);
        if (!x)
            return HD_FUNC_ERR_MEMORY;
        t->next_cta++; /* (fresh CTAs placed; the next one's index unless the policy picks) */
        t->sl.info->c.last_place_cycle = g->now;
        st = hd_sm_place_cta(g->sm[s], &t->sl, x, g->now, err, errlen);
    }
    if (st != HD_FUNC_OK)
        return st;
    if (!t->started) {
        t->started = true;
        t->sl.info->c.start_cycle = g->now;
        g->running++;
    }
    if (!t->sm_used[s]) {
        t->sm_used[s] = 1;
        t->sl.info->c.sms_used++;
    }
    g->got[s] = true;
    hd_gpu_preempt_placed(g, s, li);
    if (g->admit.ops->placed) {
        struct hd_admit_query q;
        hd_gpu_admit_query(g, s, &t->sl, x->fc.linear, &q);
        g->admit.ops->placed(g->admit.impl, &q, g->now);
    }
    g->dist.ops->placed(g->dist.impl, s);
    g->ksel.ops->served(g->ksel.impl, t->sl.id);
    return HD_FUNC_OK;
}

/* Candidates order[0..k) by launch priority, highest first, keeping the policy's order among
 * equals (insertion sort: k is small). */
static void by_priority(struct hd_gpu_timing *g, unsigned k)
{
    for (unsigned i = 1; i < k; i++) {
        unsigned v = g->order[i], j = i;
        const int32_t pv = g->L[g->cand_index[v]]->sl.l->attr.priority;
        while (j > 0 && g->L[g->cand_index[g->order[j - 1]]]->sl.l->attr.priority < pv) {
            g->order[j] = g->order[j - 1];
            j--;
        }
        g->order[j] = v;
    }
}

/* Has a launch of lower priority than prio CTAs on the GPU? */
static bool lower_priority_running(const struct hd_gpu_timing *g, int32_t prio)
{
    for (unsigned i = g->first_unfinished; i < g->nl; i++)
        if (g->L[i]->started && !g->L[i]->finished && g->L[i]->sl.l->attr.priority < prio &&
            g->L[i]->sl.resident)
            return true;
    return false;
}

uint64_t hd_gpu_next_arrival(const struct hd_gpu_timing *g)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = g->first_unfinished; i < g->nl; i++) {
        const uint64_t a = g->L[i]->sl.l->attr.arrive_cycle;
        if (!g->L[i]->started && a > g->now && a < t)
            t = a;
    }
    return t;
}

bool hd_gpu_work_arrived(const struct hd_gpu_timing *g)
{
    if (g->running)
        return true;
    for (unsigned i = g->first_unfinished; i < g->nl; i++)
        if (!g->L[i]->finished && eligible(g, i))
            return true;
    return false;
}

/* The SMs that can take a CTA of launch li now (g->ok); whether one is free this cycle. */
static bool find_sms(struct hd_gpu_timing *g, unsigned li, uint64_t cta, const struct hd_ctx *back)
{
    const struct tlaunch *t = g->L[li];
    const uint32_t nsms = g->p.num_sms;
    bool any = false;
    const bool full = g->admit.ops != &hd_cta_admit_all; /* (the default reads nothing) */
    struct hd_admit_query q = {0, t->sl.id, t->sl.demand.priority, 0, cta, 0, 0, 0, 0, NULL, 0};
    for (uint32_t s = 0; s < nsms; s++) {
        g->ok[s] = back && back->smem_parked ? hd_sm_can_resume(g->sm[s], back) /* (Fig 2.4) */
                                             : hd_sm_can_accept(g->sm[s], &t->sl);
        if (g->ok[s]) { /* the admission veto (cta_admit.h) */
            if (full) {
                hd_gpu_admit_query(g, s, &t->sl, cta, &q);
            } else {
                q.sm = s;
                q.resident = hd_sm_resident_ctas(g->sm[s]);
            }
            g->ok[s] = g->admit.ops->admit(g->admit.impl, &q, g->now);
        }
        if (g->ok[s] && hd_gpu_reserved_against(g, s, li))
            g->ok[s] = false; /* being freed for a launch of higher priority */
        any |= g->ok[s] && !g->got[s];
    }
    return any;
}

int hd_gpu_schedule_ctas(struct hd_gpu_timing *g, char *err, size_t errlen)
{
    const uint32_t nsms = g->p.num_sms;
    memset(g->got, 0, nsms * sizeof *g->got);
    int placed = 0;
    for (uint32_t round = 0; round < nsms; round++) {
        unsigned nc = 0;
        for (unsigned i = g->first_unfinished; i < g->nl; i++) {
            const struct tlaunch *t = g->L[i];
            if (t->finished || (t->next_cta >= t->nctas && t->sl.ctxs.q_len == 0) ||
                !eligible(g, i))
                continue;
            if (!t->started && g->running >= g->p.max_kernels)
                continue;
            g->cand[nc++] = (struct hd_ksel_cand){t->sl.id, t->started};
            g->cand_index[nc - 1] = i;
        }
        if (nc == 0)
            break;
        unsigned k = g->ksel.ops->rank(g->ksel.impl, g->cand, nc, g->order);
        by_priority(g, k);
        bool done = false;
        for (unsigned r = 0; r < k && !done; r++) {
            const unsigned li = g->cand_index[g->order[r]];
            struct tlaunch *t = g->L[li];
            const struct hd_ctx *back = hd_ctx_queue_peek(&g->pool, &t->sl.ctxs);
            const uint64_t cta = back ? back->fc.linear : t->next_cta; /* a context comes back
                                                                          before fresh CTAs */
            const bool any = find_sms(g, li, cta, back);
            if (back && g->p.ctx.stress_period && g->ok[back->sm] && !back->smem_parked) {
                /* stress mode resumes a context elsewhere when another SM can take it */
                bool other = false;
                for (uint32_t s = 0; s < nsms; s++)
                    other |= s != back->sm && g->ok[s] && !g->got[s];
                g->ok[back->sm] = !other;
            }
            if (!any) {
                if (lower_priority_running(g, t->sl.l->attr.priority))
                    hd_gpu_preempt_for(g, li);
                continue;
            }
            const struct hd_func_launch *fl = t->sl.l;
            const uint32_t gx = fl->grid[0] ? fl->grid[0] : 1, gy = fl->grid[1] ? fl->grid[1] : 1;
            struct hd_cta_dist_req req = {
                t->sl.id, cta, t->nctas, {fl->grid[0], fl->grid[1], fl->grid[2]},
                {(uint32_t)(cta % gx), (uint32_t)(cta / gx % gy), (uint32_t)(cta / gx / gy)},
                t->sl.tk->id, fl->attr.hint, back != NULL};
            int s = g->dist.ops->pick(g->dist.impl, &req, g->ok, g->got, nsms);
            if (s >= 0 && !back && g->dist.ops->cta) { /* the policy picks the fresh CTA */
                const uint64_t c = g->dist.ops->cta(g->dist.impl, &req, (uint32_t)s);
                if (c >= t->nctas) {
                    snprintf(err, errlen, "host out of memory in the CTA distributor");
                    return HD_FUNC_ERR_MEMORY;
                }
                req.cta = c;
                req.ctaid[0] = (uint32_t)(c % gx);
                req.ctaid[1] = (uint32_t)(c / gx % gy);
                req.ctaid[2] = (uint32_t)(c / gx / gy);
            }
            if (g->hooks.any_dist && hd_hooks_dist_pick(&g->hooks, &req, g->ok, g->got, nsms, &s,
                                                        g->now, err, errlen) != 0)
                return HD_FUNC_ERR_INTERNAL; /* a block in the loop disagreed (issue 31) */
            if (s < 0)
                continue;
            int st = place(g, li, (uint32_t)s, req.cta, err, errlen);
            if (st != HD_FUNC_OK)
                return st;
            placed++;
            done = true;
        }
        if (!done)
            break;
    }
    return placed;
}
