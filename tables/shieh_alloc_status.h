/* SPDX-License-Identifier: MIT
 * shieh_alloc_status.h - bit-exact, cycle-exact C reference of the Preempting Kernel Allocation
 * Status table (Shieh thesis §3.4.1, Fig 3.6; RTL rtl/shieh_alloc_status/shieh_alloc_status.sv),
 * one per GPU, in the block scheduler.
 *
 * What it holds: for every SM and every position of the preempting kernel (PosN per SM), whether
 * a TB of that kernel is there (Issued) or not (Finished, or never placed); and the preempting
 * kernel's identity, a 15-bit process id and a 5-bit kernel id (§3.4.1: Linux pid_max 32768,
 * 32 concurrent kernels). A request clears the table and latches the ids; the block scheduler
 * sets an entry when it dispatches a preempting TB to a position; the SM reports the kernel id
 * and the position when that TB finishes, and the entry is cleared (a report for another kernel
 * or for an entry that is not set changes nothing and pulses fin_bad_o).
 *
 * Storage: NSm x PosN + 20 bits (Kepler sizing: 15 x 16 + 20 bits = 32.5 B; Table 3.1 prints
 * 4 bits x 16 x 15 = 120 B + 20 bits, a width no reading of the text needs: one bit per position
 * says Issued/Finished). Timing: every output is registered; a read's result appears one cycle
 * after rd_v_i and shows the table after that cycle's updates (order in the ports.def); every
 * output is 0 in a cycle without a result. Interface:
 * rtl/shieh_alloc_status/shieh_alloc_status_ports.def.
 */
#ifndef HD_SHIEH_ALLOC_STATUS_H
#define HD_SHIEH_ALLOC_STATUS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "shieh_alloc_status_ports.def"
#define HD_PORTS_DIR IN
struct hd_shieh_alloc_status_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_shieh_alloc_status_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(SHIEH_ALLOC_STATUS_NSm >= 1 && SHIEH_ALLOC_STATUS_NSm <= 64 &&
                   SHIEH_ALLOC_STATUS_NSm <= (1u << SHIEH_ALLOC_STATUS_SmW),
               "shieh_alloc_status: NSm must be 1..64 and fit SmW bits");
_Static_assert(SHIEH_ALLOC_STATUS_PosN >= 1 && SHIEH_ALLOC_STATUS_PosN <= 64 &&
                   SHIEH_ALLOC_STATUS_PosN <= (1u << SHIEH_ALLOC_STATUS_PosW),
               "shieh_alloc_status: PosN must be 1..64 and fit PosW bits");
#endif

#define HD_SHIEH_AS_SMS SHIEH_ALLOC_STATUS_NSm
#define HD_SHIEH_AS_POS SHIEH_ALLOC_STATUS_PosN

extern const struct hd_block_desc hd_shieh_alloc_status_block;

struct hd_shieh_alloc_status_state {
    uint64_t issued[HD_SHIEH_AS_SMS]; /* bit p: position p holds a preempting TB */
    uint32_t pid, kid;
    struct hd_shieh_alloc_status_out q;
    uint64_t cycle;
};

void hd_shieh_alloc_status_ref_reset(struct hd_shieh_alloc_status_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_shieh_alloc_status_ref_step(struct hd_shieh_alloc_status_state *s,
                                    const struct hd_shieh_alloc_status_in *in,
                                    struct hd_shieh_alloc_status_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_shieh_alloc_status_ref_idle(const struct hd_shieh_alloc_status_state *s,
                                    const struct hd_shieh_alloc_status_in *in);

#endif
