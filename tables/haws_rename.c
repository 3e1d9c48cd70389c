/* SPDX-License-Identifier: MIT
 * haws_rename.c - the HAWS register renaming table's C reference (haws_rename.h).
 *
 * Design: the fields mirror the RTL's flops one for one; the lookups see the table before the
 * edge, then the clear or the write applies.
 */
#include "haws_rename.h"

#include <string.h>

#define HD_PORTS_DEF "haws_rename_ports.def"
#define HD_PORTS_IN_T struct hd_haws_rename_in
#define HD_PORTS_OUT_T struct hd_haws_rename_out
#define HD_PORTS_BLOCK_VAR hd_haws_rename_block
#include "hd_ports_table.h"

#define N HD_HAWS_RENAME_N
#define RW HAWS_RENAME_REGW
#define NW HAWS_RENAME_NEWW
#define RMASK (((uint64_t)1 << RW) - 1u)
#define NMASK (((uint64_t)1 << NW) - 1u)

void hd_haws_rename_ref_reset(struct hd_haws_rename_state *s)
{
    memset(s, 0, sizeof *s);
}

void hd_haws_rename_ref_step(struct hd_haws_rename_state *s, const struct hd_haws_rename_in *in,
                             struct hd_haws_rename_out *out)
{
    memset(out, 0, sizeof *out);
    out->rd_hit_o = s->rd_hit;
    out->rd_new_o = s->rd_new;
    out->ovf_o = s->ovf;
    s->cycle++;
    for (uint32_t e = 0; e < N; e++)
        out->count_o += s->val[e];
    /* the lookups (the last matching entry wins, as the RTL's loop; a register is mapped once) */
    uint64_t hit = 0, loc = 0;
    for (uint32_t k = 0; k < HAWS_RENAME_NSRC; k++) {
        const uint32_t src = (uint32_t)(in->rd_src_i >> (k * RW) & RMASK);
        if (!(in->rd_v_i >> k & 1u))
            continue;
        for (uint32_t e = 0; e < N; e++)
            if (s->val[e] && s->orig[e] == src) {
                hit |= 1ull << k;
                loc = (loc & ~(NMASK << (k * NW))) | (uint64_t)s->loc[e] << (k * NW);
            }
    }
    s->rd_hit = hit;
    s->rd_new = loc;
    const bool clr = in->clr_i & 1u, wr = in->wr_v_i & 1u;
    const uint32_t orig = (uint32_t)(in->wr_orig_i & RMASK);
    int match = -1, freee = -1;
    for (uint32_t e = 0; e < N; e++) {
        if (s->val[e] && s->orig[e] == orig)
            match = (int)e;
        if (!s->val[e] && freee < 0)
            freee = (int)e;
    }
    s->ovf = wr && !clr && match < 0 && freee < 0;
    if (clr) {
        memset(s->val, 0, sizeof s->val);
        return;
    }
    if (wr && (match >= 0 || freee >= 0)) {
        const uint32_t e = (uint32_t)(match >= 0 ? match : freee);
        s->orig[e] = orig;
        s->loc[e] = (uint32_t)(in->wr_new_i & NMASK);
        s->val[e] = true;
    }
}

bool hd_haws_rename_ref_idle(const struct hd_haws_rename_state *s,
                             const struct hd_haws_rename_in *in)
{
    bool any = false;
    for (uint32_t e = 0; e < N; e++)
        any |= s->val[e];
    return !any && !s->rd_hit && !s->rd_new && !s->ovf && !(in->wr_v_i & 1u) &&
           !(in->clr_i & 1u) && !(in->rd_v_i & ((1u << HAWS_RENAME_NSRC) - 1u));
}
