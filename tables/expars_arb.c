/* SPDX-License-Identifier: MIT
 * expars_arb.c - the C reference of EXPARS's bank arbitrator (expars_arb.h; Yu et al. §3.3.5;
 * digest §2.7): routing of a register word and the scratchpad banks' arbitration.
 */
#include "expars_arb.h"

#include <string.h>

#define HD_PORTS_DEF "expars_arb_ports.def"
#define HD_PORTS_IN_T struct hd_expars_arb_in
#define HD_PORTS_OUT_T struct hd_expars_arb_out
#define HD_PORTS_BLOCK_VAR hd_expars_arb_block
#include "hd_ports_table.h"

#define NMASK ((uint32_t)((1ull << EXPARS_ARB_NW) - 1u))
#define LMASK ((1u << EXPARS_ARB_LW) - 1u)
#define GMASK ((1u << EXPARS_ARB_GW) - 1u)
#define RMASK ((1u << EXPARS_ARB_RW) - 1u)

void hd_expars_arb_ref_reset(struct hd_expars_arb_state *s)
{
    memset(s, 0, sizeof *s);
}

/* Are the banks busy at cycle now: a booking whose first free cycle is after now (modulo 2^NW,
 * next - now as a signed NW-bit number)? */
static bool busy(const struct hd_expars_arb_state *s, uint32_t now)
{
    const uint32_t d = (s->next - now) & NMASK;
    return s->live && d != 0 && !(d >> (EXPARS_ARB_NW - 1));
}

void hd_expars_arb_ref_step(struct hd_expars_arb_state *s, const struct hd_expars_arb_in *in,
                            struct hd_expars_arb_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (!(in->op_v_i & 1u))
        return;
    struct hd_expars_arb_out *q = &s->q;
    q->res_v_o = 1;
    const uint32_t now = (uint32_t)in->now_i & NMASK;
    const unsigned op = (unsigned)(in->op_i & 3u);
    if (op == HD_EXPARS_ARB_SRC || op == HD_EXPARS_ARB_DST) {
        const bool spm = in->spm_i & 1u, miss = spm && !(in->hit_i & 1u);
        const bool dirty = in->vic_dirty_i & 1u;
        q->oc_o = spm;
        q->bank_o = spm ? ((uint32_t)in->reg_i & RMASK) % EXPARS_ARB_Banks : 0;
        if (op == HD_EXPARS_ARB_SRC) {
            q->spad_o = miss;
            q->lat_o = miss ? ((uint32_t)in->lat_i & LMASK) + dirty : 0;
        } else {
            q->spad_o = miss && dirty;
        }
    } else if (op == HD_EXPARS_ARB_PASS) {
        q->grant_o = !busy(s, now);
        if (q->grant_o) {
            s->next = (now + 1u) & NMASK;
            s->live = true;
        }
    } else {
        const uint32_t start = busy(s, now) ? s->next : now;
        q->wait_o = (start - now) & NMASK;
        s->next = (start + ((uint32_t)in->degree_i & GMASK)) & NMASK;
        s->live = true;
    }
}

bool hd_expars_arb_ref_idle(const struct hd_expars_arb_state *s,
                            const struct hd_expars_arb_in *in)
{
    return !(in->op_v_i & 1u) && !(s->q.res_v_o & 1u);
}
