/* SPDX-License-Identifier: MIT
 * power_events.c - the energy model's event counts from the timing and memory statistics
 * (power_events.h; which counter feeds which event is in docs/power.md "Events").
 */
#include "power_events.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
#define HD_PEVENT(name, doc) #name,
#include "power_events.def"
#undef HD_PEVENT
};

const char *hd_pevent_name(enum hd_pevent e)
{
    return e < HD_PEV_COUNT ? names[e] : "?";
}

#define N(ev, name) (ev)->n[HD_PEV_##name]

/* The SM-side events of one SM's counters. */
static void sm_core(struct hd_power_events *ev, const struct hd_sm_stats *s, uint64_t cycles)
{
    const double bank_reads = (double)(s->reg_reads - s->oloc_reads);
    N(ev, fetches) += (double)s->fetches;
    N(ev, issues) += (double)s->warp_instrs;
    N(ev, rf_reads) += bank_reads;
    N(ev, rf_writes) += (double)(s->reg_writes - s->expars_oc_writes);
    N(ev, opc_words) += bank_reads;
    N(ev, oloc_reads) += (double)s->oloc_reads;
    N(ev, lanes_int) += (double)s->lanes_int;
    N(ev, lanes_intmul) += (double)s->lanes_intmul;
    N(ev, lanes_fp) += (double)s->lanes_fp;
    N(ev, lanes_dp) += (double)s->lanes_dp;
    N(ev, lanes_sfu) += (double)s->lanes_sfu;
    const double passes = (double)(s->smem_instrs + s->smem_conflict_cycles);
    N(ev, ldst_accesses) += (double)(s->gmem_requests + s->const_instrs) + passes;
    N(ev, smem_passes) += passes;
    const uint64_t active = s->active_cycles < cycles ? s->active_cycles : cycles;
    N(ev, sm_active_cycles) += (double)active;
    N(ev, sm_idle_cycles) += (double)(cycles - active);
    N(ev, pp_decodes) += (double)s->pp_decodes;
    N(ev, ctx_save_vregs) += (double)s->ctx_save_bytes / 128.0;
    N(ev, ctx_restore_vregs) += (double)s->ctx_restore_bytes / 128.0;
    N(ev, ctx_tb_saves) += (double)s->ctx_tb_saves;
    N(ev, ctx_suspends) += (double)s->ctx_suspends;
    N(ev, cta_events) += (double)(s->ctas_launched + s->ctas_done);
    /* EXPARS: a fill reads the scratchpad and writes an OC line; a write-back reads the line and
     * writes the scratchpad; a destination in the OC is written there, not to a bank */
    N(ev, expars_spad_passes) += (double)(s->expars_fills + s->expars_writebacks);
    N(ev, expars_oc_accesses) +=
        (double)(s->expars_fills + s->expars_writebacks + s->expars_oc_writes);
    N(ev, expars_rat_lookups) += (double)s->expars_rat_lookups;
    /* the other mechanisms' blocks: one access each (docs/power.md "Added structures") */
    N(ev, expars_fills) += (double)s->expars_fills;
    /* Zorua's RMT: every operand word located through it and, on an SM whose operands go
     * through it (zorua_rf_reads > 0), every destination register; a set allocated writes it */
    N(ev, zorua_rmt_accesses) += (double)(s->zorua_rf_reads + s->zorua_reg_sets +
                                          (s->zorua_rf_reads ? s->reg_writes : 0));
    N(ev, zorua_coord_events) +=
        (double)(s->zorua_admitted + s->zorua_phase_events + s->zorua_epochs);
    N(ev, zorua_phase_events) += (double)s->zorua_phase_events;
    /* the SMT: each distinct set an ld/st.shared touches is looked up once; every entry
     * written (set allocated, released, swapped out or in); the TMT: every entry written (a warp
     * slot taken or given back, swapped out or in) */
    N(ev, zorua_smt_accesses) += (double)(s->zorua_smem_lookups + s->zorua_smt_updates);
    N(ev, zorua_tmt_accesses) += (double)s->zorua_tmt_updates;
    const double moves = (double)(s->warp_switch_outs + s->warp_switch_ins);
    N(ev, gpuduet_warp_events) += (double)(s->gpuduet_stalls + s->gpuduet_readies) + moves;
    N(ev, gpuduet_tb_events) += (double)(s->ctas_launched + s->ctas_done + s->gpuduet_tb_switches);
    N(ev, gpuduet_allocs) += (double)(s->ctas_launched + s->ctas_done) + moves;
    N(ev, warp_moves) += moves;
    N(ev, haws_rcu_ops) += (double)(s->haws_issued + s->haws_skips + s->haws_copies);
    N(ev, haws_rename_ops) += (double)(s->haws_issued + s->haws_copies);
    N(ev, haws_stack_ops) += (double)(s->haws_episodes + s->haws_branches);
    N(ev, haws_ctl_ops) += (double)(s->haws_episodes + s->haws_issued + s->haws_skips);
}

