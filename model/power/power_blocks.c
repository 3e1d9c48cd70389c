/* SPDX-License-Identifier: MIT
 * power_blocks.c - the added RTL blocks' energy terms (power_blocks.h, docs/power.md "Added
 * structures").
 *
 * The gate equivalents are those of the synthesis runs tabled in docs/synth.md and the blocks'
 * documents (synth/run.sh, osu018 mapped, GE = area / NAND2X1; each block in the RTL
 * configuration blocks.ini names; a row "block:config" is the block in another configuration,
 * blocks.ini's row of that name). A block with storage arrays the flow prices as SRAM (zorua_map,
 * ccbp_ctrl, expars_pref) carries its logic's GE ((SRAM-variant um^2 - arrays' um^2) / 0.901) and
 * its arrays' read energy from the same runs. A block's access is the event that makes it work
 * (docs/power.md lists them): e.g. a pp word decoded, a 128-byte vector register through the
 * save or restore path, a CTA placed or finished for the allocation tables, a RAT access for
 * EXPARS's expars_rat, an operand word or destination located through Zorua's RMT, a
 * scratchpad set looked up in its SMT by an ld/st.shared, a warp slot taken or given back in its
 * TMT, a warp's stall, readiness or switch for GPUDuet's warp context table, a run-ahead
 * instruction for HAWS's result collection unit.
 */
#include "power_blocks.h"

#include "power_params.h"

