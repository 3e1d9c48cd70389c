/* SPDX-License-Identifier: MIT
 * expars_arb.h - bit-exact, cycle-exact C reference of EXPARS's bank arbitrator (Yu et al. TACO
 * 2018 §3.3.5, Fig. 9; digest ../shared/reference/papers/expars.md §2.7, §8 item 4; RTL
 * rtl/expars_arb/expars_arb.sv), one per SM.
 *
 * What it decides. The baseline BA queues each register read per RF bank; EXPARS adds the
 * judgement (the RAT block's, tables/expars_rat.h: mix CTA and Reg >= Start_Reg, the corrected
 * rule) and sends a word judged in the scratchpad to its operand-cache bank (Reg mod Banks,
 * Reg[1:0] for the paper's 4 banks) instead. Given the judgement and the tag array's answer
 * (tables/expars_oc_tags.h), this block routes the word (model/mech/expars/expars_oloc.c):
 *   SRC  a source word: the RF, or its OC bank; on a miss a fill through a scratchpad pass that
 *        lands lat_i cycles later, one more when the line's victim is dirty (its write-back
 *        takes a pass first);
 *   DST  a destination word: the RF, or its OC line (a hit, or a miss allocating a clean or
 *        empty line); a miss over a dirty line makes the write a scratchpad pass (the write-back).
 * And it arbitrates the scratchpad's banks, which register passes share with ld/st.shared
 * (§2.7; the substrate's rule, model/timing/sm_oloc_port.c, docs/oloc.md "One scratchpad"). It
 * holds the banks' first free cycle `next` (NW bits, modulo 2^NW; `live` = a booking was made):
 *   PASS    a register read, fill or write-back at now: granted iff the banks are free
 *           (next <= now), and then taken for that cycle (next = now + 1);
 *   SHARED  an ld/st.shared of degree d dispatched at now: it starts at max(now, next) and holds
 *           the banks d cycles (next = start + d); the answer is its wait, start - now.
 * Cycles are compared modulo 2^NW (next - now as a signed NW-bit number): a request more than
 * 2^(NW-1) cycles after the last booking would alias (2^31 cycles at NW = 32).
 * Within a model cycle the requests come in the substrate's priority order (writebacks, then
 * ld/st.shared dispatch, then collector reads and fills), one per edge.
 *
 * One request per edge (op_v_i, op_i); its answer is registered one cycle later, 0 after an edge
 * without a request. Storage: 1 + NW flops of state (33 at [default]) and the registered
 * answer. Interface: rtl/expars_arb/expars_arb_ports.def.
 */
#ifndef HD_EXPARS_ARB_H
#define HD_EXPARS_ARB_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_arb_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_arb_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_arb_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus
_Static_assert(EXPARS_ARB_Banks >= 1 && (EXPARS_ARB_Banks & (EXPARS_ARB_Banks - 1)) == 0 &&
                   EXPARS_ARB_Banks <= (1 << EXPARS_ARB_BW),
               "expars_arb: Banks a power of two that fits BW bits");
_Static_assert(EXPARS_ARB_RW <= 16 && EXPARS_ARB_LW <= 8 && EXPARS_ARB_NW >= 8 &&
                   EXPARS_ARB_NW <= 32 && EXPARS_ARB_GW <= 8,
               "expars_arb: widths");
#endif

enum hd_expars_arb_op { HD_EXPARS_ARB_SRC, HD_EXPARS_ARB_DST, HD_EXPARS_ARB_PASS,
                        HD_EXPARS_ARB_SHARED };

extern const struct hd_block_desc hd_expars_arb_block;

struct hd_expars_arb_state {
    bool live;     /* a booking was made since reset */
    uint32_t next; /* the banks' first free cycle, modulo 2^NW */
    struct hd_expars_arb_out q;
    uint64_t cycle;
};

void hd_expars_arb_ref_reset(struct hd_expars_arb_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_arb_ref_step(struct hd_expars_arb_state *s, const struct hd_expars_arb_in *in,
                            struct hd_expars_arb_out *out);
/* Idle (hw_inst.h): no request and nothing in the output registers. */
bool hd_expars_arb_ref_idle(const struct hd_expars_arb_state *s,
                            const struct hd_expars_arb_in *in);

#endif
