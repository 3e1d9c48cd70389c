/* SPDX-License-Identifier: MIT
 * expars_val.c - the values EXPARS's operand cache and scratchpad-resident registers hold, and
 * the checker against the functional model's registers (issue 33 item 3; expars_val.h has the
 * model: what is carried, the lane masks, and why the expected value is taken before the
 * functional step).
 */
#include "expars_val.h"

#include "annot.h"
#include "expars_sm.h"
#include "module.h"
#include "regs_source.h"
#include "sm_oloc.h"
#include "warp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALL_LANES 0xffffffffu

int hd_expars_val_init(struct hd_expars_val *v, uint32_t nlines, uint32_t nwarps, bool values)
{
    memset(v, 0, sizeof *v);
    v->values = values;
    v->nlines = nlines ? nlines : 1;
    v->nwarps = nwarps ? nwarps : 1;
    const size_t nr = (size_t)v->nwarps * HD_EXPARS_MAX_REGS;
    v->lanes = calloc(v->nlines, sizeof *v->lanes);
    v->wlanes = calloc(nr, sizeof *v->wlanes);
    v->wreg = malloc(nr * sizeof *v->wreg);
    v->unread = calloc(nr, sizeof *v->unread);
    v->unread_w = calloc(v->nwarps, sizeof *v->unread_w);
    v->wk = calloc(v->nwarps, sizeof *v->wk);
    v->wbudget = calloc(v->nwarps, sizeof *v->wbudget);
    if (values) {
        v->line = calloc((size_t)v->nlines * 32, sizeof *v->line);
        v->spm = calloc(nr * 32, sizeof *v->spm); /* pages of unused slots stay untouched */
    }
    if (!v->lanes || !v->wlanes || !v->wreg || !v->unread || !v->unread_w || !v->wk ||
        !v->wbudget || (values && (!v->line || !v->spm))) {
        hd_expars_val_free(v);
        return -1;
    }
    memset(v->wreg, 0xff, nr * sizeof *v->wreg);
    return 0;
}

void hd_expars_val_free(struct hd_expars_val *v)
{
    free(v->lanes);
    free(v->line);
    free(v->spm);
    free(v->wlanes);
    free(v->wreg);
    free(v->cu);
    free(v->unread);
    free(v->unread_w);
    free(v->wk);
    free(v->wbudget);
    memset(v, 0, sizeof *v);
}

static size_t at(uint32_t warp, uint32_t reg)
{
    return (size_t)warp * HD_EXPARS_MAX_REGS + reg;
}

void hd_expars_val_fresh_warp(struct hd_expars_val *v, uint32_t warp)
{
    if (warp >= v->nwarps)
        return;
    if (v->values)
        memset(&v->spm[at(warp, 0) * 32], 0, (size_t)HD_EXPARS_MAX_REGS * 32 * sizeof *v->spm);
    memset(&v->wlanes[at(warp, 0)], 0, HD_EXPARS_MAX_REGS * sizeof *v->wlanes);
    memset(&v->wreg[at(warp, 0)], 0xff, HD_EXPARS_MAX_REGS * sizeof *v->wreg);
    memset(&v->unread[at(warp, 0)], 0, HD_EXPARS_MAX_REGS * sizeof *v->unread);
    v->unread_w[warp] = 0;
    v->wk[warp] = NULL;
    for (uint32_t c = 0; c < v->ncu; c++)
        if (v->cu[c].valid && v->cu[c].warp == warp)
            v->cu[c].valid = false;
}

/* {==== From the hook's register numbers to PTX registers ==== */
/* The lanes warp fw executes instruction d with (model/func/exec.c: SIMT mask and guard). */
static uint32_t exec_lanes(const struct hd_func_warp *fw, const struct hd_func_instr *d)
{
    if (fw->done || fw->sp == 0)
        return 0;
    uint32_t mask = fw->stack[fw->sp - 1].mask;
    if (d->guard >= 0 && (uint32_t)d->guard < fw->nregs) {
        const uint64_t *g = fw->regs + (size_t)d->guard * 32;
        uint32_t gm = 0;
        for (uint32_t l = 0; l < 32; l++)
            gm |= (uint32_t)(g[l] & 1u) << l;
        mask &= d->guard_neg ? ~gm : gm;
    }
    return mask;
}

