/* SPDX-License-Identifier: MIT
 * power_blocks.c - the added RTL blocks' energy terms (power_blocks.h, docs/power.md "Added
 * structures").
 *
 * The gate equivalents are those of the full synthesis run tabled in docs/synth.md (synth/
 * run.sh, osu018 mapped, GE = area / NAND2X1; default RTL configuration of each block, the Shieh
 * blocks at their Kepler sizing as blocks.ini's rtl_config says). A block's access is the event
 * that makes it work: a pp word decoded; a 128-byte vector register through the save path
 * (compressor, packer) or the restore path (unpacker, decompressor); a TB-level save's class
 * vector; a CTA suspended by the controller; a CTA placed or finished for the allocation tables
 * and Shieh's allocation and victim tables; an instruction issued for Shieh's Running TB Status;
 * a RAT access for EXPARS's expars_rat (every operand word's RF-or-OC judgement, every fill's and
 * write-back's address) and an operand-cache fill, write or write-back for its tag array
 * expars_oc_tags (operand reads need no tag lookup, L222-L224).
 */
#include "power_blocks.h"

#include "power_params.h"

static const struct hd_power_block blocks[] = {
    {"pp_decode", 804, 1, 0, HD_PEV_pp_decodes},
    {"regpat_comp", 20248, 1, 0, HD_PEV_ctx_save_vregs},
    {"ctx_packer", 50322, 1, 0, HD_PEV_ctx_save_vregs},
    {"regpat_decomp", 30352, 1, 0, HD_PEV_ctx_restore_vregs},
    {"ctx_unpacker", 99924, 1, 0, HD_PEV_ctx_restore_vregs},
    {"regpat_tbcls", 5703, 1, 0, HD_PEV_ctx_tb_saves},
    {"ctx_ctl", 103, 1, 0, HD_PEV_ctx_suspends},
    {"alloc_table", 38039, 2, 0, HD_PEV_cta_events},
    {"shieh_alloc_status", 4853, 0, 1, HD_PEV_cta_events},
    {"shieh_alloc_pos", 28033, 1, 0, HD_PEV_cta_events},
    {"shieh_victim_sets", 4873, 1, 0, HD_PEV_cta_events},
    {"shieh_tb_status", 20522, 1, 0, HD_PEV_issues},
    {"expars_rat", 8086, 1, 0, HD_PEV_expars_rat_lookups},
    {"expars_oc_tags", 15083, 1, 0, HD_PEV_expars_oc_accesses},
};

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

/* Is block b in the GPU that cfg describes? Shieh's tables are stepped when the preemption
 * policy decides from them: the Running TB Status for every Shieh-family policy, the other three
 * for shieh and oracle (model/mech/shieh/shieh_mech.c). */
static bool block_used(const struct hd_power_block *b, const struct hd_config *cfg)
{
    const bool compressed = cfg->context_save == HD_CTXSAVE_COMPRESSED ||
                            cfg->context_save == HD_CTXSAVE_COMPRESSED_TB;
    const enum hd_cfg_preemptpol pol = cfg->context_preempt_policy;
    const bool shieh_all = pol == HD_PREEMPTPOL_SHIEH || pol == HD_PREEMPTPOL_ORACLE;
    if (starts_with(b->name, "shieh_tb_status"))
        return shieh_all || pol == HD_PREEMPTPOL_CHIMERA || pol == HD_PREEMPTPOL_CHIMERA_PLUS;
    if (starts_with(b->name, "shieh_"))
        return shieh_all;
    if (starts_with(b->name, "expars_"))
        return cfg->sm_allocator == HD_ALLOC_EXPARS;
    if (starts_with(b->name, "alloc_table"))
        return cfg->sm_allocator == HD_ALLOC_LIN_TABLES;
    if (starts_with(b->name, "pp_decode"))
        return cfg->context_points == HD_PPOINTS_SELECTIVE;
    if (starts_with(b->name, "regpat_tbcls"))
        return cfg->context_save == HD_CTXSAVE_COMPRESSED_TB;
    if (starts_with(b->name, "regpat_") || starts_with(b->name, "ctx_packer") ||
        starts_with(b->name, "ctx_unpacker"))
        return compressed;
    return true; /* ctx_ctl: the save engine's controller, in every configuration */
}

int hd_power_blocks_terms(struct hd_power_params *p, const struct hd_config *cfg)
{
    const double e_access = cfg->power_ge_activity * cfg->power_e_ge_fj * 1e-15;
    const double leak_per_ge = cfg->power_ge_leak_nw * 1e-9;
    for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        const struct hd_power_block *b = &blocks[i];
        if (!block_used(b, cfg))
            continue;
        if (p->nterms + 2 > HD_POWER_MAX_TERMS)
            return -1;
        const double inst = b->per_sm ? (double)b->per_sm * cfg->gpu_num_sms : b->per_gpu;
        p->term[p->nterms++] = (struct hd_power_term){b->event, HD_PC_blocks, false,
                                                      b->ge * e_access};
        p->term[p->nterms++] = (struct hd_power_term){HD_PEV_cycles, HD_PC_blocks, true,
                                                      b->ge * leak_per_ge * inst / p->core_hz};
        p->blocks_leak_w += b->ge * leak_per_ge * inst;
    }
    return 0;
}
