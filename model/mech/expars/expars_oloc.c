/* SPDX-License-Identifier: MIT
 * expars_oloc.c - EXPARS's operand path through the substrate's operand-location hook
 * (sm_oloc.h, docs/oloc.md): the bank arbitrator's RF-or-OC judgement (Yu et al. §3.3.5; digest
 * §2.7), the operand cache's reads, fills, write-backs and evictions (§3.3.4, §3.3.7; digest
 * §2.6) with the scratchpad port they share with ld/st.shared, and the checker.
 *
 * Ports after the register banks: 0 = the scratchpad (one warp register per cycle, read or
 * write; one of the shared-memory banks' passes when [expars] spad_shared), 1..oc_banks = the
 * operand cache's banks (one read and one write each per cycle). A source word of a register in
 * the scratchpad (expars_sm.h: mix CTA and Reg >= Start_Reg) is read from its operand-cache bank
 * when its line holds it; otherwise it is filled: a read of the scratchpad port landing
 * [expars] fill_latency cycles later (+1 when the line's victim is dirty: its write-back takes a
 * scratchpad pass first), after which filled() installs the line and the word is read from the
 * cache. A destination word of such a register is written into its line (a new version; a miss
 * allocates the line, and a dirty victim's write-back makes the write a scratchpad-port write).
 *
 * What this does not model yet (docs/expars.md): the paper fills a whole bundle's registers
 * before the warp may issue (PREF, register prefetcher, warp pool); here each operand is filled
 * when it is read (demand fill), which costs the fill on the operand's path instead of hiding
 * it behind other warps.
 *
 * Checker ([expars] check): every read located in the cache compares the line's lanes with the
 * functional model's register value before the instruction's step (expars_val.h: the values the
 * lines and scratchpad registers carry), then the line's version with the register's newest
 * version (expars_sm.h); a fill copies the scratchpad's value and version, a write the
 * functional result, a dirty eviction copies them back. A mismatch (a lost write-back, a stale
 * fill, a line of another warp, a write-after-read hazard) is written to the SM's fault message,
 * which stops the run at the end of the cycle, located (SM, warp slot, CTA slot, register, PC,
 * cycle, lane and the two values). [expars] fault = N corrupts (every lane of) the Nth fill of a
 * register that holds a written value. A line written by a diverged warp holds only the lanes
 * it wrote; a read that needs others is filled (merged) from the scratchpad (expars_val.h).
 */
#include "expars_loop.h"
#include "expars_mech.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ex_oloc {
    struct hd_expars_sm *s;  /* the allocator's state (not owned) */
    uint32_t banks;          /* register banks: the first policy port */
    uint8_t reads[1 + 16], writes[1 + 16];
    struct hd_oloc_ops ops;
};

#define P_SPAD 0u

static uint32_t *ver(uint32_t *a, uint32_t w, uint32_t r)
{
    return &a[(size_t)w * HD_EXPARS_MAX_REGS + r];
}

static void check(struct ex_oloc *x, const struct hd_oloc_query *q, int line, uint32_t have)
{
    struct hd_expars_sm *s = x->s;
    if (!s->p->expars_check || s->fault[0])
        return;
    s->st.checked++;
    const uint32_t want = *ver(s->ref, q->warp, q->reg);
    if (line >= 0 && have == want)
        return;
    snprintf(s->fault, sizeof s->fault,
             "expars checker: SM %u warp slot %u (CTA slot %u) register %u at PC %u, cycle %" PRIu64
             ": the operand cache line %d holds version %u, the register's newest is %u",
             s->id, q->warp, q->cta_slot, q->reg, q->pc, q->now, line, have, want);
}

/* Is register `reg` of warp slot `warp` in the scratchpad? The RAT's judgement (expars_sm.h);
 * with the blocks in the loop, the RAT block's answer (compared with it). */
static bool in_spm(struct hd_expars_sm *s, const struct hd_oloc_query *q)
{
    const bool m = hd_expars_sm_in_spm(s, q->warp, q->reg);
    return s->loop ? hd_expars_loop_rat(s->loop, s, q->warp, q->reg, m, q->now) : m;
}

/* The bank arbitrator's route of word q (expars_arb.h): with the blocks in the loop the block
 * is asked (op SRC or DST) and its answer replaces the model's *a (compared: equal, or the run
 * stops). */
static void route(struct hd_expars_sm *s, const struct hd_oloc_query *q, unsigned op, bool spm,
                  bool hit, bool vic_dirty, struct hd_expars_arb_out *a)
{
    if (!s->loop)
        return;
    struct hd_expars_arb_in in;
    memset(&in, 0, sizeof in);
    in.op_i = op;
    in.reg_i = q->reg;
    in.spm_i = spm;
    in.hit_i = hit;
    in.vic_dirty_i = vic_dirty;
    in.lat_i = op == HD_EXPARS_ARB_SRC ? s->p->expars_fill_latency : 0;
    hd_expars_loop_arb(s->loop, s->id, &in, a, q->now);
}