/* Kernel-wide register r as instruction pc's function sees it: its 32-bit words (0: a
 * predicate or out of range), allocator kind and first register number (tkernel.c's rules:
 * physical with an allocation, the PTX index without). */
static unsigned reg_info(const struct hd_oloc_query *q, int32_t r, uint8_t *kind, int64_t *first)
{
    const struct hd_annot *an = q->an;
    uint32_t lpc;
    const struct hd_annot_fn *af = an ? hd_annot_fn_at(an, q->pc, &lpc) : NULL;
    if (!af || r < 0)
        return 0;
    const struct hd_func *f = af->f.ir;
    const uint32_t lr = (uint32_t)r - af->f.reg_base;
    if ((uint32_t)r < af->f.reg_base || lr >= f->nregs || f->regs[lr].type == HD_T_PRED)
        return 0;
    const unsigned b = hd_type_bytes((enum hd_type)f->regs[lr].type);
    const unsigned words = b <= 4 ? 1 : b / 4;
    const struct hd_regalloc *ra = af->ra;
    if (!ra) {
        *kind = HD_RA_REG;
        *first = r;
        return words;
    }
    *kind = lr < ra->nregs ? ra->kind[lr] : HD_RA_NONE;
    *first = lr < ra->nregs ? ra->phys_of[lr] : -1;
    return *first < 0 ? 0 : words;
}

/* The register number EXPARS uses for physical register phys ([expars] renumber: its rank). */
static uint32_t fold(const struct hd_expars_sm *s, const struct hd_oloc_query *q, int64_t phys)
{
    return hd_expars_sm_ren(s, q->an, hd_regs_bank_fold((uint32_t)phys, q->budget));
}

/* Lane l of word `word` of kernel-wide register kreg in the functional state. */
static uint32_t fval(const struct hd_func_warp *fw, uint32_t kreg, unsigned word, uint32_t l)
{
    return kreg < fw->nregs ? (uint32_t)(fw->regs[(size_t)kreg * 32 + l] >> (32 * (word & 1))) : 0;
}
/* }==== */

int hd_expars_val_issue(struct hd_expars_sm *s, const struct hd_oloc_query *q)
{
    struct hd_expars_val *v = &s->val;
    if (!q->k || !q->fw || q->pc >= q->k->ncode || q->warp >= s->nwarps)
        return 0;
    const struct hd_expars_slot *c = &s->slot[s->warp_cta[q->warp]];
    if (!c->used || !c->mix)
        return 0; /* an RF-only CTA: nothing of it in the scratchpad */
    if (q->cu >= v->ncu) {
        const uint32_t n = q->cu + 1;
        struct hd_expars_val_cu *g = realloc(v->cu, n * sizeof *g);
        if (!g) {
            snprintf(s->fault, sizeof s->fault, "expars checker: host out of memory");
            return -1;
        }
        memset(g + v->ncu, 0, (n - v->ncu) * sizeof *g);
        v->cu = g;
        v->ncu = n;
    }
    const struct hd_func_instr *d = &q->k->code[q->pc];
    const struct hd_func_warp *fw = q->fw;
    const uint32_t lanes = exec_lanes(fw, d);
    struct hd_expars_val_cu *e = &v->cu[q->cu];
    for (unsigned k = 0; e->valid && k < e->n; k++) /* (a collector frees after its reads) */
        if (e->w[k].pending) {
            v->unread[at(e->warp, e->w[k].reg)]--;
            v->unread_w[e->warp]--;
        }
    v->wk[q->warp] = q->k;
    v->wbudget[q->warp] = q->budget;
    e->valid = true;
    e->warp = q->warp;
    e->pc = q->pc;
    e->lanes = lanes;
    e->n = 0;
    for (unsigned i = 0; i < d->nread; i++) {
        uint8_t kind = HD_RA_NONE;
        int64_t first = -1;
        const unsigned words = reg_info(q, d->read[i], &kind, &first);
        if (kind != HD_RA_REG && kind != HD_RA_REMAT)
            continue;
        for (unsigned j = 0; j < words && e->n < HD_EXPARS_VAL_WORDS; j++) {
            const uint32_t reg = fold(s, q, first + j);
            if (!hd_expars_sm_in_spm(s, q->warp, reg))
                continue;
            bool seen = false; /* a word read twice (or a remat sharing it) is taken once */
            for (unsigned k = 0; k < e->n && !seen; k++)
                seen = e->w[k].reg == reg;
            if (seen)
                continue;
            struct hd_expars_val_word *w = &e->w[e->n++];
            w->reg = (uint16_t)reg;
            w->kind = kind == HD_RA_REMAT ? HD_EXPARS_VK_REMAT
                      : j >= 2            ? HD_EXPARS_VK_WIDE
                                          : HD_EXPARS_VK_CHECK;
            w->word = (uint8_t)j;
            w->kreg = (uint32_t)d->read[i];
            w->pending = false;
            if (v->values && w->kind == HD_EXPARS_VK_CHECK)
                for (uint32_t l = 0; l < 32; l++)
                    w->v[l] = fval(fw, w->kreg, j, l);
        }
    }
    for (unsigned i = 0; i < d->nwrite; i++) {
        uint8_t kind = HD_RA_NONE;
        int64_t first = -1;
        const unsigned words = reg_info(q, d->write[i], &kind, &first);
        if (kind != HD_RA_REG)
            continue; /* tkernel.c's destination words: registers only */
        for (unsigned j = 0; j < words; j++) {
            const uint32_t reg = fold(s, q, first + j);
            if (!hd_expars_sm_in_spm(s, q->warp, reg))
                continue;
            v->wlanes[at(q->warp, reg)] = lanes;
            v->wreg[at(q->warp, reg)] = (uint32_t)d->write[i] << 2 | (j & 3u);
        }
    }
    return 0;
}

