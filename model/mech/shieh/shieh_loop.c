/* SPDX-License-Identifier: MIT
 * shieh_loop.c - Shieh's four tables stepped in the GPU timing loop (shieh_loop.h; thesis §3.4,
 * Fig 3.6-3.10; docs/blocks/shieh.md "In the GPU").
 */
#include "shieh_loop.h"

#include "hw_ref.h"
#include "shieh_alloc_pos.h"
#include "shieh_alloc_status.h"
#include "shieh_tb_status.h"
#include "shieh_victim_sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CW_MASK (SHIEH_TB_STATUS_CW >= 64 ? UINT64_MAX : (1ull << SHIEH_TB_STATUS_CW) - 1)

/* A placement or exit waiting for the status table (in order). */
struct tb_ev {
    bool free;
    uint32_t slot, ctx;
    uint64_t cycle, instrs; /* placement: its cycle; exit: the count the model has */
    bool flush;
    /* an exit that is a finish: its launch, its first placement and end (+1), for the
     * finished-TB statistics the firmware sums from the exit report */
    bool finished;
    uint32_t launch;
    uint64_t first, end;
};

/* The model's side of one slot (what the table should hold once its events are in). */
struct slot_info {
    bool used;              /* a TB holds the slot (model) */
    uint32_t launch, ctx;
    uint64_t cnt, start;    /* warp instructions, placement cycle */
    bool flush;
    uint32_t pend;          /* its events still queued */
    bool tvalid;            /* the table's entry (after the events applied) */
    uint32_t tctx;
    uint32_t reg_base, regs;
    uint64_t smem_base, smem;
};

enum pos_phase { P_OFF, P_INIT, P_FILL, P_READ, P_STATUS, P_WRITE, P_ROWS, P_DONE };

struct seq {
    enum hd_shl_state st;
    uint32_t launch;
    struct hd_shieh_footprint f;
    uint32_t tb_next, tb_got;
    enum pos_phase pp;
    uint32_t k, pos_next, pos_got, row_next, rowr_next, rowr_got;
    uint32_t reg[HD_SHIEH_MAX_POS], smem[HD_SHIEH_MAX_POS];
    bool status_asked, status_got;
    struct hd_shieh_snap snap;
};

struct sm_part {
    struct hd_hw_inst tbs, pos, vs;
    struct slot_info s[HD_SHL_TBS];
    struct tb_ev *q;
    uint32_t qh, qn, qcap;
    struct hd_shieh_tb_status_in tin; /* this cycle's issue ports */
    uint32_t ports_used;             /* bit k: port k carries an issue this cycle */
    bool tb_rd, pos_rd, vs_rd;       /* a read stepped last cycle: its result is due */
    uint32_t tb_rd_slot, pos_rd_idx, vs_rd_idx;
    bool tb_rd_check;                /* the slot read had nothing queued: compare */
    uint64_t tb_rd_cnt;
    bool tb_rd_flush, tb_rd_valid;
    bool fin_due;                    /* an exit applied last cycle: its report is due */
    struct tb_ev fin_ev;
    uint32_t inv_mask;               /* positions that took a preempting TB this cycle */
    struct seq q_seq;
};

struct as_ev {
    bool fin;
    uint32_t sm, pos;
};

struct hd_shieh_loop {
    uint32_t nsms, max_ctas, ports, issue_width;
    uint32_t registers;
    uint64_t shared_bytes;
    bool positions;
    const struct hd_hw_factory *const *hw;
    bool made;
    struct sm_part *sm;
    /* the GPU's allocation status */
    struct hd_hw_inst as;
    bool as_req;                     /* a request (clear) to step */
    bool have_pre;
    uint32_t pre_launch;             /* the preempting launch the status table holds */
    struct hd_shieh_footprint pre_f;
    uint32_t pre_k;                  /* positions of its footprint (status table's limit) */
    struct as_ev *aq;
    uint32_t aqh, aqn, aqcap;
    struct hd_shieh_kstats_acc *ks;  /* [nks] finished-TB statistics per launch id */
    uint32_t nks;
    struct hd_shieh_kstats_acc *kk;  /* [nkk] the same per kernel id (summed over its launches) */
    uint32_t nkk;
    uint32_t *kof;                   /* [nkof] kernel id + 1 of each launch id (0: not told) */
    uint32_t nkof;
    bool per_launch;                 /* [context] kstats_per_launch: the policies read ks */
    uint32_t *rdq;                   /* SMs waiting for their status read */
    uint32_t rdh, rdn;
    bool as_rd;
    uint32_t as_rd_sm;
    bool failed;
    char err[768];
};

