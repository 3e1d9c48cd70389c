/* SPDX-License-Identifier: MIT
 * annot.c - building and reading a kernel image's annotation store (annot.h).
 *
 * Design: see annot.h. The register allocation sequence is the one the timing model always used
 * (budget clamped to max_regs, functions in image order, calls linked), so the registers per
 * thread and the physical numbers are unchanged by keeping them. Natural loops: an edge b -> h
 * is a back edge when h dominates b; the loop of header h is h plus every block that reaches a
 * back-edge source without passing h.
 */
#include "annot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Building ==== */
/* Per-function analyses and register allocation (the timing model's sequence). */
static bool analyse(struct hd_annot *a, const struct hd_annot_params *p)
{
    struct hd_regalloc_params rp;
    hd_regalloc_params_default(&rp);
    if (p && p->max_regs && p->max_regs < rp.max_regs)
        rp.max_regs = p->max_regs;
    bool ok = true;
    for (uint32_t i = 0; i < a->nfn; i++) {
        struct hd_annot_fn *f = &a->fn[i];
        const struct hd_func *ir = f->f.ir;
        uint32_t mi = f->f.index;
        if (!ir->has_body || mi >= a->nmod || a->ra_run[mi])
            continue;
        f->cfg = hd_cfg_build(ir);
        if (!f->cfg) {
            if (ok)
                snprintf(a->note, sizeof a->note, "%s: out of memory building the CFG", ir->name);
            ok = false;
            continue;
        }
        char why[sizeof a->note];
        f->lv = hd_liveness_build(ir, f->cfg, why, sizeof why);
        if (!f->lv) {
            if (ok)
                snprintf(a->note, sizeof a->note, "%s", why);
            ok = false;
            continue;
        }
        if (!ok)
            continue;
        if (hd_regalloc_run(ir, f->cfg, f->lv, &rp, &a->ra_mod[mi], why, sizeof why) != 0) {
            snprintf(a->note, sizeof a->note, "%s", why);
            ok = false;
            continue;
        }
        a->ra_run[mi] = true;
    }
    return ok;
}

static void mark_loops(struct hd_annot *a, const struct hd_annot_fn *f, uint32_t *stamp,
                       uint32_t *stack)
{
    const struct hd_cfg *cfg = f->cfg;
    const uint32_t nb = cfg->nblocks;
    for (uint32_t h = 0; h < nb; h++) {
        bool header = false;
        uint32_t sp = 0;
        for (uint32_t b = 0; b < nb; b++)
            for (uint32_t s = 0; s < cfg->blocks[b].nsucc; s++)
                if (cfg->blocks[b].succ[s] == h && hd_cfg_dominates(cfg, h, b, false)) {
                    header = true;
                    a->pc[f->f.pc_base + cfg->blocks[b].last].flags |= HD_AN_BACK_EDGE;
                    if (stamp[b] != h + 1) {
                        stamp[b] = h + 1;
                        stack[sp++] = b;
                    }
                }
        if (!header)
            continue;
        if (stamp[h] != h + 1) { /* h is in its loop; a one-block loop pushed it already */
            stamp[h] = h + 1;
            stack[sp++] = h;
        }
        while (sp) { /* the body: backwards from the back-edge sources, stopping at h */
            uint32_t b = stack[--sp];
            const struct hd_block *blk = &cfg->blocks[b];
            for (uint32_t i = blk->first; i <= blk->last; i++) {
                struct hd_annot_pc *q = &a->pc[f->f.pc_base + i];
                q->flags |= HD_AN_IN_LOOP;
                if (q->loop_depth < UINT8_MAX)
                    q->loop_depth++;
            }
            if (b == h)
                continue;
            for (uint32_t k = 0; k < blk->npred; k++)
                if (stamp[blk->pred[k]] != h + 1) {
                    stamp[blk->pred[k]] = h + 1;
                    stack[sp++] = blk->pred[k];
                }
        }
        const struct hd_block *hb = &cfg->blocks[h];
        a->pc[f->f.pc_base + hb->first].flags |= HD_AN_LOOP_HEAD;
    }
}

