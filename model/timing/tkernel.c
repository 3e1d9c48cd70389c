/* SPDX-License-Identifier: MIT
 * tkernel.c - building the timing view of a kernel image: classification of every instruction,
 * register allocation for registers per thread, register-bank numbers, and the spill code of
 * the values the allocator could not fit (fills and stores per PC, slots in local memory;
 * issued by sm_spill.c).
 *
 * Design: see tkernel.h. The analyses (CFG, liveness, register allocation over the kernel's
 * functions, calls linked) live in the kernel's annotation store (model/compiler/annot.h), kept
 * for the whole run; this file reads it. Everything is computed once, at the first launch of the
 * kernel on a GPU.
 */
#include "tkernel.h"

#include "addr_map.h"
#include "kernel_annot.h"
#include "regalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Classification ==== */
static bool is_f64(uint8_t t)
{
    return t == HD_T_F64;
}

enum hd_tclass hd_tkernel_classify(const struct hd_func_instr *d)
{
    const enum hd_op op = (enum hd_op)d->op;
    const bool f64 = is_f64(d->type) || is_f64(d->type2);
    const bool flt = d->flt || hd_type_is_float((enum hd_type)d->type2);
    switch (hd_op_base_class(op)) {
    case HD_CLASS_MEM:
        return HD_TC_MEM;
    case HD_CLASS_CTRL:
        return HD_TC_BRANCH;
    case HD_CLASS_SYNC:
        return op == HD_OP_BAR || op == HD_OP_BARRIER ? HD_TC_BARRIER : HD_TC_MEMBAR;
    case HD_CLASS_MISC:
        return HD_TC_NOP;
    case HD_CLASS_SFU:
        return f64 ? HD_TC_DP_DIV : HD_TC_SFU;
    case HD_CLASS_DP:
        return op == HD_OP_DIV ? HD_TC_DP_DIV : HD_TC_DP;
    default:
        break;
    }
    /* The finer classes follow GPGPU-Sim's opcode tables: add/sub, min/max, mul, mad/fma and
     * div/rem per type, shfl; every other ALU opcode is "untabled" (each class falls back to
     * today's parent class unless its [pipeline] keys are set). */
    const bool addsub = op == HD_OP_ADD || op == HD_OP_ADDC || op == HD_OP_SUB ||
                        op == HD_OP_SUBC;
    const bool minmax = op == HD_OP_MIN || op == HD_OP_MAX;
    const bool mul = op == HD_OP_MUL || op == HD_OP_MUL24;
    const bool mad = op == HD_OP_MAD || op == HD_OP_MAD24 || op == HD_OP_MADC || op == HD_OP_FMA;
    if (f64) {
        if (op == HD_OP_DIV)
            return HD_TC_DP_DIV;
        return addsub || minmax || mul || mad || op == HD_OP_REM ? HD_TC_DP : HD_TC_UT_DP;
    }
    if (flt) {
        if (op == HD_OP_DIV)
            return HD_TC_FP_DIV;
        return addsub ? HD_TC_FP : minmax ? HD_TC_FP_MAX : mul ? HD_TC_FP_MUL
               : mad  ? HD_TC_FP_MAD : HD_TC_UT_FP;
    }
    switch (op) {
    case HD_OP_MUL: case HD_OP_MUL24:
        return HD_TC_INT_MUL;
    case HD_OP_MAD: case HD_OP_MAD24: case HD_OP_MADC:
        return HD_TC_INT_MAD;
    case HD_OP_SAD: case HD_OP_DP4A: case HD_OP_DP2A:
        return HD_TC_UT_MUL;
    case HD_OP_DIV: case HD_OP_REM:
        return HD_TC_INT_DIV;
    case HD_OP_MIN: case HD_OP_MAX:
        return HD_TC_INT_MAX;
    case HD_OP_SHFL:
        return HD_TC_SHFL;
    default:
        return addsub ? HD_TC_INT_ALU : HD_TC_UT_INT;
    }
}
/* }==== */

/* {==== The annotation store of the image ==== */
struct hd_annot *hd_tkernel_annot_build(const struct hd_func_kernel *k, uint32_t max_regs,
                                        char *err, size_t errlen)
{
    return hd_func_kernel_annot(k, max_regs, err, errlen); /* the image's layout (model/func) */
}
/* }==== */

/* {==== Banked register words ==== */
static unsigned reg_words(uint8_t type)
{
    unsigned b = hd_type_bytes((enum hd_type)type);
    return b <= 4 ? 1 : b / 4;
}

static void add_word(struct hd_tinstr *t, uint32_t num)
{
    for (unsigned i = 0; i < t->nwords; i++)
        if (t->word[i] == num)
            return;
    if (t->nwords < HD_TK_MAX_WORDS)
        t->word[t->nwords++] = (uint16_t)num;
}

