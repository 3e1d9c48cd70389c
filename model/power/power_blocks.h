/* SPDX-License-Identifier: MIT
 * power_blocks.h - energy of the RTL blocks the mechanisms add (rtl/, synth/blocks.ini): a
 * dynamic energy per access from the block's synthesized gate count and a leakage power per
 * instance, both through a per-gate-equivalent energy ([power] e_ge_fj, ge_activity,
 * ge_leak_nw), for the blocks whose mechanism the configuration turns on.
 *
 * Design: an immutable table of every block of rtl/ (gate equivalents from the synthesis runs
 * tabled in docs/synth.md and docs/blocks/, instances per SM or per GPU as synth/blocks.ini gives
 * them), the event that counts one access of it, and the mechanism whose configuration puts it in
 * the GPU. One rule prices every block: the block as the synthesis flow's "best" area variant
 * (docs/synth.md "Storage arrays as SRAM"). A block whose storage the flow prices as an SRAM
 * (blocks.ini `arrays`: zorua_map's RMT, ccbp_ctrl's profile tables, expars_pref's bit-vector
 * and taken-register tables) is its logic without those flip-flops plus the arrays, each read
 * once per access at the SRAM model's read energy; every other block is its flip-flops and
 * logic as synthesized. Access = GE x activity x e_ge + the arrays' read energy; leakage = GE x
 * ge_leak x instances (the SRAM model has no leakage, so the arrays' is not counted).
 */
#ifndef HD_POWER_BLOCKS_H
#define HD_POWER_BLOCKS_H

#include "config.h"

#include <stdbool.h>

struct hd_power_params;

/* What puts a block in the GPU (power_blocks.c mech_on). */
enum hd_power_mech {
    HD_PMECH_ALWAYS,        /* the save engine's controller */
    HD_PMECH_PPOINTS,       /* [context] points = selective */
    HD_PMECH_COMPRESSED,    /* [context] save = compressed or compressed_tb */
    HD_PMECH_COMPRESSED_TB, /* save = compressed_tb */
    HD_PMECH_LIN_TABLES,    /* [sm] allocator = lin_tables */
    HD_PMECH_SHIEH,         /* [context] preempt_policy = shieh or oracle */
    HD_PMECH_SHIEH_STATUS,  /* ... or chimera, chimera_plus (Running TB Status) */
    HD_PMECH_EXPARS,        /* [sm] allocator = expars */
    HD_PMECH_EXPARS_PREF,   /* ... with [expars] prefetch */
    HD_PMECH_LTLWS,         /* [sm] scheduler = ltlws_lrr or ltlws_gto */
    HD_PMECH_ZORUA,         /* [sm] allocator = zorua */
    HD_PMECH_GPUDUET,       /* [sm] allocator = gpuduet or gpuduet_tb */
    HD_PMECH_GPUDUET_MON,   /* ... with [gpuduet] dynamic (the throughput monitor decides ME) */
    HD_PMECH_CCBP,          /* [ccbp] enable */
    HD_PMECH_HAWS,          /* [haws] enable */
    HD_PMECH_LOC_DIST,      /* [timing] cta_dist = locality */
    HD_PMECH_LOC_SCHED,     /* [sm] scheduler = locality */
    HD_PMECH_COUNT
};

struct hd_power_block {
    const char *name;       /* rtl/<name>, or <block>:<config> (synth/blocks.ini) */
    double ge;              /* gate equivalents of one instance's logic (best variant) */
    double sram_pj;         /* read energy of its SRAM-priced arrays per access (0: none) */
    unsigned per_sm;        /* instances per SM (0: per_gpu instead) */
    unsigned per_gpu;
    unsigned char mech;     /* enum hd_power_mech */
    unsigned char event;    /* enum hd_pevent counting its accesses */
};

/* The table: n blocks (every block of rtl/). */
const struct hd_power_block *hd_power_blocks(unsigned *n);
/* Is b in the GPU that cfg describes? */
bool hd_power_block_used(const struct hd_power_block *b, const struct hd_config *cfg);
/* Joules of one access of b, and its leakage in watts (all instances). */
double hd_power_block_access_j(const struct hd_power_block *b, const struct hd_config *cfg);
double hd_power_block_leak_w(const struct hd_power_block *b, const struct hd_config *cfg);

/* Add the terms of the blocks in use to p (and p->blocks_leak_w); 0 or -1 (no room). */
int hd_power_blocks_terms(struct hd_power_params *p, const struct hd_config *cfg);

#endif