/* {==== Queues ==== */
static bool grow(void **buf, uint32_t *head, uint32_t n, uint32_t *cap, size_t sz)
{
    uint32_t nc = *cap ? 2 * *cap : 16;
    char *b = malloc((size_t)nc * sz);
    if (!b)
        return false;
    for (uint32_t i = 0; i < n; i++)
        memcpy(b + (size_t)i * sz, (char *)*buf + (size_t)((*head + i) % *cap) * sz, sz);
    free(*buf);
    *buf = b;
    *head = 0;
    *cap = nc;
    return true;
}

static void tb_push(struct hd_shieh_loop *L, struct sm_part *p, const struct tb_ev *e)
{
    if (p->qn == p->qcap && !grow((void **)&p->q, &p->qh, p->qn, &p->qcap, sizeof *p->q)) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "host out of memory queueing a Running TB Status event");
        return;
    }
    p->q[(p->qh + p->qn++) % p->qcap] = *e;
    p->s[e->slot].pend++;
}

static void as_push(struct hd_shieh_loop *L, bool fin, uint32_t sm, uint32_t pos)
{
    if (L->aqn == L->aqcap && !grow((void **)&L->aq, &L->aqh, L->aqn, &L->aqcap, sizeof *L->aq)) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "host out of memory queueing an Allocation Status event");
        return;
    }
    L->aq[(L->aqh + L->aqn++) % L->aqcap] = (struct as_ev){fin, sm, pos};
}
/* }==== */

/* Positions below k that [base, base + n) overlaps in units of `unit`, as bits. */
static uint64_t overlapped(uint64_t base, uint64_t n, uint64_t unit, uint32_t k)
{
    uint64_t bits = 0;
    if (!unit || !n)
        return 0;
    for (uint64_t p = base / unit; p < k && p * unit < base + n; p++)
        bits |= 1ull << p;
    return bits;
}

static uint64_t held_positions(const struct hd_shieh_loop *L, const struct slot_info *s)
{
    return overlapped(s->reg_base, s->regs, L->pre_f.regs, L->pre_k) |
           overlapped(s->smem_base, s->smem, L->pre_f.smem, L->pre_k);
}

/* {==== Events ==== */
void hd_shieh_loop_placed(struct hd_shieh_loop *L, uint32_t sm, uint32_t slot, uint32_t launch,
                          uint32_t ctx, uint64_t cycle, uint64_t instrs, bool flush,
                          uint32_t reg_base, uint32_t regs, uint64_t smem_base, uint64_t smem)
{
    if (!L || sm >= L->nsms || slot >= L->max_ctas)
        return;
    struct sm_part *p = &L->sm[sm];
    struct slot_info *s = &p->s[slot];
    s->used = true;
    s->launch = launch;
    s->ctx = ctx;
    s->cnt = instrs;
    s->start = cycle;
    s->flush = flush;
    s->reg_base = reg_base;
    s->regs = regs;
    s->smem_base = smem_base;
    s->smem = smem;
    const struct tb_ev e = {false, slot, ctx, cycle, instrs, flush, false, launch, 0, 0};
    tb_push(L, p, &e);
    if (L->positions && L->have_pre && launch == L->pre_launch) {
        const uint64_t bits = held_positions(L, s);
        for (uint32_t q = 0; q < L->pre_k; q++)
            if (bits >> q & 1) {
                as_push(L, false, sm, q);
                p->inv_mask |= 1u << q;
            }
    }
}

void hd_shieh_loop_issued(struct hd_shieh_loop *L, uint32_t sm, uint32_t port, uint32_t slot,
                          bool nonidem)
{
    if (!L || sm >= L->nsms || slot >= L->max_ctas || port >= L->ports)
        return;
    struct sm_part *p = &L->sm[sm];
    struct slot_info *s = &p->s[slot];
    s->cnt++;
    if (nonidem)
        s->flush = false;
    if (s->pend) /* carried by the queued placement's count */
        return;
    p->tin.iss_v_i |= 1ull << port;
    p->tin.iss_slot_i |= (uint64_t)slot << (port * SHIEH_TB_STATUS_TbW);
    if (nonidem)
        p->tin.iss_nonidem_i |= 1ull << port;
    p->ports_used |= 1u << port;
}

void hd_shieh_loop_left(struct hd_shieh_loop *L, uint32_t sm, uint32_t slot, uint64_t instrs,
                        bool finished, uint64_t first, uint64_t end)
{
    if (!L || sm >= L->nsms || slot >= L->max_ctas)
        return;
    struct sm_part *p = &L->sm[sm];
    struct slot_info *s = &p->s[slot];
    const struct tb_ev e = {true, slot, s->ctx, s->start, instrs, false, finished, s->launch,
                            first, end};
    s->used = false;
    tb_push(L, p, &e);
    if (L->positions && L->have_pre && s->launch == L->pre_launch) {
        const uint64_t bits = held_positions(L, s);
        for (uint32_t q = 0; q < L->pre_k; q++)
            if (bits >> q & 1) {
                as_push(L, true, sm, q);
            }
    }
}
/* }==== */

