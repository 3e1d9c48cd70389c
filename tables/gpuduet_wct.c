/* SPDX-License-Identifier: MIT
 * gpuduet_wct.c - the Warp Context Table's C reference (gpuduet_wct.h).
 *
 * Design: the entries mirror the RTL's flops one for one; one edge applies finish, launch, stall,
 * memory response and CSL write in the ports.def's order.
 */
#include "gpuduet_wct.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_wct_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_wct_in
#define HD_PORTS_OUT_T struct hd_gpuduet_wct_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_wct_block
#include "hd_ports_table.h"

#define WID_MASK (((uint64_t)1 << GPUDUET_WCT_WW) - 1u)
#define ADDR_MASK (((uint64_t)1 << GPUDUET_WCT_AW) - 1u)

bool hd_gpuduet_wct_present(uint64_t addr)
{
    return addr < GPUDUET_WCT_RfUnits;
}

const char *hd_gpuduet_wct_state_name(unsigned state)
{
    static const char *const names[] = {"running", "stalled", "absent", "ready"};
    return state < 4 ? names[state] : "?";
}

void hd_gpuduet_wct_ref_reset(struct hd_gpuduet_wct_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_gpuduet_wct_block, HD_DIR_OUT, &s->q);
}

/* The entry a valid port names, or NULL (id past NW). */
static struct hd_gpuduet_wct_entry *entry(struct hd_gpuduet_wct_state *s, uint64_t v, uint64_t wid)
{
    wid &= WID_MASK;
    return (v & 1u) && wid < HD_WCT_N ? &s->e[wid] : NULL;
}

void hd_gpuduet_wct_ref_step(struct hd_gpuduet_wct_state *s, const struct hd_gpuduet_wct_in *in,
                             struct hd_gpuduet_wct_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    struct hd_gpuduet_wct_entry *e = entry(s, in->fin_v_i, in->fin_wid_i);
    if (e)
        memset(e, 0, sizeof *e);
    e = entry(s, in->ld_v_i, in->ld_wid_i);
    if (e) {
        e->valid = 1;
        e->state = (uint8_t)(in->ld_state_i & 3u);
        e->reg = (uint16_t)(in->ld_reg_i & ADDR_MASK);
        e->meta = (uint16_t)(in->ld_meta_i & ADDR_MASK);
    }
    e = entry(s, in->st_v_i, in->st_wid_i);
    if (e && e->valid && e->state == HD_WCT_RUNNING)
        e->state = HD_WCT_STALLED;
    e = entry(s, in->mr_v_i, in->mr_wid_i);
    if (e && e->valid) {
        if (e->state == HD_WCT_ABSENT)
            e->state = HD_WCT_READY;
        else if (e->state == HD_WCT_STALLED)
            e->state = HD_WCT_RUNNING;
    }
    e = entry(s, in->csl_v_i, in->csl_wid_i);
    if (e && e->valid) {
        e->state = (uint8_t)(in->csl_state_i & 3u);
        e->reg = (uint16_t)(in->csl_reg_i & ADDR_MASK);
        e->meta = (uint16_t)(in->csl_meta_i & ADDR_MASK);
    }
    if (!(in->rd_v_i & 1u))
        return;
    s->q.rd_v_o = 1;
    e = entry(s, 1, in->rd_wid_i);
    if (e && e->valid) {
        s->q.rd_valid_o = 1;
        s->q.rd_state_o = e->state;
        s->q.rd_reg_o = e->reg;
        s->q.rd_meta_o = e->meta;
    }
    for (unsigned j = 0; j < HD_WCT_N; j++) {
        const struct hd_gpuduet_wct_entry *x = &s->e[j];
        if (!x->valid)
            continue;
        s->q.rd_nvalid_o++;
        uint32_t bit = (uint32_t)1 << (j % 32);
        if (x->state == HD_WCT_RUNNING && hd_gpuduet_wct_present(x->reg) &&
            hd_gpuduet_wct_present(x->meta))
            s->q.rd_sched_o[j / 32] |= bit;
        if (x->state == HD_WCT_STALLED)
            s->q.rd_stalled_o[j / 32] |= bit;
        if (x->state == HD_WCT_READY)
            s->q.rd_ready_o[j / 32] |= bit;
    }
}

bool hd_gpuduet_wct_ref_idle(const struct hd_gpuduet_wct_state *s,
                             const struct hd_gpuduet_wct_in *in)
{
    return !((in->fin_v_i | in->ld_v_i | in->st_v_i | in->mr_v_i | in->csl_v_i | in->rd_v_i) & 1u) &&
           !(s->q.rd_v_o & 1u);
}