/* Flags and reconvergence PCs of every instruction; loops. */
static int per_pc(struct hd_annot *a)
{
    for (uint32_t i = 0; i < a->nfn; i++) {
        const struct hd_annot_fn *f = &a->fn[i];
        const struct hd_func *ir = f->f.ir;
        for (uint32_t j = 0; j < ir->ninstrs; j++) {
            uint32_t pc = f->f.pc_base + j;
            if (pc >= a->ncode)
                continue;
            struct hd_annot_pc *q = &a->pc[pc];
            const struct hd_instr *in = &ir->instrs[j];
            const enum hd_op op = (enum hd_op)in->op;
            q->fn = i;
            q->reconv = HD_PC_EXIT;
            if (hd_op_base_class(op) == HD_CLASS_CTRL)
                q->flags |= HD_AN_BRANCH;
            if (op == HD_OP_BRX || (op == HD_OP_BRA && in->guard >= 0 && !(in->flags & HD_F_UNI)))
                q->flags |= HD_AN_DIVERGENT;
            if (op == HD_OP_BAR || op == HD_OP_BARRIER)
                q->flags |= HD_AN_BARRIER;
            if (op == HD_OP_CALL)
                q->flags |= HD_AN_CALL;
            if (op == HD_OP_EXIT || op == HD_OP_RET || op == HD_OP_TRAP)
                q->flags |= HD_AN_EXIT;
            if (f->cfg && f->cfg->reconv_pc[j] != HD_PC_EXIT)
                q->reconv = f->cfg->reconv_pc[j] + (int32_t)f->f.pc_base;
            if (f->lv && hd_liveness_may_diverge(f->lv, j))
                q->flags |= HD_AN_MAY_DIVERGE;
        }
        if (!f->cfg || f->cfg->nblocks == 0)
            continue;
        uint32_t *stamp = calloc(f->cfg->nblocks, sizeof *stamp);
        uint32_t *stack = calloc(f->cfg->nblocks, sizeof *stack);
        if (!stamp || !stack) {
            free(stamp);
            free(stack);
            return -1;
        }
        mark_loops(a, f, stamp, stack);
        free(stamp);
        free(stack);
    }
    return 0;
}

int hd_annot_build(const struct hd_module *m, const struct hd_annot_func *fn, uint32_t nfn,
                   uint32_t entry_fn, uint32_t ncode, uint32_t nregs,
                   const struct hd_annot_params *p, struct hd_annot **out, char *err,
                   size_t errlen)
{
    *out = NULL;
    struct hd_annot *a = calloc(1, sizeof *a);
    if (!a)
        goto oom;
    a->ncode = ncode;
    a->nregs = nregs;
    a->nfn = nfn;
    a->entry_fn = entry_fn;
    a->nmod = m->nfuncs;
    a->fn = calloc(nfn + 1, sizeof *a->fn);
    a->pc = calloc(ncode + 1, sizeof *a->pc);
    a->ra_mod = calloc(a->nmod + 1, sizeof *a->ra_mod);
    a->ra_run = calloc(a->nmod + 1, sizeof *a->ra_run);
    if (!a->fn || !a->pc || !a->ra_mod || !a->ra_run)
        goto oom;
    for (uint32_t i = 0; i < nfn; i++)
        a->fn[i].f = fn[i];
    for (uint32_t pc = 0; pc < ncode; pc++)
        a->pc[pc] = (struct hd_annot_pc){0, 0, 0, HD_PC_EXIT, UINT32_MAX};
    bool ok = analyse(a, p);
    if (ok) {
        hd_regalloc_link(m, a->ra_mod);
        uint32_t e = entry_fn < nfn ? fn[entry_fn].index : UINT32_MAX;
        ok = e < a->nmod && a->ra_run[e];
        if (ok)
            a->regs_per_thread = a->ra_mod[e].regs_with_callees;
        else
            snprintf(a->note, sizeof a->note, "no body");
    }
    a->ra_ok = ok;
    uint32_t stride = 1;
    for (uint32_t i = 0; i < nfn; i++) {
        struct hd_annot_fn *f = &a->fn[i];
        if (ok && f->f.index < a->nmod && a->ra_run[f->f.index])
            f->ra = &a->ra_mod[f->f.index];
        if (f->lv && f->lv->stride[HD_RC_DATA] > stride)
            stride = f->lv->stride[HD_RC_DATA];
    }
    a->scratch_words = stride;
    a->scratch = calloc(stride, sizeof *a->scratch);
    if (!a->scratch || per_pc(a) != 0)
        goto oom;
    *out = a;
    return 0;
oom:
    hd_annot_free(a);
    snprintf(err, errlen, "host out of memory for the annotation store");
    return -1;
}