/* {==== Creation ==== */
static int make(struct hd_shieh_loop *L, const char *block, uint32_t sm, struct hd_hw_inst *x,
                size_t in_size, size_t out_size)
{
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    char name[64], e[512];
    if (sm == UINT32_MAX)
        snprintf(name, sizeof name, "gpu.%s", block);
    else
        snprintf(name, sizeof name, "sm%u.%s", sm, block);
    if (hd_hw_make_sized(f, block, name, x, in_size, out_size, e, sizeof e) != 0) {
        snprintf(L->err, sizeof L->err, "%s", e);
        return -1;
    }
    return 0;
}

static void make_all(struct hd_shieh_loop *L)
{
    L->made = true;
    for (uint32_t i = 0; i < L->nsms && !L->failed; i++) {
        struct sm_part *p = &L->sm[i];
        L->failed |= make(L, "shieh_tb_status", i, &p->tbs, sizeof(struct hd_shieh_tb_status_in),
                          sizeof(struct hd_shieh_tb_status_out)) != 0;
        if (L->positions && !L->failed)
            L->failed |= make(L, "shieh_alloc_pos", i, &p->pos,
                              sizeof(struct hd_shieh_alloc_pos_in),
                              sizeof(struct hd_shieh_alloc_pos_out)) != 0 ||
                         make(L, "shieh_victim_sets", i, &p->vs,
                              sizeof(struct hd_shieh_victim_sets_in),
                              sizeof(struct hd_shieh_victim_sets_out)) != 0;
    }
    if (L->positions && !L->failed)
        L->failed |= make(L, "shieh_alloc_status", UINT32_MAX, &L->as,
                          sizeof(struct hd_shieh_alloc_status_in),
                          sizeof(struct hd_shieh_alloc_status_out)) != 0;
}

struct hd_shieh_loop *hd_shieh_loop_create(const struct hd_gpu_timing_params *p, bool positions,
                                           const struct hd_hw_factory *const *hw, char *err,
                                           size_t errlen)
{
    const uint32_t ports = p->sm.num_sched * p->sm.issue_width;
    if (p->sm.max_ctas > SHIEH_TB_STATUS_MaxTb || ports > SHIEH_TB_STATUS_Iss) {
        snprintf(err, errlen,
                 "key 'preempt_policy': the Running TB Status table is built for %d CTAs per SM "
                 "and %d issue ports (configs/rtl/shieh_tb_status.ini), the GPU has [sm] "
                 "max_ctas = %u and %u schedulers x issue_width %u",
                 SHIEH_TB_STATUS_MaxTb, SHIEH_TB_STATUS_Iss, p->sm.max_ctas, p->sm.num_sched,
                 p->sm.issue_width);
        return NULL;
    }
    if (positions && (p->num_sms > SHIEH_ALLOC_STATUS_NSm ||
                      p->sm.max_ctas > SHIEH_VICTIM_SETS_MaxTb ||
                      p->sm.registers > (1u << SHIEH_ALLOC_POS_AddrW) ||
                      p->sm.shared_bytes > (1u << SHIEH_ALLOC_POS_AddrW))) {
        snprintf(err, errlen,
                 "key 'preempt_policy': Shieh's tables are built for %d SMs, %d CTAs per SM and "
                 "%u registers / bytes of shared memory per SM (configs/rtl/shieh_*.ini), the GPU "
                 "has %u SMs, max_ctas %u, %u registers, %" PRIu64 " bytes",
                 SHIEH_ALLOC_STATUS_NSm, SHIEH_VICTIM_SETS_MaxTb, 1u << SHIEH_ALLOC_POS_AddrW,
                 p->num_sms, p->sm.max_ctas, p->sm.registers, p->sm.shared_bytes);
        return NULL;
    }
    struct hd_shieh_loop *L = calloc(1, sizeof *L);
    if (!L || !(L->sm = calloc(p->num_sms, sizeof *L->sm)) ||
        !(L->rdq = calloc(p->num_sms, sizeof *L->rdq))) {
        hd_shieh_loop_destroy(L);
        snprintf(err, errlen, "host out of memory for Shieh's tables");
        return NULL;
    }
    L->nsms = p->num_sms;
    L->max_ctas = p->sm.max_ctas;
    L->ports = ports;
    L->issue_width = p->sm.issue_width;
    L->registers = p->sm.registers;
    L->shared_bytes = p->sm.shared_bytes;
    L->positions = positions;
    L->hw = hw;
    L->per_launch = p->ctx.kstats_per_launch;
    return L;
}

