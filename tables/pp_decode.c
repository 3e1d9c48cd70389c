/* SPDX-License-Identifier: MIT
 * pp_decode.c - the preemption-point instruction decoder's C reference (pp_decode.h; Lin thesis
 * §2.5, digest §3.2).
 *
 * Design: one output register, as in the RTL; the decode is a compare of the 10-bit opcode with
 * three constants and a population count of the vector.
 */
#include "pp_decode.h"

#include <string.h>

#define HD_PORTS_DEF "pp_decode_ports.def"
#define HD_PORTS_IN_T struct hd_pp_decode_in
#define HD_PORTS_OUT_T struct hd_pp_decode_out
#define HD_PORTS_BLOCK_VAR hd_pp_decode_block
#include "hd_ports_table.h"

/* The combinational function: what the output register takes for input `in`. Pure. */
static void hd_pp_decode_eval(const struct hd_pp_decode_in *in, struct hd_pp_decode_out *out)
{
    memset(out, 0, sizeof *out);
    if (!(in->valid_i & 1u))
        return;
    out->valid_o = 1;
    const unsigned op = (unsigned)(in->inst_i >> HD_PPDEC_OP_SHIFT) & 0x3FFu;
    out->is_pp_o = op == HD_PPDEC_OP_PP;
    out->is_dummy_o = op == HD_PPDEC_OP_DUMMY;
    out->is_barpp_o = op == HD_PPDEC_OP_BARPP;
    if (!(out->is_pp_o | out->is_dummy_o | out->is_barpp_o))
        return;
    const uint64_t vec = in->inst_i & HD_PPDEC_VEC_MASK;
    out->live_o = vec;
    out->nregs_o = (uint64_t)__builtin_popcountll(vec & ((1ull << HD_PPDEC_HIGH_BIT) - 1)) +
                   ((vec >> HD_PPDEC_HIGH_BIT & 1u) ? 11u : 0u);
}

void hd_pp_decode_ref_reset(struct hd_pp_decode_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_pp_decode_block, HD_DIR_OUT, &s->q);
}

void hd_pp_decode_ref_step(struct hd_pp_decode_state *s, const struct hd_pp_decode_in *in,
                           struct hd_pp_decode_out *out)
{
    *out = s->q;
    struct hd_pp_decode_in c = *in;
    hd_block_clamp(&hd_pp_decode_block, HD_DIR_IN, &c);
    hd_pp_decode_eval(&c, &s->q);
    s->cycle++;
}

bool hd_pp_decode_ref_idle(const struct hd_pp_decode_state *s, const struct hd_pp_decode_in *in)
{
    return !(in->valid_i & 1u) && !(s->q.valid_o & 1u);
}
