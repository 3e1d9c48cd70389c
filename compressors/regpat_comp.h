/* SPDX-License-Identifier: MIT
 * regpat_comp.h - bit-exact, cycle-exact C reference of the warp-level register pattern
 * compressor (Lin thesis §2.3.3, Fig 2.10; RTL rtl/regpat_comp/regpat_comp.sv).
 *
 * What it computes for one vector register (32 lanes of 32 bits), per pattern analyzing group
 * (PAG = 8, 16 or 32 lanes; group g holds lanes [g*PAG, (g+1)*PAG)):
 *   - the PAG-1 differences d_i = v_{i+1} - v_i (mod 2^32) inside the group;
 *   - a = (first difference d_0 != 0), b = (all differences equal);
 *   - the group pattern {a,b}: 01 uniform, 11 strided, 00 or 10 random.
 * The register's pattern: uniform if every group is uniform, strided if every group has b = 1
 * (uniform groups store stride 0), else random; dead (code 00) when the register is not live.
 * Random is reported as the canonical code 10, which frees 00 for dead: the 2-bit code is the
 * per-register entry of Lin's pattern vector (Fig 2.12). Polarity: the thesis text says a "shows
 * whether the difference is 0" but its codes (01 uniform, 11 strided) only decode if a = 1 means
 * the first difference is NON-zero; that reading is the one implemented (docs/blocks/regpat.md).
 * Outputs: base word g = lane g*PAG, stride word g = d at the group's first lane, for g < 32/PAG
 * (stride only when strided; both 0 when random or dead), and the words stored: dead 0, uniform
 * 32/PAG, strided 2*32/PAG, random 32.
 *
 * Timing: fully pipelined, one register per cycle, latency 2 (Lin's assumption, after [Lee15a]):
 * an input presented in cycle t appears on the outputs in cycle t+2. Every output is registered
 * and is 0 in a cycle whose valid_o is 0. The step function models one clock cycle: it returns
 * the outputs during the cycle, then takes the rising edge with the inputs of the cycle.
 * Interface: rtl/regpat_comp/regpat_comp_ports.def (the structs below are generated from it).
 */
#ifndef HD_REGPAT_COMP_H
#define HD_REGPAT_COMP_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_REGPAT_LANES 32
#define HD_REGPAT_MAX_GROUPS 4 /* 32 lanes / minimum PAG 8 */

/* Pattern codes {a,b}. */
enum hd_regpat_code {
    HD_REGPAT_DEAD = 0,    /* 00: not live (00 is also a raw random code inside the compressor) */
    HD_REGPAT_UNIFORM = 1, /* 01 */
    HD_REGPAT_RANDOM = 2,  /* 10 */
    HD_REGPAT_STRIDED = 3  /* 11 */
};

/* PAG select (the pag_i port). */
enum hd_regpat_pag { HD_REGPAT_PAG8 = 0, HD_REGPAT_PAG16 = 1, HD_REGPAT_PAG32 = 2 };

#define HD_PORTS_DEF "regpat_comp_ports.def"
#define HD_PORTS_DIR IN
struct hd_regpat_comp_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_regpat_comp_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_regpat_comp_block;

/* Lanes of a PAG select (3 counts as 32). */
unsigned hd_regpat_pag_lanes(unsigned pag_sel);
/* The PAG select for a CTA of shape block[3]: the largest power of two that divides blockDim.x,
 * clamped to 8..32 (so PAG = min(32, blockDim.x) for the power-of-two shapes of Lin's
 * benchmarks, and every group boundary falls on a row boundary where the row length allows). */
unsigned hd_regpat_pag_for_block(const uint32_t block[3]);
/* Human name of a pattern code: "dead", "uniform", "random", "strided". */
const char *hd_regpat_code_name(unsigned code);

/* The combinational function of the block: what the output register takes for input `in`
 * (valid_o = valid_i). Pure; the model's own analyses use it directly. */
void hd_regpat_comp_eval(const struct hd_regpat_comp_in *in, struct hd_regpat_comp_out *out);

struct hd_regpat_comp_state {
    struct hd_regpat_comp_in s1;   /* stage 1: the register captured at the first edge */
    struct hd_regpat_comp_out q;   /* stage 2: the output register */
    uint64_t cycle;
};

/* Asynchronous reset: every register to its reset value. */
void hd_regpat_comp_ref_reset(struct hd_regpat_comp_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_regpat_comp_ref_step(struct hd_regpat_comp_state *s, const struct hd_regpat_comp_in *in,
                             struct hd_regpat_comp_out *out);
/* Would a step with *in change nothing and give all-zero outputs (hw_inst.h's idle contract)?
 * True when neither the input nor a pipeline stage holds a register. */
bool hd_regpat_comp_ref_idle(const struct hd_regpat_comp_state *s, const struct hd_regpat_comp_in *in);

#endif
