/* SPDX-License-Identifier: MIT
 * tkernel.c - building the timing view of a kernel image: classification of every instruction,
 * register allocation for registers per thread and register-bank numbers.
 *
 * Design: see tkernel.h. The allocator runs over the kernel's functions only (the image holds
 * the entry and every .func it reaches); functions of the module outside the kernel stay zeroed,
 * which hd_regalloc_link() accepts. Everything is computed once, at the first launch of the
 * kernel on a GPU.
 */
#include "tkernel.h"

#include "cfg.h"
#include "liveness.h"
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
    if (f64)
        return op == HD_OP_DIV ? HD_TC_DP_DIV : HD_TC_DP;
    if (flt)
        return op == HD_OP_DIV ? HD_TC_FP_DIV : HD_TC_FP;
    switch (op) {
    case HD_OP_MUL: case HD_OP_MUL24: case HD_OP_MAD: case HD_OP_MAD24: case HD_OP_MADC:
    case HD_OP_SAD: case HD_OP_DP4A: case HD_OP_DP2A:
        return HD_TC_INT_MUL;
    case HD_OP_DIV: case HD_OP_REM:
        return HD_TC_INT_DIV;
    default:
        return HD_TC_INT_ALU;
    }
}
/* }==== */

/* {==== Register allocation of the kernel's functions ==== */
struct ra_all {
    struct hd_regalloc *ra;   /* [module nfuncs], zeroed where not run */
    struct hd_liveness **lv;  /* [module nfuncs] */
    struct hd_cfg **cfg;
    bool *ok;
    uint32_t n;
};

static void ra_free(struct ra_all *a)
{
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->ok && a->ok[i])
            hd_regalloc_free(&a->ra[i]);
        if (a->lv && a->lv[i])
            hd_liveness_free(a->lv[i]);
        if (a->cfg && a->cfg[i])
            hd_cfg_free(a->cfg[i]);
    }
    free(a->ra);
    free(a->lv);
    free(a->cfg);
    free(a->ok);
}

/* Allocate every function of k. Returns false with a message in err (the caller falls back). */
static bool ra_run(const struct hd_func_kernel *k, const struct hd_sm_params *sp,
                   struct ra_all *a, char *err, size_t errlen)
{
    const struct hd_module *m = k->mod->ir;
    a->n = m->nfuncs;
    a->ra = calloc(a->n + 1, sizeof *a->ra);
    a->lv = calloc(a->n + 1, sizeof *a->lv);
    a->cfg = calloc(a->n + 1, sizeof *a->cfg);
    a->ok = calloc(a->n + 1, sizeof *a->ok);
    if (!a->ra || !a->lv || !a->cfg || !a->ok) {
        snprintf(err, errlen, "host out of memory");
        return false;
    }
    struct hd_regalloc_params rp;
    hd_regalloc_params_default(&rp);
    if (sp->max_regs_per_thread < rp.max_regs)
        rp.max_regs = sp->max_regs_per_thread;
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        const struct hd_func *f = k->funcs[i].ir;
        uint32_t fi = k->funcs[i].index;
        if (fi >= a->n || a->ok[fi] || !f->has_body)
            continue;
        a->cfg[fi] = hd_cfg_build(f);
        if (!a->cfg[fi]) {
            snprintf(err, errlen, "%s: out of memory building the CFG", f->name);
            return false;
        }
        a->lv[fi] = hd_liveness_build(f, a->cfg[fi], err, errlen);
        if (!a->lv[fi])
            return false;
        if (hd_regalloc_run(f, a->cfg[fi], a->lv[fi], &rp, &a->ra[fi], err, errlen) != 0)
            return false;
        a->ok[fi] = true;
    }
    hd_regalloc_link(m, a->ra);
    return true;
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
                       uint32_t pc, const struct ra_all *a, struct hd_tinstr *t)
{
    const struct hd_func_instr *d = &k->code[pc];
    const struct hd_func *f = kf->ir;
    const uint32_t lpc = pc - kf->pc_base;
    const struct hd_regalloc *ra = a && kf->index < a->n && a->ok[kf->index] ? &a->ra[kf->index]
                                                                            : NULL;
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
                nremat = hd_regalloc_remat_reads(f, a->lv[kf->index], ra->kind, lpc, remat);
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
    tk->code_base = (0xC0DEull << 40) + ((uint64_t)id << 24);
    tk->ptx_words = ptx_words(k);

    struct ra_all a;
    memset(&a, 0, sizeof a);
    char why[200] = "";
    bool ra_ok = ra_run(k, sp, &a, why, sizeof why);
    uint32_t entry = k->entry_index;
    if (ra_ok && entry < a.n && a.ok[entry]) {
        tk->regs_per_thread = a.ra[entry].regs_with_callees;
        tk->regs_source = "regalloc";
    } else {
        tk->regs_per_thread = tk->ptx_words < sp->max_regs_per_thread ? tk->ptx_words
                                                                      : sp->max_regs_per_thread;
        tk->regs_source = "ptx";
        snprintf(tk->note, sizeof tk->note, "register allocation failed (%s); using PTX words",
                 why[0] ? why : "no body");
        ra_ok = false;
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
            bank_words(k, kf, pc, physical ? &a : NULL, t);
        }
    }
    ra_free(&a);
    return tk;
}

void hd_tkernel_free(struct hd_tkernel *tk)
{
    if (!tk)
        return;
    free(tk->in);
    free(tk);
}
