/* SPDX-License-Identifier: MIT
 * gpuduet_tbct.h - bit-exact, cycle-exact C reference of GPUDuet's TB Context Table (Lin thesis
 * §3.9, Table 3.4; RTL rtl/gpuduet_tbct/gpuduet_tbct.sv), one per SM.
 *
 * What it holds, per TB id (NT = 32, Table 3.4's count; the prose's 16 is not used): Valid,
 * Absmask (NWT = 32 bits: bit k = 1 while warp k of the TB is absent, its context switched out)
 * and Smemaddr (12 bits: the TB's shared-memory context base in the unified 128 B-unit space of
 * §3.7; present iff 0x800 <= Smemaddr < 0xB00, else spilled by a TB-level switch to the register
 * file or L1D). 45 bits per entry, 1,440 bits per SM.
 *
 * Writers (one each per cycle, applied in this order within an edge): finish (entry cleared),
 * launch (entry written, Valid = 1), the CSL's TB move (Absmask and Smemaddr), the CSL's warp
 * move (one Absmask bit set or cleared). The §3.9 derived signals are the read's vectors: valid,
 * shared memory present, whole (no warp absent); "all warps stalled" and "ready but for
 * barrier-stalled warps" need the WCT's per-warp states and are formed by the CSL.
 *
 * Timing: every output is registered; a read's result one cycle after rd_v_i shows the table
 * after that cycle's updates; every output is 0 in a cycle without a result. Interface:
 * rtl/gpuduet_tbct/gpuduet_tbct_ports.def. Use: reset once, one step per cycle with a zeroed
 * struct hd_gpuduet_tbct_in carrying that cycle's writes and read.
 */
#ifndef HD_GPUDUET_TBCT_H
#define HD_GPUDUET_TBCT_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_tbct_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_tbct_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_tbct_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(GPUDUET_TBCT_NT >= 1 && GPUDUET_TBCT_NT <= 64 &&
                   GPUDUET_TBCT_NT <= (1u << GPUDUET_TBCT_TW),
               "gpuduet_tbct: NT must be 1..64 and fit TW bits");
_Static_assert(GPUDUET_TBCT_NWT >= 1 && GPUDUET_TBCT_NWT <= 64 &&
                   GPUDUET_TBCT_NWT <= (1u << GPUDUET_TBCT_WTW),
               "gpuduet_tbct: NWT must be 1..64 and fit WTW bits");
_Static_assert(GPUDUET_TBCT_AW >= 2 && GPUDUET_TBCT_AW <= 16 &&
                   GPUDUET_TBCT_SmemLo < GPUDUET_TBCT_SmemHi &&
                   GPUDUET_TBCT_SmemHi < (1u << GPUDUET_TBCT_AW),
               "gpuduet_tbct: AW 2..16, SmemLo < SmemHi < 2^AW");
#endif

#define HD_TBCT_N GPUDUET_TBCT_NT
#define HD_TBCT_NWT GPUDUET_TBCT_NWT

extern const struct hd_block_desc hd_gpuduet_tbct_block;

struct hd_gpuduet_tbct_entry {
    uint64_t abs; /* NWT bits */
    uint32_t smem; /* AW bits */
    uint32_t valid;
};

struct hd_gpuduet_tbct_state {
    struct hd_gpuduet_tbct_entry e[HD_TBCT_N];
    struct hd_gpuduet_tbct_out q;
    uint64_t cycle;
};

void hd_gpuduet_tbct_ref_reset(struct hd_gpuduet_tbct_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_tbct_ref_step(struct hd_gpuduet_tbct_state *s, const struct hd_gpuduet_tbct_in *in,
                              struct hd_gpuduet_tbct_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_gpuduet_tbct_ref_idle(const struct hd_gpuduet_tbct_state *s,
                              const struct hd_gpuduet_tbct_in *in);
/* A TB's shared memory is present (its address in [SmemLo, SmemHi)). */
bool hd_gpuduet_tbct_smem_present(uint64_t addr);

#endif
