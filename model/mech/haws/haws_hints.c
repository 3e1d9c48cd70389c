/* SPDX-License-Identifier: MIT
 * haws_hints.c - the HAWS hint pass: stall points, run-ahead windows, renaming, encoding size
 * (Gong thesis ch. 5 §5.2; docs/blocks/haws.md §3). See haws_hints.h.
 */
#include "haws_hints.h"

#include "exec_ahead.h"
#include "func_instr.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FMT1_BITS 18 /* 9-bit offset, rename bit, 8-bit destination (§5.2.1, Fig. 5.4) */
#define FMT2_BITS 23 /* type bit, two 11-bit offsets */

/* Writes a register with a long-latency result (a global/local load or an atomic). */
static bool is_ll_writer(const struct hd_func_instr *d)
{
    if (d->nwrite == 0)
        return false;
    if (d->op == HD_OP_ATOM)
        return true;
    return (d->op == HD_OP_LD || d->op == HD_OP_LDU) &&
           (d->as == HD_AS_GLOBAL || d->as == HD_AS_LOCAL || d->as == HD_AS_GENERIC);
}

/* R2: a register-to-register instruction whose result depends only on its register sources and
 * its mask (no memory, no warp-wide operation, no carry chain, no clock). */
static bool is_pure_alu(const struct hd_func_instr *d)
{
    switch (d->op) {
    case HD_OP_ABS: case HD_OP_ADD: case HD_OP_SUB: case HD_OP_MUL: case HD_OP_MUL24:
    case HD_OP_MAD: case HD_OP_MAD24: case HD_OP_SAD: case HD_OP_DIV: case HD_OP_REM:
    case HD_OP_NEG: case HD_OP_MIN: case HD_OP_MAX: case HD_OP_POPC: case HD_OP_CLZ:
    case HD_OP_BFIND: case HD_OP_BREV: case HD_OP_BFE: case HD_OP_BFI: case HD_OP_DP4A:
    case HD_OP_DP2A: case HD_OP_AND: case HD_OP_OR: case HD_OP_XOR: case HD_OP_NOT:
    case HD_OP_CNOT: case HD_OP_LOP3: case HD_OP_SHL: case HD_OP_SHR: case HD_OP_SHF:
    case HD_OP_PRMT: case HD_OP_FMA: case HD_OP_COPYSIGN: case HD_OP_TESTP: case HD_OP_RCP:
    case HD_OP_SQRT: case HD_OP_RSQRT: case HD_OP_SIN: case HD_OP_COS: case HD_OP_LG2:
    case HD_OP_EX2: case HD_OP_TANH: case HD_OP_SET: case HD_OP_SETP: case HD_OP_SELP:
    case HD_OP_SLCT: case HD_OP_MOV: case HD_OP_CVT: case HD_OP_CVTA:
        break;
    default:
        return false;
    }
    if (d->as != HD_AS_NONE || (d->ir->flags & HD_F_CC) || !d->exec)
        return false;
    if (d->nwrite == 0 || d->nwrite > HD_FUNC_AHEAD_DSTS)
        return false;
    for (uint32_t i = 0; i < d->nsrc; i++)
        if (d->src[i].kind == HD_SRC_SREG &&
            (d->src[i].sreg == HD_SREG_CLOCK || d->src[i].sreg == HD_SREG_CLOCK64 ||
             d->src[i].sreg == HD_SREG_GLOBALTIMER))
            return false;
    return true;
}

/* R2m: a load that may run ahead: it reads memory only, at most HD_FUNC_AHEAD_DSTS registers,
 * with no ordering semantics of its own. */
static bool is_runahead_load(const struct hd_func_instr *d)
{
    if (d->op != HD_OP_LD && d->op != HD_OP_LDU)
        return false;
    if (d->ir->flags & (HD_F_VOLATILE | HD_F_RELAXED))
        return false;
    if (d->nwrite == 0 || d->nwrite > HD_FUNC_AHEAD_DSTS || !d->exec)
        return false;
    return d->as == HD_AS_GLOBAL || d->as == HD_AS_SHARED || d->as == HD_AS_LOCAL ||
           d->as == HD_AS_PARAM || d->as == HD_AS_GENERIC;
}

/* Orders memory (or writes it): once skipped, no later load may run ahead. */
static bool orders_memory(const struct hd_func_instr *d)
{
    switch (d->op) {
    case HD_OP_ST: case HD_OP_ATOM: case HD_OP_RED: case HD_OP_BAR: case HD_OP_BARRIER:
    case HD_OP_MEMBAR: case HD_OP_FENCE: case HD_OP_CALL:
        return true;
    case HD_OP_LD: case HD_OP_LDU:
        return (d->ir->flags & (HD_F_VOLATILE | HD_F_RELAXED)) != 0;
    default:
        return false;
    }
}

