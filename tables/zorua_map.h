/* SPDX-License-Identifier: MIT
 * zorua_map.h - bit-exact, cycle-exact C reference of Zorua's resource mapping table with its
 * free list (digest zorua.md §2.6-§2.8, §3.2-§3.5; paper L290-L308; RTL
 * rtl/zorua_map/zorua_map.sv), one per resource per SM: the register mapping table (RMT), the
 * scratchpad mapping table (SMT) and the thread-slot mapping table (TMT).
 *
 * What it holds: Rows x Sets entries {valid, pset} of 1 + PW bits, exactly the paper's tables
 * (RMT 64 warps x 16 sets x 9 b = 1.125 KB; SMT 16 blocks x 48 sets x 7 b = 672 B; TMT 64 warps
 * x 7 b = 56 B). valid = 1: on chip at physical unit pset; valid = 0 and pset = 1: mapped in swap
 * space; valid = 0 and pset = 0: not allocated (the paper's one valid bit cannot tell the two
 * apart; the index field, unused off chip, does, so no bit is added). Beside it the free list
 * (one bit per physical unit) and the paper's two counters per resource (L290): units free on
 * chip and entries mapped in swap.
 *
 * What it does, one update and one lookup per cycle (the ops in the ports.def):
 *   allocate  lowest free unit; none free: swap space while swap < lim (o_thresh); else refused
 *   release   the entry's unit back to the free list (or swap - 1); the entry is free
 *   swap out  an on-chip entry to swap while swap < lim; its unit freed (spill, L308: the
 *             caller picks the victim, e.g. the least frequently accessed set, and stores it)
 *   swap in   an entry in swap to the lowest free unit (refused with none free)
 * A refused update changes nothing. The lookup (the compute units' translation, before the
 * register file or scratchpad access) sees the same edge's update. Swap address of an entry
 * (the caller's, §3.2-§3.4): swap_base + (row * Sets + set) * unit bytes.
 *
 * Timing: latency 1, every output registered and 0 in a cycle without a result.
 * Sizes: the chosen configuration's (hd_rtl_params.h, configs/rtl/zorua_map.ini) for
 * hd_zorua_map_ref_reset, any of the three (or another within the maxima below) at run time
 * with hd_zorua_map_ref_init, so that one model holds the three tables of an SM.
 */
#ifndef HD_ZORUA_MAP_H
#define HD_ZORUA_MAP_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "zorua_map_ports.def"
#define HD_PORTS_DIR IN
struct hd_zorua_map_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_zorua_map_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

enum hd_zorua_map_op {
    HD_ZMAP_NONE = 0,
    HD_ZMAP_ALLOC = 1,
    HD_ZMAP_RELEASE = 2,
    HD_ZMAP_SPILL = 3, /* swap out */
    HD_ZMAP_FILL = 4   /* swap in */
};

#define HD_ZMAP_ENTRIES_MAX 2048u /* Rows x Sets */
#define HD_ZMAP_PHYS_MAX 512u     /* physical units (Kepler/Maxwell: 512 register sets) */

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(ZORUA_MAP_Rows * ZORUA_MAP_Sets <= HD_ZMAP_ENTRIES_MAX &&
                   ZORUA_MAP_PhysN <= HD_ZMAP_PHYS_MAX,
               "zorua_map: the configuration exceeds the reference's maxima");
#endif

extern const struct hd_block_desc hd_zorua_map_block;

/* A table's sizes (configs/rtl/zorua_map.ini's keys). */
struct hd_zorua_map_cfg {
    unsigned rows, row_w, sets, set_w, phys, pw, cnt_w;
};

/* The three Fermi tables of the paper (§3.1). */
extern const struct hd_zorua_map_cfg hd_zorua_map_rmt, hd_zorua_map_smt, hd_zorua_map_tmt;

struct hd_zorua_map_state {
    struct hd_zorua_map_cfg cfg;
    uint16_t e[HD_ZMAP_ENTRIES_MAX];       /* {valid, pset}: bit pw = valid */
    bool free_unit[HD_ZMAP_PHYS_MAX];      /* the physical unit is free */
    uint32_t nfree, nswap;                 /* the two counters */
    struct hd_zorua_map_out q;             /* the output registers */
    uint64_t cycle;
};

/* Reset with the built configuration's sizes (hd_rtl_params.h). */
void hd_zorua_map_ref_reset(struct hd_zorua_map_state *s);
/* Reset with sizes cfg; -1 (and a message in err) when they do not fit the maxima or the port
 * widths (1 <= rows <= 2^row_w, 1 <= sets <= 2^set_w, 2 <= phys <= 2^pw, counters fit). */
int hd_zorua_map_ref_init(struct hd_zorua_map_state *s, const struct hd_zorua_map_cfg *cfg,
                          char *err, unsigned errlen);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_zorua_map_ref_step(struct hd_zorua_map_state *s, const struct hd_zorua_map_in *in,
                           struct hd_zorua_map_out *out);
/* Idle (hw_inst.h): no update, no lookup and nothing in the output registers. */
bool hd_zorua_map_ref_idle(const struct hd_zorua_map_state *s, const struct hd_zorua_map_in *in);

/* The entry (row, set) now: 0 not allocated, 1 on chip (*pset set), 2 in swap. */
unsigned hd_zorua_map_entry(const struct hd_zorua_map_state *s, unsigned row, unsigned set,
                            unsigned *pset);

#endif
