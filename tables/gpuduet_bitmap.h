/* SPDX-License-Identifier: MIT
 * gpuduet_bitmap.h - bit-exact, cycle-exact C reference of GPUDuet's allocation bitmap over the
 * unified on-chip storage (Lin thesis §3.7, Table 3.4; RTL rtl/gpuduet_bitmap/gpuduet_bitmap.sv),
 * one per SM.
 *
 * What it holds: one bit per 128 B unit of the unified space (Units = 3,072: register file
 * 0x000-0x7FF, shared memory 0x800-0xAFF, L1D 0xB00-0xBFF; a set bit = allocated), kept as 48
 * 64-bit words in the layout of tables/hd_bitmap.h (bit i = bit i % 64 of word i / 64; the
 * reference's words are an hd_bitmap and every change goes through it), and the free-unit count
 * of each region. Operations, one at a time: allocate n contiguous units in a region (first fit:
 * the lowest start, the same answer as hd_bitmap_find_clear_run(region view, n, 1)) and free n
 * units from a base. The hardware reads and writes one 64-bit word per cycle: an allocation
 * scans the region's words from the lowest, carrying the length of the free run that reaches a
 * word's top bit into the next word, until a run of n ends in a word (or the region's last word
 * is scanned: no room), then sets the run word by word; a free clears its range word by word.
 * The scan is a two-stage pipeline (a word's hit vector, then its lowest hit the next cycle), so
 * that each stage fits one core cycle: one cycle more per allocation than a one-stage scan.
 * Requests, cycles and the refused cases: rtl/gpuduet_bitmap/gpuduet_bitmap_ports.def.
 *
 * The regions' policy (which region a context goes to; L1D only when the kernel is unsaturated,
 * out of RF and shared-memory space and L1D utilisation is below 3 %, §2.10) is the caller's.
 *
 * Use from a model: reset once; one step per cycle (a request in a cycle whose busy_o output is
 * 0 is taken; done_* reports the result).
 */
#ifndef HD_GPUDUET_BITMAP_H
#define HD_GPUDUET_BITMAP_H

#include "hd_bitmap.h"
#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_bitmap_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_bitmap_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_bitmap_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#define HD_GBM_UNITS GPUDUET_BITMAP_Units
#define HD_GBM_WORDS (GPUDUET_BITMAP_Units / 64u)

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(GPUDUET_BITMAP_Units % 64u == 0 && GPUDUET_BITMAP_SmemLo % 64u == 0 &&
                   GPUDUET_BITMAP_L1Lo % 64u == 0,
               "gpuduet_bitmap: Units and the region bounds must be whole 64-unit words");
_Static_assert(0 < GPUDUET_BITMAP_SmemLo && GPUDUET_BITMAP_SmemLo < GPUDUET_BITMAP_L1Lo &&
                   GPUDUET_BITMAP_L1Lo < GPUDUET_BITMAP_Units,
               "gpuduet_bitmap: 0 < SmemLo < L1Lo < Units");
_Static_assert(GPUDUET_BITMAP_Units <= (1u << GPUDUET_BITMAP_AW) &&
                   GPUDUET_BITMAP_Units > (1u << (GPUDUET_BITMAP_AW - 1)) && GPUDUET_BITMAP_AW <= 16,
               "gpuduet_bitmap: AW = $clog2(Units), at most 16");
#endif

enum { HD_GBM_RF = 0, HD_GBM_SMEM = 1, HD_GBM_L1 = 2, HD_GBM_NREGIONS = 3 };
enum { HD_GBM_IDLE = 0, HD_GBM_SCAN = 1, HD_GBM_MARK = 2 };

extern const struct hd_block_desc hd_gpuduet_bitmap_block;

struct hd_gpuduet_bitmap_state {
    uint64_t w[HD_GBM_WORDS];        /* the map (hd_bitmap layout) */
    uint32_t freec[HD_GBM_NREGIONS]; /* free units per region */
    uint32_t fsm;                    /* HD_GBM_IDLE / SCAN / MARK */
    uint32_t al;                     /* the operation is an allocation (sets bits) */
    uint32_t word, last;             /* word at hand; the region's last word (scan) */
    uint32_t run, n;                 /* free run reaching the previous word's top; units wanted */
    uint32_t lo, hi;                 /* range being marked [lo, hi) */
    uint32_t hv, hword;              /* scan stage 2 holds word hword's hits */
    uint64_t hit;                    /* ... bit j: a run of n free units ends at bit j */
    struct hd_gpuduet_bitmap_out q;  /* registered outputs (busy_o is the FSM's) */
    uint64_t cycle;
};

void hd_gpuduet_bitmap_ref_reset(struct hd_gpuduet_bitmap_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_bitmap_ref_step(struct hd_gpuduet_bitmap_state *s,
                                const struct hd_gpuduet_bitmap_in *in,
                                struct hd_gpuduet_bitmap_out *out);
/* Idle (hw_inst.h): no request on any input, no operation running, nothing registered. */
bool hd_gpuduet_bitmap_ref_idle(const struct hd_gpuduet_bitmap_state *s,
                                const struct hd_gpuduet_bitmap_in *in);
/* Region r's first unit and its units (r < HD_GBM_NREGIONS). */
uint32_t hd_gpuduet_bitmap_region_lo(unsigned r);
uint32_t hd_gpuduet_bitmap_region_units(unsigned r);

#endif
