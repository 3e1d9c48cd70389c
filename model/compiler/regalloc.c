/* SPDX-License-Identifier: MIT
 * regalloc.c - register allocation of PTX virtual registers (see regalloc.h for the model).
 *
 * This file: classify every register (none / whole-range register / constant read in place),
 * decide where constants need a register, run the coloring of each class (regalloc_color.c),
 * then turn colors into the result: data colors are physical register numbers already (the
 * stack pointer is never handed out), values beyond the budget and predicates beyond the
 * predicate file are marked spilled; call sites are recorded for hd_regalloc_link().
 */
#include "regalloc.h"
#include "regalloc_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"


/* {==== Parameters ==== */
void hd_regalloc_params_default(struct hd_regalloc_params *p)
{
    p->max_regs = 255;
    p->sp_reg = 1;
    p->abi_regs = 2;
    p->pred_regs = 7;
    p->remat = true;
}
/* }==== */

/* {==== Classification ==== */
static bool constant_sreg(uint8_t s)
{
    return s == HD_SREG_NTID || s == HD_SREG_NCTAID || s == HD_SREG_DYNAMIC_SMEM_SIZE ||
           s == HD_SREG_TOTAL_SMEM_SIZE;
}

/* Does instruction `in` produce a constant? *src is set to the one register it copies, or -1. */
static bool makes_constant(const struct hd_func *f, const struct hd_instr *in, int32_t *src)
{
    *src = -1;
    if (in->guard >= 0 || in->nopnds != 2)
        return false;
    const struct hd_operand *s = &in->opnd[1];
    switch ((enum hd_op)in->op) {
    case HD_OP_MOV:
        if (in->opnd[0].kind != HD_OPND_REG)
            return false;
        if (s->kind == HD_OPND_IMM_INT || s->kind == HD_OPND_IMM_F32 ||
            s->kind == HD_OPND_IMM_F64 || s->kind == HD_OPND_SYMBOL)
            return true;
        if (s->kind == HD_OPND_SPECIAL)
            return constant_sreg(s->sreg);
        if (s->kind == HD_OPND_REG) {
            *src = s->reg;
            return true;
        }
        return false;
    case HD_OP_LD:
        /* a kernel's parameters sit in the constant bank; a .func's do not */
        return f->is_entry && in->space == HD_SPACE_PARAM && s->kind == HD_OPND_ADDR && s->reg < 0;
    case HD_OP_CVTA:
        /* generic and global addresses coincide: cvta(.to).global is a copy */
        if (in->space != HD_SPACE_GLOBAL || in->opnd[0].kind != HD_OPND_REG)
            return false;
        if (s->kind == HD_OPND_SYMBOL)
            return true;
        if (s->kind == HD_OPND_REG) {
            *src = s->reg;
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* kinds[] from the def/use lists; returns -1 on allocation failure. */
static int classify(const struct hd_func *f, const struct hd_liveness *lv, bool remat,
                    uint8_t *kind)
{
    uint32_t n = lv->nregs;
    uint8_t *used = calloc(n ? n : 1, 1), *cand = calloc(n ? n : 1, 1);
    uint32_t *ndef = calloc(n ? n : 1, sizeof(uint32_t));
    if (!used || !cand || !ndef) {
        free(used), free(cand), free(ndef);
        return -1;
    }
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        uint32_t nd, nu;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd), *u = hd_liveness_uses(lv, pc, &nu);
        for (uint32_t k = 0; k < nu; k++)
            used[u[k]] = 1;
        for (uint32_t k = 0; k < nd; k++)
            ndef[d[k]]++, cand[d[k]] = remat && lv->rclass[d[k]] == HD_RC_DATA;
    }
    for (uint32_t r = 0; r < n; r++) /* written once: one constant (two writes may differ) */
        if (ndef[r] != 1)
            cand[r] = 0;
    for (bool changed = true; changed;) { /* drop candidates with a non-constant write */
        changed = false;
        for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
            uint32_t nd;
            const int32_t *d = hd_liveness_defs(lv, pc, &nd);
            for (uint32_t k = 0; k < nd; k++) {
                int32_t src;
                if (!cand[d[k]])
                    continue;
                if (!makes_constant(f, &f->instrs[pc], &src) || (src >= 0 && !cand[src]) ||
                    src == d[k]) {
                    cand[d[k]] = 0;
                    changed = true;
                }
            }
        }
    }
    for (uint32_t r = 0; r < n; r++) {
        if (!hd_liveness_tracked(lv, r) || !used[r])
            kind[r] = HD_RA_NONE;
        else if (ndef[r] == 0 || cand[r])
            kind[r] = HD_RA_REMAT;
        else
            kind[r] = HD_RA_REG;
    }
    free(used), free(cand), free(ndef);
    return 0;
}
/* }==== */

