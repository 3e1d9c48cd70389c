/* SPDX-License-Identifier: MIT
 * gpu_launch.c - the GPU top's launches: their storage, setup, stream order, completion, and
 * launches added while the GPU runs (open-ended co-running, issue 11 item 3: a client
 * relaunches its kernel while another one is resident, as the co-running evaluations of
 * GPUDuet and CCBP (Lin ch.4) do).
 *
 * Design: each launch of the batch (struct tlaunch) is allocated on its own and never moves
 * while the batch runs: SMs, contexts and the CTA scheduler hold pointers to its `sl`. The batch
 * is an array of pointers, which may grow; the CTA scheduler's scratch grows with it. Statistics
 * records live in arrays of the statistics that may move when they grow, so every launch is
 * re-pointed at its records after launches are added (hd_gpu_launches_bind). A launch added
 * during a run (from the finish hook, at the end of a cycle's SM ticks) follows stream order as
 * if it had been submitted after every launch of the batch. A launch's completion is reported to
 * the finish hook once per cycle, in the order the launches finished.
 */
#include "gpu_impl.h"


#include "func_status.h"
#include "mem_full.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Setup ==== */
static void demand_of(const struct hd_occupancy *o, struct hd_cta_demand *d)
{
    d->warps = o->demand.warps;
    d->threads = o->demand.threads;
    d->regs = (uint32_t)o->demand.regs;
    d->smem = o->demand.smem;
    d->regs_per_warp = o->demand.regs_per_warp;
    d->all_warps = o->demand.warps;
}

/* Are a and b the same kernel of the same module image (loaded twice: a relaunched workload,
 * each instance of heddle run --mix --repeat)? Modules live until the GPU is destroyed, so a's
 * image is still there. */
static bool same_image(const struct hd_func_kernel *a, const struct hd_func_kernel *b)
{
    const struct hd_module *ma = a->mod->ir, *mb = b->mod->ir;
    return ma->text_hash && ma->text_hash == mb->text_hash && a->entry_index == b->entry_index &&
           a->ncode == b->ncode && strcmp(a->entry->name, b->entry->name) == 0;
}

/* The timing view of kernel k (built at its first launch). Its index is the kernel's stable id
 * (hd_tkernel.id: launches of one kernel image share it, and its analyses, its code address and
 * so its warm instruction-cache lines, and its per-line statistics; issue 25 item 7). */
static struct tk_entry *kernel_entry(struct hd_gpu_timing *g, const struct hd_func_kernel *k,
                                     char *err, size_t errlen)
{
    for (uint32_t i = 0; i < g->ntk; i++)
        if (g->tk[i].k == k || same_image(g->tk[i].k, k))
            return &g->tk[i];
    if (g->ntk == g->cap_tk) {
        uint32_t ncap = g->cap_tk ? g->cap_tk * 2 : 8;
        struct tk_entry *t = realloc(g->tk, ncap * sizeof *t);
        if (!t) {
            snprintf(err, errlen, "host out of memory");
            return NULL;
        }
        g->tk = t;
        g->cap_tk = ncap;
    }
    struct tk_entry *e = &g->tk[g->ntk];
    e->k = k;
    e->done = calloc(1, sizeof *e->done);
    if (!e->done) {
        snprintf(err, errlen, "host out of memory");
        return NULL;
    }
    e->tk = hd_tkernel_build(k, &g->p.sm, g->ntk, err, errlen);
    if (!e->tk) {
        free(e->done);
        return NULL;
    }
    e->lines = hd_timing_stats_new_lines(&g->stats, k->entry->name, k->mod->ir->filename,
                                         k->ncode);
    if (e->lines < 0) {
        hd_tkernel_free(e->tk);
        free(e->done);
        snprintf(err, errlen, "host out of memory");
        return NULL;
    }
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        g->stats.lines[e->lines].line[pc] = k->code[pc].ir->line;
    g->ntk++;
    return e;
}

