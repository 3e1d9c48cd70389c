/* SPDX-License-Identifier: MIT
 * gpuduet_queues.h - bit-exact, cycle-exact C reference of GPUDuet's stalled and ready queues
 * (Lin thesis §3.10, §2.12, Table 3.4; RTL rtl/gpuduet_queues/gpuduet_queues.sv), one set per SM.
 *
 * Four FIFOs: HD_GQ_STALLED_W and HD_GQ_READY_W hold warp ids (WD = 16 entries x 7 bits each),
 * HD_GQ_STALLED_TB and HD_GQ_READY_TB hold TB ids (TD = 8 entries x 5 bits each): 304 bits per
 * SM. The CSL swaps contexts when both a stalled and a ready item exist (§2.12), pushes a warp
 * (TB) on the stalled queue when it stalls and on the ready queue when its load returns while it
 * is absent. Each queue takes one pop and one push per cycle: the pop first (the head, reported
 * one cycle later; nothing from an empty queue), then the push (dropped when the queue is still
 * full, reported one cycle later: the warp then stays stalled, the thesis leaves the overflow
 * open). A queue entry is not removed when its warp's state changes otherwise (a stalled warp
 * whose load returns before it is switched out runs again): the CSL checks the popped id's state
 * in the WCT and discards a stale one.
 *
 * Timing: every output is registered, one cycle after its request; 0 in a cycle without a result.
 * Interface: rtl/gpuduet_queues/gpuduet_queues_ports.def. Use: reset once, one step per cycle
 * with a zeroed struct hd_gpuduet_queues_in carrying the cycle's pushes, pops and read; the
 * fields of a packed port are set with hd_gpuduet_queues_field_set().
 */
#ifndef HD_GPUDUET_QUEUES_H
#define HD_GPUDUET_QUEUES_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_queues_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_queues_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_queues_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert((GPUDUET_QUEUES_WD & (GPUDUET_QUEUES_WD - 1)) == 0 &&
                   (GPUDUET_QUEUES_TD & (GPUDUET_QUEUES_TD - 1)) == 0 &&
                   GPUDUET_QUEUES_TD <= GPUDUET_QUEUES_WD && GPUDUET_QUEUES_WD <= 64,
               "gpuduet_queues: WD, TD powers of two, TD <= WD <= 64");
_Static_assert(GPUDUET_QUEUES_TIW <= GPUDUET_QUEUES_IW && GPUDUET_QUEUES_IW <= 16 &&
                   GPUDUET_QUEUES_WD < (1u << GPUDUET_QUEUES_CW),
               "gpuduet_queues: TIW <= IW <= 16, counts fit CW bits");
#endif

enum { HD_GQ_STALLED_W = 0, HD_GQ_READY_W = 1, HD_GQ_STALLED_TB = 2, HD_GQ_READY_TB = 3, HD_GQ_N = 4 };
#define HD_GQ_MAXD GPUDUET_QUEUES_WD

extern const struct hd_block_desc hd_gpuduet_queues_block;

struct hd_gpuduet_queue {
    uint16_t id[HD_GQ_MAXD];
    uint32_t head, cnt;
};

struct hd_gpuduet_queues_state {
    struct hd_gpuduet_queue f[HD_GQ_N];
    struct hd_gpuduet_queues_out q;
    uint64_t cycle;
};

void hd_gpuduet_queues_ref_reset(struct hd_gpuduet_queues_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_queues_ref_step(struct hd_gpuduet_queues_state *s,
                                const struct hd_gpuduet_queues_in *in,
                                struct hd_gpuduet_queues_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_gpuduet_queues_ref_idle(const struct hd_gpuduet_queues_state *s,
                                const struct hd_gpuduet_queues_in *in);
/* Queue q's entries (WD for the warp queues, TD for the TB queues). */
unsigned hd_gpuduet_queues_depth(unsigned q);
/* Field q of a packed port value of `w` bits per field: get, and set (returns the new value). */
uint64_t hd_gpuduet_queues_field(uint64_t v, unsigned q, unsigned w);
uint64_t hd_gpuduet_queues_field_set(uint64_t v, unsigned q, unsigned w, uint64_t x);

#endif