/* The snapshot of word q in its collector's entry, or NULL. */
static const struct hd_expars_val_word *snap(const struct hd_expars_val *v,
                                             const struct hd_oloc_query *q,
                                             const struct hd_expars_val_cu **ep)
{
    if (q->cu >= v->ncu)
        return NULL;
    const struct hd_expars_val_cu *e = &v->cu[q->cu];
    if (!e->valid || e->warp != q->warp || e->pc != q->pc)
        return NULL;
    *ep = e;
    for (unsigned k = 0; k < e->n; k++)
        if (e->w[k].reg == q->reg)
            return &e->w[k];
    return NULL;
}

void hd_expars_val_located(struct hd_expars_sm *s, const struct hd_oloc_query *q, bool miss)
{
    struct hd_expars_val *v = &s->val;
    const struct hd_expars_val_cu *e = NULL;
    struct hd_expars_val_word *w = (struct hd_expars_val_word *)snap(v, q, &e);
    if (!w || w->pending == miss)
        return;
    w->pending = miss;
    if (miss) {
        v->unread[at(q->warp, q->reg)]++;
        v->unread_w[q->warp]++;
    } else {
        v->unread[at(q->warp, q->reg)]--;
        v->unread_w[q->warp]--;
    }
}

bool hd_expars_val_war(struct hd_expars_sm *s, uint32_t warp, uint32_t pc,
                       const struct hd_annot *an)
{
    struct hd_expars_val *v = &s->val;
    if (warp >= v->nwarps || !v->unread_w[warp] || !v->wk[warp] || pc >= v->wk[warp]->ncode)
        return false;
    struct hd_oloc_query q;
    memset(&q, 0, sizeof q);
    q.warp = warp;
    q.pc = pc;
    q.an = an;
    q.budget = v->wbudget[warp];
    const struct hd_func_instr *d = &v->wk[warp]->code[pc];
    for (unsigned i = 0; i < d->nwrite; i++) {
        uint8_t kind = HD_RA_NONE;
        int64_t first = -1;
        const unsigned words = reg_info(&q, d->write[i], &kind, &first);
        for (unsigned j = 0; kind == HD_RA_REG && j < words; j++) {
            const uint32_t reg = fold(s, &q, first + j);
            if (reg < HD_EXPARS_MAX_REGS && v->unread[at(warp, reg)]) {
                v->war_holds++;
                return true;
            }
        }
    }
    return false;
}

uint32_t hd_expars_val_need(const struct hd_expars_sm *s, const struct hd_oloc_query *q)
{
    const struct hd_expars_val_cu *e = NULL;
    return snap(&s->val, q, &e) ? e->lanes : ALL_LANES;
}

static const char *reg_name(const struct hd_oloc_query *q, uint32_t kreg)
{
    uint32_t lpc;
    const struct hd_annot_fn *af = q->an ? hd_annot_fn_at(q->an, q->pc, &lpc) : NULL;
    if (!af || kreg < af->f.reg_base || kreg - af->f.reg_base >= af->f.ir->nregs)
        return "?";
    const char *n = af->f.ir->regs[kreg - af->f.reg_base].name;
    return n ? n : "?";
}