static int setup_launch(struct hd_gpu_timing *g, struct tlaunch *t, struct hd_func_launch *l,
                        int stream, char *err, size_t errlen)
{
    struct tk_entry *e = kernel_entry(g, l->k, err, errlen);
    if (!e)
        return HD_FUNC_ERR_MEMORY;
    struct hd_launch_info *li = hd_timing_stats_new_launch(&g->stats);
    if (!li) {
        snprintf(err, errlen, "host out of memory");
        return HD_FUNC_ERR_MEMORY;
    }
    t->stream = stream;
    t->nctas = l->nctas;
    t->sl.l = l;
    t->sl.tk = e->tk;
    t->sl.kdone = e->done;
    /* the mechanisms see each launch (e.g. statistics per kernel, a profile's kernel names) */
    int hs = hd_hooks_launch(&g->hooks, li->id, e->tk->id, l->k->entry->name, err, errlen);
    if (hs != 0)
        return hs;
    for (unsigned h = 0; h < g->hooks.n; h++) /* (issue 32: Zorua's phase pass) */
        if (g->hooks.h[h].ops->kernel_annot)
            g->hooks.h[h].ops->kernel_annot(g->hooks.h[h].impl, li->id, e->tk->id, e->tk->an);
    t->sl.id = li->id;
    t->sl.ctxs = (struct hd_ctx_list){HD_CTX_NONE, HD_CTX_NONE, HD_CTX_NONE, 0};
    t->line_set = (uint32_t)e->lines;
    t->info_id = li->id;
    /* registers per thread: ptxas's, given, the configuration's or ours (regs_source.h) */
    const struct hd_regs_known known = {l->attr.regs_given, l->attr.regs_ptxas,
                                        e->tk->regs_per_thread, !e->tk->an->ra_ok};
    struct hd_regs_choice rc;
    hd_regs_choose(&g->regs_src, &known, &rc);
    /* local memory (the kernel's frames + the allocator's spills) counted as `heddle ptx-info`
     * and `heddle list` count it: one function, hd_occupancy_kernel */
    const struct hd_annot *an = e->tk->an;
    uint32_t ei = l->k->entry_index;
    uint32_t spill = an && an->ra_run && ei < an->nmod && an->ra_run[ei]
                         ? an->ra_mod[ei].spill_words : 0;
    struct hd_occ_kernel ok = {l->threads_per_cta, rc.regs, l->smem_bytes, 0};
    struct hd_occupancy occ;
    hd_occupancy_kernel(&g->occ, &ok, hd_occ_local_per_thread(l->k->local_bytes, spill), &occ);
    demand_of(&occ, &t->sl.demand);
    /* our physical registers fold into that budget in the register banks (PTX numbers do not) */
    t->sl.bank_budget = e->tk->an->ra_ok && g->p.sm.bank_physical ? occ.regs_per_thread : 0;
    t->sl.demand.launch = li->id;
    t->sl.demand.priority = l->attr.priority; /* allocators and admission see it */
    snprintf(li->kernel, sizeof li->kernel, "%s", l->k->entry->name);
    hd_mem_full_launch(&g->mem, li->id, l->k->entry->name); /* per-kernel L1 bypass */
    li->stream = stream;
    memcpy(li->grid, l->grid, sizeof li->grid);
    memcpy(li->block, l->block, sizeof li->block);
    li->smem = l->smem_bytes;
    li->regs_per_thread = rc.regs;
    l->annot = e->tk->an;          /* for the launch's observer (co-simulation) */
    l->regs_per_thread = rc.regs;
    li->regs_regalloc = e->tk->regs_per_thread;
    snprintf(li->regs_source, sizeof li->regs_source, "%s", rc.source);
    li->ctas_per_sm = occ.ctas;
    hd_occ_limit_string(&occ, li->limiter, sizeof li->limiter);
    li->line_set = t->line_set;
    li->c.ctas = l->nctas;
    if (occ.ctas == 0) {
        snprintf(err, errlen, "%s: cannot run on this GPU: %s (%u registers per thread from %s)",
                 l->k->entry->name, occ.reason, rc.regs, rc.source);
        return HD_FUNC_ERR_ARGS;
    }
    return HD_FUNC_OK;
}

/* The launches L[nl] waits for: the last earlier one of its stream and of stream 0. */
static void link_stream(struct hd_gpu_timing *g, unsigned i)
{
    struct tlaunch *t = g->L[i];
    t->prev_same = t->prev_zero = -1;
    for (unsigned j = i; j-- > 0;) {
        if (t->prev_same < 0 && g->L[j]->stream == t->stream)
            t->prev_same = (int)j;
        if (t->prev_zero < 0 && g->L[j]->stream == 0)
            t->prev_zero = (int)j;
        if (t->prev_same >= 0 && t->prev_zero >= 0)
            break;
    }
}

/* Room for one more launch in L and in the CTA scheduler's scratch. */
static int grow(struct hd_gpu_timing *g)
{
    if (g->nl < g->cap_l)
        return 0;
    const unsigned ncap = g->cap_l ? 2 * g->cap_l : 8;
    struct tlaunch **L = realloc(g->L, ncap * sizeof *L);
    if (L)
        g->L = L;
    struct hd_ksel_cand *cand = realloc(g->cand, ncap * sizeof *cand);
    if (cand)
        g->cand = cand;
    unsigned *ci = realloc(g->cand_index, ncap * sizeof *ci);
    if (ci)
        g->cand_index = ci;
    uint32_t *order = realloc(g->order, ncap * sizeof *order);
    if (order)
        g->order = order;
    unsigned *fin = realloc(g->fin, ncap * sizeof *fin);
    if (fin)
        g->fin = fin;
    if (!L || !cand || !ci || !order || !fin)
        return -1;
    g->cap_l = ncap;
    return 0;
}

