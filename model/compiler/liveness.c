/* SPDX-License-Identifier: MIT
 * liveness.c - per-PC live register sets by backward dataflow over the CFG (see liveness.h).
 *
 * Steps: (1) collect every instruction's register reads/writes (defuse) and number the named
 * registers densely per class; (2) per block: upward-exposed uses, unconditional writes (kill)
 * and all writes (gen); (3) iterate live-in/live-out of blocks in post-order to the fixpoint, and
 * "maybe defined" forward in reverse post-order; (4) one backward walk per block fills the
 * live-in row of every PC, one forward walk intersects it with maybe-defined; (5) per-block
 * divergence unions. Everything is bit rows of 64-bit words; the cost is a few passes over
 * ninstrs x registers / 64 words.
 */
#include "liveness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

/* {==== Bit rows ==== */
static inline void bit_set(uint64_t *r, uint32_t i) { r[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *r, uint32_t i) { r[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bit_test(const uint64_t *r, uint32_t i) { return (r[i >> 6] >> (i & 63)) & 1u; }

static bool row_equal(const uint64_t *a, const uint64_t *b, uint32_t n)
{
    return memcmp(a, b, n * sizeof(uint64_t)) == 0;
}
/* }==== */

/* {==== Registers and per-instruction lists ==== */
static uint8_t type_words(uint8_t t)
{
    switch ((enum hd_type)t) {
    case HD_T_B64: case HD_T_U64: case HD_T_S64: case HD_T_F64:
        return 2;
    case HD_T_B128:
        return 4;
    default:
        return 1;
    }
}

static int check_regs(const struct hd_func *f, uint32_t pc, const struct hd_defuse *du, char *err,
                      size_t errlen)
{
    const char *what = NULL;
    int32_t bad = 0;
    for (unsigned k = 0; k < du->ndefs && !what; k++)
        if ((uint32_t)du->defs[k] >= f->nregs)
            what = "register index", bad = du->defs[k];
    for (unsigned k = 0; k < du->nuses && !what; k++)
        if ((uint32_t)du->uses[k] >= f->nregs)
            what = "register index", bad = du->uses[k];
    if (!what && du->truncated)
        what = "too many register operands in one instruction, count", bad = HD_DEFUSE_MAX_USES;
    if (!what)
        return 0;
    snprintf(err, errlen, "%s: PC %u (PTX line %u): %s %d out of range (function has %u registers)",
             f->name ? f->name : "?", pc, f->instrs[pc].line, what, (int)bad, f->nregs);
    return -1;
}

/* Collect defuse for every PC into the flat du arrays and classify the named registers. */
static int collect(struct hd_liveness *lv, char *err, size_t errlen)
{
    const struct hd_func *f = lv->func;
    struct hd_defuse du;
    uint32_t total = 0;
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        hd_defuse_get(f, pc, &du);
        if (check_regs(f, pc, &du, err, errlen))
            return -1;
        total += du.ndefs + du.nuses;
    }
    lv->du_regs = malloc((total ? total : 1) * sizeof(int32_t));
    if (!lv->du_regs)
        return -1;
    uint32_t at = 0;
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        hd_defuse_get(f, pc, &du);
        lv->du_off[pc] = at;
        lv->ndefs[pc] = du.ndefs;
        lv->conditional[pc] = du.conditional;
        for (unsigned k = 0; k < du.ndefs; k++)
            lv->du_regs[at++] = du.defs[k];
        for (unsigned k = 0; k < du.nuses; k++)
            lv->du_regs[at++] = du.uses[k];
    }
    lv->du_off[f->ninstrs] = at;
    for (uint32_t k = 0; k < at; k++) {
        uint32_t r = (uint32_t)lv->du_regs[k];
        if (lv->rclass[r] != HD_RC_NONE)
            continue;
        bool pred = f->regs[r].type == HD_T_PRED;
        lv->rclass[r] = pred ? HD_RC_PRED : HD_RC_DATA;
        lv->words[r] = pred ? 1 : type_words(f->regs[r].type);
    }
    /* dense numbering in register order (deterministic, independent of first appearance) */
    for (uint32_t r = 0; r < lv->nregs; r++)
        if (lv->rclass[r] != HD_RC_NONE)
            lv->index[r] = lv->n[lv->rclass[r]]++;
    for (int c = 0; c < HD_RC_COUNT; c++) {
        lv->reg_of[c] = malloc((lv->n[c] ? lv->n[c] : 1) * sizeof(uint32_t));
        if (!lv->reg_of[c])
            return -1;
        lv->stride[c] = (lv->n[c] + 63) / 64;
        if (lv->stride[c] == 0)
            lv->stride[c] = 1;
    }
    for (uint32_t r = 0; r < lv->nregs; r++)
        if (lv->rclass[r] != HD_RC_NONE)
            lv->reg_of[lv->rclass[r]][lv->index[r]] = r;
    return 0;
}

const int32_t *hd_liveness_uses(const struct hd_liveness *lv, uint32_t pc, uint32_t *n)
{
    uint32_t b = lv->du_off[pc] + lv->ndefs[pc];
    *n = lv->du_off[pc + 1] - b;
    return lv->du_regs + b;
}

const int32_t *hd_liveness_defs(const struct hd_liveness *lv, uint32_t pc, uint32_t *n)
{
    *n = lv->ndefs[pc];
    return lv->du_regs + lv->du_off[pc];
}
/* }==== */

/* {==== Block order ==== */
/* Reverse post-order of the blocks reachable from the entry, then the unreachable ones. */
static int block_rpo(const struct hd_cfg *cfg, uint32_t entry, uint32_t *rpo)
{
    uint32_t nb = cfg->nblocks;
    uint32_t *stack = malloc(nb * sizeof(uint32_t)), *next = calloc(nb, sizeof(uint32_t));
    uint8_t *seen = calloc(nb, 1);
    if (!stack || !next || !seen) {
        free(stack), free(next), free(seen);
        return -1;
    }
    uint32_t sp = 0, post = nb;
    stack[sp++] = entry;
    seen[entry] = 1;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (next[b] < cfg->blocks[b].nsucc) {
            uint32_t s = cfg->blocks[b].succ[next[b]++];
            if (!seen[s]) {
                seen[s] = 1;
                stack[sp++] = s;
            }
        } else {
            rpo[--post] = b;
            sp--;
        }
    }
    /* reachable blocks occupy rpo[post..nb); move them to the front, unreachable ones after */
    uint32_t nreach = nb - post;
    memmove(rpo, rpo + post, nreach * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; b++)
        if (!seen[b])
            rpo[nreach++] = b;
    free(stack), free(next), free(seen);
    return 0;
}
/* }==== */

