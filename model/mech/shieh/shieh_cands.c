/* SPDX-License-Identifier: MIT
 * shieh_cands.c - allocation alignment, candidate victim sets and placement (shieh_cands.h).
 */
#include "shieh_cands.h"

uint32_t hd_shieh_positions(const struct hd_shieh_footprint *f, uint32_t rf_cap, uint64_t smem_cap,
                            uint32_t kmax)
{
    if (f->regs == 0 && f->smem == 0)
        return 0;
    uint64_t k = kmax < HD_SHIEH_MAX_POS ? kmax : HD_SHIEH_MAX_POS;
    if (f->regs > 0 && rf_cap / f->regs < k)
        k = rf_cap / f->regs;
    if (f->smem > 0 && smem_cap / f->smem < k)
        k = smem_cap / f->smem;
    return (uint32_t)k;
}

/* Do [a, a + an) and [b, b + bn) share an address? (Empty ranges share none.) */
static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return an > 0 && bn > 0 && a < b + bn && b < a + an;
}

void hd_shieh_candidates(const struct hd_shieh_footprint *f, uint32_t k,
                         const struct hd_shieh_range *tbs, uint32_t ntbs, uint64_t issued,
                         uint64_t *cand, uint64_t *valid)
{
    *valid = 0;
    if (ntbs > HD_SHIEH_MAX_TBS)
        ntbs = HD_SHIEH_MAX_TBS;
    for (uint32_t p = 0; p < k && p < HD_SHIEH_MAX_POS; p++) {
        cand[p] = 0;
        if ((issued >> p) & 1u)
            continue;
        *valid |= (uint64_t)1 << p;
        uint64_t rb = (uint64_t)p * f->regs, sb = (uint64_t)p * f->smem;
        for (uint32_t j = 0; j < ntbs; j++) {
            const struct hd_shieh_range *t = &tbs[j];
            if (t->valid && (overlap(rb, f->regs, t->reg_base, t->regs) ||
                             overlap(sb, f->smem, t->smem_base, t->smem)))
                cand[p] |= (uint64_t)1 << j;
        }
    }
}

int hd_shieh_place(const uint64_t *cand, uint64_t valid, uint64_t issued, uint64_t free_pos,
                   uint32_t k)
{
    for (uint32_t p = 0; p < k && p < HD_SHIEH_MAX_POS; p++)
        if (((valid & ~issued & free_pos) >> p) & 1u && cand[p] == 0)
            return (int)p;
    return -1;
}

void hd_shieh_bits_str(uint64_t bits, unsigned n, char *buf)
{
    for (unsigned j = 0; j < n; j++)
        buf[j] = (bits >> j) & 1u ? '1' : '0';
    buf[n] = '\0';
}
