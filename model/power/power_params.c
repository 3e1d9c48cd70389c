/* SPDX-License-Identifier: MIT
 * power_params.c - the price list of the energy model from [power] (docs/power.md).
 *
 * Design: every term is added here, once; the per-event energies come straight from the
 * configuration (pJ -> J), the static powers become joules per core cycle, and the DRAM
 * energies are derived from the IDD currents and the [dram] timings (power_params.h).
 */
#include "power_params.h"

#include "power_blocks.h"

#include <stdio.h>

static const char *const comp_names[] = {
#define HD_PCOMP(name, label, doc) #name,
#include "power_comps.def"
#undef HD_PCOMP
};
static const char *const comp_labels[] = {
#define HD_PCOMP(name, label, doc) label,
#include "power_comps.def"
#undef HD_PCOMP
};

const char *hd_pcomp_name(enum hd_pcomp c)
{
    return c < HD_PC_COUNT ? comp_names[c] : "?";
}

const char *hd_pcomp_label(enum hd_pcomp c)
{
    return c < HD_PC_COUNT ? comp_labels[c] : "?";
}

static int add(struct hd_power_params *p, enum hd_pevent ev, enum hd_pcomp comp, bool is_static,
               double joules)
{
    if (p->nterms >= HD_POWER_MAX_TERMS)
        return -1;
    p->term[p->nterms++] = (struct hd_power_term){(unsigned char)ev, (unsigned char)comp,
                                                  is_static, joules};
    return 0;
}

#define PJ 1e-12