void hd_annot_free(struct hd_annot *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; a->fn && i < a->nfn; i++) {
        if (a->fn[i].lv)
            hd_liveness_free(a->fn[i].lv);
        if (a->fn[i].cfg)
            hd_cfg_free(a->fn[i].cfg);
    }
    for (uint32_t i = 0; a->ra_run && i < a->nmod; i++)
        if (a->ra_run[i])
            hd_regalloc_free(&a->ra_mod[i]);
    for (uint32_t i = 0; i < a->ncol; i++)
        free(a->col[i].v);
    free(a->col);
    free(a->fn);
    free(a->pc);
    free(a->ra_mod);
    free(a->ra_run);
    free(a->scratch);
    free(a);
}
/* }==== */

/* {==== Queries ==== */
const struct hd_annot_fn *hd_annot_fn_at(const struct hd_annot *a, uint32_t pc, uint32_t *lpc)
{
    if (pc >= a->ncode || a->pc[pc].fn >= a->nfn)
        return NULL;
    const struct hd_annot_fn *f = &a->fn[a->pc[pc].fn];
    if (lpc)
        *lpc = pc - f->f.pc_base;
    return f;
}

void hd_annot_set_fetch_extra(struct hd_annot *a, uint32_t pc, uint8_t cycles)
{
    if (pc < a->ncode) {
        a->pc[pc].fetch_extra = cycles;
        a->any_fetch_extra |= cycles != 0;
    }
}

/* The function owning kernel-wide register kreg, and its local number. */
static const struct hd_annot_fn *fn_of_reg(const struct hd_annot *a, uint32_t kreg, uint32_t *lr)
{
    for (uint32_t i = 0; i < a->nfn; i++) {
        const struct hd_annot_fn *f = &a->fn[i];
        if (kreg >= f->f.reg_base && kreg - f->f.reg_base < f->f.ir->nregs) {
            *lr = kreg - f->f.reg_base;
            return f;
        }
    }
    return NULL;
}

uint32_t hd_annot_reg_words(const struct hd_annot *a, uint32_t kreg)
{
    uint32_t lr;
    const struct hd_annot_fn *f = fn_of_reg(a, kreg, &lr);
    if (!f || !f->lv || !hd_liveness_tracked(f->lv, lr) ||
        hd_liveness_class(f->lv, lr) != HD_RC_DATA)
        return 0;
    return f->lv->words[lr];
}

int32_t hd_annot_phys(const struct hd_annot *a, uint32_t kreg)
{
    uint32_t lr;
    const struct hd_annot_fn *f = fn_of_reg(a, kreg, &lr);
    if (!f || !f->ra || lr >= f->ra->nregs)
        return -1;
    return f->ra->phys_of[lr];
}

uint8_t hd_annot_ra_kind(const struct hd_annot *a, uint32_t kreg)
{
    uint32_t lr;
    const struct hd_annot_fn *f = fn_of_reg(a, kreg, &lr);
    if (!f || !f->ra)
        return HD_RA_REG;
    return lr < f->ra->nregs ? f->ra->kind[lr] : HD_RA_NONE;
}

