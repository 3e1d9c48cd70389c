/* SPDX-License-Identifier: MIT
 * regalloc_check.c - validity checker of a register allocation against the liveness.
 *
 * At every PC, two groups of registers must sit in pairwise disjoint physical registers:
 *   before: the whole-range registers live-in, plus the constants (HD_RA_REMAT) the instruction
 *           reads in a register (hd_regalloc_remat_reads; they occupy it only there);
 *   after:  the whole-range registers live-out, plus every whole-range register it writes
 *           (a write whose value is dead still lands in its register).
 * Predicates are checked the same way in the predicate file. Also: every register that is read
 * or live has a location, data pairs/quads are aligned, the stack pointer is never handed out,
 * and everything lies below gpr_span / pred_regs. Disjointness is checked with an owner array
 * over physical words, stamped per group, so a PC costs its live count.
 */
#include <stdio.h>
#include <stdlib.h>

#include "regalloc.h"

struct owner_map {
    uint32_t size;
    uint32_t *stamp, *owner;
    uint32_t cur;
};

struct checker {
    const struct hd_func *f;
    const struct hd_liveness *lv;
    const struct hd_regalloc *ra;
    struct owner_map map[HD_RC_COUNT];
    char *err;
    size_t errlen;
};

static const char *rname(const struct hd_func *f, uint32_t r)
{
    return r < f->nregs && f->regs[r].name ? f->regs[r].name : "?";
}

static int fail_at(struct checker *ck, uint32_t pc, const char *what, uint32_t a, uint32_t b)
{
    const struct hd_func *f = ck->f;
    snprintf(ck->err, ck->errlen, "%s: PC %u (PTX line %u): %s: %s (phys %d) and %s (phys %d)",
             f->name ? f->name : "?", pc, pc < f->ninstrs ? f->instrs[pc].line : 0, what,
             rname(f, a), ck->ra->phys_of[a], rname(f, b), ck->ra->phys_of[b]);
    return -1;
}

/* Place register r in the current group of its class; fails if a word is taken by another. */
static int place(struct checker *ck, uint32_t pc, const char *group, uint32_t r)
{
    const struct hd_liveness *lv = ck->lv;
    struct owner_map *m = &ck->map[lv->rclass[r]];
    int32_t p = ck->ra->phys_of[r];
    for (uint32_t j = 0; j < lv->words[r]; j++) {
        uint32_t w = (uint32_t)p + j;
        if (w >= m->size) {
            snprintf(ck->err, ck->errlen, "%s: PC %u: %s at phys %d lies beyond the span %u",
                     ck->f->name ? ck->f->name : "?", pc, rname(ck->f, r), p, m->size);
            return -1;
        }
        if (m->stamp[w] == m->cur && m->owner[w] != r)
            return fail_at(ck, pc, group, m->owner[w], r);
        m->stamp[w] = m->cur;
        m->owner[w] = r;
    }
    return 0;
}

static int place_row(struct checker *ck, uint32_t pc, const char *group, enum hd_rclass c,
                     const uint64_t *row)
{
    const struct hd_liveness *lv = ck->lv;
    for (uint32_t w = 0; w < lv->stride[c]; w++)
        for (uint64_t x = row[w]; x; x &= x - 1) {
            uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(x)];
            uint8_t k = ck->ra->kind[r];
            if (k == HD_RA_SPILLED || k == HD_RA_REMAT)
                continue;
            if (k != HD_RA_REG) {
                snprintf(ck->err, ck->errlen, "%s: PC %u: %s is live but has no register",
                         ck->f->name ? ck->f->name : "?", pc, rname(ck->f, r));
                return -1;
            }
            if (place(ck, pc, group, r))
                return -1;
        }
    return 0;
}

static void next_group(struct checker *ck)
{
    for (int c = 0; c < HD_RC_COUNT; c++)
        ck->map[c].cur++;
}