#define ALWAYS HD_PMECH_ALWAYS
static const struct hd_power_block blocks[] = {
    /* Lin ch.2: context saving (selective points, compression) and in-place switching */
    {"pp_decode", 804, 0, 1, 0, HD_PMECH_PPOINTS, HD_PEV_pp_decodes},
    {"regpat_comp", 20248, 0, 1, 0, HD_PMECH_COMPRESSED, HD_PEV_ctx_save_vregs},
    {"ctx_packer", 50322, 0, 1, 0, HD_PMECH_COMPRESSED, HD_PEV_ctx_save_vregs},
    {"regpat_decomp", 30352, 0, 1, 0, HD_PMECH_COMPRESSED, HD_PEV_ctx_restore_vregs},
    {"ctx_unpacker", 99924, 0, 1, 0, HD_PMECH_COMPRESSED, HD_PEV_ctx_restore_vregs},
    {"regpat_tbcls", 5703, 0, 1, 0, HD_PMECH_COMPRESSED_TB, HD_PEV_ctx_tb_saves},
    {"ctx_ctl", 103, 0, 1, 0, ALWAYS, HD_PEV_ctx_suspends},
    {"alloc_table", 38039, 0, 2, 0, HD_PMECH_LIN_TABLES, HD_PEV_cta_events},
    /* Shieh: dual-kernel preemption */
    {"shieh_alloc_status", 4853, 0, 0, 1, HD_PMECH_SHIEH, HD_PEV_cta_events},
    {"shieh_alloc_pos", 28033, 0, 1, 0, HD_PMECH_SHIEH, HD_PEV_cta_events},
    {"shieh_victim_sets", 4873, 0, 1, 0, HD_PMECH_SHIEH, HD_PEV_cta_events},
    {"shieh_tb_status", 20522, 0, 1, 0, HD_PMECH_SHIEH_STATUS, HD_PEV_issues},
    /* EXPARS (Yu et al. TACO 2018) */
    {"expars_rat", 8086, 0, 1, 0, HD_PMECH_EXPARS, HD_PEV_expars_rat_lookups},
    {"expars_oc_tags", 15083, 0, 1, 0, HD_PMECH_EXPARS, HD_PEV_expars_oc_accesses},
    {"expars_arb", 1592, 0, 1, 0, HD_PMECH_EXPARS, HD_PEV_expars_rat_lookups},
    {"expars_cta_calc", 9476, 0, 1, 0, HD_PMECH_EXPARS, HD_PEV_sm_launches},
    {"expars_pref", 18039, 5.22, 1, 0, HD_PMECH_EXPARS_PREF, HD_PEV_expars_fills},
    {"expars_ltlws", 12992, 0, 2, 0, HD_PMECH_LTLWS, HD_PEV_issues},
    /* Zorua (Vijaykumar et al. ISCA 2016): its three mapping tables, the zorua_map block in the
     * RMT ([default]), SMT and TMT configurations (synth/blocks.ini rows zorua_map, zorua_map:smt,
     * zorua_map:tmt, Fermi), each with its table as SRAM */
    {"zorua_map", 69207, 0.42, 1, 0, HD_PMECH_ZORUA, HD_PEV_zorua_rmt_accesses},
    {"zorua_map:smt", 41094, 0.29, 1, 0, HD_PMECH_ZORUA, HD_PEV_zorua_smt_accesses},
    {"zorua_map:tmt", 4861, 0.08, 1, 0, HD_PMECH_ZORUA, HD_PEV_zorua_tmt_accesses},
    {"zorua_coord", 46270, 0, 1, 0, HD_PMECH_ZORUA, HD_PEV_zorua_coord_events},
    {"zorua_phase", 12123, 0, 1, 0, HD_PMECH_ZORUA, HD_PEV_zorua_phase_events},
    /* GPUDuet (Lin ch.3) */
    {"gpuduet_wct", 61294, 0, 1, 0, HD_PMECH_GPUDUET, HD_PEV_gpuduet_warp_events},
    {"gpuduet_queues", 6472, 0, 1, 0, HD_PMECH_GPUDUET, HD_PEV_gpuduet_warp_events},
    {"gpuduet_tbct", 27829, 0, 1, 0, HD_PMECH_GPUDUET, HD_PEV_gpuduet_tb_events},
    {"gpuduet_bitmap", 52071, 0, 1, 0, HD_PMECH_GPUDUET, HD_PEV_gpuduet_allocs},
    {"gpuduet_csl", 2982, 0, 1, 0, HD_PMECH_GPUDUET, HD_PEV_warp_moves},
    {"gpuduet_tmon", 17008, 0, 1, 0, HD_PMECH_GPUDUET_MON, HD_PEV_issues},
    /* CCBP (Lin ch.4): ccbp_ctrl with its four profile tables as SRAM */
    {"ccbp_irc", 2183, 0, 1, 0, HD_PMECH_CCBP, HD_PEV_mq_requests},
    {"ccbp_monitor", 13394, 0, 0, 1, HD_PMECH_CCBP, HD_PEV_flits},
    {"ccbp_ctrl", 232805, 2.16, 0, 1, HD_PMECH_CCBP, HD_PEV_launches},
    /* HAWS (Gong ch.5): one per warp of the thesis's 40 (two rename tables) */
    {"haws_rcu", 3048, 0, 40, 0, HD_PMECH_HAWS, HD_PEV_haws_rcu_ops},
    {"haws_rename", 3016, 0, 80, 0, HD_PMECH_HAWS, HD_PEV_haws_rename_ops},
    {"haws_shadow_stack", 47579, 0, 40, 0, HD_PMECH_HAWS, HD_PEV_haws_stack_ops},
    {"haws_warp_ctl", 7899, 0, 40, 0, HD_PMECH_HAWS, HD_PEV_haws_ctl_ops},
    /* Gong ch.6 locality-aware distribution and warp-group scheduling */
    {"locality_cta_dist", 20182, 0, 0, 1, HD_PMECH_LOC_DIST, HD_PEV_cta_events},
    {"locality_group_sched", 4200, 0, 4, 0, HD_PMECH_LOC_SCHED, HD_PEV_issues},
};
#undef ALWAYS

const struct hd_power_block *hd_power_blocks(unsigned *n)
{
    *n = sizeof blocks / sizeof blocks[0];
    return blocks;
}

/* Is mechanism m configured? Shieh's tables are stepped when the preemption policy decides from
 * them: the Running TB Status for every Shieh-family policy, the other three for shieh and
 * oracle (model/mech/shieh/shieh_mech.c). */
