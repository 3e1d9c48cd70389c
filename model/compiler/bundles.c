/* SPDX-License-Identifier: MIT
 * bundles.c - EXPARS's register ordering, bundles and PREF vectors (bundles.h; Yu et al. §3.2,
 * digest §2.1).
 */
#include "bundles.h"

#include "defuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The physical registers instruction lpc of entry fn e touches (a 64-bit value: both), into
 * regs (at most HD_DEFUSE_MAX_DEFS + HD_DEFUSE_MAX_USES values x 4 words); returns how many. */
static unsigned touched(const struct hd_annot *a, const struct hd_annot_fn *e, uint32_t lpc,
                        uint32_t *regs, unsigned max)
{
    struct hd_defuse du;
    hd_defuse_get(e->f.ir, lpc, &du);
    unsigned n = 0;
    for (unsigned i = 0; i < (unsigned)du.ndefs + du.nuses; i++) {
        const int32_t r = i < du.ndefs ? du.defs[i] : du.uses[i - du.ndefs];
        if (r < 0)
            continue;
        const uint32_t kreg = e->f.reg_base + (uint32_t)r;
        const int32_t p = hd_annot_phys(a, kreg);
        if (p < 0)
            continue;
        const uint32_t words = hd_annot_reg_words(a, kreg);
        for (uint32_t w = 0; w < words && n < max; w++) {
            const uint32_t x = (uint32_t)p + w;
            if (x >= HD_BUNDLE_MAX_REGS)
                continue;
            bool dup = false;
            for (unsigned j = 0; j < n && !dup; j++)
                dup = regs[j] == x;
            if (!dup)
                regs[n++] = x;
        }
    }
    return n;
}

static void order_registers(struct hd_bundles *b)
{
    for (uint32_t i = 0; i < HD_BUNDLE_MAX_REGS; i++)
        b->order[i] = (uint16_t)i;
    /* insertion sort, heaviest first, stable by register number */
    for (uint32_t i = 1; i < b->nphys; i++) {
        const uint16_t r = b->order[i];
        uint32_t j = i;
        while (j > 0 && b->weight[b->order[j - 1]] < b->weight[r]) {
            b->order[j] = b->order[j - 1];
            j--;
        }
        b->order[j] = r;
    }
    for (uint32_t i = 0; i < HD_BUNDLE_MAX_REGS; i++)
        b->rank[b->order[i]] = (uint16_t)i;
}

static int push(struct hd_bundles *b, uint32_t *cap, const struct hd_bundle *x)
{
    if (b->n == *cap) {
        const uint32_t nc = *cap ? 2 * *cap : 32;
        struct hd_bundle *n = realloc(b->b, nc * sizeof *n);
        if (!n)
            return -1;
        b->b = n;
        *cap = nc;
    }
    b->b[b->n++] = *x;
    return 0;
}