/* The L1 events of a memory-system record (an SM's or a kernel's). */
static void l1_events(struct hd_power_events *ev, const struct hd_mem_acct *m)
{
    N(ev, l1d_lookups) += (double)(m->l1d_reads + m->l1d_writes);
    N(ev, l1d_data) +=
        (double)(m->l1d_read_hits + m->l1d_write_hits + m->l1d_mshr_allocs + m->l1d_writebacks);
    N(ev, l1c_accesses) += (double)m->l1c_reads;
    N(ev, mq_requests) += (double)m->mq_requests;
}

/* Interconnect, L2 and DRAM-request events of a record; burst_bytes: one DRAM burst. */
static void chip_events(struct hd_power_events *ev, const struct hd_mem_acct *m,
                        double burst_bytes)
{
    N(ev, flits) += (double)(m->icnt_req_flits + m->icnt_rep_flits);
    N(ev, l2_lookups) += (double)(m->l2_reads + m->l2_writes + m->l2_atomics);
    N(ev, l2_data) += (double)(m->l2_read_hits + m->l2_writes + m->l2_atomics + m->dram_reads +
                               m->l2_writebacks);
    N(ev, mc_requests) += (double)(m->dram_reads + m->dram_writes);
    const double rb = (double)m->dram_read_bytes / burst_bytes;
    const double wb = (double)m->dram_write_bytes / burst_bytes;
    N(ev, dram_read_bursts) += rb > (double)m->dram_reads ? rb : (double)m->dram_reads;
    N(ev, dram_write_bursts) += wb > (double)m->dram_writes ? wb : (double)m->dram_writes;
    N(ev, dram_bits) += 8.0 * (double)(m->dram_read_bytes + m->dram_write_bytes);
}

void hd_power_events_sm(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                        const struct hd_mem_stats *mem, uint32_t sm)
{
    memset(ev, 0, sizeof *ev);
    if (sm >= ts->num_sms)
        return;
    sm_core(ev, &ts->sm[sm], ts->cycles);
    if (mem && sm < mem->num_sms)
        l1_events(ev, &mem->sm[sm]);
}

void hd_power_events_run(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                         const struct hd_mem_stats *mem, const struct hd_config *cfg)
{
    memset(ev, 0, sizeof *ev);
    for (uint32_t i = 0; i < ts->num_sms; i++)
        sm_core(ev, &ts->sm[i], ts->cycles);
    N(ev, cycles) = (double)ts->cycles;
    N(ev, launches) = (double)ts->nlaunch;
    N(ev, sm_launches) = (double)ts->nlaunch * ts->num_sms;
    const double dram_cycles = (double)ts->cycles * cfg->clock_dram_mhz / cfg->clock_core_mhz;
    if (!mem) {
        N(ev, dram_refs) = cfg->dram_channels * dram_cycles / cfg->dram_trefi;
        return;
    }
    struct hd_mem_acct tot;
    hd_mem_stats_total(mem, &tot);
    l1_events(ev, &tot);
    chip_events(ev, &tot, (double)cfg->dram_bus_bytes * cfg->dram_burst_length);
    for (uint32_t c = 0; c < mem->nchannels; c++) {
        N(ev, dram_acts) += (double)mem->dram_acts[c];
        N(ev, dram_pres) += (double)mem->dram_pres[c];
        N(ev, dram_busy_cycles) += (double)mem->dram_data_cycles[c];
        if (cfg->dram_refresh)
            N(ev, dram_refs) += (double)mem->dram_refs[c];
    }
    if (!cfg->dram_refresh) /* the timing leaves refresh out; the devices still refresh */
        N(ev, dram_refs) = cfg->dram_channels * dram_cycles / cfg->dram_trefi;
}

int hd_power_launch_ctx_init(struct hd_power_launch_ctx *c, const struct hd_timing_stats *ts,
                             const struct hd_mem_stats *mem, const struct hd_power_events *run)
{
    memset(c, 0, sizeof *c);
    c->run = *run;
    c->memory = mem != NULL;
    for (uint32_t i = 0; i < ts->nlaunch; i++)
        c->sum_cycles += (double)ts->launch[i].c.cycles;
    c->rec = calloc(ts->nlaunch ? ts->nlaunch : 1, sizeof *c->rec);
    if (!c->rec)
        return -1;
    if (!mem)
        return 0;
    hd_mem_stats_total(mem, &c->tot);
    /* launch ids are the launch records' indices (timing_stats.h); record 0 of the memory
     * system holds requests of no kernel */
    for (uint32_t k = 1; k < mem->nkernels; k++) {
        const uint32_t id = mem->kernel_id[k];
        if (id < ts->nlaunch && ts->launch[id].id == id)
            c->rec[id] = &mem->kernel[k];
    }
    return 0;
}

void hd_power_launch_ctx_free(struct hd_power_launch_ctx *c)
{
    free(c->rec);
    c->rec = NULL;
}

