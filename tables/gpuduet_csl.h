/* SPDX-License-Identifier: MIT
 * gpuduet_csl.h - bit-exact, cycle-exact C reference of GPUDuet's context switching logic's data
 * mover (Lin thesis §3.11, §2.12, Eq. 3.1-3.3; RTL rtl/gpuduet_csl/gpuduet_csl.sv), one per SM.
 *
 * The CSL's switch-outs, switch-ins and swaps are jobs, queued (QD) and served in order: one
 * PW-byte beat per cycle from the job's source array to its destination (0 register file, 1
 * shared memory, 2 L1D), below the pipeline (a cycle in which busy_i names either array moves
 * nothing: wait_o). A swap moves the stalled warp's bytes out, then the ready warp's bytes the
 * other way into the vacated space. Latency alone: ceil(bytes / PW) (+ ceil(bytes2 / PW)) beats
 * plus waits; done_* the cycle after the last beat.
 *
 * Timing: every output registered (ports.def). Interface: rtl/gpuduet_csl/gpuduet_csl_ports.def.
 * Use: reset once, one step per cycle with a zeroed struct hd_gpuduet_csl_in carrying the
 * cycle's command and the pipeline's busy ports (hd_gpuduet_csl_ref_idle(): no command, no job,
 * nothing registered).
 */
#ifndef HD_GPUDUET_CSL_H
#define HD_GPUDUET_CSL_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_csl_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_csl_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_csl_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(GPUDUET_CSL_PW >= 1 && GPUDUET_CSL_QD >= 1 &&
                   (GPUDUET_CSL_QD & (GPUDUET_CSL_QD - 1)) == 0 &&
                   GPUDUET_CSL_QD < (1 << GPUDUET_CSL_CW) && GPUDUET_CSL_BW <= 32 &&
                   GPUDUET_CSL_IW <= 16,
               "gpuduet_csl: QD a power of two below 2^CW, BW <= 32, IW <= 16");
#endif

enum { HD_GCSL_OUT = 0, HD_GCSL_IN = 1, HD_GCSL_SWAP = 2 };
enum { HD_GCSL_RF = 0, HD_GCSL_SMEM = 1, HD_GCSL_L1D = 2 };

extern const struct hd_block_desc hd_gpuduet_csl_block;

struct hd_gpuduet_csl_job {
    uint32_t kind, wid, src, dst, rem, rem2;
};

struct hd_gpuduet_csl_state {
    struct hd_gpuduet_csl_job q[GPUDUET_CSL_QD];
    uint32_t head, cnt;
    struct hd_gpuduet_csl_out o;
    uint64_t cycle;
};

void hd_gpuduet_csl_ref_reset(struct hd_gpuduet_csl_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_csl_ref_step(struct hd_gpuduet_csl_state *s, const struct hd_gpuduet_csl_in *in,
                             struct hd_gpuduet_csl_out *out);
/* Idle (hw_inst.h): no command, no job queued, nothing registered. */
bool hd_gpuduet_csl_ref_idle(const struct hd_gpuduet_csl_state *s,
                             const struct hd_gpuduet_csl_in *in);
/* Beats a job of `bytes` (and a swap's bytes2) takes alone: ceil(bytes / PW) + ceil(bytes2 / PW). */
uint32_t hd_gpuduet_csl_beats(uint32_t bytes, uint32_t bytes2);

#endif
