/* SPDX-License-Identifier: MIT
 * power_blocks.h - energy of the RTL blocks the mechanisms add (rtl/, synth/blocks.ini): a
 * dynamic energy per access from the block's synthesized gate count and a leakage power per
 * instance, both through a per-gate-equivalent energy ([power] e_ge_fj, ge_activity,
 * ge_leak_nw), for the blocks whose mechanism the configuration turns on.
 *
 * Design: an immutable table of the blocks (gate equivalents from synth/run.sh's full run in
 * docs/synth.md, instances per SM or per GPU as synth/blocks.ini gives them), the event that
 * counts one access of each, and the configuration test that puts it in the GPU. None of the
 * blocks has an SRAM variant (each stores its state in flip-flops, docs/synth.md), so all of a
 * block's energy is its logic's: access = GE x activity x e_ge; leakage = GE x ge_leak x
 * instances.
 */
#ifndef HD_POWER_BLOCKS_H
#define HD_POWER_BLOCKS_H

#include "config.h"

#include <stdbool.h>

struct hd_power_params;

struct hd_power_block {
    const char *name;       /* rtl/<name> */
    double ge;              /* gate equivalents of one instance (docs/synth.md) */
    unsigned per_sm;        /* instances per SM (0: per_gpu instead) */
    unsigned per_gpu;
    unsigned char event;    /* enum hd_pevent counting its accesses */
};

/* Add the terms of the blocks in use to p (and p->blocks_leak_w); 0 or -1 (no room). */
int hd_power_blocks_terms(struct hd_power_params *p, const struct hd_config *cfg);

#endif
