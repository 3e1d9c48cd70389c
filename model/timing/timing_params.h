/* SPDX-License-Identifier: MIT
 * timing_params.h - the immutable parameters of the timing model's units, taken once from the
 * GPU configuration, and the timing classes of instructions.
 *
 * Design: every unit gets a const pointer to its params (style rule C4) and never reads the
 * configuration itself. An instruction's timing class (enum hd_tclass) decides its execution
 * unit, its latency (cycles from entering the unit to writeback) and its initiation interval
 * (cycles the unit stays busy); the classes mirror the configuration's latency keys
 * ([pipeline] lat_* / ii_*). DP instructions run on the SP units at ii_dp when the configuration
 * has no DP units (GeForce Fermi). [pipeline] unit_int_mul ... unit_dp_div move a class to the
 * SFU pipelines (GPGPU-Sim 3.x's SFU_OP) or let it take an SFU collector when no SP one is free
 * at issue (ALU_SFU_OP, sm_issue.c); its latency and interval stay the class's. Barriers, memory fences and no-ops use no unit: they complete
 * at issue (the barrier wait and the fence drain are warp states, not pipeline occupancy).
 */
#ifndef HD_TIMING_PARAMS_H
#define HD_TIMING_PARAMS_H

#include "config.h"
#include "mem_fixed.h"
#include "oloc_stress.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* {==== Timing classes and units ==== */
enum hd_tclass {
    HD_TC_INT_ALU, /* add/logic/shift/compare/move/convert, warp-wide ops (shfl, vote) */
    HD_TC_INT_MUL, /* mul/mad/sad/dp4a */
    HD_TC_INT_DIV, /* div/rem */
    HD_TC_FP,      /* FP32/FP16 add/mul/fma/min/max/compare/convert */
    HD_TC_FP_DIV,  /* div.f32 */
    HD_TC_DP,      /* FP64 add/mul/fma/compare/convert */
    HD_TC_DP_DIV,  /* div/rcp/sqrt .f64 */
    HD_TC_SFU,     /* rcp sqrt rsqrt sin cos lg2 ex2 tanh (.f32) */
    HD_TC_BRANCH,  /* bra brx call ret exit trap: SP unit, no result */
    HD_TC_MEM,     /* ld ldu st atom red: load/store unit */
    HD_TC_BARRIER, /* bar / barrier: no unit; the warp waits until released */
    HD_TC_MEMBAR,  /* membar / fence: no unit; the warp waits for its memory operations */
    HD_TC_NOP,     /* prefetch nanosleep brkpt pmevent: no unit */
    /* finer classes for GPGPU-Sim's opcode tables ([pipeline] lat_int_max ... lat_untabled);
     * each takes its parent's latency and interval while its own keys are 0 */
    HD_TC_INT_MAX, /* integer min/max (parent int_alu) */
    HD_TC_INT_MAD, /* integer mad/mad24/madc (parent int_mul) */
    HD_TC_FP_MAX,  /* FP32 min/max (parent fp) */
    HD_TC_FP_MUL,  /* FP32 mul (parent fp) */
    HD_TC_FP_MAD,  /* FP32 mad/fma (parent fp) */
    HD_TC_SHFL,    /* shfl (parent int_alu) */
    HD_TC_UT_INT,  /* untabled integer ALU ops: mov setp selp cvt logic shifts ... (int_alu) */
    HD_TC_UT_MUL,  /* untabled multiply-like ops: sad dp4a dp2a (int_mul) */
    HD_TC_UT_FP,   /* untabled FP32/FP16 ops: setp cvt abs neg ... (fp) */
    HD_TC_UT_DP,   /* untabled FP64 ops (dp) */
    HD_TC_COUNT
};

enum hd_tunit { HD_TU_SP, HD_TU_SFU, HD_TU_DP, HD_TU_MEM, HD_TU_COUNT, HD_TU_NONE = HD_TU_COUNT };

const char *hd_tclass_name(enum hd_tclass c);
/* }==== */