void hd_shieh_loop_destroy(struct hd_shieh_loop *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; L->sm && i < L->nsms; i++) {
        hd_hw_destroy(&L->sm[i].tbs);
        hd_hw_destroy(&L->sm[i].pos);
        hd_hw_destroy(&L->sm[i].vs);
        free(L->sm[i].q);
    }
    hd_hw_destroy(&L->as);
    free(L->ks);
    free(L->kk);
    free(L->kof);
    free(L->sm);
    free(L->aq);
    free(L->rdq);
    free(L);
}
/* }==== */

/* {==== Reads ==== */
static void start_seq(struct hd_shieh_loop *L, uint32_t sm, uint32_t launch,
                      const struct hd_shieh_footprint *f, uint64_t now)
{
    struct seq *q = &L->sm[sm].q_seq;
    memset(q, 0, sizeof *q);
    q->st = HD_SHL_PENDING;
    q->launch = launch;
    q->f = *f;
    q->snap.started = now;
    q->snap.launch = launch;
    q->pp = L->positions ? P_INIT : P_OFF;
    if (!L->positions)
        return;
    if (!L->have_pre || L->pre_launch != launch || L->pre_f.regs != f->regs ||
        L->pre_f.smem != f->smem) { /* a new preempting kernel: clear, record what it holds */
        L->have_pre = true;
        L->pre_launch = launch;
        L->pre_f = *f;
        L->pre_k = hd_shieh_positions(f, L->registers, L->shared_bytes, SHIEH_ALLOC_STATUS_PosN);
        L->as_req = true;
        L->aqn = 0;
        for (uint32_t s = 0; s < L->nsms; s++)
            for (uint32_t j = 0; j < L->max_ctas; j++) {
                const struct slot_info *x = &L->sm[s].s[j];
                const uint64_t bits = x->used && x->launch == launch ? held_positions(L, x) : 0;
                for (uint32_t p = 0; p < L->pre_k; p++)
                    if (bits >> p & 1)
                        as_push(L, false, s, p);
            }
    }
    L->rdq[(L->rdh + L->rdn++) % L->nsms] = sm;
    q->status_asked = true;
}

enum hd_shl_state hd_shieh_loop_read(struct hd_shieh_loop *L, uint32_t sm, uint32_t launch,
                                     const struct hd_shieh_footprint *f, uint64_t now,
                                     struct hd_shieh_snap *out)
{
    if (!L || sm >= L->nsms)
        return HD_SHL_NONE;
    struct seq *q = &L->sm[sm].q_seq;
    const bool same = q->launch == launch && q->f.regs == f->regs && q->f.smem == f->smem;
    if (q->st == HD_SHL_READY && same && now <= q->snap.done + 1) {
        *out = q->snap; /* (asked in the cycle after the last result: older ones are read anew) */
        q->st = HD_SHL_NONE;
        return HD_SHL_READY;
    }
    if (q->st == HD_SHL_PENDING && (same || q->status_asked))
        return HD_SHL_PENDING; /* (another launch's reads finish first) */
    start_seq(L, sm, launch, f, now);
    return HD_SHL_NONE;
}
/* }==== */

/* {==== The cycle ==== */
static int fail(struct hd_shieh_loop *L, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s", L->err);
    return -1;
}

static int step(struct hd_shieh_loop *L, struct hd_hw_inst *x, const void *in, void *out,
                uint64_t now)
{
    if (hd_hw_step(x, in, out, now) != 0) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "%s", x->ops->error(x->impl));
        return -1;
    }
    return 0;
}

/* The queued placements and exits this edge takes (at most one exit, then one placement). */
static void take_events(struct sm_part *p, struct hd_shieh_tb_status_in *in, bool *took_free,
                        struct tb_ev *freed, uint32_t *ev_mask)
{
    *took_free = false;
    if (p->qn && p->q[p->qh].free) {
        const struct tb_ev *e = &p->q[p->qh];
        bool clash = false; /* an issue to the slot in this edge would come after the free */
        for (uint32_t k = 0; k < SHIEH_TB_STATUS_Iss; k++)
            clash |= (in->iss_v_i >> k & 1) &&
                     ((in->iss_slot_i >> (k * SHIEH_TB_STATUS_TbW)) &
                      ((1u << SHIEH_TB_STATUS_TbW) - 1)) == e->slot;
        if (!clash) {
            in->free_v_i = 1;
            in->free_slot_i = e->slot;
            *freed = *e;
            *took_free = true;
            *ev_mask |= 1u << e->slot;
            p->s[e->slot].pend--;
            p->s[e->slot].tvalid = false;
            p->qh = (p->qh + 1) % p->qcap;
            p->qn--;
        }
    }
    if (p->qn && !p->q[p->qh].free) {
        const struct tb_ev *e = &p->q[p->qh];
        struct slot_info *s = &p->s[e->slot];
        in->alloc_v_i = 1;
        in->alloc_slot_i = e->slot;
        in->alloc_cycle_i = e->cycle & CW_MASK;
        s->pend--;
        /* the count now (issues while it waited included) if it is still the slot's TB */
        const bool current = s->used && s->ctx == e->ctx && s->pend == 0;
        const uint64_t n = current ? s->cnt : e->instrs;
        in->alloc_instr_i = n > CW_MASK ? CW_MASK : n;
        in->alloc_flush_i = current ? s->flush : e->flush;
        s->tvalid = true;
        s->tctx = e->ctx;
        p->qh = (p->qh + 1) % p->qcap;
        p->qn--;
    }
}