/* {==== Dataflow ==== */
struct blocksets {
    uint64_t *use, *kill, *gen, *live_in, *def_out;
};

static void local_sets(const struct hd_liveness *lv, int c, struct blocksets *bs)
{
    uint32_t st = lv->stride[c];
    for (uint32_t b = 0; b < lv->nblocks; b++) {
        const struct hd_block *blk = &lv->cfg->blocks[b];
        uint64_t *use = bs->use + (size_t)b * st, *kill = bs->kill + (size_t)b * st;
        uint64_t *gen = bs->gen + (size_t)b * st;
        for (uint32_t pc = blk->last + 1; pc-- > blk->first;) {
            uint32_t nd, nu;
            const int32_t *d = hd_liveness_defs(lv, pc, &nd), *u = hd_liveness_uses(lv, pc, &nu);
            for (uint32_t k = 0; k < nd; k++) {
                if (lv->rclass[d[k]] != c)
                    continue;
                bit_set(gen, lv->index[d[k]]);
                if (!lv->conditional[pc]) {
                    bit_set(kill, lv->index[d[k]]);
                    bit_clear(use, lv->index[d[k]]);
                }
            }
            for (uint32_t k = 0; k < nu; k++)
                if (lv->rclass[u[k]] == c)
                    bit_set(use, lv->index[u[k]]);
        }
    }
}

