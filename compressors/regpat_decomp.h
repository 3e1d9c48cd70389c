/* SPDX-License-Identifier: MIT
 * regpat_decomp.h - bit-exact, cycle-exact C reference of the warp-level register decompressor
 * (Lin thesis §2.3.3: "the value is duplicated PAG times" / "every following register adds the
 * stride value to the former one"; RTL rtl/regpat_decomp/regpat_decomp.sv).
 *
 * What it computes: lane i (group g = i / PAG, k = i mod PAG) = base[g] + k * stride[g] (mod
 * 2^32) when strided, base[g] when uniform (the stride input is ignored), the raw lane when
 * random (the bypass), 0 when dead. The closed form equals Lin's running sum lane_k = lane_{k-1}
 * + stride. Groups beyond 32/PAG do not exist, so base/stride words g >= 32/PAG are ignored.
 *
 * Timing: latency 1, one register per cycle; the output is registered and 0 when valid_o is 0.
 * Interface: rtl/regpat_decomp/regpat_decomp_ports.def.
 */
#ifndef HD_REGPAT_DECOMP_H
#define HD_REGPAT_DECOMP_H

#include "hd_block.h"
#include "regpat_comp.h"

#define HD_PORTS_DEF "regpat_decomp_ports.def"
#define HD_PORTS_DIR IN
struct hd_regpat_decomp_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_regpat_decomp_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_regpat_decomp_block;

/* The combinational function (valid_o = valid_i). Pure. */
void hd_regpat_decomp_eval(const struct hd_regpat_decomp_in *in, struct hd_regpat_decomp_out *out);

struct hd_regpat_decomp_state {
    struct hd_regpat_decomp_out q; /* the output register */
    uint64_t cycle;
};

void hd_regpat_decomp_ref_reset(struct hd_regpat_decomp_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_regpat_decomp_ref_step(struct hd_regpat_decomp_state *s,
                               const struct hd_regpat_decomp_in *in,
                               struct hd_regpat_decomp_out *out);
/* Idle (hw_inst.h): no input and nothing in the output register. */
bool hd_regpat_decomp_ref_idle(const struct hd_regpat_decomp_state *s,
                               const struct hd_regpat_decomp_in *in);

#endif