/* {==== Register bitsets of one window ==== */
struct win {
    uint32_t words;       /* per set */
    uint64_t *taint;      /* [len * words] registers skipped instructions wrote on a path to i */
    uint64_t *touched;    /* [len * words] ... read or wrote */
    bool *reach;          /* [len] */
    bool *memblock;       /* [len] a skipped store/atomic/barrier/fence on some path to i */
    uint32_t sidx;        /* the stall point's own index (a back-edge window), or UINT32_MAX */
};

static bool test(const uint64_t *s, int32_t r)
{
    return r >= 0 && (s[r / 64] >> (r % 64) & 1u);
}
static void set(uint64_t *s, int32_t r)
{
    if (r >= 0)
        s[r / 64] |= 1ull << (r % 64);
}
/* Join state `from` (taint, touched) into window index j. */
static void join(struct win *w, uint32_t len, uint32_t j, const uint64_t *taint,
                 const uint64_t *touched, bool memblock)
{
    if (j >= len || j == w->sidx) /* out of the window, or back at the stall point: ends */
        return;
    w->memblock[j] |= memblock;
    uint64_t *t = w->taint + (size_t)j * w->words, *u = w->touched + (size_t)j * w->words;
    for (uint32_t i = 0; i < w->words; i++) {
        t[i] |= taint[i];
        u[i] |= touched[i];
    }
    w->reach[j] = true;
}
/* }==== */

/* Back-edge windows (Gong L952, Fig. 5.1: the loop control and the next iteration's independent
 * instructions run during the stall): the innermost loop around stall point s is a backward bra
 * at B in (s, s + *fwd] with target T < s; the window then also holds T .. s-1, reached only
 * through that back edge and ended by s itself (the next iteration's stall point closes the
 * hint group). The whole window (wrap + s + the PCs after s) fits HD_AHEAD_MAX_WINDOW bits and
 * the `window` PCs looked at; *fwd shrinks to make room but must keep B. Returns s - T, or 0. */
static uint32_t loop_wrap(const struct hd_func_kernel *k, const struct hd_haws_hint_params *p,
                          uint32_t s, uint32_t *fwd)
{
    uint32_t best = 0, best_fwd = *fwd;
    for (uint32_t b = s + 1; b <= s + *fwd; b++) {
        const struct hd_func_instr *d = &k->code[b];
        if (d->op != HD_OP_BRA || d->target < 0 || (uint32_t)d->target >= s)
            continue;
        const uint32_t wrap = s - (uint32_t)d->target;
        if (best && wrap >= best)
            continue; /* an outer loop */
        if (wrap + (b - s) > p->window || wrap + 1 + (b - s) > HD_AHEAD_MAX_WINDOW)
            continue; /* the loop does not fit */
        uint32_t f = *fwd;
        if (f > p->window - wrap)
            f = p->window - wrap;
        if (f > HD_AHEAD_MAX_WINDOW - 1 - wrap)
            f = HD_AHEAD_MAX_WINDOW - 1 - wrap;
        best = wrap;
        best_fwd = f;
    }
    *fwd = best_fwd;
    return best;
}