static void solve(struct hd_liveness *lv, int c, struct blocksets *bs, const uint32_t *rpo,
                  uint64_t *tmp)
{
    uint32_t st = lv->stride[c], nb = lv->nblocks;
    const struct hd_cfg *cfg = lv->cfg;
    bool changed = true;
    while (changed) { /* backward: post-order */
        changed = false;
        for (uint32_t i = nb; i-- > 0;) {
            uint32_t b = rpo[i];
            uint64_t *out = lv->blk_out[c] + (size_t)b * st;
            memset(out, 0, st * sizeof(uint64_t));
            for (uint32_t s = 0; s < cfg->blocks[b].nsucc; s++) {
                const uint64_t *sin = bs->live_in + (size_t)cfg->blocks[b].succ[s] * st;
                for (uint32_t w = 0; w < st; w++)
                    out[w] |= sin[w];
            }
            const uint64_t *use = bs->use + (size_t)b * st, *kill = bs->kill + (size_t)b * st;
            for (uint32_t w = 0; w < st; w++)
                tmp[w] = use[w] | (out[w] & ~kill[w]);
            uint64_t *in = bs->live_in + (size_t)b * st;
            if (!row_equal(tmp, in, st)) {
                memcpy(in, tmp, st * sizeof(uint64_t));
                changed = true;
            }
        }
    }
    changed = true;
    while (changed) { /* forward: maybe defined */
        changed = false;
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t b = rpo[i];
            memset(tmp, 0, st * sizeof(uint64_t));
            for (uint32_t p = 0; p < cfg->blocks[b].npred; p++) {
                const uint64_t *po = bs->def_out + (size_t)cfg->blocks[b].pred[p] * st;
                for (uint32_t w = 0; w < st; w++)
                    tmp[w] |= po[w];
            }
            const uint64_t *gen = bs->gen + (size_t)b * st;
            for (uint32_t w = 0; w < st; w++)
                tmp[w] |= gen[w];
            uint64_t *dout = bs->def_out + (size_t)b * st;
            if (!row_equal(tmp, dout, st)) {
                memcpy(dout, tmp, st * sizeof(uint64_t));
                changed = true;
            }
        }
    }
}

/* Fill the per-PC live-in rows of class c, intersected with maybe-defined. */
static void per_pc(struct hd_liveness *lv, int c, const struct blocksets *bs, uint64_t *tmp)
{
    uint32_t st = lv->stride[c];
    const struct hd_cfg *cfg = lv->cfg;
    for (uint32_t b = 0; b < lv->nblocks; b++) {
        const struct hd_block *blk = &cfg->blocks[b];
        uint64_t *out = lv->blk_out[c] + (size_t)b * st;
        memcpy(tmp, out, st * sizeof(uint64_t));
        for (uint32_t pc = blk->last + 1; pc-- > blk->first;) {
            uint32_t nd, nu;
            const int32_t *d = hd_liveness_defs(lv, pc, &nd), *u = hd_liveness_uses(lv, pc, &nu);
            if (!lv->conditional[pc])
                for (uint32_t k = 0; k < nd; k++)
                    if (lv->rclass[d[k]] == c)
                        bit_clear(tmp, lv->index[d[k]]);
            for (uint32_t k = 0; k < nu; k++)
                if (lv->rclass[u[k]] == c)
                    bit_set(tmp, lv->index[u[k]]);
            memcpy(lv->in[c] + (size_t)pc * st, tmp, st * sizeof(uint64_t));
        }
        /* maybe-defined at block entry = union of the predecessors' def_out */
        memset(tmp, 0, st * sizeof(uint64_t));
        for (uint32_t p = 0; p < blk->npred; p++) {
            const uint64_t *po = bs->def_out + (size_t)blk->pred[p] * st;
            for (uint32_t w = 0; w < st; w++)
                tmp[w] |= po[w];
        }
        for (uint32_t pc = blk->first; pc <= blk->last; pc++) {
            uint64_t *row = lv->in[c] + (size_t)pc * st;
            for (uint32_t w = 0; w < st; w++)
                row[w] &= tmp[w];
            uint32_t nd;
            const int32_t *d = hd_liveness_defs(lv, pc, &nd);
            for (uint32_t k = 0; k < nd; k++)
                if (lv->rclass[d[k]] == c)
                    bit_set(tmp, lv->index[d[k]]);
        }
        for (uint32_t w = 0; w < st; w++) /* tmp is now def_out(b) */
            out[w] &= tmp[w];
    }
}
/* }==== */

