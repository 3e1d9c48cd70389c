/* SPDX-License-Identifier: MIT
 * zz_probe.c - the C reference of tests/blockadd's throwaway block (zz_probe.h).
 */
#include "zz_probe.h"

#include <string.h>

#define HD_PORTS_DEF "zz_probe_ports.def"
#define HD_PORTS_IN_T struct hd_zz_probe_in
#define HD_PORTS_OUT_T struct hd_zz_probe_out
#define HD_PORTS_BLOCK_VAR hd_zz_probe_block
#include "hd_ports_table.h"

void hd_zz_probe_ref_reset(struct hd_zz_probe_state *s)
{
    memset(s, 0, sizeof *s);
}

void hd_zz_probe_ref_step(struct hd_zz_probe_state *s, const struct hd_zz_probe_in *in,
                          struct hd_zz_probe_out *out)
{
    memset(out, 0, sizeof *out);
    out->sum_o = s->sum;
    out->last_o = s->seen ? s->last : 0;
    if (in->valid_i) {
        uint32_t next = s->sum + (in->data_i & 0xffu);
        s->sum = next > 0xffffu ? 0xffffu : next;
        s->last = in->data_i & 0xffu;
        s->seen = true;
    }
}

bool hd_zz_probe_ref_idle(const struct hd_zz_probe_state *s, const struct hd_zz_probe_in *in)
{
    (void)s;
    return !in->valid_i;
}