static int check_pc(struct checker *ck, uint32_t pc)
{
    const struct hd_liveness *lv = ck->lv;
    uint32_t nd, nu;
    const int32_t *d = hd_liveness_defs(lv, pc, &nd), *u = hd_liveness_uses(lv, pc, &nu);
    next_group(ck);
    for (int c = 0; c < HD_RC_COUNT; c++)
        if (place_row(ck, pc, "both live before the instruction", (enum hd_rclass)c,
                      hd_liveness_in_row(lv, pc, (enum hd_rclass)c)))
            return -1;
    for (uint32_t k = 0; k < nu; k++)
        if (ck->ra->kind[u[k]] == HD_RA_NONE) {
            snprintf(ck->err, ck->errlen, "%s: PC %u: %s is read but has no register",
                     ck->f->name ? ck->f->name : "?", pc, rname(ck->f, (uint32_t)u[k]));
            return -1;
        }
    uint32_t rd[HD_RA_MAX_READS];
    unsigned nr = hd_regalloc_remat_reads(ck->f, lv, ck->ra->kind, pc, rd);
    for (unsigned k = 0; k < nr; k++) {
        if (ck->ra->phys_of[rd[k]] < 0) {
            snprintf(ck->err, ck->errlen, "%s: PC %u: constant %s is read in a register but has none",
                     ck->f->name ? ck->f->name : "?", pc, rname(ck->f, rd[k]));
            return -1;
        }
        if (place(ck, pc, "read by the instruction", rd[k]))
            return -1;
    }
    next_group(ck);
    for (int c = 0; c < HD_RC_COUNT; c++)
        if (place_row(ck, pc, "both live after the instruction", (enum hd_rclass)c,
                      hd_liveness_out_row(lv, pc, (enum hd_rclass)c)))
            return -1;
    for (uint32_t k = 0; k < nd; k++)
        if (ck->ra->kind[d[k]] == HD_RA_REG &&
            place(ck, pc, "written while the other is live", (uint32_t)d[k]))
            return -1;
    return 0;
}

static int check_regs(struct checker *ck)
{
    const struct hd_liveness *lv = ck->lv;
    const struct hd_regalloc *ra = ck->ra;
    for (uint32_t r = 0; r < lv->nregs; r++) {
        uint8_t k = ra->kind[r];
        int32_t p = ra->phys_of[r];
        const char *bad = NULL;
        if (k == HD_RA_REG && p < 0)
            bad = "has no physical register";
        else if ((k == HD_RA_NONE || k == HD_RA_SPILLED) && p >= 0)
            bad = "has a physical register but should have none";
        else if (p >= 0 && lv->rclass[r] == HD_RC_DATA && (uint32_t)p % lv->words[r] != 0)
            bad = "is not aligned to its size";
        else if (p >= 0 && lv->rclass[r] == HD_RC_DATA && ra->params.sp_reg >= 0 &&
                 p <= ra->params.sp_reg && (uint32_t)p + lv->words[r] > (uint32_t)ra->params.sp_reg)
            bad = "overlaps the stack pointer";
        if (bad) {
            snprintf(ck->err, ck->errlen, "%s: register %s (phys %d) %s",
                     ck->f->name ? ck->f->name : "?", rname(ck->f, r), p, bad);
            return -1;
        }
    }
    return 0;
}

int hd_regalloc_check(const struct hd_func *f, const struct hd_liveness *lv,
                      const struct hd_regalloc *ra, char *err, size_t errlen)
{
    struct checker ck = { f, lv, ra, { { 0 } }, err, errlen };
    if (errlen)
        err[0] = '\0';
    if (ra->nregs != lv->nregs || lv->func != f) {
        snprintf(err, errlen, "%s: allocation and liveness are of different functions",
                 f->name ? f->name : "?");
        return -1;
    }
    ck.map[HD_RC_DATA].size = ra->gpr_span;
    ck.map[HD_RC_PRED].size = ra->pred_regs;
    int rc = -1;
    for (int c = 0; c < HD_RC_COUNT; c++) {
        uint32_t n = ck.map[c].size ? ck.map[c].size : 1;
        ck.map[c].stamp = calloc(n, sizeof(uint32_t));
        ck.map[c].owner = calloc(n, sizeof(uint32_t));
        if (!ck.map[c].stamp || !ck.map[c].owner) {
            snprintf(err, errlen, "%s: regalloc check: out of memory", f->name ? f->name : "?");
            goto done;
        }
    }
    if (check_regs(&ck))
        goto done;
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++)
        if (check_pc(&ck, pc))
            goto done;
    rc = 0;
done:
    for (int c = 0; c < HD_RC_COUNT; c++)
        free(ck.map[c].stamp), free(ck.map[c].owner);
    return rc;
}
