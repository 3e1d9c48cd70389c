/* SPDX-License-Identifier: MIT
 * timing_params.c - the timing model's parameters from the GPU configuration.
 *
 * Design: see timing_params.h. Checks that only the timing model cares about (power-of-two
 * granules, a cache line that holds whole instructions) are made here and name the key.
 */
#include "timing_params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tclass_names[HD_TC_COUNT] = {
    "int_alu", "int_mul", "int_div", "fp", "fp_div", "dp", "dp_div", "sfu",
    "branch", "mem", "barrier", "membar", "nop", "int_max", "int_mad", "fp_max", "fp_mul",
    "fp_mad", "shfl", "untabled_int", "untabled_mul", "untabled_fp", "untabled_dp"};

const char *hd_tclass_name(enum hd_tclass c)
{
    return (unsigned)c < HD_TC_COUNT ? tclass_names[c] : "?";
}

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static int fail(char *err, size_t errlen, const char *key, const char *msg, uint64_t v)
{
    snprintf(err, errlen, "key '%s': %llu %s", key, (unsigned long long)v, msg);
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The preemption signals' cycles: [context] signals spread over signal_span, and signal_at. */
static int signal_cycles(const struct hd_config *c, struct hd_ctx_params *x, char *err,
                         size_t errlen)
{
    x->nsignals = 0;
    const uint32_t n = c->context_signals;
    if (n && !c->context_signal_span)
        return fail(err, errlen, "signals", "signals need [context] signal_span (cycles)", n);
    for (uint32_t i = 1; i <= n; i++)
        x->signal_at[x->nsignals++] = c->context_signal_span * i / (n + 1);
    const char *s = c->context_signal_at.s;
    uint32_t listed = 0;
    while (*s) {
        if (*s == ' ' || *s == ',' || *s == '\t') {
            s++;
            continue;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || (*end && *end != ' ' && *end != ',' && *end != '\t')) {
            snprintf(err, errlen, "key 'signal_at': '%s' is not a list of cycles", c->context_signal_at.s);
            return -1;
        }
        if (++listed > 64)
            return fail(err, errlen, "signal_at", "cycles listed: at most 64", listed);
        x->signal_at[x->nsignals++] = v;
        s = end;
    }
    qsort(x->signal_at, x->nsignals, sizeof *x->signal_at, cmp_u64);
    return 0;
}

static void set_class(struct hd_sm_params *s, enum hd_tclass c, uint32_t lat, uint32_t ii,
                      enum hd_tunit u)
{
    s->lat[c] = lat;
    s->ii[c] = ii;
    s->unit_of[c] = u;
}

static void init_classes(const struct hd_config *c, struct hd_sm_params *s)
{
    const enum hd_tunit dp = c->pipeline_dp_units ? HD_TU_DP : HD_TU_SP;
    set_class(s, HD_TC_INT_ALU, c->pipeline_lat_int_alu, c->pipeline_ii_int_alu, HD_TU_SP);
    set_class(s, HD_TC_INT_MUL, c->pipeline_lat_int_mul, c->pipeline_ii_int_mul, HD_TU_SP);
    set_class(s, HD_TC_INT_DIV, c->pipeline_lat_int_div, c->pipeline_ii_int_div, HD_TU_SP);
    set_class(s, HD_TC_FP, c->pipeline_lat_fp, c->pipeline_ii_fp, HD_TU_SP);
    set_class(s, HD_TC_FP_DIV, c->pipeline_lat_fp_div, c->pipeline_ii_fp_div, HD_TU_SP);
    set_class(s, HD_TC_DP, c->pipeline_lat_dp, c->pipeline_ii_dp, dp);
    set_class(s, HD_TC_DP_DIV, c->pipeline_lat_dp_div, c->pipeline_ii_dp_div, dp);
    set_class(s, HD_TC_SFU, c->pipeline_lat_sfu, c->pipeline_ii_sfu, HD_TU_SFU);
    /* a branch resolves in the SP pipeline like an integer add */
    set_class(s, HD_TC_BRANCH, c->pipeline_lat_int_alu, c->pipeline_ii_int_alu, HD_TU_SP);
    /* the finer classes: their own keys, else the parent's values (today's behaviour) */
    const struct {
        enum hd_tclass c, parent;
        uint32_t lat, ii;
    } fine[] = {
        {HD_TC_INT_MAX, HD_TC_INT_ALU, c->pipeline_lat_int_max, c->pipeline_ii_int_max},
        {HD_TC_INT_MAD, HD_TC_INT_MUL, c->pipeline_lat_int_mad, c->pipeline_ii_int_mad},
        {HD_TC_FP_MAX, HD_TC_FP, c->pipeline_lat_fp_max, c->pipeline_ii_fp_max},
        {HD_TC_FP_MUL, HD_TC_FP, c->pipeline_lat_fp_mul, c->pipeline_ii_fp_mul},
        {HD_TC_FP_MAD, HD_TC_FP, c->pipeline_lat_fp_mad, c->pipeline_ii_fp_mad},
        {HD_TC_SHFL, HD_TC_INT_ALU, c->pipeline_lat_shfl, c->pipeline_ii_shfl},
        {HD_TC_UT_INT, HD_TC_INT_ALU, c->pipeline_lat_untabled, c->pipeline_ii_untabled},
        {HD_TC_UT_MUL, HD_TC_INT_MUL, c->pipeline_lat_untabled, c->pipeline_ii_untabled},
        {HD_TC_UT_FP, HD_TC_FP, c->pipeline_lat_untabled, c->pipeline_ii_untabled},
        {HD_TC_UT_DP, HD_TC_DP, c->pipeline_lat_untabled, c->pipeline_ii_untabled},
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
        set_class(s, fine[i].c, fine[i].lat ? fine[i].lat : s->lat[fine[i].parent],
                  fine[i].ii ? fine[i].ii : s->ii[fine[i].parent], s->unit_of[fine[i].parent]);
    if (c->pipeline_lat_untabled) /* GPGPU-Sim: a branch is an untabled instruction too */
        s->lat[HD_TC_BRANCH] = c->pipeline_lat_untabled;
    if (c->pipeline_ii_untabled)
        s->ii[HD_TC_BRANCH] = c->pipeline_ii_untabled;
    /* [pipeline] unit_*: GPGPU-Sim 3.x issues integer mul/mad and every div to the SFU pipeline
     * (SFU_OP) and FP32 mul to either (ALU_SFU_OP); its untabled opcodes (the UT_ classes:
     * sad, dp4a, ...) are ALU_OP and keep their unit */
    const struct {
        enum hd_tclass c;
        enum hd_cfg_xunit x;
    } moved[] = {
        {HD_TC_INT_MUL, c->pipeline_unit_int_mul}, {HD_TC_INT_MAD, c->pipeline_unit_int_mul},
        {HD_TC_INT_DIV, c->pipeline_unit_int_div}, {HD_TC_FP_MUL, c->pipeline_unit_fp_mul},
        {HD_TC_FP_DIV, c->pipeline_unit_fp_div},   {HD_TC_DP_DIV, c->pipeline_unit_dp_div},
    };
    for (size_t i = 0; i < HD_TC_COUNT; i++)
        s->sfu_fallback[i] = false;
    for (size_t i = 0; i < sizeof moved / sizeof moved[0]; i++) {
        if (moved[i].x == HD_XUNIT_SFU)
            s->unit_of[moved[i].c] = HD_TU_SFU;
        s->sfu_fallback[moved[i].c] = moved[i].x == HD_XUNIT_SP_OR_SFU &&
                                      s->unit_of[moved[i].c] != HD_TU_SFU;
    }
    set_class(s, HD_TC_MEM, 1, 1, HD_TU_MEM);
    set_class(s, HD_TC_BARRIER, 0, 0, HD_TU_NONE);
    set_class(s, HD_TC_MEMBAR, 0, 0, HD_TU_NONE);
    set_class(s, HD_TC_NOP, 0, 0, HD_TU_NONE);
}

int hd_timing_params_init(const struct hd_config *c, struct hd_gpu_timing_params *p, char *err,
                          size_t errlen)
{
    struct hd_sm_params *s = &p->sm;
    p->num_sms = c->gpu_num_sms;
    p->core_mhz = c->clock_core_mhz;
    s->max_threads = c->sm_max_threads;
    s->max_warps = c->sm_max_threads / c->gpu_warp_size;
    s->max_ctas = c->sm_logical_ctas > c->sm_max_ctas ? c->sm_logical_ctas : c->sm_max_ctas;
    s->phys_ctas = c->sm_max_ctas;
    s->logical_warps = c->sm_logical_warps > s->max_warps ? c->sm_logical_warps : s->max_warps;
    s->warp_move_bytes = c->sm_warp_move_bytes;
    s->warp_stress_period = c->sm_warp_stress_period;
    s->warp_stress_seed = c->sm_warp_stress_seed;
    s->residency = s->logical_warps != s->max_warps || s->max_ctas != s->phys_ctas ||
                   s->warp_stress_period != 0 ||
                   c->sm_allocator == HD_ALLOC_WARPMAN; /* (its partial CTA's waiting warps) */
    s->fresh_unstarted = c->sm_allocator == HD_ALLOC_WARPMAN;
    s->absent_by_mech = c->sm_allocator == HD_ALLOC_GPUDUET ||
                        c->sm_allocator == HD_ALLOC_GPUDUET_TB || c->sm_allocator == HD_ALLOC_VT;
    s->slot_with_cta = c->sm_allocator == HD_ALLOC_PARTITIONED || s->absent_by_mech;
    s->warp_mover = c->sm_warp_mover;
    s->z_mt_latency = c->zorua_mt_latency;
    s->z_c_delta = c->zorua_c_delta_thresh;
    s->z_epoch = c->zorua_epoch;
    s->z_reg_set = c->zorua_reg_set;
    s->z_smem_set = c->zorua_smem_set;
    s->z_oversub = c->zorua_oversubscribe;
    s->z_o_default = c->zorua_o_default_pct;
    s->z_o_step = c->zorua_o_step_pct;
    s->z_o_max = c->zorua_o_max_pct;
    s->z_floor = c->zorua_floor_pct;
    s->z_req_virtual = c->zorua_request_virtual;
    s->z_floor_bar = c->zorua_floor_barrier;
    s->z_swap_l1 = c->zorua_swap_l1;
    s->z_in_loop = c->zorua_in_loop;
    s->z_loop_fault = c->zorua_loop_fault;
    s->expars_tau_milli = (uint32_t)(c->expars_tau * 1000.0 + 0.5);
    s->expars_oc_lines = c->expars_oc_lines;
    s->expars_oc_banks = c->expars_oc_banks;
    s->expars_oc_ways = c->expars_oc_ways;
    s->expars_bundle_regs = c->expars_bundle_regs;
    s->expars_fill_latency = c->expars_fill_latency;
    s->expars_spad_shared = c->expars_spad_shared;
    s->expars_check = c->expars_check;
    s->expars_fault = c->expars_fault;
    s->expars_prefetch = c->expars_prefetch;
    memcpy(s->expars_log, c->expars_log.s, sizeof s->expars_log);
    s->expars_pref_spad = c->expars_pref_spad;
    s->expars_renumber = c->expars_renumber;
    s->expars_unpin_wait = c->expars_unpin_wait;
    s->expars_pool_sched = c->expars_pool_sched;
    s->expars_ideal = c->expars_ideal;
    s->registers = c->sm_registers;
    s->shared_bytes = c->sm_shared_mem_bytes;
    s->max_regs_per_thread = c->sm_max_regs_per_thread;
    s->concurrent_kernels = c->sm_concurrent_kernels;
    s->num_sched = c->sm_num_schedulers;
    s->sched = c->sm_scheduler;
    s->alloc = c->sm_allocator;
    s->sched_active = c->sm_sched_active_warps;
    s->issue_width = c->pipeline_issue_width;
    s->fetch_per_cycle = c->pipeline_fetch_per_cycle;
    s->ibuffer = c->pipeline_ibuffer_entries;
    s->decode_cycles = c->pipeline_decode_cycles;
    s->inst_bytes = c->pipeline_inst_bytes;
    s->ic_sets = c->pipeline_icache_sets;
    s->ic_ways = c->pipeline_icache_ways;
    s->ic_line = c->pipeline_icache_line;
    s->units[HD_TU_SP] = c->pipeline_sp_units;
    s->units[HD_TU_SFU] = c->pipeline_sfu_units;
    s->units[HD_TU_DP] = c->pipeline_dp_units;
    s->units[HD_TU_MEM] = c->pipeline_ldst_units;
    s->cus[HD_TU_SP] = c->pipeline_cu_sp;
    s->cus[HD_TU_SFU] = c->pipeline_cu_sfu;
    s->cus[HD_TU_DP] = c->pipeline_dp_units ? c->pipeline_cu_dp : 0;
    s->cus[HD_TU_MEM] = c->pipeline_cu_mem;
    s->reg_banks = c->sm_reg_banks;
    s->bank_reads = c->pipeline_reg_bank_reads;
    s->bank_physical = c->pipeline_reg_bank_source == HD_REGBANK_PHYSICAL;
    s->bank_warp_offset = c->pipeline_reg_bank_warp_offset;
    s->oc_alloc_cycles = c->pipeline_oc_alloc_cycles;
    s->alu_dispatch_cycles = c->pipeline_alu_dispatch_cycles;
    s->wb_ports = c->pipeline_wb_ports;
    init_classes(c, s);
    s->branch_cycles = c->pipeline_branch_cycles;
    s->diverge_cycles = c->pipeline_diverge_cycles;
    s->shared_latency = c->pipeline_shared_latency;
    s->shared_atomic_serialize = c->sm_shared_atomic_conflicts == HD_SHATOM_SERIALIZE;
    s->const_latency = c->pipeline_const_latency;
    s->shared_banks = c->sm_shared_banks;
    s->seg_bytes = c->pipeline_ldst_sectors ? 32 : c->pipeline_ldst_segment_bytes;
    s->max_loads = c->pipeline_ldst_max_loads;
    /* the longest delay anything is scheduled ahead: a shared access with a full 32-way
     * conflict of 16-byte lanes (128 words in one bank) after its latency, or a pipeline */
    uint32_t md = s->shared_latency + 128;
    for (int k = 0; k < HD_TC_COUNT; k++)
        md = s->lat[k] > md ? s->lat[k] : md;
    md = s->const_latency > md ? s->const_latency : md;
    md = s->decode_cycles > md ? s->decode_cycles : md;
    s->max_delay = md + 2 + 2 * s->z_mt_latency; /* (+ a lookup stage and a shared lookup) */
    s->pp_selective = c->context_points == HD_PPOINTS_SELECTIVE;
    s->pp_k = c->context_pp_k;

    p->mem.num_sms = p->num_sms;
    p->mem.latency = c->mem_fixed_latency;
    p->mem.bytes_per_cycle = c->mem_fixed_bytes_per_cycle;
    p->mem.max_inflight = c->mem_fixed_max_inflight;
    p->cta_dist = c->timing_cta_dist;
    p->kernel_select = c->timing_kernel_select;
    p->max_kernels = c->timing_max_concurrent_kernels;
    p->watchdog = c->timing_watchdog_cycles;
    if (p->watchdog == 0) { /* derived: no legal latency can outlast it */
        uint64_t lat = (uint64_t)c->mem_fixed_latency + c->l1d_latency + c->l1c_latency +
                       2ull * c->icnt_latency + c->l2_latency + c->dram_latency + c->dram_trc +
                       c->pipeline_shared_latency + c->pipeline_const_latency;
        p->watchdog = 4 * lat > 200000 ? 4 * lat : 200000;
    }
    p->max_cycles = c->timing_max_cycles;
    p->max_instrs = c->timing_max_instructions;
    p->skip_idle = c->timing_skip_idle;
    p->admit = c->timing_admit;
    p->admit_quota = c->timing_admit_quota;
    memcpy(p->probe_log, c->timing_probe_log.s, sizeof p->probe_log);
    p->probe_window = c->timing_probe_window;
    p->ccbp = (struct hd_ccbp_params){
        .enable = c->ccbp_enable, .ls_first = c->ccbp_ls_first, .window = c->ccbp_window,
        .period = c->ccbp_period, .monitor_window = c->ccbp_monitor_window,
        .budget = c->ccbp_budget, .prior_ls = c->ccbp_prior_ls,
        .noc_sustain = c->ccbp_noc_sustain, .dram_sustain = c->ccbp_dram_sustain,
        .l2_slices = c->dram_channels * c->l2_slices_per_channel,
        .dram_channels = c->dram_channels, .icnt_mhz = c->clock_icnt_mhz,
        .dram_mhz = c->clock_dram_mhz, .blocks = c->ccbp_blocks,
        .blocks_fault = c->ccbp_blocks_fault, .alg1_step_cycles = c->ccbp_alg1_step_cycles};
    memcpy(p->ccbp.ctas, c->ccbp_ctas.s, sizeof p->ccbp.ctas);
    memcpy(p->ccbp.quota, c->ccbp_quota.s, sizeof p->ccbp.quota);
    p->ccbp.smk_epoch = c->ccbp_smk_epoch;
    memcpy(p->ccbp.smk_quota, c->ccbp_smk_quota.s, sizeof p->ccbp.smk_quota);
    memcpy(p->ccbp.mil, c->ccbp_mil.s, sizeof p->ccbp.mil);
    p->ccbp.mil_epoch = c->ccbp_mil_epoch;
    p->ccbp.ws_online = c->ccbp_ws_online;
    p->ccbp.ws_reprofile = c->ccbp_ws_reprofile;
    p->ccbp.ws_warmup = c->ccbp_ws_warmup;
    p->ccbp.ws_sample = c->ccbp_ws_sample;
    memcpy(p->ccbp.ws_rule, c->ccbp_ws_rule.s, sizeof p->ccbp.ws_rule);
    memcpy(p->ccbp.types, c->ccbp_types.s, sizeof p->ccbp.types);
    memcpy(p->ccbp.profile, c->ccbp_profile.s, sizeof p->ccbp.profile);
    memcpy(p->ccbp.log, c->ccbp_log.s, sizeof p->ccbp.log);
    p->haws.enable = c->haws_enable;
    p->haws.rcu_depth = c->haws_rcu_depth;
    p->haws.window = c->haws_window;
    p->haws.hint_fetch_cycles = c->haws_hint_fetch_cycles;
    p->haws.loads = c->haws_loads;
    p->haws.wpe = c->haws_wpe;
    p->haws.blocks = c->haws_blocks;
    p->haws.blocks_fault = c->haws_blocks_fault;
    p->haws.back_edges = c->haws_back_edges;
    p->cta_dist_chunk = c->timing_cta_dist_chunk;
    p->cta_dist_order = c->timing_cta_dist_order;
    p->gduet.dynamic = c->gpuduet_dynamic;
    p->loc.blocks = c->locality_blocks;
    p->loc.fault_grant = c->locality_fault_grant;
    p->loc.fault_pick = c->locality_fault_pick;
    p->exb.blocks = c->expars_blocks;
    p->exb.blocks_fault = c->expars_blocks_fault;
    p->gduet.me = c->gpuduet_me;
    p->gduet.warmup = c->gpuduet_warmup;
    p->gduet.window = c->gpuduet_window;
    memcpy(p->gduet.log, c->gpuduet_log.s, sizeof p->gduet.log);
    p->gduet.l2_slices = c->dram_channels * c->l2_slices_per_channel;
    p->gduet.dram_channels = c->dram_channels;
    p->gduet.l1d_units = (uint32_t)((uint64_t)c->l1d_sets * c->l1d_ways * c->l1d_line / 128u);
    p->gduet.icnt_ratio = c->clock_icnt_mhz / c->clock_core_mhz;
    p->gduet.l2_ratio = c->clock_l2_mhz / c->clock_core_mhz;
    p->gduet.dram_ratio = c->clock_dram_mhz / c->clock_core_mhz;
    p->gduet.blocks = c->gpuduet_blocks;
    p->gduet.monitor_blocks = c->gpuduet_monitor_blocks;
    p->gduet.blocks_fault = c->gpuduet_blocks_fault;
    p->ctx.preempt = c->context_preempt;
    p->ctx.priority = c->context_priority;
    p->ctx.save = c->context_save;
    p->ctx.latency_bound = c->context_latency_bound;
    p->ctx.sm_bytes_per_cycle = (double)c->dram_channels * c->dram_bus_bytes * c->dram_data_rate *
                                c->clock_dram_mhz / c->clock_core_mhz / c->gpu_num_sms;
    p->ctx.segment_bytes = c->context_segment_bytes;
    p->ctx.requests_per_cycle = c->context_requests_per_cycle;
    p->ctx.stress_period = c->context_stress_period;
    p->ctx.stress_fraction = c->context_stress_fraction;
    p->ctx.stress_seed = c->context_stress_seed;
    p->ctx.stress_flush = c->context_stress_flush;
    p->oloc_stress = (struct hd_oloc_stress_params){c->oloc_stress_period, c->oloc_stress_rate,
                                                    c->oloc_stress_seed,
                                                    c->oloc_stress_spad_shared};
    p->ctx.points = c->context_points;
    p->ctx.pp_wait_limit = c->context_pp_wait_limit;
    p->ctx.policy = c->context_preempt_policy;
    memcpy(p->ctx.oracle_profile, c->context_oracle_profile.s, sizeof p->ctx.oracle_profile);
    p->ctx.kstats_per_launch = c->context_kstats_per_launch;
    p->ctx.preempt_sms = c->context_preempt_sms;
    p->ctx.flush_bit = c->context_flush_bit;
    p->ctx.switch_model = c->context_switch_model;
    p->ctx.inplace_split = c->context_inplace_split;
    p->ctx.save_order = c->context_save_order;
    p->ctx.inplace_stop = c->context_inplace_stop;
    p->ctx.preempt_hold = c->context_preempt_hold;
    p->ctx.preempt_hold_all = c->context_preempt_hold_all;
    p->ctx.signal_sms = c->context_signal_sms;
    if (signal_cycles(c, &p->ctx, err, errlen) != 0)
        return -1;
    p->ctx.mover_bytes_per_cycle = c->context_mover_bytes_per_cycle;
    p->ctx.mover_l1d_ways = c->context_mover_l1d_ways;
    p->ctx.swap_stress_period = c->context_swap_stress_period;
    p->ctx.move_stress_period = c->context_move_stress_period;
    p->ctx.vstress_fraction = c->context_vstress_fraction;
    p->ctx.vstress_away = c->context_vstress_away;
    p->ctx.vstress_piece = c->context_vstress_piece;
    if (p->ctx.move_stress_period && (!p->ctx.mover_l1d_ways || c->mem_model != HD_MEMMODEL_FULL))
        return fail(err, errlen, "move_stress_period",
                    "needs [context] mover_l1d_ways >= 1 and [mem] model = full (the L1D region)",
                    p->ctx.move_stress_period);
    if (s->warp_mover == HD_WMOVER_ONCHIP &&
        (!p->ctx.mover_l1d_ways || c->mem_model != HD_MEMMODEL_FULL))
    {
        snprintf(err, errlen, "key 'warp_mover': onchip needs [context] mover_l1d_ways >= 1 and "
                              "[mem] model = full (the L1D context region)");
        return -1;
    }
    p->ctx.quiesce = c->context_quiesce;
    p->ctx.signal_period = c->context_signal_period;
    p->ctx.signal_until = c->context_signal_until;
    memcpy(p->ctx.signal_kernel, c->context_signal_kernel.s, sizeof p->ctx.signal_kernel);

    if (!pow2(c->pipeline_ldst_segment_bytes))
        return fail(err, errlen, "ldst_segment_bytes", "is not a power of two",
                    c->pipeline_ldst_segment_bytes);
    if (!pow2(s->ic_line))
        return fail(err, errlen, "icache_line", "is not a power of two", s->ic_line);
    if (s->ic_line % s->inst_bytes != 0)
        return fail(err, errlen, "icache_line", "is not a multiple of inst_bytes", s->ic_line);
    if (s->alloc == HD_ALLOC_LIN_TABLES && s->registers / 32u > 4095u) /* tables/alloc_table.h */
        return fail(err, errlen, "registers", "is more than allocator = lin_tables holds (4095 "
                    "vector registers of 32)", s->registers);
    if (s->alloc == HD_ALLOC_LIN_TABLES && s->shared_bytes / 128u > 4095u)
        return fail(err, errlen, "shared_mem_bytes", "is more than allocator = lin_tables holds "
                    "(4095 units of 128 B)", s->shared_bytes);
    if ((s->logical_warps != s->max_warps || s->max_ctas != s->phys_ctas) &&
        s->alloc != HD_ALLOC_PARTITIONED && s->alloc != HD_ALLOC_WLM &&
        s->alloc != HD_ALLOC_ZORUA && s->alloc != HD_ALLOC_GPUDUET &&
        s->alloc != HD_ALLOC_GPUDUET_TB && s->alloc != HD_ALLOC_VT) /* partial grants */
        return fail(err, errlen, "logical_warps",
                    "(or logical_ctas) above the physical slots needs allocator = partitioned, "
                    "wlm, zorua, gpuduet, gpuduet_tb or vt",
                    s->logical_warps);
    if ((s->logical_warps != s->max_warps || s->max_ctas != s->phys_ctas) &&
        p->ctx.stress_period) /* a context is saved and restored with every warp in a slot */
        return fail(err, errlen, "logical_warps",
                    "(or logical_ctas) above the physical slots cannot be combined with "
                    "[context] stress_period", s->logical_warps);
    if ((s->alloc == HD_ALLOC_WLM || s->alloc == HD_ALLOC_ZORUA) &&
        (s->logical_warps == s->max_warps && s->max_ctas == s->phys_ctas))
        return fail(err, errlen, "allocator", "wlm and zorua admit partial CTAs: they need "
                    "[sm] logical_warps (or logical_ctas) above the physical slots (Zorua: 64 "
                    "and 16 on Fermi)", s->logical_warps);
    if ((s->alloc == HD_ALLOC_WLM || s->alloc == HD_ALLOC_ZORUA) &&
        (s->logical_warps > 256 || s->max_ctas > 64 || s->max_warps > 0xFFF0u))
        return fail(err, errlen, "logical_warps", "is more than allocator = wlm/zorua holds "
                    "(256 logical warps, 64 logical CTAs)", s->logical_warps);
    if (s->alloc == HD_ALLOC_WARPMAN && s->warp_stress_period) /* (model/mech/warpman) */
        return fail(err, errlen, "warp_stress_period",
                    "cannot be combined with allocator = warpman (a switched-out warp's "
                    "registers could go to the partial CTA's waiting warps while its CTA waits "
                    "for it at a barrier)", s->warp_stress_period);
    if (s->alloc == HD_ALLOC_ALIGNED && s->max_ctas > 64) /* shieh_alloc_aligned.h: bitsets */
        return fail(err, errlen, "max_ctas", "is more than allocator = aligned holds (64)",
                    s->max_ctas);
    return 0;
}