void hd_expars_val_check(struct hd_expars_sm *s, const struct hd_oloc_query *q, uint32_t i)
{
    struct hd_expars_val *v = &s->val;
    if (!v->values || s->fault[0])
        return;
    const struct hd_expars_val_cu *e = NULL;
    const struct hd_expars_val_word *w = snap(v, q, &e);
    if (!w) {
        snprintf(s->fault, sizeof s->fault,
                 "expars checker: SM %u warp slot %u (CTA slot %u) register %u at PC %u, cycle "
                 "%" PRIu64 ": read through the operand cache, but no source operand of the "
                 "instruction maps to it (internal)", s->id, q->warp, q->cta_slot, q->reg, q->pc,
                 q->now);
        return;
    }
    if (w->kind != HD_EXPARS_VK_CHECK) {
        v->unchecked++;
        return;
    }
    v->checked++;
    const uint32_t *have = &v->line[(size_t)i * 32];
    for (uint32_t m = e->lanes; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        if (have[l] == w->v[l])
            continue;
        v->mismatches++;
        snprintf(s->fault, sizeof s->fault,
                 "expars checker: SM %u warp slot %u (CTA slot %u) register %u (%s word %u) at "
                 "PC %u, cycle %" PRIu64 ": lane %u: the operand cache line %u holds 0x%08x, the "
                 "functional model's value is 0x%08x",
                 s->id, q->warp, q->cta_slot, q->reg, reg_name(q, w->kreg), w->word, q->pc,
                 q->now, l, i, have[l], w->v[l]);
        return;
    }
}

void hd_expars_val_writeback(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg)
{
    if (!v->values || warp >= v->nwarps || reg >= HD_EXPARS_MAX_REGS)
        return;
    uint32_t *dst = &v->spm[at(warp, reg) * 32];
    const uint32_t *src = &v->line[(size_t)i * 32];
    for (uint32_t m = v->lanes[i]; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        dst[l] = src[l];
    }
}

void hd_expars_val_fill(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg,
                        bool corrupt)
{
    v->lanes[i] = ALL_LANES;
    if (!v->values || warp >= v->nwarps || reg >= HD_EXPARS_MAX_REGS)
        return;
    uint32_t *dst = &v->line[(size_t)i * 32];
    memcpy(dst, &v->spm[at(warp, reg) * 32], 32 * sizeof *dst);
    for (uint32_t l = 0; corrupt && l < 32; l++)
        dst[l] ^= 0x5a5a5a5au;
}

void hd_expars_val_merge(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg)
{
    v->partial_fills++;
    if (v->values && warp < v->nwarps && reg < HD_EXPARS_MAX_REGS) {
        uint32_t *dst = &v->line[(size_t)i * 32];
        const uint32_t *src = &v->spm[at(warp, reg) * 32];
        for (uint32_t m = ~v->lanes[i]; m; m &= m - 1) {
            const uint32_t l = (uint32_t)__builtin_ctz(m);
            dst[l] = src[l];
        }
    }
    v->lanes[i] = ALL_LANES;
}

int hd_expars_val_write(struct hd_expars_sm *s, const struct hd_oloc_query *q, uint32_t i,
                        bool alloc)
{
    struct hd_expars_val *v = &s->val;
    if (alloc)
        v->lanes[i] = 0;
    if (q->warp >= v->nwarps || q->reg >= HD_EXPARS_MAX_REGS)
        return 0;
    const uint32_t wr = v->wreg[at(q->warp, q->reg)];
    if (wr == UINT32_MAX) {
        if (!s->fault[0])
            snprintf(s->fault, sizeof s->fault,
                     "expars checker: SM %u warp slot %u (CTA slot %u) register %u at PC %u, "
                     "cycle %" PRIu64 ": written back, but no issued instruction writes it "
                     "(internal)", s->id, q->warp, q->cta_slot, q->reg, q->pc, q->now);
        return -1;
    }
    const uint32_t lanes = v->wlanes[at(q->warp, q->reg)];
    v->lanes[i] |= lanes;
    if (!v->values || !q->fw)
        return 0;
    uint32_t *dst = &v->line[(size_t)i * 32];
    for (uint32_t m = lanes; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        dst[l] = fval(q->fw, wr >> 2, wr & 3u, l);
    }
    return 0;
}