/* {==== Divergence unions ==== */
static bool divergent_branch(const struct hd_liveness *lv, uint32_t b)
{
    const struct hd_block *blk = &lv->cfg->blocks[b];
    const struct hd_instr *in = &lv->func->instrs[blk->last];
    if (blk->nsucc < 2)
        return false;
    if (in->op == HD_OP_BRX)
        return true;
    return in->op == HD_OP_BRA && in->guard >= 0 && !(in->flags & HD_F_UNI);
}

static int divergence(struct hd_liveness *lv)
{
    uint32_t nb = lv->nblocks;
    const struct hd_cfg *cfg = lv->cfg;
    uint32_t *mark = calloc(nb, sizeof(uint32_t)), *stack = malloc(nb * sizeof(uint32_t));
    if (!mark || !stack) {
        free(mark), free(stack);
        return -1;
    }
    for (uint32_t d = 0; d < nb; d++) {
        if (!divergent_branch(lv, d))
            continue;
        int32_t r = cfg->blocks[d].ipdom;
        uint32_t sp = 0;
        for (uint32_t s = 0; s < cfg->blocks[d].nsucc; s++) {
            uint32_t b = cfg->blocks[d].succ[s];
            if ((int32_t)b != r && mark[b] != d + 1)
                mark[b] = d + 1, stack[sp++] = b;
        }
        while (sp) {
            uint32_t b = stack[--sp];
            lv->may_diverge[b] = true;
            for (int c = 0; c < HD_RC_COUNT; c++) {
                uint32_t st = lv->stride[c];
                uint64_t *dst = lv->div[c] + (size_t)b * st;
                const uint64_t *o = lv->blk_out[c] + (size_t)d * st;
                const uint64_t *ri = r >= 0 ? lv->in[c] + (size_t)cfg->blocks[r].first * st : NULL;
                for (uint32_t w = 0; w < st; w++)
                    dst[w] |= o[w] | (ri ? ri[w] : 0);
            }
            for (uint32_t s = 0; s < cfg->blocks[b].nsucc; s++) {
                uint32_t x = cfg->blocks[b].succ[s];
                if ((int32_t)x != r && mark[x] != d + 1)
                    mark[x] = d + 1, stack[sp++] = x;
            }
        }
    }
    free(mark), free(stack);
    return 0;
}
/* }==== */

/* {==== Counts ==== */
static uint32_t hd_liveness_row_weight(const struct hd_liveness *lv, enum hd_rclass rc,
                                       const uint64_t *row)
{
    uint32_t sum = 0;
    for (uint32_t w = 0; w < lv->stride[rc]; w++) {
        uint64_t x = row[w];
        if (rc == HD_RC_PRED) {
            sum += (uint32_t)__builtin_popcountll(x);
            continue;
        }
        while (x) {
            uint32_t i = (w << 6) | (uint32_t)__builtin_ctzll(x);
            x &= x - 1;
            sum += lv->words[lv->reg_of[rc][i]];
        }
    }
    return sum;
}

static void counts(struct hd_liveness *lv)
{
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++)
        lv->words_in[pc] = hd_liveness_row_weight(lv, HD_RC_DATA,
                                                  hd_liveness_in_row(lv, pc, HD_RC_DATA));
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        /* words that must be distinct just after pc: live-out plus dead writes */
        const struct hd_block *blk = &lv->cfg->blocks[lv->cfg->block_of[pc]];
        const uint64_t *out = hd_liveness_out_row(lv, pc, HD_RC_DATA);
        uint32_t after = pc == blk->last ? hd_liveness_row_weight(lv, HD_RC_DATA, out)
                                         : lv->words_in[pc + 1];
        uint32_t nd;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd);
        for (uint32_t k = 0; k < nd; k++) {
            bool dup = false;
            for (uint32_t j = 0; j < k; j++)
                dup |= d[j] == d[k];
            if (!dup && lv->rclass[d[k]] == HD_RC_DATA && !bit_test(out, lv->index[d[k]]))
                after += lv->words[d[k]];
        }
        uint32_t w = lv->words_in[pc], m = w > after ? w : after;
        if (m > lv->max_words)
            lv->max_words = m, lv->max_words_pc = pc;
        uint32_t p = lv->stride[HD_RC_PRED] == 1
                         ? (uint32_t)__builtin_popcountll(lv->in[HD_RC_PRED][pc])
                         : hd_liveness_preds_in(lv, pc);
        if (p > lv->max_preds)
            lv->max_preds = p;
    }
}
/* }==== */