/* {==== Where constants need a register ==== */
_Static_assert(HD_RA_MAX_READS >= HD_DEFUSE_MAX_USES, "room for every read of one instruction");
static bool memory_op(uint16_t op)
{
    return op == HD_OP_LD || op == HD_OP_LDU || op == HD_OP_ST || op == HD_OP_ATOM ||
           op == HD_OP_RED || op == HD_OP_PREFETCH || op == HD_OP_CALL;
}

unsigned hd_regalloc_remat_reads(const struct hd_func *f, const struct hd_liveness *lv,
                                 const uint8_t *kind, uint32_t pc, uint32_t *regs)
{
    struct hd_defuse du;
    hd_defuse_get(f, pc, &du);
    bool slot = !memory_op(f->instrs[pc].op); /* one constant operand is free */
    unsigned n = 0;
    for (unsigned k = 0; k < du.nuses; k++) {
        uint32_t v = (uint32_t)du.uses[k];
        bool seen = false;
        for (unsigned j = 0; j < k; j++)
            seen |= du.uses[j] == du.uses[k];
        if (seen || kind[v] != HD_RA_REMAT)
            continue;
        if (slot && lv->rclass[v] == HD_RC_DATA && du.use_opnd[k] != HD_DEFUSE_GUARD &&
            f->instrs[pc].opnd[du.use_opnd[k]].kind != HD_OPND_ADDR) {
            slot = false;
            continue;
        }
        regs[n++] = v;
    }
    return n;
}

/* Cache hd_regalloc_remat_reads for every PC in x->rr_off / x->rr_regs. */
static int constant_reads(struct hd_ra_ctx *x)
{
    uint32_t n = x->lv->ninstrs, buf[HD_RA_MAX_READS], total = 0;
    x->rr_off = malloc(((size_t)n + 1) * sizeof(uint32_t));
    if (!x->rr_off)
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        total = 0;
        for (uint32_t pc = 0; pc < n; pc++) {
            unsigned k = hd_regalloc_remat_reads(x->f, x->lv, x->kind, pc, buf);
            x->rr_off[pc] = total;
            if (pass)
                memcpy(x->rr_regs + total, buf, k * sizeof(uint32_t));
            total += k;
        }
        x->rr_off[n] = total;
        if (!pass && !(x->rr_regs = malloc((total ? total : 1) * sizeof(uint32_t))))
            return -1;
    }
    return 0;
}
/* }==== */

/* {==== Result ==== */
void hd_regalloc_free(struct hd_regalloc *ra)
{
    if (!ra)
        return;
    free(ra->phys_of), free(ra->kind), free(ra->calls);
    ra->phys_of = NULL, ra->kind = NULL, ra->calls = NULL;
    ra->ncalls = 0;
}

