/* SPDX-License-Identifier: MIT
 * haws_rename.h - bit-exact, cycle-exact C reference of the HAWS register renaming table of one
 * warp (Gong thesis ch.5 §5.2.4, L1048, L1109-1113; digest §3.3; RTL rtl/haws_rename/
 * haws_rename.sv).
 *
 * What it holds: N entries {valid, original register REGW, location NEWW}: the newest location
 * of each register a hint-mode instruction wrote (the thesis: its renamed register; the loop:
 * the RCU entry holding the value). NSRC lookups per cycle translate a hint-mode instruction's
 * sources; a write overwrites the register's mapping or takes the lowest free entry (refused
 * when none: ovf_o); cleared when an episode starts, returns or is discarded.
 *
 * Storage: N x (REGW + NEWW + 1) bits (the thesis's 8 x 16 = 128 bits per table). Timing: the
 * lookups compare the table before the edge and are registered (one cycle later); count_o is a
 * function of the table (Moore). Interface: rtl/haws_rename/haws_rename_ports.def.
 */
#ifndef HD_HAWS_RENAME_H
#define HD_HAWS_RENAME_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "haws_rename_ports.def"
#define HD_PORTS_DIR IN
struct hd_haws_rename_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_haws_rename_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(HAWS_RENAME_N >= 1 && HAWS_RENAME_N <= 64 && (1u << HAWS_RENAME_CW) > HAWS_RENAME_N,
               "haws_rename: N 1..64 and CW bits hold N");
_Static_assert(HAWS_RENAME_REGW >= 1 && HAWS_RENAME_REGW <= 16 && HAWS_RENAME_NEWW >= 1 &&
                   HAWS_RENAME_NEWW <= 16 && HAWS_RENAME_NSRC >= 1 && HAWS_RENAME_NSRC <= 4,
               "haws_rename: REGW, NEWW 1..16, NSRC 1..4");
_Static_assert(HAWS_RENAME_SRCW == HAWS_RENAME_NSRC * HAWS_RENAME_REGW &&
                   HAWS_RENAME_NEWSW == HAWS_RENAME_NSRC * HAWS_RENAME_NEWW,
               "haws_rename: SRCW = NSRC x REGW, NEWSW = NSRC x NEWW");
#endif

#define HD_HAWS_RENAME_N HAWS_RENAME_N

extern const struct hd_block_desc hd_haws_rename_block;

struct hd_haws_rename_state {
    uint32_t orig[HD_HAWS_RENAME_N], loc[HD_HAWS_RENAME_N];
    bool val[HD_HAWS_RENAME_N];
    uint64_t rd_hit, rd_new; /* the registered lookups */
    bool ovf;
    uint64_t cycle;
};

void hd_haws_rename_ref_reset(struct hd_haws_rename_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_haws_rename_ref_step(struct hd_haws_rename_state *s, const struct hd_haws_rename_in *in,
                             struct hd_haws_rename_out *out);
/* Idle (hw_inst.h): no lookup, write or clear, an empty table and nothing registered. */
bool hd_haws_rename_ref_idle(const struct hd_haws_rename_state *s,
                             const struct hd_haws_rename_in *in);

#endif
