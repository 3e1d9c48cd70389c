/* SPDX-License-Identifier: MIT
 * zz_probe.h - bit-exact, cycle-exact C reference of zz_probe, the throwaway block of
 * tests/blockadd (a saturating accumulator of 8-bit samples; RTL rtl/zz_probe/zz_probe.sv).
 * Timing: a step returns the cycle's outputs (the registers), then takes the cycle's sample.
 */
#ifndef HD_ZZ_PROBE_H
#define HD_ZZ_PROBE_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "zz_probe_ports.def"
#define HD_PORTS_DIR IN
struct hd_zz_probe_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_zz_probe_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_zz_probe_block;

struct hd_zz_probe_state {
    uint32_t sum;  /* 16 bits */
    uint32_t last; /* 8 bits */
    bool seen;
};

void hd_zz_probe_ref_reset(struct hd_zz_probe_state *s);
void hd_zz_probe_ref_step(struct hd_zz_probe_state *s, const struct hd_zz_probe_in *in,
                          struct hd_zz_probe_out *out);
/* Idle (hw_inst.h): no sample: a step changes nothing. */
bool hd_zz_probe_ref_idle(const struct hd_zz_probe_state *s, const struct hd_zz_probe_in *in);

#endif