/* {==== Build / free ==== */
void hd_liveness_free(struct hd_liveness *lv)
{
    if (!lv)
        return;
    for (int c = 0; c < HD_RC_COUNT; c++) {
        free(lv->reg_of[c]);
        free(lv->in[c]);
        free(lv->blk_out[c]);
        free(lv->div[c]);
    }
    free(lv->rclass), free(lv->words), free(lv->index);
    free(lv->du_off), free(lv->ndefs), free(lv->conditional), free(lv->du_regs);
    free(lv->may_diverge), free(lv->words_in), free(lv->rpo);
    free(lv);
}

static int alloc_results(struct hd_liveness *lv)
{
    size_t ni = lv->ninstrs ? lv->ninstrs : 1, nb = lv->nblocks ? lv->nblocks : 1;
    for (int c = 0; c < HD_RC_COUNT; c++) {
        lv->in[c] = calloc(ni * lv->stride[c], sizeof(uint64_t));
        lv->blk_out[c] = calloc(nb * lv->stride[c], sizeof(uint64_t));
        lv->div[c] = calloc(nb * lv->stride[c], sizeof(uint64_t));
        if (!lv->in[c] || !lv->blk_out[c] || !lv->div[c])
            return -1;
    }
    lv->may_diverge = calloc(nb, sizeof(bool));
    lv->words_in = calloc(ni, sizeof(uint32_t));
    return lv->may_diverge && lv->words_in ? 0 : -1;
}

static int run_class(struct hd_liveness *lv, int c, const uint32_t *rpo)
{
    size_t sz = (size_t)(lv->nblocks ? lv->nblocks : 1) * lv->stride[c];
    struct blocksets bs = { calloc(sz, 8), calloc(sz, 8), calloc(sz, 8), calloc(sz, 8),
                            calloc(sz, 8) };
    uint64_t *tmp = calloc(lv->stride[c], 8);
    int rc = -1;
    if (bs.use && bs.kill && bs.gen && bs.live_in && bs.def_out && tmp) {
        local_sets(lv, c, &bs);
        solve(lv, c, &bs, rpo, tmp);
        per_pc(lv, c, &bs, tmp);
        rc = 0;
    }
    free(bs.use), free(bs.kill), free(bs.gen), free(bs.live_in), free(bs.def_out), free(tmp);
    return rc;
}

struct hd_liveness *hd_liveness_build(const struct hd_func *f, const struct hd_cfg *cfg, char *err,
                                      size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    struct hd_liveness *lv = calloc(1, sizeof(*lv));
    if (!lv)
        goto oom;
    lv->func = f;
    lv->cfg = cfg;
    lv->ninstrs = f->ninstrs;
    lv->nregs = f->nregs;
    lv->nblocks = cfg->nblocks;
    size_t nr = f->nregs ? f->nregs : 1, ni = f->ninstrs + 1;
    lv->rclass = malloc(nr);
    lv->words = calloc(nr, 1);
    lv->index = calloc(nr, sizeof(uint32_t));
    lv->du_off = calloc(ni, sizeof(uint32_t));
    lv->ndefs = calloc(ni, 1);
    lv->conditional = calloc(ni, sizeof(bool));
    if (!lv->rclass || !lv->words || !lv->index || !lv->du_off || !lv->ndefs || !lv->conditional)
        goto oom;
    memset(lv->rclass, HD_RC_NONE, nr);
    if (collect(lv, err, errlen)) {
        if (errlen && err[0])
            goto fail;
        goto oom;
    }
    uint64_t need = 0; /* bit rows per PC and per block (8 per block while solving) */
    for (int c = 0; c < HD_RC_COUNT; c++)
        need += ((uint64_t)lv->ninstrs + 1 + 8ull * lv->nblocks) * lv->stride[c] * 8;
    if (need > HD_LIVENESS_MAX_BYTES) {
        snprintf(err, errlen, "%s: liveness of %u instructions x %u registers would need %llu MiB "
                 "(limit %llu MiB)", f->name ? f->name : "?", lv->ninstrs, lv->nregs,
                 (unsigned long long)(need >> 20),
                 (unsigned long long)(HD_LIVENESS_MAX_BYTES >> 20));
        goto fail;
    }
    if (alloc_results(lv))
        goto oom;
    if (lv->ninstrs && lv->nblocks) {
        lv->rpo = malloc(lv->nblocks * sizeof(uint32_t));
        if (!lv->rpo || block_rpo(cfg, cfg->block_of[0], lv->rpo))
            goto oom;
        if (run_class(lv, HD_RC_DATA, lv->rpo) || run_class(lv, HD_RC_PRED, lv->rpo) ||
            divergence(lv))
            goto oom;
        counts(lv);
    }
    return lv;
oom:
    snprintf(err, errlen, "%s: liveness: out of memory", f->name ? f->name : "?");
fail:
    hd_liveness_free(lv);
    return NULL;
}
/* }==== */

