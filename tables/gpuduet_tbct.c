/* SPDX-License-Identifier: MIT
 * gpuduet_tbct.c - the TB Context Table's C reference (gpuduet_tbct.h).
 *
 * Design: the entries mirror the RTL's flops one for one; one edge applies finish, launch, TB
 * move and warp move in the ports.def's order.
 */
#include "gpuduet_tbct.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_tbct_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_tbct_in
#define HD_PORTS_OUT_T struct hd_gpuduet_tbct_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_tbct_block
#include "hd_ports_table.h"

#define TB_MASK (((uint64_t)1 << GPUDUET_TBCT_TW) - 1u)
#define WARP_MASK (((uint64_t)1 << GPUDUET_TBCT_WTW) - 1u)
#define ABS_MASK (HD_TBCT_NWT == 64 ? ~(uint64_t)0 : (((uint64_t)1 << HD_TBCT_NWT) - 1u))
#define ADDR_MASK (((uint64_t)1 << GPUDUET_TBCT_AW) - 1u)

bool hd_gpuduet_tbct_smem_present(uint64_t addr)
{
    return addr >= GPUDUET_TBCT_SmemLo && addr < GPUDUET_TBCT_SmemHi;
}

void hd_gpuduet_tbct_ref_reset(struct hd_gpuduet_tbct_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_gpuduet_tbct_block, HD_DIR_OUT, &s->q);
}

/* The entry a valid port names, or NULL (id past NT). */
static struct hd_gpuduet_tbct_entry *entry(struct hd_gpuduet_tbct_state *s, uint64_t v, uint64_t tb)
{
    tb &= TB_MASK;
    return (v & 1u) && tb < HD_TBCT_N ? &s->e[tb] : NULL;
}

void hd_gpuduet_tbct_ref_step(struct hd_gpuduet_tbct_state *s, const struct hd_gpuduet_tbct_in *in,
                              struct hd_gpuduet_tbct_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    struct hd_gpuduet_tbct_entry *e = entry(s, in->fin_v_i, in->fin_tb_i);
    if (e)
        memset(e, 0, sizeof *e);
    e = entry(s, in->ld_v_i, in->ld_tb_i);
    if (e) {
        e->valid = 1;
        e->abs = in->ld_abs_i & ABS_MASK;
        e->smem = (uint32_t)(in->ld_smem_i & ADDR_MASK);
    }
    e = entry(s, in->tm_v_i, in->tm_tb_i);
    if (e && e->valid) {
        e->abs = in->tm_abs_i & ABS_MASK;
        e->smem = (uint32_t)(in->tm_smem_i & ADDR_MASK);
    }
    e = entry(s, in->wm_v_i, in->wm_tb_i);
    uint64_t k = in->wm_warp_i & WARP_MASK;
    if (e && e->valid && k < HD_TBCT_NWT) {
        if (in->wm_abs_i & 1u)
            e->abs |= (uint64_t)1 << k;
        else
            e->abs &= ~((uint64_t)1 << k);
    }
    if (!(in->rd_v_i & 1u))
        return;
    s->q.rd_v_o = 1;
    e = entry(s, 1, in->rd_tb_i);
    if (e && e->valid) {
        s->q.rd_valid_o = 1;
        s->q.rd_abs_o = e->abs;
        s->q.rd_smem_o = e->smem;
    }
    for (unsigned t = 0; t < HD_TBCT_N; t++) { /* s->e[t] indexed directly: UBSan checks t */
        if (!s->e[t].valid)
            continue;
        s->q.rd_valids_o |= (uint64_t)1 << t;
        s->q.rd_smemp_o |= (uint64_t)hd_gpuduet_tbct_smem_present(s->e[t].smem) << t;
        s->q.rd_whole_o |= (uint64_t)(s->e[t].abs == 0) << t;
    }
}

bool hd_gpuduet_tbct_ref_idle(const struct hd_gpuduet_tbct_state *s,
                              const struct hd_gpuduet_tbct_in *in)
{
    return !((in->fin_v_i | in->ld_v_i | in->tm_v_i | in->wm_v_i | in->rd_v_i) & 1u) &&
           !(s->q.rd_v_o & 1u);
}