int hd_bundles_build(const struct hd_annot *a, const struct hd_bundle_params *p,
                     struct hd_bundles **out, char *err, size_t errlen)
{
    *out = NULL;
    struct hd_bundles *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "host out of memory building EXPARS bundles");
        return -1;
    }
    const struct hd_annot_fn *e = a->entry_fn < a->nfn ? &a->fn[a->entry_fn] : NULL;
    if (!a->ra_ok || !e || !e->cfg || !e->f.ir) {
        snprintf(b->note, sizeof b->note, "no register allocation (%.200s)",
                 a->note[0] ? a->note : "no entry function");
        *out = b;
        return 0;
    }
    const uint32_t lines = !p->oc_lines ? 16 : p->oc_lines > 64 ? 64 : p->oc_lines;
    const uint32_t ni = e->f.ir->ninstrs;
    uint32_t regs[4 * (HD_DEFUSE_MAX_DEFS + HD_DEFUSE_MAX_USES)];
    const unsigned maxr = sizeof regs / sizeof regs[0];
    /* 1. weights and ranks */
    for (uint32_t pc = 0; pc < ni; pc++) {
        const unsigned n = touched(a, e, pc, regs, maxr);
        for (unsigned i = 0; i < n; i++) {
            b->weight[regs[i]]++;
            if (regs[i] + 1 > b->nphys)
                b->nphys = regs[i] + 1;
        }
    }
    if (p->by_weight) {
        order_registers(b);
    } else {
        for (uint32_t i = 0; i < HD_BUNDLE_MAX_REGS; i++)
            b->rank[i] = b->order[i] = (uint16_t)i;
    }
    b->ncode = a->ncode;
    if (!(b->of_pc = malloc((a->ncode ? a->ncode : 1) * sizeof *b->of_pc)))
        goto oom;
    for (uint32_t i = 0; i < a->ncode; i++)
        b->of_pc[i] = UINT32_MAX;
    /* 2. bundles, per basic block in PC order */
    uint32_t cap = 0;
    uint32_t cnt[64];  /* registers of the open bundle per set */
    const uint32_t ways = p->oc_ways && p->oc_ways <= lines ? p->oc_ways : 1;
    const uint32_t sets = lines / ways ? lines / ways : 1;
    for (uint32_t blk = 0; blk < e->cfg->nblocks; blk++) {
        const struct hd_block *bb = &e->cfg->blocks[blk];
        struct hd_bundle cur = {0};
        bool open = false;
        for (uint32_t pc = bb->first; pc <= bb->last && pc < ni; pc++) {
            const unsigned n = touched(a, e, pc, regs, maxr);
            /* does pc fit the open bundle? (L1/L2: at most `ways` registers per set; L3) */
            uint32_t add[64] = {0};
            for (unsigned i = 0; i < n; i++) {
                const uint32_t r = b->rank[regs[i]];
                add[r % sets] += !(cur.vec[r / 64] >> (r % 64) & 1u);
            }
            bool fits = open && (!p->max_instrs || cur.n < p->max_instrs);
            uint32_t nadd = 0;
            for (uint32_t k = 0; k < sets && fits; k++) {
                fits = cnt[k] + add[k] <= ways;
                nadd += add[k];
            }
            if (fits && p->max_regs && cur.nregs + nadd > p->max_regs)
                fits = false;
            if (open && !fits) {
                if (push(b, &cap, &cur) != 0)
                    goto oom;
                open = false;
            }
            if (!open) {
                memset(&cur, 0, sizeof cur);
                cur.pc = e->f.pc_base + pc;
                memset(cnt, 0, sizeof cnt);
                open = true;
            }
            for (unsigned i = 0; i < n; i++) {
                const uint32_t r = b->rank[regs[i]];
                if (!(cur.vec[r / 64] >> (r % 64) & 1u)) {
                    cur.vec[r / 64] |= 1ull << (r % 64);
                    cur.nregs++;
                    if (++cnt[r % sets] > ways)
                        cur.conflict = true; /* (alone in its bundle: cannot be split) */
                }
            }
            cur.n++;
            b->instrs++;
            if (e->f.pc_base + pc < b->ncode)
                b->of_pc[e->f.pc_base + pc] = b->n;
            if (p->cut_barrier && (hd_annot_flags(a, e->f.pc_base + pc) & HD_AN_BARRIER)) {
                if (push(b, &cap, &cur) != 0)
                    goto oom;
                open = false;
            }
        }
        if (open && push(b, &cap, &cur) != 0)
            goto oom;
    }
    *out = b;
    return 0;
oom:
    hd_bundles_free(b);
    snprintf(err, errlen, "host out of memory building EXPARS bundles");
    return -1;
}

int hd_bundles_annotate(struct hd_annot *a, const struct hd_bundles *b)
{
    const int col = hd_annot_column(a, "expars_bundle");
    if (col < 0)
        return -1;
    for (uint32_t pc = 0; pc < b->ncode && pc < a->ncode; pc++)
        if (b->of_pc[pc] != UINT32_MAX)
            hd_annot_set(a, col, pc, b->of_pc[pc] + 1);
    return 0;
}

void hd_bundles_free(struct hd_bundles *b)
{
    if (!b)
        return;
    free(b->of_pc);
    free(b->b);
    free(b);
}