/* The banked words of instruction pc (of kernel function kf, local PC lpc). */
static void bank_words(const struct hd_func_kernel *k, const struct hd_func_kfunc *kf,
                       uint32_t pc, const struct hd_annot *a, struct hd_tinstr *t)
{
    const struct hd_func_instr *d = &k->code[pc];
    const struct hd_func *f = kf->ir;
    const uint32_t lpc = pc - kf->pc_base;
    uint32_t flpc;
    const struct hd_annot_fn *af = a ? hd_annot_fn_at(a, pc, &flpc) : NULL;
    const struct hd_regalloc *ra = af ? af->ra : NULL;
    uint32_t remat[HD_RA_MAX_READS];
    unsigned nremat = 0;
    bool remat_done = false;
    for (unsigned i = 0; i < d->nread; i++) {
        int32_t r = d->read[i];
        uint32_t lr = (uint32_t)r - kf->reg_base;
        if (r < 0 || lr >= f->nregs || f->regs[lr].type == HD_T_PRED)
            continue;
        unsigned w = reg_words(f->regs[lr].type);
        if (!ra) { /* PTX numbering */
            for (unsigned j = 0; j < w; j++)
                add_word(t, (uint32_t)r + j);
            continue;
        }
        uint8_t kind = lr < ra->nregs ? ra->kind[lr] : HD_RA_NONE;
        int32_t p = lr < ra->nregs ? ra->phys_of[lr] : -1;
        if (kind == HD_RA_REMAT) {
            if (!remat_done) {
                nremat = hd_regalloc_remat_reads(f, af->lv, ra->kind, lpc, remat);
                remat_done = true;
            }
            bool needed = false;
            for (unsigned j = 0; j < nremat; j++)
                needed |= remat[j] == lr;
            if (!needed)
                continue;
        } else if (kind != HD_RA_REG) {
            continue;
        }
        if (p < 0)
            continue;
        for (unsigned j = 0; j < w; j++)
            add_word(t, (uint32_t)p + j);
    }
}

/* The destination words of instruction pc, numbered as its banked words (for the
 * operand-location hook's writes, sm_oloc.h): physical registers, or PTX words without them. */
static void dst_words(const struct hd_func_kernel *k, const struct hd_func_kfunc *kf, uint32_t pc,
                      const struct hd_annot *a, struct hd_tinstr *t)
{
    const struct hd_func_instr *d = &k->code[pc];
    const struct hd_func *f = kf->ir;
    uint32_t flpc;
    const struct hd_annot_fn *af = a ? hd_annot_fn_at(a, pc, &flpc) : NULL;
    const struct hd_regalloc *ra = af ? af->ra : NULL;
    for (unsigned i = 0; i < d->nwrite; i++) {
        const int32_t r = d->write[i];
        const uint32_t lr = (uint32_t)r - kf->reg_base;
        if (r < 0 || lr >= f->nregs || f->regs[lr].type == HD_T_PRED)
            continue;
        int32_t p = r;
        if (ra) {
            if (lr >= ra->nregs || ra->kind[lr] != HD_RA_REG || ra->phys_of[lr] < 0)
                continue;
            p = ra->phys_of[lr];
        }
        for (unsigned j = 0; j < reg_words(f->regs[lr].type) && t->ndst < HD_TK_MAX_DST; j++)
            t->dst[t->ndst++] = (uint16_t)((uint32_t)p + j);
    }
}

/* {==== Spill code ==== */
/* Add register r (kernel-wide) to the list ops[*n] if it is a spilled data register not yet
 * listed; slot[] gives its first word. */
static void spill_add(const struct hd_annot *a, const uint32_t *slot, int32_t r,
                      struct hd_tspill_op *ops, uint32_t first, uint32_t *n)
{
    if (r < 0 || (uint32_t)r >= a->nregs || hd_annot_ra_kind(a, (uint32_t)r) != HD_RA_SPILLED)
        return;
    const uint32_t words = hd_annot_reg_words(a, (uint32_t)r);
    if (words == 0) /* a predicate: kept in a data register (P2R/R2P), no memory traffic */
        return;
    for (uint32_t i = first; i < *n; i++)
        if (ops[i].reg == (uint32_t)r)
            return;
    ops[(*n)++] = (struct hd_tspill_op){(uint32_t)r, slot[r], words};
}