/* The window of stall point s into *h; scratch state w. Returns whether anything was selected. */
static bool build_window(const struct hd_func_kernel *k, const struct hd_haws_hint_params *p,
                         uint32_t s, struct win *w, uint64_t *cur_t, uint64_t *cur_u,
                         struct hd_ahead_hints *h)
{
    if (s + 1 >= k->ncode)
        return false;
    uint32_t fwd = p->window; /* PCs after the stall point */
    if (fwd > k->ncode - s - 1)
        fwd = k->ncode - s - 1;
    const uint32_t wrap = p->back_edges ? loop_wrap(k, p, s, &fwd) : 0;
    const uint32_t first = s - wrap + (wrap ? 0 : 1);
    const uint32_t len = wrap ? wrap + 1 + fwd : fwd;
    w->sidx = wrap ? wrap : UINT32_MAX;
    memset(w->taint, 0, (size_t)len * w->words * sizeof *w->taint);
    memset(w->touched, 0, (size_t)len * w->words * sizeof *w->touched);
    memset(w->reach, 0, len * sizeof *w->reach);
    memset(w->memblock, 0, len * sizeof *w->memblock);
    memset(h, 0, sizeof *h);
    h->stall_pc = s;
    h->first = first;
    h->len = len;
    /* the stall point itself is skipped */
    const struct hd_func_instr *sd = &k->code[s];
    memset(cur_t, 0, w->words * sizeof *cur_t);
    memset(cur_u, 0, w->words * sizeof *cur_u);
    for (uint32_t j = 0; j < sd->nwrite; j++) {
        set(cur_t, sd->write[j]);
        set(cur_u, sd->write[j]);
    }
    for (uint32_t j = 0; j < sd->nread; j++)
        set(cur_u, sd->read[j]);
    const uint32_t fwd0 = s + 1 - first; /* index of PC s + 1 */
    join(w, len, fwd0, cur_t, cur_u, orders_memory(sd));
    const uint32_t budget_ren = p->regs_free < p->rcu_depth ? p->regs_free : p->rcu_depth;
    /* walk order: the PCs after the stall point, then (a back-edge window) the loop's PCs
     * before it, entered only through a selected back edge: a DAG, each PC once */
    for (uint32_t n = 0; n < len; n++) {
        const uint32_t i = n < len - fwd0 ? fwd0 + n : n - (len - fwd0);
        if (i == w->sidx || !w->reach[i])
            continue;
        h->reach |= 1ull << i;
        const uint32_t pc = first + i;
        const struct hd_func_instr *d = &k->code[pc];
        memcpy(cur_t, w->taint + (size_t)i * w->words, w->words * sizeof *cur_t);
        memcpy(cur_u, w->touched + (size_t)i * w->words, w->words * sizeof *cur_u);
        bool mb = w->memblock[i];
        bool dep = false;
        for (uint32_t j = 0; j < d->nread; j++)
            dep |= test(cur_t, d->read[j]);
        const bool ctl = hd_func_ahead_is_control(d);
        if (ctl) {
            /* a bra inside the window whose inputs are independent may be selected: forward
             * within its part of the window, or (a back-edge window) from the PCs after the
             * stall point back to the loop's PCs before it */
            const int64_t t = d->target;
            const bool in = t >= (int64_t)first && t < (int64_t)first + len && t != (int64_t)s;
            const bool fw = t > (int64_t)pc && !(pc < s && t > (int64_t)s);
            const bool back = pc > s && t < (int64_t)s;
            const bool ok = d->op == HD_OP_BRA && !dep && h->nsel < p->rcu_depth && in &&
                            (fw || back);
            if (!ok)
                continue; /* not selected: the chain ends here */
            h->sel |= 1ull << i;
            h->nsel++;
            join(w, len, (uint32_t)d->target - first, cur_t, cur_u, mb);
            if (d->guard >= 0)
                join(w, len, i + 1, cur_t, cur_u, mb);
            continue;
        }
        const bool load = p->loads && !mb && is_runahead_load(d);
        bool take = !dep && (is_pure_alu(d) || load) && h->nsel < p->rcu_depth;
        bool ren = false;
        if (take) {
            for (uint32_t j = 0; j < d->nwrite; j++)
                ren |= test(cur_u, d->write[j]);
            if (ren && h->nren >= budget_ren)
                take = false; /* over the register budget: left for in-order execution */
        }
        if (take) {
            h->sel |= 1ull << i;
            h->nsel++;
            if (ren) {
                h->ren |= 1ull << i;
                h->nren++;
            }
        } else { /* skipped */
            for (uint32_t j = 0; j < d->nwrite; j++) {
                set(cur_t, d->write[j]);
                set(cur_u, d->write[j]);
            }
            for (uint32_t j = 0; j < d->nread; j++)
                set(cur_u, d->read[j]);
            mb |= orders_memory(d);
        }
        join(w, len, i + 1, cur_t, cur_u, mb);
    }
    return h->nsel > 0;
}