static void finish(const struct hd_func *f, const struct hd_liveness *lv, struct hd_regalloc *ra,
                   const int32_t *color)
{
    const struct hd_regalloc_params *p = &ra->params;
    uint32_t limit = p->max_regs;
    if (f->maxnreg && f->maxnreg < limit)
        limit = f->maxnreg;
    uint32_t budget = limit > p->abi_regs + 1 ? limit - p->abi_regs : 1;
    ra->gpr_span = p->sp_reg >= 0 ? (uint32_t)p->sp_reg + 1 : 0;
    uint32_t pspan = 0;
    for (uint32_t r = 0; r < lv->nregs; r++) {
        ra->phys_of[r] = -1;
        if (ra->kind[r] == HD_RA_NONE || color[r] < 0) /* constants read only as operands */
            continue;
        uint32_t end = (uint32_t)color[r] + lv->words[r];
        if (lv->rclass[r] == HD_RC_PRED) {
            if ((uint32_t)color[r] >= p->pred_regs) {
                ra->kind[r] = HD_RA_SPILLED;
                ra->pred_spills++;
                continue;
            }
            if (end > pspan)
                pspan = end;
        } else if (end > budget) {
            ra->kind[r] = HD_RA_SPILLED;
            ra->spill_words += lv->words[r];
            continue;
        } else if (end > ra->gpr_span) {
            ra->gpr_span = end;
        }
        ra->phys_of[r] = color[r];
    }
    ra->pred_regs = pspan;
    ra->pred_spill_reg = -1;
    if (ra->pred_spills && ra->gpr_span < budget)
        ra->pred_spill_reg = (int32_t)ra->gpr_span++;
    ra->regs_per_thread = ra->gpr_span + p->abi_regs;
}

static int record_calls(const struct hd_func *f, const struct hd_liveness *lv,
                        struct hd_regalloc *ra)
{
    uint32_t n = 0, st = lv->stride[HD_RC_DATA];
    for (uint32_t pc = 0; pc < f->ninstrs; pc++)
        n += f->instrs[pc].op == HD_OP_CALL;
    ra->regs_with_callees = ra->regs_per_thread;
    if (!n)
        return 0;
    ra->calls = calloc(n, sizeof(*ra->calls));
    if (!ra->calls)
        return -1;
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        const struct hd_instr *in = &f->instrs[pc];
        if (in->op != HD_OP_CALL)
            continue;
        struct hd_ra_call *c = &ra->calls[ra->ncalls++];
        c->pc = pc;
        c->callee = in->nopnds >= 1 && in->opnd[0].kind == HD_OPND_FUNC ? in->opnd[0].symbol : -1;
        const uint64_t *li = hd_liveness_in_row(lv, pc, HD_RC_DATA);
        const uint64_t *lo = hd_liveness_out_row(lv, pc, HD_RC_DATA);
        for (uint32_t w = 0; w < st; w++)
            for (uint64_t x = li[w] & lo[w]; x; x &= x - 1) {
                uint32_t r = lv->reg_of[HD_RC_DATA][(w << 6) | (uint32_t)__builtin_ctzll(x)];
                c->live_words += ra->kind[r] == HD_RA_REG ? lv->words[r] : 0;
            }
    }
    return 0;
}

int hd_regalloc_run(const struct hd_func *f, const struct hd_cfg *cfg, const struct hd_liveness *lv,
                    const struct hd_regalloc_params *params, struct hd_regalloc *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (params)
        out->params = *params;
    else
        hd_regalloc_params_default(&out->params);
    if (errlen)
        err[0] = '\0';
    if (lv->func != f || lv->cfg != cfg) {
        snprintf(err, errlen, "%s: regalloc: liveness was built for another function or CFG",
                 f->name ? f->name : "?");
        return -1;
    }
    size_t nr = lv->nregs ? lv->nregs : 1;
    out->nregs = lv->nregs;
    out->phys_of = malloc(nr * sizeof(int32_t));
    out->kind = calloc(nr, 1);
    int32_t *color = malloc(nr * sizeof(int32_t));
    struct hd_ra_ctx x = { f, lv, out->kind, NULL, NULL };
    int rc = -1;
    uint32_t preds_words;
    for (size_t r = 0; color && r < nr; r++)
        color[r] = -1;
    if (out->phys_of && out->kind && color &&
        !classify(f, lv, out->params.remat, out->kind) && !constant_reads(&x) &&
        hd_ra_color_class(&x, HD_RC_DATA, out->params.sp_reg, color, &out->max_live_words) >= 0 &&
        hd_ra_color_class(&x, HD_RC_PRED, -1, color, &preds_words) >= 0) {
        out->max_live_preds = lv->max_preds;
        finish(f, lv, out, color);
        rc = record_calls(f, lv, out);
    }
    free(x.rr_off), free(x.rr_regs);
    free(color);
    if (rc) {
        hd_regalloc_free(out);
        snprintf(err, errlen, "%s: regalloc: out of memory", f->name ? f->name : "?");
    }
    return rc;
}