/* Make (*arr)[i] exist (zeroed), *n its length; false on allocation failure. */
static bool fit(void **arr, uint32_t *n, uint32_t i, size_t sz)
{
    if (i < *n)
        return true;
    uint32_t m = *n ? *n : 16;
    while (m <= i)
        m *= 2;
    char *a = realloc(*arr, (size_t)m * sz);
    if (!a)
        return false;
    memset(a + (size_t)*n * sz, 0, (size_t)(m - *n) * sz);
    *arr = a;
    *n = m;
    return true;
}

static void add_tb(struct hd_shieh_kstats_acc *k, uint64_t instrs, uint64_t cycles)
{
    k->n++;
    k->instrs += instrs;
    k->cycles += cycles;
    if (instrs) {
        const double cpi = (double)cycles / (double)instrs;
        k->cpi_n++;
        k->cpi_sum += cpi;
        k->cpi_sq += cpi * cpi;
    }
}

/* A finished TB's exit report: add it to its launch's and its kernel's statistics (its CPI from
 * the reported instructions and its residency from first placement to end, as the model's
 * retire counts). */
static int account(struct hd_shieh_loop *L, const struct tb_ev *e, uint64_t instrs)
{
    const uint32_t kid = e->launch < L->nkof ? L->kof[e->launch] : 0;
    if (!fit((void **)&L->ks, &L->nks, e->launch, sizeof *L->ks) ||
        (kid && !fit((void **)&L->kk, &L->nkk, kid - 1, sizeof *L->kk))) {
        snprintf(L->err, sizeof L->err, "host out of memory for finished-TB statistics");
        L->failed = true;
        return -1;
    }
    const uint64_t cycles = e->end - e->first;
    add_tb(&L->ks[e->launch], instrs, cycles);
    if (kid)
        add_tb(&L->kk[kid - 1], instrs, cycles);
    return 0;
}

int hd_shieh_loop_launch_kernel(struct hd_shieh_loop *L, uint32_t launch, uint32_t kernel)
{
    if (!fit((void **)&L->kof, &L->nkof, launch, sizeof *L->kof))
        return -1;
    L->kof[launch] = kernel + 1;
    return 0;
}

void hd_shieh_loop_kstats(const struct hd_shieh_loop *L, uint32_t launch,
                          struct hd_shieh_kstats_acc *out)
{
    const uint32_t kid = L && launch < L->nkof ? L->kof[launch] : 0;
    if (L && !L->per_launch && kid) /* per kernel (Shieh L236) */
        *out = kid - 1 < L->nkk ? L->kk[kid - 1] : (struct hd_shieh_kstats_acc){0};
    else if (L && launch < L->nks)
        *out = L->ks[launch];
    else
        memset(out, 0, sizeof *out);
}

static uint64_t widen(uint64_t lo, uint64_t now)
{
    return SHIEH_TB_STATUS_CW >= 64 ? lo : now - ((now - lo) & CW_MASK);
}

