/* SPDX-License-Identifier: MIT
 * gpuduet_wct.h - bit-exact, cycle-exact C reference of GPUDuet's Warp Context Table (Lin thesis
 * §3.8, Fig 3.9, Table 3.4; RTL rtl/gpuduet_wct/gpuduet_wct.sv), one per SM.
 *
 * What it holds, per warp id (NW = 128): Valid, State (HD_WCT_RUNNING / STALLED / ABSENT /
 * READY, 2 bits), Regaddr (12 bits: base of the warp's register context in the unified 128 B-unit
 * space of §3.7) and Metaaddr (12 bits: the physical warp-slot index while the warp's meta-data,
 * its SIMT stack, scoreboard and PC, is present; else its spilled address). An address below
 * RfUnits (0x800) means present; 0x800..0xAFF is shared memory, 0xB00..0xBFF L1D. 27 bits per
 * entry, 3,456 bits per SM (Table 3.4).
 *
 * Writers (one each per cycle, applied in this order within an edge): finish (entry cleared),
 * launch (entry written, Valid = 1, state running or ready per §2.11), stall detector (running ->
 * stalled), memory response (the warp's last outstanding load returned: absent -> ready, and
 * stalled -> running when the load landed before the warp was switched out), CSL (State and
 * both addresses after a move). The per-warp outstanding-load counter that decides "last" is
 * not in the table (§3.8's storage has none); the caller keeps it.
 *
 * Timing: every output is registered; a read's result one cycle after rd_v_i shows the table
 * after that cycle's updates, with the valid count and the schedulable / stalled / ready
 * vectors; every output is 0 in a cycle without a result. Interface:
 * rtl/gpuduet_wct/gpuduet_wct_ports.def.
 *
 * Use from a model: hd_gpuduet_wct_ref_reset() once, then hd_gpuduet_wct_ref_step() once per
 * cycle with a zeroed struct hd_gpuduet_wct_in carrying that cycle's writes and read (or not at
 * all while hd_gpuduet_wct_ref_idle() says so).
 */
#ifndef HD_GPUDUET_WCT_H
#define HD_GPUDUET_WCT_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_wct_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_wct_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_wct_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(GPUDUET_WCT_NW >= 1 && GPUDUET_WCT_NW <= 1024 &&
                   GPUDUET_WCT_NW <= (1u << GPUDUET_WCT_WW),
               "gpuduet_wct: NW must be 1..1024 and fit WW bits");
_Static_assert(GPUDUET_WCT_AW >= 2 && GPUDUET_WCT_AW <= 16 &&
                   GPUDUET_WCT_RfUnits < (1u << GPUDUET_WCT_AW),
               "gpuduet_wct: AW 2..16, RfUnits below 2^AW");
#endif

#define HD_WCT_N GPUDUET_WCT_NW

enum hd_wct_state { HD_WCT_RUNNING = 0, HD_WCT_STALLED = 1, HD_WCT_ABSENT = 2, HD_WCT_READY = 3 };

extern const struct hd_block_desc hd_gpuduet_wct_block;

struct hd_gpuduet_wct_entry {
    uint8_t valid, state;
    uint16_t reg, meta; /* AW bits each */
};

struct hd_gpuduet_wct_state {
    struct hd_gpuduet_wct_entry e[HD_WCT_N];
    struct hd_gpuduet_wct_out q;
    uint64_t cycle;
};

void hd_gpuduet_wct_ref_reset(struct hd_gpuduet_wct_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_wct_ref_step(struct hd_gpuduet_wct_state *s, const struct hd_gpuduet_wct_in *in,
                             struct hd_gpuduet_wct_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_gpuduet_wct_ref_idle(const struct hd_gpuduet_wct_state *s,
                             const struct hd_gpuduet_wct_in *in);
/* Registers and meta-data present (an address on the register-file side of the space). */
bool hd_gpuduet_wct_present(uint64_t addr);
/* A state's name ("running", ...; "?" past the last). */
const char *hd_gpuduet_wct_state_name(unsigned state);

#endif