/* {==== SM parameters ==== */
struct hd_sm_params {
    /* resources */
    uint32_t max_warps, max_ctas, max_threads, registers;
    uint64_t shared_bytes;
    uint32_t max_regs_per_thread;
    bool concurrent_kernels;
    /* front end */
    uint32_t num_sched, issue_width, fetch_per_cycle, ibuffer, decode_cycles, inst_bytes;
    uint32_t ic_sets, ic_ways, ic_line;
    enum hd_cfg_sched sched;
    enum hd_cfg_alloc alloc;      /* [sm] allocator */
    uint32_t sched_active;        /* two-level: active warps per scheduler */
    /* operand collector and execution */
    uint32_t units[HD_TU_COUNT];  /* pipelines per unit type (DP may be 0) */
    uint32_t cus[HD_TU_COUNT];    /* collector units per unit type */
    uint32_t reg_banks, bank_reads;
    bool bank_physical, bank_warp_offset;
    uint32_t oc_alloc_cycles;      /* issue to collector allocation beyond the first cycle */
    uint32_t alu_dispatch_cycles;  /* collector to SP/SFU/DP pipeline beyond dispatch */
    uint32_t wb_ports;
    uint32_t lat[HD_TC_COUNT], ii[HD_TC_COUNT];
    enum hd_tunit unit_of[HD_TC_COUNT];
    bool sfu_fallback[HD_TC_COUNT]; /* [pipeline] unit_* = sp_or_sfu: SFU when SP is taken */
    uint32_t branch_cycles, diverge_cycles;
    /* memory pipeline */
    uint32_t shared_latency, const_latency, shared_banks;
    bool shared_atomic_serialize; /* same-word lanes of a shared atomic conflict ([sm]) */
    uint32_t seg_bytes;           /* coalescing granule: a segment, or 32 with sectors */
    uint32_t max_loads;
    uint32_t max_delay;           /* largest delay any event of the SM is scheduled ahead */
    bool pp_selective;            /* [context] points = selective: the kernels get Lin's points */
    uint32_t pp_k;                /* [context] pp_k */
    /* warp-granular residency (sm_residency.h); max_ctas above is the logical CTA capacity */
    uint32_t logical_warps;       /* warps resident, present or absent (>= max_warps) */
    uint32_t phys_ctas;           /* physical CTA slots ([sm] max_ctas, <= max_ctas) */
    uint32_t warp_move_bytes;     /* the default warp mover's bytes per cycle */
    uint64_t warp_stress_period, warp_stress_seed; /* warp stress mode (0: off) */
    bool residency;               /* any of it on: the SM keeps residency state (sm->wr) */
    enum hd_cfg_wmover warp_mover; /* what moves a switched-out warp (ctx_wmove.h) */
    /* [zorua] (allocator = zorua / wlm: model/mech/zorua, docs/zorua.md) */
    uint32_t z_mt_latency, z_c_delta, z_epoch, z_reg_set, z_smem_set;
    bool z_oversub;
    bool z_req_virtual, z_floor_bar, z_swap_l1; /* session 19's three readings (docs/zorua.md) */
    double z_o_default, z_o_step, z_o_max, z_floor; /* percent */
    /* [expars] (model/mech/expars, docs/expars.md; read with [sm] allocator = expars) */
    uint32_t expars_tau_milli;    /* tau x 1000 */
    uint32_t expars_oc_lines, expars_oc_banks, expars_fill_latency;
    uint32_t expars_oc_ways, expars_bundle_regs;
    bool expars_spad_shared, expars_check;
    uint64_t expars_fault;
    bool expars_prefetch;
    char expars_log[HD_CFG_STR_MAX];
    /* [zorua] the register mapping table as a block in the loop (zorua_maploop.h) */
    bool z_in_loop;
    uint64_t z_loop_fault;
    bool expars_pref_spad;        /* [expars] pref_spad: prefetch transfers take scratchpad passes */
    /* warps placed without a slot that never ran start like newly dispatched warps when they get
     * one, without a context move (sm_residency.c; true for [sm] allocator = warpman, whose
     * partial CTA's waiting warps have no context; false: they return through the warp mover,
     * as Zorua's logical warps and WLM do) */
    bool fresh_unstarted;
    /* warps placed without a slot wait for the mechanism to switch them in (GPUDuet's CSL takes
     * them from its ready queue), not for the SM's own return: they are never due, so they
     * neither hold new CTAs back nor take the room a switch frees (sm_residency.c; session 20:
     * returned by the SM, they kept HG at one extra TB per SM in the first wave and took the
     * shared memory its swaps freed). True for [sm] allocator = gpuduet and, since session 26,
     * gpuduet_tb and vt, which switch TBs as a whole: the SM returned a TB placed absent one
     * warp at a time as slots freed, so the TB ran partly present. Made gpuduet-only in session
     * 20 for a livelock that was the CSL's own partial switch-ins (docs/gpuduet.md "Session 26:
     * GPUDuet_TB's TBs as a whole") */
    bool absent_by_mech;
    /* a drained warp's slot stays with its CTA, as the baseline keeps a CTA's slots until it
     * retires, while no warp of the SM is absent or moving (sm_residency.c,
     * hd_sm_res_drained). True for [sm] allocator = partitioned and the GPUDuet family
     * (gpuduet, gpuduet_tb, vt), whose hardware manages warp slots as the baseline does until a
     * warp switches; false where giving a finished warp's slot back at once is the mechanism:
     * Warpman's partial CTA, WLM's and Zorua's per-warp release, EXPARS, Lin's and Shieh's
     * tables (session 29; docs/gpuduet.md "Session 28: VT with nothing to switch") */
    bool slot_with_cta;
    bool expars_renumber;         /* [expars] renumber: registers renumbered by static weight */
    bool expars_unpin_wait;       /* [expars] unpin_wait: a long wait unpins the warp's lines */
    bool expars_pool_sched;       /* [expars] pool_sched: held warps leave a two-level active set */
    bool expars_ideal;            /* [expars] ideal: mix CTAs' registers all in the RF (a bound) */
};