/* The fills and stores of every PC (tk->spill_*), when the allocation spilled anything. */
static int spill_build(struct hd_tkernel *tk)
{
    const struct hd_func_kernel *k = tk->k;
    const struct hd_annot *a = tk->an;
    if (!a->ra_ok)
        return 0;
    uint32_t *slot = calloc(a->nregs + 1, sizeof *slot), words = 0;
    if (!slot)
        return -1;
    for (uint32_t r = 0; r < a->nregs; r++)
        if (hd_annot_ra_kind(a, r) == HD_RA_SPILLED) {
            slot[r] = words;
            words += hd_annot_reg_words(a, r);
        }
    uint64_t cap = 0;
    for (uint32_t pc = 0; words && pc < k->ncode; pc++)
        cap += (uint64_t)k->code[pc].nread + k->code[pc].nwrite;
    if (!words || !cap) {
        free(slot);
        return 0;
    }
    tk->spill_pc = calloc(k->ncode + 1, sizeof *tk->spill_pc);
    tk->spill_op = calloc(cap, sizeof *tk->spill_op);
    if (!tk->spill_pc || !tk->spill_op) {
        free(slot);
        return -1;
    }
    tk->spill_words = words;
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const struct hd_func_instr *d = &k->code[pc];
        struct hd_tspill_pc *sp = &tk->spill_pc[pc];
        sp->first = n;
        for (unsigned i = 0; i < d->nread; i++)
            spill_add(a, slot, d->read[i], tk->spill_op, sp->first, &n);
        sp->nfill = (uint16_t)(n - sp->first);
        const uint32_t st = n;
        for (unsigned i = 0; i < d->nwrite; i++)
            spill_add(a, slot, d->write[i], tk->spill_op, st, &n);
        sp->nstore = (uint16_t)(n - st);
    }
    free(slot);
    return 0;
}
/* }==== */

static uint32_t ptx_words(const struct hd_func_kernel *k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        const struct hd_func *f = k->funcs[i].ir;
        for (uint32_t r = 0; r < f->nregs; r++)
            if (f->regs[r].type != HD_T_PRED)
                n += reg_words(f->regs[r].type);
    }
    return n;
}
/* }==== */

struct hd_tkernel *hd_tkernel_build(const struct hd_func_kernel *k, const struct hd_sm_params *sp,
                                    uint32_t id, char *err, size_t errlen)
{
    struct hd_tkernel *tk = calloc(1, sizeof *tk);
    if (tk)
        tk->in = calloc(k->ncode + 1, sizeof *tk->in);
    if (!tk || !tk->in) {
        free(tk);
        snprintf(err, errlen, "%s: host out of memory for the timing view", k->entry->name);
        return NULL;
    }
    tk->k = k;
    tk->id = id;
    /* code lives in its own 16 MB window per kernel, far above device allocations */
    tk->code_base = hd_win_code(id);
    tk->ptx_words = ptx_words(k);

    tk->an = hd_tkernel_annot_build(k, sp->max_regs_per_thread, err, errlen);
    if (!tk->an) {
        hd_tkernel_free(tk);
        return NULL;
    }
    if (sp->pp_selective) { /* Lin's points: pp + dummy cost fetch cycles, bar.pp none */
        if (hd_ppoints_build(tk->an, sp->pp_k, &tk->pp, err, errlen) != 0) {
            hd_tkernel_free(tk);
            return NULL;
        }
        for (uint32_t i = 0; i < tk->pp->n; i++)
            hd_annot_set_fetch_extra(tk->an, tk->pp->pt[i].pc, tk->pp->pt[i].extra);
    }
    bool ra_ok = tk->an->ra_ok;
    if (ra_ok) {
        tk->regs_per_thread = tk->an->regs_per_thread;
        tk->regs_source = "regalloc";
    } else {
        tk->regs_per_thread = tk->ptx_words < sp->max_regs_per_thread ? tk->ptx_words
                                                                      : sp->max_regs_per_thread;
        tk->regs_source = "ptx";
        snprintf(tk->note, sizeof tk->note, "register allocation failed (%s); using PTX words",
                 tk->an->note[0] ? tk->an->note : "no body");
    }
    const bool physical = sp->bank_physical && ra_ok;
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        const struct hd_func_kfunc *kf = &k->funcs[i];
        for (uint32_t j = 0; j < kf->ir->ninstrs; j++) {
            uint32_t pc = kf->pc_base + j;
            if (pc >= k->ncode)
                continue;
            struct hd_tinstr *t = &tk->in[pc];
            enum hd_tclass c = hd_tkernel_classify(&k->code[pc]);
            t->cls = (uint8_t)c;
            t->unit = (uint8_t)sp->unit_of[c];
            t->to_sfu = sp->sfu_fallback[c];
            bank_words(k, kf, pc, physical ? tk->an : NULL, t);
            dst_words(k, kf, pc, physical ? tk->an : NULL, t);
        }
    }
    if (spill_build(tk) != 0) {
        snprintf(err, errlen, "%s: host out of memory for the spill code", k->entry->name);
        hd_tkernel_free(tk);
        return NULL;
    }
    return tk;
}

void hd_tkernel_free(struct hd_tkernel *tk)
{
    if (!tk)
        return;
    hd_ppoints_free(tk->pp);
    hd_annot_free(tk->an);
    free(tk->spill_pc);
    free(tk->spill_op);
    free(tk->in);
    free(tk);
}