static bool mech_on(enum hd_power_mech m, const struct hd_config *cfg)
{
    const enum hd_cfg_preemptpol pol = cfg->context_preempt_policy;
    const bool shieh = pol == HD_PREEMPTPOL_SHIEH || pol == HD_PREEMPTPOL_ORACLE;
    const enum hd_cfg_alloc a = cfg->sm_allocator;
    switch (m) {
    case HD_PMECH_ALWAYS:
        return true;
    case HD_PMECH_PPOINTS:
        return cfg->context_points == HD_PPOINTS_SELECTIVE;
    case HD_PMECH_COMPRESSED:
        return cfg->context_save == HD_CTXSAVE_COMPRESSED ||
               cfg->context_save == HD_CTXSAVE_COMPRESSED_TB;
    case HD_PMECH_COMPRESSED_TB:
        return cfg->context_save == HD_CTXSAVE_COMPRESSED_TB;
    case HD_PMECH_LIN_TABLES:
        return a == HD_ALLOC_LIN_TABLES;
    case HD_PMECH_SHIEH:
        return shieh;
    case HD_PMECH_SHIEH_STATUS:
        return shieh || pol == HD_PREEMPTPOL_CHIMERA || pol == HD_PREEMPTPOL_CHIMERA_PLUS;
    case HD_PMECH_EXPARS:
        return a == HD_ALLOC_EXPARS;
    case HD_PMECH_EXPARS_PREF:
        return a == HD_ALLOC_EXPARS && cfg->expars_prefetch;
    case HD_PMECH_LTLWS:
        return cfg->sm_scheduler == HD_SCHED_LTLWS_LRR || cfg->sm_scheduler == HD_SCHED_LTLWS_GTO;
    case HD_PMECH_ZORUA:
        return a == HD_ALLOC_ZORUA;
    case HD_PMECH_GPUDUET:
        return a == HD_ALLOC_GPUDUET || a == HD_ALLOC_GPUDUET_TB;
    case HD_PMECH_GPUDUET_MON:
        return (a == HD_ALLOC_GPUDUET || a == HD_ALLOC_GPUDUET_TB) && cfg->gpuduet_dynamic;
    case HD_PMECH_CCBP:
        return cfg->ccbp_enable;
    case HD_PMECH_HAWS:
        return cfg->haws_enable;
    case HD_PMECH_LOC_DIST:
        return cfg->timing_cta_dist == HD_CTADIST_LOCALITY;
    case HD_PMECH_LOC_SCHED:
        return cfg->sm_scheduler == HD_SCHED_LOCALITY;
    case HD_PMECH_COUNT:
        break;
    }
    return false;
}

bool hd_power_block_used(const struct hd_power_block *b, const struct hd_config *cfg)
{
    return mech_on((enum hd_power_mech)b->mech, cfg);
}

double hd_power_block_access_j(const struct hd_power_block *b, const struct hd_config *cfg)
{
    return b->ge * cfg->power_ge_activity * cfg->power_e_ge_fj * 1e-15 + b->sram_pj * 1e-12;
}

double hd_power_block_leak_w(const struct hd_power_block *b, const struct hd_config *cfg)
{
    const double inst = b->per_sm ? (double)b->per_sm * cfg->gpu_num_sms : b->per_gpu;
    return b->ge * cfg->power_ge_leak_nw * 1e-9 * inst;
}

int hd_power_blocks_terms(struct hd_power_params *p, const struct hd_config *cfg)
{
    for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        const struct hd_power_block *b = &blocks[i];
        if (!hd_power_block_used(b, cfg))
            continue;
        if (p->nterms + 2 > HD_POWER_MAX_TERMS)
            return -1;
        const double leak = hd_power_block_leak_w(b, cfg);
        p->term[p->nterms++] = (struct hd_power_term){b->event, HD_PC_blocks, false,
                                                      hd_power_block_access_j(b, cfg)};
        p->term[p->nterms++] = (struct hd_power_term){HD_PEV_cycles, HD_PC_blocks, true,
                                                      leak / p->core_hz};
        p->blocks_leak_w += leak;
    }
    return 0;
}