bool hd_annot_held(const struct hd_annot *a, uint32_t kreg)
{
    uint8_t k = hd_annot_ra_kind(a, kreg);
    return k == HD_RA_REG || k == HD_RA_SPILLED;
}

/* The live data row before pc (divergent: the union row, in the scratch row). */
static const uint64_t *live_row(const struct hd_annot *a, uint32_t pc, bool divergent,
                                const struct hd_annot_fn **fo)
{
    uint32_t lpc;
    const struct hd_annot_fn *f = hd_annot_fn_at(a, pc, &lpc);
    if (!f || !f->lv || lpc >= f->lv->ninstrs)
        return NULL;
    *fo = f;
    if (!divergent)
        return hd_liveness_in_row(f->lv, lpc, HD_RC_DATA);
    hd_liveness_divergent_row(f->lv, lpc, HD_RC_DATA, a->scratch);
    return a->scratch;
}

unsigned hd_annot_live_regs(const struct hd_annot *a, uint32_t pc, bool divergent,
                            bool held_only, uint32_t *regs, unsigned max)
{
    const struct hd_annot_fn *f = NULL;
    const uint64_t *row = live_row(a, pc, divergent, &f);
    if (!row)
        return 0;
    const struct hd_liveness *lv = f->lv;
    unsigned n = 0;
    const uint32_t nd = lv->n[HD_RC_DATA];
    for (uint32_t b = 0; b < (nd + 63) / 64; b++) /* the row's set bits in ascending order */
        for (uint64_t m = row[b]; m; m &= m - 1) {
            const uint32_t i = b * 64u + (uint32_t)__builtin_ctzll(m);
            if (i >= nd)
                break;
            const uint32_t kreg = f->f.reg_base + lv->reg_of[HD_RC_DATA][i];
            if (held_only && !hd_annot_held(a, kreg))
                continue;
            if (n < max)
                regs[n] = kreg;
            n++;
        }
    return n;
}

uint32_t hd_annot_live_words(const struct hd_annot *a, uint32_t pc, bool divergent,
                             bool held_only)
{
    const struct hd_annot_fn *f = NULL;
    const uint64_t *row = live_row(a, pc, divergent, &f);
    if (!row)
        return 0;
    const struct hd_liveness *lv = f->lv;
    uint32_t words = 0;
    const uint32_t n = lv->n[HD_RC_DATA];
    for (uint32_t b = 0; b < (n + 63) / 64; b++) /* the row's set bits, a word at a time */
        for (uint64_t m = row[b]; m; m &= m - 1) {
            const uint32_t i = b * 64u + (uint32_t)__builtin_ctzll(m);
            if (i >= n)
                break;
            const uint32_t r = lv->reg_of[HD_RC_DATA][i];
            if (held_only && !hd_annot_held(a, f->f.reg_base + r))
                continue;
            words += lv->words[r];
        }
    return words;
}
/* }==== */

/* {==== Columns ==== */
int hd_annot_find_column(const struct hd_annot *a, const char *name)
{
    for (uint32_t i = 0; i < a->ncol; i++)
        if (strcmp(a->col[i].name, name) == 0)
            return (int)i;
    return -1;
}

int hd_annot_column(struct hd_annot *a, const char *name)
{
    int c = hd_annot_find_column(a, name);
    if (c >= 0)
        return c;
    struct hd_annot_col *n = realloc(a->col, (a->ncol + 1) * sizeof *n);
    if (!n)
        return -1;
    a->col = n;
    struct hd_annot_col *col = &a->col[a->ncol];
    memset(col, 0, sizeof *col);
    snprintf(col->name, sizeof col->name, "%s", name);
    col->v = calloc(a->ncode + 1, sizeof *col->v);
    if (!col->v)
        return -1;
    return (int)a->ncol++;
}

void hd_annot_set(struct hd_annot *a, int col, uint32_t pc, uint32_t v)
{
    if (col >= 0 && (uint32_t)col < a->ncol && pc < a->ncode)
        a->col[col].v[pc] = v;
}
/* }==== */