/* The SM's status table this cycle. */
static int step_tbs(struct hd_shieh_loop *L, uint32_t sm, uint64_t now, uint32_t *ev_mask)
{
    struct sm_part *p = &L->sm[sm];
    struct seq *q = &p->q_seq;
    struct hd_shieh_tb_status_in in = p->tin;
    struct tb_ev freed;
    bool took_free;
    take_events(p, &in, &took_free, &freed, ev_mask);
    bool rd = q->st == HD_SHL_PENDING && q->tb_next < L->max_ctas;
    uint32_t rd_slot = rd ? q->tb_next : 0;
    if (rd) {
        in.rd_v_i = 1;
        in.rd_slot_i = rd_slot;
        q->tb_next++;
    }
    memset(&p->tin, 0, sizeof p->tin);
    p->ports_used = 0;
    if (!rd && !p->tb_rd && !p->fin_due && !took_free && !in.alloc_v_i && !in.iss_v_i &&
        hd_hw_idle(&p->tbs, &in))
        return 0;
    const uint64_t tag[2] = {sm, rd ? rd_slot : took_free ? freed.slot : in.alloc_slot_i};
    hd_hw_set_tag(&p->tbs, tag, 2);
    struct hd_shieh_tb_status_out out;
    if (step(L, &p->tbs, &in, &out, now) != 0)
        return -1;
    if (p->fin_due) { /* the exit report of last edge's free */
        const struct tb_ev *e = &p->fin_ev;
        const uint64_t want = e->instrs > CW_MASK ? CW_MASK : e->instrs;
        if (!(out.fin_v_o & 1) || out.fin_instr_o != want ||
            out.fin_issue_o != (e->cycle & CW_MASK)) {
            snprintf(L->err, sizeof L->err,
                     "sm%u.shieh_tb_status at cycle %" PRIu64 ": the exit report of slot %u "
                     "(context %u) is valid=%u, %" PRIu64 " warp instructions, placed at %" PRIu64
                     "; the model counted %" PRIu64 ", placed at cycle %" PRIu64,
                     sm, now, e->slot, e->ctx, (unsigned)(out.fin_v_o & 1),
                     (uint64_t)out.fin_instr_o, (uint64_t)out.fin_issue_o, want, e->cycle);
            L->failed = true;
            return -1;
        }
    }
    if (p->fin_due && p->fin_ev.finished && account(L, &p->fin_ev, out.fin_instr_o) != 0)
        return -1;
    p->fin_due = took_free;
    if (took_free)
        p->fin_ev = freed;
    if (p->tb_rd) { /* last edge's read */
        const uint32_t j = p->tb_rd_slot;
        const struct slot_info *s = &p->s[j];
        if (!(out.rd_v_o & 1)) {
            snprintf(L->err, sizeof L->err, "sm%u.shieh_tb_status at cycle %" PRIu64 ": no read "
                     "result one cycle after reading slot %u (latency 1)", sm, now, j);
            L->failed = true;
            return -1;
        }
        if (p->tb_rd_check) {
                const uint64_t want = p->tb_rd_cnt > CW_MASK ? CW_MASK : p->tb_rd_cnt;
            const bool v = out.rd_valid_o & 1, fl = out.rd_flush_o & 1;
            if (v != p->tb_rd_valid || (v && (out.rd_instr_o != want || fl != p->tb_rd_flush))) {
                snprintf(L->err, sizeof L->err,
                         "sm%u.shieh_tb_status at cycle %" PRIu64 ": slot %u read valid=%u, %"
                         PRIu64 " warp instructions, flush bit %u; the model has valid=%u, %"
                         PRIu64 ", flush bit %u", sm, now, j, (unsigned)v,
                         (uint64_t)out.rd_instr_o, (unsigned)fl, (unsigned)p->tb_rd_valid, want,
                         (unsigned)p->tb_rd_flush);
                L->failed = true;
                return -1;
            }
        }
        if (q->st == HD_SHL_PENDING && j < HD_SHL_TBS) {
            q->snap.valid[j] = out.rd_valid_o & 1;
            q->snap.flush[j] = out.rd_flush_o & 1;
            q->snap.instr[j] = out.rd_instr_o;
            q->snap.issue[j] = widen(out.rd_issue_o, now);
            q->snap.ctx[j] = s->tctx;
            q->tb_got++;
        }
    }
    p->tb_rd = rd;
    if (rd) {
        const struct slot_info *s = &p->s[rd_slot];
        p->tb_rd_slot = rd_slot;
        p->tb_rd_check = s->pend == 0;
        p->tb_rd_valid = s->tvalid;
        p->tb_rd_cnt = s->cnt;
        p->tb_rd_flush = s->flush;
    }
    return 0;
}

/* Candidate row r for the footprint's bases read back: the slots of other launches' TBs whose
 * registers or shared memory overlap position r. */
static uint64_t row_bits(const struct hd_shieh_loop *L, const struct sm_part *p,
                         const struct seq *q, uint32_t r)
{
    uint64_t bits = 0;
    for (uint32_t j = 0; j < L->max_ctas; j++) {
        const struct slot_info *s = &p->s[j];
        if (!s->used || s->launch == q->launch)
            continue;
        const uint64_t rb = q->reg[r], sb = q->smem[r];
        const bool reg = q->f.regs && s->regs && rb < s->reg_base + (uint64_t)s->regs &&
                         s->reg_base < rb + q->f.regs;
        const bool sh = q->f.smem && s->smem && sb < s->smem_base + s->smem &&
                        s->smem_base < sb + q->f.smem;
        if (reg || sh)
            bits |= 1ull << j;
    }
    return bits;
}