struct hd_haws_kernel_hints *hd_haws_hints_build(const struct hd_func_kernel *k,
                                                 const struct hd_haws_hint_params *p)
{
    struct hd_haws_kernel_hints *kh = calloc(1, sizeof *kh);
    if (!kh)
        return NULL;
    kh->k = k;
    kh->p = *p;
    if (kh->p.window > HD_AHEAD_MAX_WINDOW)
        kh->p.window = HD_AHEAD_MAX_WINDOW;
    const uint32_t n = k->ncode, nregs = k->nregs ? k->nregs : 1;
    struct win w = {(nregs + 63) / 64, NULL, NULL, NULL, NULL, UINT32_MAX};
    const size_t wl = HD_AHEAD_MAX_WINDOW; /* a back-edge window holds the stall point too */
    kh->at = calloc(n ? n : 1, sizeof *kh->at);
    uint64_t *llregs = calloc(w.words, sizeof *llregs);
    uint64_t *cur_t = calloc(w.words, sizeof *cur_t), *cur_u = calloc(w.words, sizeof *cur_u);
    w.taint = calloc(wl * w.words, sizeof *w.taint);
    w.touched = calloc(wl * w.words, sizeof *w.touched);
    w.reach = calloc(wl, sizeof *w.reach);
    w.memblock = calloc(wl, sizeof *w.memblock);
    bool *hinted = calloc(n ? n : 1, sizeof *hinted);
    bool ok = kh->at && llregs && cur_t && cur_u && w.taint && w.touched && w.reach &&
              w.memblock && hinted;
    for (uint32_t pc = 0; ok && pc < n; pc++)
        if (is_ll_writer(&k->code[pc]))
            for (uint32_t j = 0; j < k->code[pc].nwrite; j++)
                set(llregs, k->code[pc].write[j]);
    uint32_t cap = 0;
    for (uint32_t s = 0; ok && s < n && kh->p.window && kh->p.rcu_depth; s++) {
        const struct hd_func_instr *d = &k->code[s];
        if (hd_func_ahead_is_control(d))
            continue;
        bool sp = false;
        for (uint32_t j = 0; j < d->nread; j++)
            sp |= test(llregs, d->read[j]);
        for (uint32_t j = 0; j < d->nwrite; j++)
            sp |= test(llregs, d->write[j]);
        if (!sp)
            continue;
        kh->stall_points++;
        if (kh->nh == cap) {
            cap = cap ? 2 * cap : 16;
            struct hd_ahead_hints *nh = realloc(kh->h, cap * sizeof *nh);
            if (!nh) {
                ok = false;
                break;
            }
            kh->h = nh;
        }
        if (!build_window(k, &kh->p, s, &w, cur_t, cur_u, &kh->h[kh->nh]))
            continue;
        const struct hd_ahead_hints *h = &kh->h[kh->nh];
        kh->at[s] = ++kh->nh;
        kh->hint_bits += FMT1_BITS;
        hinted[s] = true;
        for (uint64_t b = h->sel; b; b &= b - 1) {
            const uint32_t pc = h->first + (uint32_t)__builtin_ctzll(b);
            kh->hint_bits += k->code[pc].op == HD_OP_BRA ? FMT2_BITS : FMT1_BITS;
            hinted[pc] = true;
        }
    }
    for (uint32_t pc = 0; ok && pc < n; pc++)
        kh->hinted_instrs += hinted[pc];
    free(llregs);
    free(cur_t);
    free(cur_u);
    free(w.taint);
    free(w.touched);
    free(w.reach);
    free(w.memblock);
    free(hinted);
    if (!ok) {
        hd_haws_hints_free(kh);
        return NULL;
    }
    return kh;
}

void hd_haws_hints_free(struct hd_haws_kernel_hints *kh)
{
    if (!kh)
        return;
    free(kh->at);
    free(kh->h);
    free(kh);
}

const struct hd_ahead_hints *hd_haws_hints_at(const struct hd_haws_kernel_hints *kh, uint32_t pc)
{
    if (!kh || pc >= kh->k->ncode || !kh->at[pc])
        return NULL;
    return &kh->h[kh->at[pc] - 1];
}

void hd_haws_hints_print(const struct hd_haws_kernel_hints *kh, FILE *out)
{
    fprintf(out, "  HAWS hints (window %u, RCU depth %u, rename budget %u, loads %s, back edges %s): %u stall "
                 "points, %u with a chain; %u instructions carry a hint, %" PRIu64 " hint bits "
                 "(%.1f bytes)\n",
            kh->p.window, kh->p.rcu_depth,
            kh->p.regs_free < kh->p.rcu_depth ? kh->p.regs_free : kh->p.rcu_depth,
            kh->p.loads ? "on" : "off", kh->p.back_edges ? "on" : "off",
            kh->stall_points, kh->nh, kh->hinted_instrs, kh->hint_bits,
            (double)kh->hint_bits / 8.0);
    for (uint32_t i = 0; i < kh->nh; i++) {
        const struct hd_ahead_hints *h = &kh->h[i];
        const struct hd_func_instr *sd = &kh->k->code[h->stall_pc];
        fprintf(out, "    stall PC %u (line %u): %u run ahead, %u renamed", h->stall_pc,
                sd->ir ? sd->ir->line : 0, h->nsel, h->nren);
        if (h->first <= h->stall_pc) /* a back-edge window: PCs below the stall point too */
            fprintf(out, ", loop from PC %u", h->first);
        fputc(':', out);
        for (uint64_t b = h->sel; b; b &= b - 1) {
            const uint32_t off = (uint32_t)__builtin_ctzll(b);
            const uint32_t pc = h->first + off;
            const uint16_t op = kh->k->code[pc].op;
            fprintf(out, " %u%s%s", pc,
                    op == HD_OP_BRA ? "b" : op == HD_OP_LD || op == HD_OP_LDU ? "m" : "",
                    (h->ren >> off & 1u) ? "r" : "");
        }
        fputc('\n', out);
    }
}