/* Word q with its register as EXPARS numbers it ([expars] renumber: the rank; expars_sm.h). */
static const struct hd_oloc_query *renamed(const struct hd_expars_sm *s,
                                           const struct hd_oloc_query *q,
                                           struct hd_oloc_query *tmp)
{
    const uint32_t r = hd_expars_sm_ren(s, q->an, q->reg);
    if (r == q->reg)
        return q;
    *tmp = *q;
    tmp->reg = r;
    return tmp;
}

static void ex_locate(void *impl, const struct hd_oloc_query *q0, struct hd_oloc *out)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    struct hd_oloc_query tmp;
    const struct hd_oloc_query *q = renamed(s, q0, &tmp);
    struct hd_expars_arb_out a;
    memset(&a, 0, sizeof a);
    if (!in_spm(s, q)) {
        route(s, q, HD_EXPARS_ARB_SRC, false, false, false, &a);
        if (!a.oc_o)
            return; /* the register file, as without EXPARS */
    }
    a.oc_o = 1;
    a.bank_o = hd_expars_oc_bank(&s->oc, q->reg);
    uint32_t vi, have;
    const int line = hd_expars_oc_read(&s->oc, q->warp, q->reg, &vi, &have);
    const struct hd_expars_oc_line *v = &s->oc.t.line[vi];
    /* a line written by a diverged warp may lack lanes this read needs: filled (merged) */
    const bool part = line >= 0 && !hd_expars_val_holds(&s->val, (uint32_t)line,
                                                         hd_expars_val_need(s, q));
    const bool vdirty = line < 0 && v->valid && v->dirty;
    if (line < 0 || part) {
        a.spad_o = 1;
        a.lat_o = s->p->expars_fill_latency + vdirty;
    }
    route(s, q, HD_EXPARS_ARB_SRC, true, line >= 0 && !part, vdirty, &a);
    out->kind = HD_OLOC_OPCACHE;
    out->port = (uint16_t)(x->banks + 1 + a.bank_o);
    hd_expars_val_located(s, q, a.spad_o != 0);
    if (!a.spad_o) {
        s->st.reads_oc++;
        s->st.reads_beyond += q->reg > s->rat.max_reg;
        hd_expars_val_check(s, q, (uint32_t)line); /* the value, then the version */
        check(x, q, line, have);
        return;
    }
    out->miss = HD_OLOC_FILL_PORT;
    out->fill_port = (uint16_t)(x->banks + P_SPAD);
    out->fill_latency = (uint16_t)a.lat_o;
}

/* Line i's previous content left the cache: a dirty one is written back. */
static void evicted(struct hd_expars_sm *s, uint32_t i, const struct hd_expars_oc_line *victim)
{
    if (!victim->valid)
        return;
    if (victim->dirty) {
        *ver(s->spm, victim->warp, victim->reg) = victim->ver;
        hd_expars_val_writeback(&s->val, i, victim->warp, victim->reg);
        s->st.evict_dirty++;
    } else {
        s->st.evict_clean++;
    }
}

void hd_expars_fill_line(struct hd_expars_sm *s, uint32_t warp, uint32_t reg)
{
    const uint32_t v = *ver(s->spm, warp, reg);
    s->st.fills++;
    s->st.fills_data += v != 0;
    /* fault injection: a corrupted line (of a register written before): its value, all lanes */
    const bool corrupt = s->p->expars_fault && v != 0 && s->st.fills_data == s->p->expars_fault;
    struct hd_expars_oc_line victim;
    const uint32_t i = hd_expars_oc_put(&s->oc, warp, reg, v, false, &victim);
    evicted(s, i, &victim);
    hd_expars_val_fill(&s->val, i, warp, reg, corrupt);
}

static void ex_filled(void *impl, const struct hd_oloc_query *q0)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    struct hd_oloc_query tmp;
    const struct hd_oloc_query *q = renamed(s, q0, &tmp);
    if (!in_spm(s, q))
        return;
    const int line = hd_expars_oc_find(&s->oc, q->warp, q->reg);
    if (line < 0)
        hd_expars_fill_line(s, q->warp, q->reg);
    else if (!hd_expars_val_holds(&s->val, (uint32_t)line, UINT32_MAX))
        hd_expars_val_merge(&s->val, (uint32_t)line, q->warp, q->reg);
}