int hd_power_params_init(struct hd_power_params *p, const struct hd_config *cfg, char *err,
                         size_t errlen)
{
    *p = (struct hd_power_params){0};
    const double f = cfg->clock_core_mhz * 1e6, per_cycle = 1.0 / f;
    const double tck = 1.0 / (cfg->clock_dram_mhz * 1e6);
    p->core_hz = f;
    int r = 0;
    /* SM core */
    r |= add(p, HD_PEV_fetches, HD_PC_fetch, false, cfg->power_e_fetch_pj * PJ);
    r |= add(p, HD_PEV_issues, HD_PC_sched, false, cfg->power_e_issue_pj * PJ);
    r |= add(p, HD_PEV_rf_reads, HD_PC_rf, false, cfg->power_e_rf_read_pj * PJ);
    r |= add(p, HD_PEV_rf_writes, HD_PC_rf, false, cfg->power_e_rf_write_pj * PJ);
    r |= add(p, HD_PEV_opc_words, HD_PC_opc, false, cfg->power_e_opc_word_pj * PJ);
    r |= add(p, HD_PEV_oloc_reads, HD_PC_opc, false, cfg->power_e_opc_word_pj * PJ);
    r |= add(p, HD_PEV_lanes_int, HD_PC_alu_int, false, cfg->power_e_int_lane_pj * PJ);
    r |= add(p, HD_PEV_lanes_intmul, HD_PC_alu_int, false, cfg->power_e_intmul_lane_pj * PJ);
    r |= add(p, HD_PEV_lanes_fp, HD_PC_alu_fp, false, cfg->power_e_fp_lane_pj * PJ);
    r |= add(p, HD_PEV_lanes_dp, HD_PC_alu_dp, false, cfg->power_e_dp_lane_pj * PJ);
    r |= add(p, HD_PEV_lanes_sfu, HD_PC_alu_sfu, false, cfg->power_e_sfu_lane_pj * PJ);
    r |= add(p, HD_PEV_ldst_accesses, HD_PC_ldst, false, cfg->power_e_ldst_pj * PJ);
    r |= add(p, HD_PEV_smem_passes, HD_PC_smem, false, cfg->power_e_smem_pass_pj * PJ);
    r |= add(p, HD_PEV_l1d_lookups, HD_PC_l1d, false, cfg->power_e_l1d_tag_pj * PJ);
    r |= add(p, HD_PEV_l1d_data, HD_PC_l1d, false, cfg->power_e_l1d_data_pj * PJ);
    r |= add(p, HD_PEV_l1c_accesses, HD_PC_l1c, false, cfg->power_e_l1c_pj * PJ);
    /* EXPARS: a register line through the scratchpad's 32 banks is one pass; the 2 KB operand
     * cache is a 16 x 1024 array, the collector array's geometry (synth/papers.ini: 28.41 pJ) */
    r |= add(p, HD_PEV_expars_spad_passes, HD_PC_smem, false, cfg->power_e_smem_pass_pj * PJ);
    r |= add(p, HD_PEV_expars_oc_accesses, HD_PC_opc, false, cfg->power_e_opc_word_pj * PJ);
    /* SM time: pipeline power while active, static power always (less gating while idle) */
    r |= add(p, HD_PEV_sm_active_cycles, HD_PC_sm_active, false,
             cfg->power_sm_active_w * per_cycle);
    r |= add(p, HD_PEV_sm_active_cycles, HD_PC_sm_static, true, cfg->power_sm_idle_w * per_cycle);
    r |= add(p, HD_PEV_sm_idle_cycles, HD_PC_sm_static, true,
             cfg->power_sm_idle_w * (1.0 - cfg->power_idle_sm_gating) * per_cycle);
    /* interconnect, L2, memory controllers */
    r |= add(p, HD_PEV_flits, HD_PC_icnt, false,
             cfg->power_e_flit_hop_pj * PJ * cfg->power_icnt_hops);
    r |= add(p, HD_PEV_cycles, HD_PC_icnt, true, cfg->power_noc_static_w * per_cycle);
    r |= add(p, HD_PEV_l2_lookups, HD_PC_l2, false, cfg->power_e_l2_tag_pj * PJ);
    r |= add(p, HD_PEV_l2_data, HD_PC_l2, false, cfg->power_e_l2_data_pj * PJ);
    const double slices = (double)cfg->dram_channels * cfg->l2_slices_per_channel;
    r |= add(p, HD_PEV_cycles, HD_PC_l2, true, slices * cfg->power_l2_slice_static_w * per_cycle);
    r |= add(p, HD_PEV_mc_requests, HD_PC_mc, false, cfg->power_e_mc_req_pj * PJ);
    r |= add(p, HD_PEV_cycles, HD_PC_mc, true,
             cfg->dram_channels * cfg->power_mc_static_w * per_cycle);
    /* GDDR5 devices (TN-41-01 method, power_params.h) */
    const double vdd = cfg->power_dram_vdd, chips = cfg->power_dram_chips_per_channel;
    const double idd0 = cfg->power_dram_idd0_ma * 1e-3, idd2n = cfg->power_dram_idd2n_ma * 1e-3;
    const double idd3n = cfg->power_dram_idd3n_ma * 1e-3, idd5 = cfg->power_dram_idd5_ma * 1e-3;
    const double idd4r = cfg->power_dram_idd4r_ma * 1e-3, idd4w = cfg->power_dram_idd4w_ma * 1e-3;
    double pair = (idd0 * cfg->dram_trc - (idd3n * cfg->dram_tras + idd2n * cfg->dram_trp)) * tck *
                  vdd * chips;
    p->dram_act_pre_j = pair > 0 ? pair : 0;
    const double t_burst = (double)cfg->dram_burst_length / cfg->dram_data_rate * tck;
    p->dram_rd_burst_j = (idd4r > idd3n ? idd4r - idd3n : 0) * vdd * t_burst * chips;
    p->dram_wr_burst_j = (idd4w > idd3n ? idd4w - idd3n : 0) * vdd * t_burst * chips;
    p->dram_ref_j = (idd5 > idd3n ? idd5 - idd3n : 0) * vdd * cfg->dram_trfc * tck * chips;
    p->dram_bg_w = idd2n * vdd * chips * cfg->dram_channels;
    r |= add(p, HD_PEV_dram_acts, HD_PC_dram, false, p->dram_act_pre_j / 2);
    r |= add(p, HD_PEV_dram_pres, HD_PC_dram, false, p->dram_act_pre_j / 2);
    r |= add(p, HD_PEV_dram_read_bursts, HD_PC_dram, false, p->dram_rd_burst_j);
    r |= add(p, HD_PEV_dram_write_bursts, HD_PC_dram, false, p->dram_wr_burst_j);
    r |= add(p, HD_PEV_dram_refs, HD_PC_dram, true, p->dram_ref_j);
    r |= add(p, HD_PEV_cycles, HD_PC_dram, true, p->dram_bg_w * per_cycle);
    r |= add(p, HD_PEV_dram_busy_cycles, HD_PC_dram, true,
             (idd3n > idd2n ? idd3n - idd2n : 0) * vdd * chips * tck);
    r |= add(p, HD_PEV_dram_bits, HD_PC_dram_io, false, cfg->power_e_dram_io_pj_bit * PJ);
    /* chip constant power */
    r |= add(p, HD_PEV_cycles, HD_PC_constant, true, cfg->power_const_w * per_cycle);
    /* the added RTL blocks in use (power_blocks.c) */
    if (r == 0)
        r = hd_power_blocks_terms(p, cfg);
    if (r != 0) {
        snprintf(err, errlen, "[power]: internal: more than %d energy terms", HD_POWER_MAX_TERMS);
        return -1;
    }
    return 0;
}