int hd_gpu_launch_add(struct hd_gpu_timing *g, struct hd_func_launch *l, int stream, char *err,
                      size_t errlen)
{
    struct tlaunch *t = calloc(1, sizeof *t);
    uint8_t *used = calloc(g->p.num_sms, 1);
    if (!t || !used || grow(g) != 0) {
        free(t);
        free(used);
        snprintf(err, errlen, "host out of memory for launch %u", g->nl + 1);
        return HD_FUNC_ERR_MEMORY;
    }
    t->sm_used = used;
    g->L[g->nl] = t;
    int st = setup_launch(g, t, l, stream, err, errlen);
    if (st != HD_FUNC_OK) {
        free(used);
        free(t);
        return st;
    }
    link_stream(g, g->nl);
    g->nl++;
    return HD_FUNC_OK;
}

void hd_gpu_launches_bind(struct hd_gpu_timing *g)
{
    for (unsigned i = 0; i < g->nl; i++) {
        g->L[i]->sl.info = &g->stats.launch[g->L[i]->info_id];
        g->L[i]->sl.lines = &g->stats.lines[g->L[i]->line_set];
    }
}

void hd_gpu_launches_clear(struct hd_gpu_timing *g)
{
    for (unsigned i = 0; i < g->nl; i++) {
        free(g->L[i]->sm_used);
        free(g->L[i]);
    }
    g->nl = 0;
    g->nfin = 0;
}
/* }==== */

/* {==== While the batch runs ==== */
int hd_gpu_timing_add(struct hd_gpu_timing *g, struct hd_func_launch *l, int stream, char *err,
                      size_t errlen)
{
    int st = hd_gpu_launch_add(g, l, stream, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    hd_gpu_launches_bind(g);
    g->next_arrival = hd_gpu_next_arrival(g);
    g->dirty = true; /* the CTA scheduler looks at it in this cycle */
    return HD_FUNC_OK;
}

void hd_gpu_timing_set_finish(struct hd_gpu_timing *g, hd_gpu_timing_finish_fn fn, void *ctx)
{
    g->finish_fn = fn;
    g->finish_ctx = ctx;
}

static void launch_finished(struct hd_gpu_timing *g, struct tlaunch *t, unsigned index)
{
    t->finished = true;
    t->sl.info->finished = true;
    t->sl.l->finished = true; /* for the runtime: its client's work is complete */
    t->sl.info->c.end_cycle = g->now;
    t->sl.info->c.cycles = g->now + 1 - t->sl.info->c.start_cycle;
    g->running--;
    g->done++;
    g->last_launch_cycles = t->sl.info->c.cycles;
    while (g->first_unfinished < g->nl && g->L[g->first_unfinished]->finished)
        g->first_unfinished++;
    hd_ctx_forget_launch(&g->pool, &t->sl.ctxs);
    if (g->finish_fn)
        g->fin[g->nfin++] = index;
}

/* The index of launch t in L (SMs hand back its sl). */
static unsigned index_of(const struct hd_gpu_timing *g, const struct tlaunch *t)
{
    for (unsigned i = g->first_unfinished; i < g->nl; i++)
        if (g->L[i] == t)
            return i;
    return g->nl; /* not reached: a CTA of a finished launch cannot retire */
}

bool hd_gpu_collect(struct hd_gpu_timing *g, uint32_t s)
{
    struct hd_sm_launch *buf[16];
    unsigned n;
    bool any = false;
    while ((n = hd_sm_retired(g->sm[s], buf, 16)) > 0) {
        for (unsigned i = 0; i < n; i++) {
            struct tlaunch *t = (struct tlaunch *)(void *)buf[i]; /* sl is the first member */
            t->sl.info->c.ctas_done++;
            if (g->admit.ops->left) { /* (cta_admit.h: a finished CTA is not named) */
                struct hd_admit_query q;
                hd_gpu_admit_query(g, s, &t->sl, UINT64_MAX, &q);
                g->admit.ops->left(g->admit.impl, &q, true, g->now);
            }
            if (++t->done_ctas == t->nctas)
                launch_finished(g, t, g->finish_fn ? index_of(g, t) : 0);
        }
        any = true;
    }
    return any;
}

int hd_gpu_launches_notify(struct hd_gpu_timing *g, char *err, size_t errlen)
{
    for (unsigned k = 0; k < g->nfin; k++) { /* the hook may add launches: g->L may move */
        const struct tlaunch *t = g->L[g->fin[k]];
        int st = g->finish_fn(g->finish_ctx, t->sl.l, t->stream, err, errlen);
        if (st != HD_FUNC_OK) {
            g->nfin = 0;
            return st;
        }
    }
    g->nfin = 0;
    return HD_FUNC_OK;
}
/* }==== */