/* The SM's positions and candidate tables this cycle. */
static int step_pos(struct hd_shieh_loop *L, uint32_t sm, uint64_t now, uint32_t ev_mask)
{
    struct sm_part *p = &L->sm[sm];
    struct seq *q = &p->q_seq;
    const bool run = q->st == HD_SHL_PENDING;
    struct hd_shieh_alloc_pos_in pin;
    struct hd_shieh_victim_sets_in vin;
    memset(&pin, 0, sizeof pin);
    memset(&vin, 0, sizeof vin);
    bool prd = false, vrd = false;
    uint32_t pidx = 0, vidx = 0;
    if (run && q->pp == P_INIT) {
        pin.init_v_i = 1;
        pin.r_per_tb_i = q->f.regs;
        pin.s_per_tb_i = q->f.smem;
        pin.rf_cap_i = L->registers;
        pin.smem_cap_i = L->shared_bytes;
        vin.clr_i = 1;
        q->pp = P_FILL;
    } else if (run && q->pp == P_READ && q->pos_next < q->k) {
        prd = true;
        pidx = q->pos_next++;
        pin.rd_v_i = 1;
        pin.rd_idx_i = pidx;
    } else if (run && q->pp == P_WRITE) {
        const bool issued = q->snap.issued >> q->row_next & 1; /* its position has no row */
        vin.wr_v_i = !issued;
        vin.wr_idx_i = q->row_next;
        vin.wr_bits_i = issued ? 0 : row_bits(L, p, q, q->row_next);
        if (++q->row_next == q->k)
            q->pp = P_ROWS;
    } else if (run && q->pp == P_ROWS && q->rowr_next < q->k) {
        vrd = true;
        vidx = q->rowr_next++;
        vin.rd_v_i = 1;
        vin.rd_idx_i = vidx;
    }
    if (ev_mask) { /* the Signal: TBs left */
        vin.ev_v_i = 1;
        vin.ev_mask_i = ev_mask;
    }
    const uint32_t inv = p->inv_mask & ((1u << SHIEH_VICTIM_SETS_CandMax) - 1);
    if (inv) { /* one invalidation per edge: the lowest position taken */
        const uint32_t r = (uint32_t)__builtin_ctz(inv);
        vin.inv_v_i = 1;
        vin.inv_idx_i = r;
        p->inv_mask &= ~(1u << r);
    } else {
        p->inv_mask = 0;
    }
    const bool pos_work = pin.init_v_i || prd || p->pos_rd || q->pp == P_FILL;
    if (pos_work || !hd_hw_idle(&p->pos, &pin)) {
        const uint64_t tag[2] = {sm, q->launch};
        hd_hw_set_tag(&p->pos, tag, 2);
        struct hd_shieh_alloc_pos_out out;
        if (step(L, &p->pos, &pin, &out, now) != 0)
            return -1;
        if ((out.done_o & 1) && q->pp == P_FILL && run) {
            q->k = (uint32_t)out.k_o;
            if (q->k > SHIEH_VICTIM_SETS_CandMax)
                q->k = SHIEH_VICTIM_SETS_CandMax; /* candidate rows the hardware has */
            q->snap.k = q->k;
            q->pp = q->k ? P_READ : P_STATUS;
        }
        if (p->pos_rd) {
            if (!(out.rd_v_o & 1) || !(out.rd_ok_o & 1)) {
                snprintf(L->err, sizeof L->err, "sm%u.shieh_alloc_pos at cycle %" PRIu64 ": "
                         "entry %u read back valid=%u ok=%u, one of the K = %u positions it "
                         "reported", sm, now, p->pos_rd_idx, (unsigned)(out.rd_v_o & 1),
                         (unsigned)(out.rd_ok_o & 1), q->k);
                L->failed = true;
                return -1;
            }
            q->reg[p->pos_rd_idx] = (uint32_t)out.rd_reg_o;
            q->smem[p->pos_rd_idx] = (uint32_t)out.rd_smem_o;
            if (++q->pos_got == q->k)
                q->pp = P_STATUS;
        }
        p->pos_rd = prd;
        p->pos_rd_idx = pidx;
    }
    if (run && q->pp == P_STATUS && q->status_got)
        q->pp = q->k ? P_WRITE : P_DONE;
    const bool vs_work = vin.clr_i || vin.wr_v_i || vin.ev_v_i || vin.inv_v_i || vrd || p->vs_rd;
    if (vs_work || !hd_hw_idle(&p->vs, &vin)) {
        const uint64_t tag[2] = {sm, vin.wr_v_i ? 2u : vin.ev_v_i ? 3u : vrd ? 5u : 1u};
        hd_hw_set_tag(&p->vs, tag, 2);
        struct hd_shieh_victim_sets_out out;
        if (step(L, &p->vs, &vin, &out, now) != 0)
            return -1;
        if (p->vs_rd) {
            if (!(out.rd_v_o & 1)) {
                snprintf(L->err, sizeof L->err, "sm%u.shieh_victim_sets at cycle %" PRIu64
                         ": no result one cycle after reading row %u", sm, now, p->vs_rd_idx);
                L->failed = true;
                return -1;
            }
            if (run) {
                q->snap.cand[p->vs_rd_idx] = out.rd_bits_o;
                q->snap.row_valid = out.row_valid_o;
                if (++q->rowr_got == q->k)
                    q->pp = P_DONE;
            }
        }
        p->vs_rd = vrd;
        p->vs_rd_idx = vidx;
    }
    return 0;
}