void hd_power_events_launch(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                            const struct hd_power_launch_ctx *lc, uint32_t index)
{
    memset(ev, 0, sizeof *ev);
    if (index >= ts->nlaunch)
        return;
    const struct hd_power_events *run = &lc->run;
    const struct hd_launch_stats *c = &ts->launch[index].c;
    const double bank_reads = (double)(c->reg_reads - c->oloc_reads);
    N(ev, fetches) = (double)c->fetches;
    N(ev, issues) = (double)c->warp_instrs;
    N(ev, rf_reads) = bank_reads;
    N(ev, rf_writes) = (double)c->reg_writes;
    N(ev, opc_words) = bank_reads;
    N(ev, oloc_reads) = (double)c->oloc_reads;
    N(ev, lanes_int) = (double)c->lanes_int;
    N(ev, lanes_intmul) = (double)c->lanes_intmul;
    N(ev, lanes_fp) = (double)c->lanes_fp;
    N(ev, lanes_dp) = (double)c->lanes_dp;
    N(ev, lanes_sfu) = (double)c->lanes_sfu;
    N(ev, ldst_accesses) = (double)(c->gmem_requests + c->smem_passes + c->const_instrs);
    N(ev, smem_passes) = (double)c->smem_passes;
    N(ev, launches) = 1;
    N(ev, sm_launches) = ts->num_sms;
    /* time-based events: the launch's share of the summed launch durations */
    const double share = lc->sum_cycles > 0 ? (double)c->cycles / lc->sum_cycles : 0.0;
    static const enum hd_pevent timed[] = {
        HD_PEV_cycles, HD_PEV_sm_active_cycles, HD_PEV_sm_idle_cycles, HD_PEV_dram_refs,
        HD_PEV_dram_busy_cycles, HD_PEV_pp_decodes, HD_PEV_ctx_save_vregs,
        HD_PEV_ctx_restore_vregs, HD_PEV_ctx_tb_saves, HD_PEV_ctx_suspends, HD_PEV_cta_events,
        HD_PEV_expars_spad_passes, HD_PEV_expars_oc_accesses, HD_PEV_expars_rat_lookups,
        HD_PEV_expars_fills, HD_PEV_zorua_rmt_accesses, HD_PEV_zorua_coord_events,
        HD_PEV_zorua_phase_events, HD_PEV_zorua_smt_accesses, HD_PEV_zorua_tmt_accesses,
        HD_PEV_gpuduet_warp_events, HD_PEV_gpuduet_tb_events,
        HD_PEV_gpuduet_allocs, HD_PEV_warp_moves, HD_PEV_haws_rcu_ops, HD_PEV_haws_rename_ops,
        HD_PEV_haws_stack_ops, HD_PEV_haws_ctl_ops};
    for (unsigned i = 0; i < sizeof timed / sizeof timed[0]; i++)
        ev->n[timed[i]] = run->n[timed[i]] * share;
    /* EXPARS's destinations in the operand cache (counted per SM, not per launch): the launch's
     * share of the run's, out of its register-bank writes (the run's accesses less its passes) */
    const double oc_writes = N(run, expars_oc_accesses) - N(run, expars_spad_passes);
    if (oc_writes > 0) {
        N(ev, rf_writes) -= oc_writes * share;
        if (N(ev, rf_writes) < 0)
            N(ev, rf_writes) = 0;
    }
    const struct hd_mem_acct *m = lc->rec[index];
    if (!m)
        return;
    const struct hd_mem_acct *tot = &lc->tot;
    l1_events(ev, m);
    N(ev, flits) = (double)(m->icnt_req_flits + m->icnt_rep_flits);
    N(ev, l2_lookups) = (double)(m->l2_reads + m->l2_writes + m->l2_atomics);
    N(ev, l2_data) = (double)(m->l2_read_hits + m->l2_writes + m->l2_atomics + m->dram_reads +
                              m->l2_writebacks);
    N(ev, mc_requests) = (double)(m->dram_reads + m->dram_writes);
    N(ev, dram_bits) = 8.0 * (double)(m->dram_read_bytes + m->dram_write_bytes);
    /* bursts: the run's, in proportion to the kernel's bytes */
    N(ev, dram_read_bursts) = tot->dram_read_bytes
                                  ? N(run, dram_read_bursts) * (double)m->dram_read_bytes /
                                        (double)tot->dram_read_bytes
                                  : 0.0;
    N(ev, dram_write_bursts) = tot->dram_write_bytes
                                   ? N(run, dram_write_bursts) * (double)m->dram_write_bytes /
                                         (double)tot->dram_write_bytes
                                   : 0.0;
    const double misses = (double)tot->dram_row_misses;
    const double mshare = misses > 0 ? (double)m->dram_row_misses / misses : 0.0;
    N(ev, dram_acts) = N(run, dram_acts) * mshare;
    N(ev, dram_pres) = N(run, dram_pres) * mshare;
}