static void ex_locate_dst(void *impl, const struct hd_oloc_query *q0, struct hd_oloc *out)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    struct hd_oloc_query tmp;
    const struct hd_oloc_query *q = renamed(s, q0, &tmp);
    struct hd_expars_arb_out a;
    memset(&a, 0, sizeof a);
    if (!in_spm(s, q)) {
        route(s, q, HD_EXPARS_ARB_DST, false, false, false, &a);
        return; /* (a block that routed it elsewhere has stopped the run) */
    }
    uint32_t *r = ver(s->ref, q->warp, q->reg);
    ++*r; /* a new version (a writeback retried next cycle makes another: still consistent) */
    bool hit;
    struct hd_expars_oc_line victim;
    const uint32_t i = hd_expars_oc_write(&s->oc, q->warp, q->reg, *r, &hit, &victim);
    if (!hit)
        evicted(s, i, &victim); /* (before the line takes the new value) */
    hd_expars_val_write(s, q, i, !hit);
    a.oc_o = 1;
    a.bank_o = hd_expars_oc_bank(&s->oc, q->reg);
    a.spad_o = !hit && victim.valid && victim.dirty; /* the victim's write-back takes the pass */
    route(s, q, HD_EXPARS_ARB_DST, true, hit, victim.valid && victim.dirty, &a);
    out->kind = HD_OLOC_OPCACHE;
    out->port = (uint16_t)(x->banks + (a.spad_o ? P_SPAD : 1 + a.bank_o));
    if (hit) {
        s->st.writes_oc++;
        return;
    }
    s->st.writes_alloc++;
}

/* The substrate's scratchpad-bank decisions (sm_oloc.h spad_arb): the bank arbitrator block's
 * when it is in the loop (kind 0 a register pass: granted?; 1 an ld/st.shared: its wait). */
static uint64_t ex_spad_arb(void *impl, unsigned kind, uint32_t degree, uint64_t now,
                            uint64_t model)
{
    struct hd_expars_sm *s = ((struct ex_oloc *)impl)->s;
    if (!s->loop)
        return model;
    struct hd_expars_arb_in in;
    struct hd_expars_arb_out a;
    memset(&in, 0, sizeof in);
    memset(&a, 0, sizeof a);
    if (kind == 0) {
        in.op_i = HD_EXPARS_ARB_PASS;
        a.grant_o = model != 0;
    } else {
        in.op_i = HD_EXPARS_ARB_SHARED;
        in.degree_i = degree;
        a.wait_o = model;
    }
    hd_expars_loop_arb(s->loop, s->id, &in, &a, now);
    return kind == 0 ? (uint64_t)(a.grant_o & 1u) : (uint64_t)a.wait_o;
}

/* Before the functional step of an instruction (sm_oloc.h issue): its operands' values. */
static void ex_issue(void *impl, const struct hd_oloc_query *q)
{
    hd_expars_val_issue(((struct ex_oloc *)impl)->s, q);
}

/* The prefetcher's own transfers as scratchpad passes ([expars] pref_spad; sm_oloc.h spad_want,
 * spad_took): one per cycle while its fetch has transfers left, after ld/st.shared and the
 * collector's reads and fills. */
static bool ex_spad_want(void *impl, uint64_t now)
{
    return hd_expars_rp_want(((struct ex_oloc *)impl)->s, now);
}

static void ex_spad_took(void *impl, uint64_t now, bool granted)
{
    hd_expars_rp_took(((struct ex_oloc *)impl)->s, now, granted);
}

static void ex_destroy(void *impl)
{
    free(impl);
}

int hd_expars_oloc_create(const struct hd_sm_params *p, uint32_t sm,
                          const struct hd_sm_alloc *alloc, const struct hd_oloc_ops **ops,
                          void **impl, char *err, size_t errlen)
{
    *ops = NULL;
    *impl = NULL;
    struct hd_expars_sm *s = hd_expars_sm_of(alloc);
    if (!s)
        return 0; /* [sm] allocator is not expars */
    if (p->expars_oc_banks > 16 || p->expars_oc_lines > HD_EXPARS_OC_MAX_LINES) {
        snprintf(err, errlen, "[expars] oc_banks (at most 16) / oc_lines (at most %u) too large",
                 HD_EXPARS_OC_MAX_LINES);
        return -1;
    }
    struct ex_oloc *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "host out of memory creating EXPARS's operand cache");
        return -1;
    }
    s->id = sm;
    x->s = s;
    x->banks = p->reg_banks;
    const uint32_t nb = s->oc.t.nbanks;
    for (uint32_t i = 0; i <= nb; i++)
        x->reads[i] = x->writes[i] = 1;
    x->ops = (struct hd_oloc_ops){
        .name = "expars",
        .nports = 1 + nb,
        .port_reads = x->reads,
        .locate = ex_locate,
        .destroy = ex_destroy,
        .port_writes = x->writes,
        .spad_ports = p->expars_spad_shared ? 1u : 0u,
        .locate_dst = ex_locate_dst,
        .filled = ex_filled,
        .spad_arb = ex_spad_arb,
        .issue = ex_issue,
    };
    if (p->expars_pref_spad && p->expars_spad_shared && p->expars_prefetch) {
        x->ops.spad_want = ex_spad_want;
        x->ops.spad_took = ex_spad_took;
    }
    *ops = &x->ops;
    *impl = x;
    return 0;
}