/* The context lifecycle ([context], docs/context.md). */
#define HD_CTX_MAX_SIGNALS 1064 /* [context] signals (<= 1000) + signal_at (<= 64) */

struct hd_ctx_params {
    enum hd_cfg_preempt preempt;   /* primitive used for a launch of higher priority */
    enum hd_cfg_ctxprio priority;
    enum hd_cfg_ctxsave save;      /* what a switch writes */
    uint64_t latency_bound;        /* default preemption-latency constraint, 0 = none */
    uint32_t segment_bytes;        /* bytes per save/restore request */
    uint32_t requests_per_cycle;   /* per SM */
    uint64_t stress_period;        /* 0 = off */
    double stress_fraction;
    uint64_t stress_seed;
    bool stress_flush;             /* flush idempotent CTAs instead of switching them */
    enum hd_cfg_ppoints points;    /* where a switched-out warp stops */
    uint64_t pp_wait_limit;        /* cycles it may run on to its point */
    enum hd_cfg_preemptpol policy; /* preempt_policy.h */
    char oracle_profile[HD_CFG_STR_MAX]; /* the oracle policy's profile (drain_profile.h) */
    bool kstats_per_launch;        /* finished-TB statistics per launch (else per kernel) */
    double sm_bytes_per_cycle;     /* an SM's fair share of the DRAM bandwidth per core cycle
                                      (Shieh's B / N_SM, for switch-latency estimates) */
    uint32_t signal_sms;           /* SMs a preemption signal frees (0: all) */
    uint32_t nsignals;             /* preemption signals, at signal_at[0..nsignals), sorted */
    uint64_t signal_at[HD_CTX_MAX_SIGNALS];
    /* the on-chip mover, the swap engine and their stress mode (docs/mover.md) */
    uint32_t mover_bytes_per_cycle;
    uint32_t mover_l1d_ways;       /* L1D ways of the context region while in use */
    uint64_t swap_stress_period;   /* 0 = off */
    uint64_t move_stress_period;   /* 0 = off */
    double vstress_fraction;
    uint64_t vstress_away;         /* a piece stays away below this many cycles */
    enum hd_cfg_vpiece vstress_piece;
    enum hd_cfg_quiesce quiesce;   /* when a stopped warp is quiet (Lin's drained: writeback) */
    uint64_t signal_period;        /* periodic signals every this many cycles (0: none) */
    uint64_t signal_until;         /* ... up to this cycle (0: no cap) */
    char signal_kernel[HD_CFG_STR_MAX]; /* signals take only SMs holding just this kernel */
    enum hd_cfg_preemptsms preempt_sms; /* SMs a whole-SM policy gives a launch (ctx_preempt.c) */
    enum hd_cfg_flushbit flush_bit;     /* what clears the flush bit (ctx_idem.h) */
    enum hd_cfg_switchmodel switch_model; /* traffic or a stall (ctx_engine.c) */
    bool inplace_split;            /* Lin Fig 2.4: registers out, shared memory in place */
    enum hd_cfg_saveorder save_order; /* tb or warp by warp (ctx_wsave.c) */
    bool inplace_stop;             /* Lin 2.5.5: the preempted SM's CTAs stop in place */
    bool preempt_hold;             /* a freed SM stays the launch's until it finished */
    bool preempt_hold_all;         /* ... and so does every SM it runs on (preempt_hold) */
};

