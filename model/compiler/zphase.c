/* SPDX-License-Identifier: MIT
 * zphase.c - Zorua's phase-specifier pass over the annotation store (zphase.h; Zorua Sec. 3.6).
 */
#include "zphase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool push(struct hd_zphases *z, struct hd_zphase p)
{
    if (z->n == z->cap) {
        uint32_t cap = z->cap ? z->cap * 2 : 16;
        struct hd_zphase *np = realloc(z->ph, cap * sizeof *np);
        if (!np)
            return false;
        z->ph = np;
        z->cap = cap;
    }
    z->ph[z->n++] = p;
    return true;
}

/* The instruction at kernel-wide pc (NULL if none). */
static const struct hd_instr *instr_at(const struct hd_annot *a, uint32_t pc)
{
    uint32_t lpc;
    const struct hd_annot_fn *f = hd_annot_fn_at(a, pc, &lpc);
    return f && f->f.ir && lpc < f->f.ir->ninstrs ? &f->f.ir->instrs[lpc] : NULL;
}

/* The first PC of the outermost loop holding pc (pc itself outside loops). */
static uint32_t loop_start(const struct hd_annot *a, uint32_t first, uint32_t pc)
{
    uint32_t s = pc;
    for (uint32_t q = pc + 1; q-- > first;) {
        if (a->pc[q].loop_depth == 0)
            break;
        if (a->pc[q].flags & HD_AN_LOOP_HEAD && a->pc[q].loop_depth == 1)
            s = q;
    }
    return s;
}

/* The last PC of the outermost loop holding pc (pc itself outside loops). */
static uint32_t loop_end(const struct hd_annot *a, uint32_t last, uint32_t pc)
{
    uint32_t e = pc;
    for (uint32_t q = pc; q < last && a->pc[q].loop_depth > 0; q++)
        e = q;
    return e;
}

int hd_zphase_build(struct hd_annot *a, struct hd_zphases **out, char *err, size_t errlen)
{
    *out = NULL;
    struct hd_zphases *z = calloc(1, sizeof *z);
    if (!z || a->entry_fn >= a->nfn) {
        free(z);
        snprintf(err, errlen, "zphase: %s", a->entry_fn >= a->nfn ? "no entry function"
                                                                  : "host out of memory");
        return -1;
    }
    z->min_instrs = 10;
    z->change = 0.25;
    const struct hd_annot_fn *ef = &a->fn[a->entry_fn];
    const uint32_t first = ef->f.pc_base;
    const uint32_t last = first + (ef->f.ir ? ef->f.ir->ninstrs : 0);
    /* the scratchpad's live range: first shared store .. last shared load/atomic */
    uint32_t s_lo = UINT32_MAX, s_hi = 0;
    for (uint32_t pc = first; pc < last; pc++) {
        const struct hd_instr *in = instr_at(a, pc);
        if (!in || in->space != HD_SPACE_SHARED)
            continue;
        if (in->op == HD_OP_ST && s_lo == UINT32_MAX)
            s_lo = loop_start(a, first, pc);
        if (in->op == HD_OP_LD || in->op == HD_OP_ATOM || in->op == HD_OP_RED)
            s_hi = loop_end(a, last, pc) + 1;
    }
    const int col = hd_annot_column(a, "zphase");
    if (col < 0)
        goto oom;
    struct hd_zphase cur = {0};
    bool open = false;
    /* the group's start (its specifier's phase): rule (i)'s reference, its scratchpad state */
    uint32_t g_live = 0;
    bool g_smem = false;
    for (uint32_t pc = first; pc < last; pc++) {
        const uint32_t live = hd_annot_live_words(a, pc, false, true);
        const bool smem = pc >= s_lo && pc < s_hi;
        const uint32_t fl = hd_annot_flags(a, pc);
        bool cut = !open;
        bool bar = false, spec = false;
        if (open) {
            const bool may = !(fl & HD_AN_MAY_DIVERGE) &&
                             (a->pc[pc].loop_depth == 0 ||
                              ((fl & HD_AN_LOOP_HEAD) && a->pc[pc].loop_depth == 1));
            const uint32_t ref = g_live ? g_live : 1;
            const uint32_t diff = live > g_live ? live - g_live : g_live - live;
            bar = (fl & HD_AN_BARRIER) && pc > cur.start; /* a boundary, no specifier of its own */
            /* (a barrier is a point without divergence whatever the static flag says: every
               thread of the CTA reaches it, CUDA's rule) */
            spec = (may || bar) && pc - cur.start >= z->min_instrs &&
                   ((double)diff >= z->change * ref || smem != g_smem);
            cut = spec || bar;
        }
        if (cut) {
            if (open) {
                cur.end = pc;
                if (!push(z, cur))
                    goto oom;
            }
            const uint32_t group = !open || spec ? z->n : cur.group;
            cur = (struct hd_zphase){pc, pc, live, live, smem, bar, spec, group};
            if (!open || spec) {
                g_live = live;
                g_smem = smem;
            }
            z->specifiers += cur.specifier;
            open = true;
        }
        if (live > cur.live_max)
            cur.live_max = live;
        cur.smem |= smem;
        hd_annot_set(a, col, pc, z->n + 1);
    }
    if (open) {
        cur.end = last;
        if (!push(z, cur))
            goto oom;
    }
    *out = z;
    return 0;
oom:
    hd_zphase_free(z);
    snprintf(err, errlen, "zphase: host out of memory");
    return -1;
}

void hd_zphase_free(struct hd_zphases *z)
{
    if (!z)
        return;
    free(z->ph);
    free(z);
}