/* {==== Queries ==== */
const uint64_t *hd_liveness_in_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc)
{
    return lv->in[rc] + (size_t)pc * lv->stride[rc];
}

const uint64_t *hd_liveness_out_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc)
{
    uint32_t b = lv->cfg->block_of[pc];
    if (pc == lv->cfg->blocks[b].last)
        return lv->blk_out[rc] + (size_t)b * lv->stride[rc];
    return lv->in[rc] + (size_t)(pc + 1) * lv->stride[rc];
}

bool hd_liveness_live_in(const struct hd_liveness *lv, uint32_t pc, uint32_t reg)
{
    if (!hd_liveness_tracked(lv, reg))
        return false;
    enum hd_rclass rc = hd_liveness_class(lv, reg);
    return bit_test(hd_liveness_in_row(lv, pc, rc), lv->index[reg]);
}

bool hd_liveness_live_out(const struct hd_liveness *lv, uint32_t pc, uint32_t reg)
{
    if (!hd_liveness_tracked(lv, reg))
        return false;
    enum hd_rclass rc = hd_liveness_class(lv, reg);
    return bit_test(hd_liveness_out_row(lv, pc, rc), lv->index[reg]);
}

uint32_t hd_liveness_words_in(const struct hd_liveness *lv, uint32_t pc)
{
    return lv->words_in[pc];
}

uint32_t hd_liveness_words_out(const struct hd_liveness *lv, uint32_t pc)
{
    return hd_liveness_row_weight(lv, HD_RC_DATA, hd_liveness_out_row(lv, pc, HD_RC_DATA));
}

uint32_t hd_liveness_preds_in(const struct hd_liveness *lv, uint32_t pc)
{
    return hd_liveness_row_weight(lv, HD_RC_PRED, hd_liveness_in_row(lv, pc, HD_RC_PRED));
}

bool hd_liveness_may_diverge(const struct hd_liveness *lv, uint32_t pc)
{
    return lv->may_diverge[lv->cfg->block_of[pc]];
}

void hd_liveness_divergent_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc,
                               uint64_t *out)
{
    uint32_t st = lv->stride[rc];
    const uint64_t *in = hd_liveness_in_row(lv, pc, rc);
    const uint64_t *dv = lv->div[rc] + (size_t)lv->cfg->block_of[pc] * st;
    for (uint32_t w = 0; w < st; w++)
        out[w] = in[w] | dv[w];
}

uint32_t hd_liveness_divergent_words(const struct hd_liveness *lv, uint32_t pc)
{
    uint32_t st = lv->stride[HD_RC_DATA];
    uint64_t stackbuf[64], *row = st <= 64 ? stackbuf : malloc(st * sizeof(uint64_t));
    if (!row)
        return 0;
    hd_liveness_divergent_row(lv, pc, HD_RC_DATA, row);
    uint32_t w = hd_liveness_row_weight(lv, HD_RC_DATA, row);
    if (row != stackbuf)
        free(row);
    return w;
}
/* }==== */