/* [ccbp]: Lin ch.4 CCBP (model/mech/ccbp; the lists are parsed there). */
struct hd_ccbp_params {
    bool enable, ls_first;
    uint32_t window;
    char ctas[HD_CFG_STR_MAX], quota[HD_CFG_STR_MAX], types[HD_CFG_STR_MAX];
    char profile[HD_CFG_STR_MAX], log[HD_CFG_STR_MAX];
    uint64_t period, monitor_window, budget;
    double prior_ls, noc_sustain, dram_sustain;
    /* the machine, for bandwidth shares */
    uint32_t l2_slices, dram_channels;
    double icnt_mhz, dram_mhz;
    /* the blocks in the loop and Algorithm 1's firmware (docs/blocks/ccbp.md) */
    bool blocks;
    uint64_t blocks_fault;
    uint32_t alg1_step_cycles;
    /* the baselines (docs/blocks/ccbp.md "Baselines"): SMK's time quotas, Dai18's limit */
    uint64_t smk_epoch;
    char smk_quota[HD_CFG_STR_MAX], mil[HD_CFG_STR_MAX];
    uint64_t mil_epoch;              /* Dai18's dynamic limit (0: static) */
    /* Warped-Slicer's online sampling phase (ccbp_ws.c) */
    bool ws_online, ws_reprofile;
    uint64_t ws_warmup, ws_sample;
    char ws_rule[HD_CFG_STR_MAX];
};

struct hd_gpu_timing_params {
    uint32_t num_sms;
    double core_mhz;
    struct hd_sm_params sm;
    struct hd_mem_fixed_params mem;
    enum hd_cfg_ctadist cta_dist;
    enum hd_cfg_ksel kernel_select;
    uint32_t max_kernels;
    uint64_t watchdog;            /* [timing] watchdog_cycles, or derived when 0 */
    uint64_t max_cycles, max_instrs; /* run-time limits, 0 = none (gpu_limits.h) */
    bool skip_idle;
    struct hd_ctx_params ctx;
    struct hd_oloc_stress_params oloc_stress; /* [oloc] (oloc_stress.h; period 0: off) */
    enum hd_cfg_admit admit;      /* [timing] admit, admit_quota (cta_admit.h) */
    uint32_t admit_quota;
    char probe_log[HD_CFG_STR_MAX]; /* [timing] probe_log, probe_window (model/mech/probe) */
    uint64_t probe_window;
    struct hd_ccbp_params ccbp;   /* [ccbp] (model/mech/ccbp, issue 29) */
    struct {                      /* [haws] (model/mech/haws, docs/blocks/haws.md) */
        bool enable;
        uint32_t rcu_depth, window, hint_fetch_cycles;
        bool loads, wpe;
        bool blocks;              /* the HAWS blocks in the loop (haws_loop.h) */
        uint64_t blocks_fault;
        bool back_edges;          /* windows cross the innermost loop's back edge (haws_hints.h) */
    } haws;
    uint32_t cta_dist_chunk;      /* [timing] cta_dist_chunk, cta_dist_order (cta_dist_locality.h) */
    enum hd_cfg_chunkorder cta_dist_order;
    struct {                      /* [gpuduet] (model/mech/gpuduet, docs/gpuduet.md) */
        bool dynamic;
        uint32_t me;
        uint64_t warmup, window;
        char log[HD_CFG_STR_MAX];
        /* what its throughput monitor divides by (Lin Table 3.3): L2 slices, DRAM channels,
         * clocks of the crossbar, the L2 and the DRAM over the core clock */
        uint32_t l2_slices, dram_channels;
        uint32_t l1d_units;       /* the L1D data array in 128 B units (§2.10's context store) */
        double icnt_ratio, l2_ratio, dram_ratio;
        bool blocks;              /* [gpuduet] blocks: the blocks in the loop (gpuduet_loop.h) */
        bool monitor_blocks;      /* [gpuduet] monitor_blocks: the SMs' ME from their monitors */
        uint64_t blocks_fault;    /* [gpuduet] blocks_fault (test only) */
    } gduet;
    struct {                      /* [locality] (model/mech/locality, issue 31) */
        bool blocks;
        uint64_t fault_grant, fault_pick;
    } loc;
    struct {                      /* [expars] blocks (model/mech/expars/expars_loop.h, issue 33) */
        bool blocks;
        uint64_t blocks_fault;
    } exb;
};

/* Fill p from cfg (which must have passed hd_config_validate). Returns 0, or -1 with a message
 * naming the key when a combination the timing model cannot use is found. */
int hd_timing_params_init(const struct hd_config *cfg, struct hd_gpu_timing_params *p, char *err,
                          size_t errlen);
/* }==== */

#endif