/* Registers a function needs including its callees (without the ABI extra). state: 0 new,
 * 1 on the current call path (recursion), 2 done (memo). */
static uint32_t demand(const struct hd_module *m, const struct hd_regalloc *ra, uint32_t fi,
                       uint8_t *state, uint32_t *memo)
{
    if (state[fi] == 2)
        return memo[fi];
    if (state[fi] == 1)
        return ra[fi].gpr_span;
    state[fi] = 1;
    uint32_t d = ra[fi].gpr_span;
    for (uint32_t k = 0; k < ra[fi].ncalls; k++) {
        int32_t c = ra[fi].calls[k].callee;
        if (c < 0 || (uint32_t)c >= m->nfuncs || state[c] == 1) /* recursion: frames on stack */
            continue;
        uint32_t x = ra[fi].calls[k].live_words + demand(m, ra, (uint32_t)c, state, memo);
        if (x > d)
            d = x;
    }
    state[fi] = 2;
    memo[fi] = d;
    return d;
}

void hd_regalloc_link(const struct hd_module *m, struct hd_regalloc *ra)
{
    uint8_t *state = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    uint32_t *memo = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(uint32_t));
    for (uint32_t fi = 0; state && memo && fi < m->nfuncs; fi++) {
        const struct hd_regalloc_params *p = &ra[fi].params;
        uint32_t limit = p->max_regs;
        if (m->funcs[fi].maxnreg && m->funcs[fi].maxnreg < limit)
            limit = m->funcs[fi].maxnreg;
        uint32_t total = demand(m, ra, fi, state, memo) + p->abi_regs;
        if (total > limit && limit > ra[fi].regs_per_thread)
            total = limit;
        ra[fi].regs_with_callees = total > ra[fi].regs_per_thread ? total : ra[fi].regs_per_thread;
    }
    free(state), free(memo);
}

void hd_regalloc_phys_live(const struct hd_regalloc *ra, const struct hd_liveness *lv, uint32_t pc,
                           bool divergent, uint64_t out[4])
{
    uint32_t st = lv->stride[HD_RC_DATA];
    uint64_t stackbuf[64], *row = stackbuf;
    const uint64_t *src = hd_liveness_in_row(lv, pc, HD_RC_DATA);
    memset(out, 0, 4 * sizeof(uint64_t));
    if (divergent) {
        if (st > 64 && !(row = malloc(st * sizeof(uint64_t))))
            row = NULL;
        if (row) {
            hd_liveness_divergent_row(lv, pc, HD_RC_DATA, row);
            src = row;
        }
    }
    for (uint32_t w = 0; w < st; w++)
        for (uint64_t x = src[w]; x; x &= x - 1) {
            uint32_t r = lv->reg_of[HD_RC_DATA][(w << 6) | (uint32_t)__builtin_ctzll(x)];
            if (ra->kind[r] != HD_RA_REG)
                continue;
            for (uint32_t j = 0; j < lv->words[r]; j++) {
                uint32_t p = (uint32_t)ra->phys_of[r] + j;
                if (p < 256)
                    out[p >> 6] |= 1ull << (p & 63);
            }
        }
    if (row && row != stackbuf)
        free(row);
}
/* }==== */
