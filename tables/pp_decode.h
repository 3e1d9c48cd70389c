/* SPDX-License-Identifier: MIT
 * pp_decode.h - bit-exact, cycle-exact C reference of the decoder of Lin's preemption-point
 * instructions (thesis §2.5, digest §3.2; RTL rtl/pp_decode/pp_decode.sv), and their encoding.
 *
 * The instructions (Fermi-style 64-bit words): opcode in bits [63:54], a 54-bit liveness vector
 * in bits [53:0] (bit i < 53: physical register R_i is live; bit 53: some register >= R53 is
 * live, so the save path reads R53..R63). Three opcodes (the thesis gives none: project choice):
 *   pp      0x3F0  a NOP while no preemption is pending; a preempted warp stops in front of the
 *                  instruction that follows it; its vector = live_in at that instruction;
 *   dummy   0x3F1  follows every pp; its vector = the divergence-aware union (used when the
 *                  warp's SIMT stack shows divergence);
 *   bar.pp  0x3F2  a barrier that is also a point; its vector = live_in at the barrier.
 * Any other opcode decodes as "not a point" (every output 0 except valid_o).
 * For one word the block outputs is_pp / is_dummy / is_barpp, the vector (0 for other words)
 * and nregs: the registers the vector makes the save path read, popcount(bits [52:0]) + 11
 * when bit 53 is set (R53..R63; at most 64 registers per thread, §2.3).
 *
 * Timing: one word per cycle, fully pipelined, latency 1: a word presented in cycle t is decoded
 * on the outputs in cycle t+1; every output is registered and 0 in a cycle whose valid_o is 0.
 * The step function models one clock cycle: it returns the outputs during the cycle, then takes
 * the rising edge with the inputs of the cycle. Interface: rtl/pp_decode/pp_decode_ports.def.
 */
#ifndef HD_PP_DECODE_H
#define HD_PP_DECODE_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PPDEC_OP_SHIFT 54u
#define HD_PPDEC_VEC_MASK ((1ull << 54) - 1)
#define HD_PPDEC_HIGH_BIT 53u
enum hd_ppdec_op { HD_PPDEC_OP_PP = 0x3F0, HD_PPDEC_OP_DUMMY = 0x3F1, HD_PPDEC_OP_BARPP = 0x3F2 };

#define HD_PORTS_DEF "pp_decode_ports.def"
#define HD_PORTS_DIR IN
struct hd_pp_decode_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_pp_decode_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_pp_decode_block;

/* The 64-bit word of opcode op (enum hd_ppdec_op) with liveness vector vec (bits above 53
 * dropped). */
static inline uint64_t hd_pp_encode(unsigned op, uint64_t vec)
{
    return (uint64_t)(op & 0x3FFu) << HD_PPDEC_OP_SHIFT | (vec & HD_PPDEC_VEC_MASK);
}

struct hd_pp_decode_state {
    struct hd_pp_decode_out q; /* the output register */
    uint64_t cycle;
};

/* Asynchronous reset: every register to its reset value. */
void hd_pp_decode_ref_reset(struct hd_pp_decode_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_pp_decode_ref_step(struct hd_pp_decode_state *s, const struct hd_pp_decode_in *in,
                           struct hd_pp_decode_out *out);
/* Would a step with *in change nothing and give all-zero outputs (hw_inst.h)? */
bool hd_pp_decode_ref_idle(const struct hd_pp_decode_state *s, const struct hd_pp_decode_in *in);

#endif