/* The GPU's allocation status this cycle. */
static int step_as(struct hd_shieh_loop *L, uint64_t now)
{
    struct hd_shieh_alloc_status_in in;
    memset(&in, 0, sizeof in);
    uint32_t tag_sm = 0;
    if (L->as_req) {
        in.req_v_i = 1;
        in.req_pid_i = (L->pre_launch >> 5) & 0x7FFFu;
        in.req_kid_i = L->pre_launch & 31u;
        L->as_req = false;
    } else if (L->aqn) {
        const struct as_ev *e = &L->aq[L->aqh];
        if (e->fin) {
            in.fin_v_i = 1;
            in.fin_sm_i = e->sm;
            in.fin_pos_i = e->pos;
            in.fin_kid_i = L->pre_launch & 31u;
        } else {
            in.disp_v_i = 1;
            in.disp_sm_i = e->sm;
            in.disp_pos_i = e->pos;
        }
        tag_sm = e->sm;
        L->aqh = (L->aqh + 1) % L->aqcap;
        L->aqn--;
    }
    const bool rd = !in.req_v_i && !in.disp_v_i && !in.fin_v_i && L->rdn > 0;
    uint32_t rd_sm = 0;
    if (rd) { /* after the queued writes: the read sees them */
        rd_sm = L->rdq[L->rdh];
        L->rdh = (L->rdh + 1) % L->nsms;
        L->rdn--;
        in.rd_v_i = 1;
        in.rd_sm_i = rd_sm;
        tag_sm = rd_sm;
    }
    const bool fin_sent = in.fin_v_i != 0;
    if (!rd && !L->as_rd && !in.req_v_i && !in.disp_v_i && !fin_sent && hd_hw_idle(&L->as, &in))
        return 0;
    const uint64_t tag[2] = {tag_sm, L->pre_launch};
    hd_hw_set_tag(&L->as, tag, 2);
    struct hd_shieh_alloc_status_out out;
    if (step(L, &L->as, &in, &out, now) != 0)
        return -1;
    if (out.fin_bad_o & 1) {
        snprintf(L->err, sizeof L->err, "gpu.shieh_alloc_status at cycle %" PRIu64 ": a finish "
                 "report of the preempting launch %u matched no issued entry", now,
                 L->pre_launch);
        L->failed = true;
        return -1;
    }
    if (L->as_rd) {
        struct seq *q = &L->sm[L->as_rd_sm].q_seq;
        if (!(out.rd_v_o & 1)) {
            snprintf(L->err, sizeof L->err, "gpu.shieh_alloc_status at cycle %" PRIu64 ": no "
                     "result one cycle after reading SM %u", now, L->as_rd_sm);
            L->failed = true;
            return -1;
        }
        if (q->st == HD_SHL_PENDING && q->launch == L->pre_launch) {
            q->snap.issued = out.rd_issued_o;
            q->status_got = true;
        } else if (q->st == HD_SHL_PENDING) {
            q->st = HD_SHL_NONE; /* read for a launch no longer preempting: drop it */
        }
        q->status_asked = false;
    }
    L->as_rd = rd;
    L->as_rd_sm = rd_sm;
    return 0;
}

int hd_shieh_loop_make(struct hd_shieh_loop *L, char *err, size_t errlen)
{
    if (!L->made)
        make_all(L);
    return L->failed ? fail(L, err, errlen) : 0;
}

int hd_shieh_loop_cycle(struct hd_shieh_loop *L, uint64_t now, bool *ready, bool *busy, char *err,
                        size_t errlen)
{
    *ready = *busy = false;
    if (hd_shieh_loop_make(L, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < L->nsms; i++) {
        uint32_t ev = 0;
        if (step_tbs(L, i, now, &ev) != 0 || (L->positions && step_pos(L, i, now, ev) != 0))
            return fail(L, err, errlen);
    }
    if (L->positions && step_as(L, now) != 0)
        return fail(L, err, errlen);
    for (uint32_t i = 0; i < L->nsms; i++) {
        struct sm_part *p = &L->sm[i];
        struct seq *q = &p->q_seq;
        if (q->st == HD_SHL_PENDING && q->tb_got == L->max_ctas &&
            (q->pp == P_OFF || q->pp == P_DONE)) {
            q->st = HD_SHL_READY;
            q->snap.done = now;
            *ready = true;
        }
        *busy |= p->qn || p->tb_rd || p->pos_rd || p->vs_rd || p->fin_due || p->inv_mask ||
                 q->st == HD_SHL_PENDING;
    }
    *busy |= L->as_req || L->aqn || L->rdn || L->as_rd;
    return 0;
}
/* }==== */
