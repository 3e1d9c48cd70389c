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
 * Checker ([expars] check): every read located in the cache must find the line's version equal
 * to the register's newest version (expars_sm.h); a fill copies the scratchpad's version, a dirty
 * eviction copies it back. A mismatch (a lost write-back, a stale fill, a line of another warp)
 * is written to the SM's fault message, which stops the run at the end of the cycle, located
 * (SM, warp slot, CTA slot, register, PC, cycle). [expars] fault = N corrupts the Nth fill of
 * a register that holds a written value (a fill of a never-written one is overwritten first).
 */
#include "expars_loop.h"
#include "expars_mech.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

static void ex_locate(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    if (!in_spm(s, q))
        return; /* the register file, as without EXPARS */
    const uint32_t bank_port = x->banks + 1 + hd_expars_oc_bank(&s->oc, q->reg);
    out->kind = HD_OLOC_OPCACHE;
    out->port = (uint16_t)bank_port;
    uint32_t vi, have;
    const int line = hd_expars_oc_read(&s->oc, q->warp, q->reg, &vi, &have);
    if (line >= 0) {
        s->st.reads_oc++;
        s->st.reads_beyond += q->reg > s->rat.max_reg;
        check(x, q, line, have);
        return;
    }
    const struct hd_expars_oc_line *v = &s->oc.t.line[vi];
    out->miss = HD_OLOC_FILL_PORT;
    out->fill_port = (uint16_t)(x->banks + P_SPAD);
    out->fill_latency = (uint16_t)(s->p->expars_fill_latency + (v->valid && v->dirty));
}

/* A line left the cache: a dirty one is written back. */
static void evicted(struct hd_expars_sm *s, const struct hd_expars_oc_line *victim)
{
    if (!victim->valid)
        return;
    if (victim->dirty) {
        *ver(s->spm, victim->warp, victim->reg) = victim->ver;
        s->st.evict_dirty++;
    } else {
        s->st.evict_clean++;
    }
}

void hd_expars_fill_line(struct hd_expars_sm *s, uint32_t warp, uint32_t reg)
{
    uint32_t v = *ver(s->spm, warp, reg);
    s->st.fills++;
    s->st.fills_data += v != 0;
    if (s->p->expars_fault && v != 0 && s->st.fills_data == s->p->expars_fault)
        v ^= 0x5a5au; /* fault injection: a corrupted line (of a register written before) */
    struct hd_expars_oc_line victim;
    hd_expars_oc_put(&s->oc, warp, reg, v, false, &victim);
    evicted(s, &victim);
}

static void ex_filled(void *impl, const struct hd_oloc_query *q)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    if (!in_spm(s, q) || hd_expars_oc_find(&s->oc, q->warp, q->reg) >= 0)
        return;
    hd_expars_fill_line(s, q->warp, q->reg);
}

static void ex_locate_dst(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct ex_oloc *x = impl;
    struct hd_expars_sm *s = x->s;
    if (!in_spm(s, q))
        return;
    uint32_t *r = ver(s->ref, q->warp, q->reg);
    ++*r; /* a new version (a writeback retried next cycle makes another: still consistent) */
    out->kind = HD_OLOC_OPCACHE;
    out->port = (uint16_t)(x->banks + 1 + hd_expars_oc_bank(&s->oc, q->reg));
    bool hit;
    struct hd_expars_oc_line victim;
    hd_expars_oc_write(&s->oc, q->warp, q->reg, *r, &hit, &victim);
    if (hit) {
        s->st.writes_oc++;
        return;
    }
    if (victim.valid && victim.dirty)
        out->port = (uint16_t)(x->banks + P_SPAD); /* the victim's write-back takes the pass */
    s->st.writes_alloc++;
    evicted(s, &victim);
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
    };
    *ops = &x->ops;
    *impl = x;
    return 0;
}
