/* SPDX-License-Identifier: MIT
 * shieh_loop.h - Shieh's four hardware tables in the GPU timing loop (thesis §3.4, Table 3.1;
 * docs/blocks/shieh.md): per SM a Running TB Status (shieh_tb_status), and for the policies that
 * place at aligned positions a Preempting Kernel Allocation Positions table (shieh_alloc_pos) and
 * a Candidate Victim Sets table (shieh_victim_sets); one Preempting Kernel Allocation Status
 * (shieh_alloc_status) for the GPU. All made through the GPU's block factory (hw_inst.h: the C
 * references, or the RTL in lockstep under `heddle cosim --blocks shieh --in-loop`) and stepped
 * on the model clock at the end of each cycle with what happened in it.
 *
 * Design.
 *   events  The SM reports each TB placed or resumed (slot, cycle, its warp instructions so
 *           far, flush bit, grant), each warp instruction issued (issue port = scheduler x
 *           issue_width + i, slot, whether it breaks relaxed idempotence) and each TB leaving
 *           (finished, switched out, flushed). Issues go to the table's ports in their cycle; a
 *           TB leaving is applied one edge after its last issue (the table takes the free before
 *           the issues of an edge), a placement behind it; issues to a slot with an event still
 *           queued are carried by the placement's starting count. Each exit report (fin_*) must
 *           equal the model's count and placement cycle, each status read of a slot with nothing
 *           queued the model's count and flush bit: otherwise the run stops with a located error.
 *           A TB leaving is the victim sets' Signal (ev_mask_i). A finished TB's exit report
 *           adds it to its launch's finished-TB statistics (hd_shieh_loop_kstats: the reported
 *           warp instructions, residency from its first placement, which the firmware knows). The preempting kernel's TBs
 *           are recorded in the allocation status (disp at their positions, fin when they leave).
 *   reads   The policy asks for an SM's snapshot (hd_shieh_loop_read): the block scheduler's
 *           firmware reads every slot of the status table, one per cycle; with positions it also
 *           fills the positions table for the asking launch's footprint (K + 2 cycles), reads its
 *           K entries back, reads the SM's allocation status (the GPU's one read port, in request
 *           order, after the queued dispatches and finishes), writes the K candidate rows it
 *           computes from those bases and the SM's resident TBs (one per cycle; rows updated by
 *           the Signal from then on) and reads them back. The snapshot is ready when the last
 *           result is in (Fermi, K = 8: 9 cycles for the status alone, 28 with positions); the
 *           GPU looks for a placement again then, and the policy decides from the snapshot.
 * Deterministic; nothing here depends on host state.
 */
#ifndef HD_SHIEH_LOOP_H
#define HD_SHIEH_LOOP_H

#include "hw_inst.h"
#include "shieh_cands.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which of the tables a Shieh-family policy decides from (its ops.tables, preempt_policy.h). */
enum hd_shieh_tables {
    HD_PTAB_NONE,
    HD_PTAB_STATUS,            /* Running TB Status per SM */
    HD_PTAB_ALL                /* + Allocation Positions, Candidate Victim Sets per SM, and the
                                  GPU's Preempting Kernel Allocation Status */
};

#define HD_SHL_TBS 64 /* slots a snapshot holds (>= every configuration's MaxTb) */

struct hd_shieh_loop;

/* What the firmware read of one SM. A slot's entry is the TB of context ctx (the placement the
 * table last took for it) when valid. */
struct hd_shieh_snap {
    uint64_t started, done;       /* cycle the reads began, cycle the last result came */
    uint32_t launch;              /* the asking launch the positions were filled for */
    bool valid[HD_SHL_TBS], flush[HD_SHL_TBS];
    uint32_t ctx[HD_SHL_TBS];
    uint64_t instr[HD_SHL_TBS];   /* warp instructions (CW bits, saturating) */
    uint64_t issue[HD_SHL_TBS];   /* placement cycle, reconstructed from its low CW bits */
    /* with positions */
    uint32_t k;                   /* positions (k_o) */
    uint64_t cand[HD_SHIEH_MAX_POS]; /* rows read back */
    uint64_t row_valid;           /* row_valid_o with the last row read */
    uint64_t issued;              /* allocation status: positions holding a preempting TB */
};

enum hd_shl_state { HD_SHL_NONE, HD_SHL_PENDING, HD_SHL_READY };

/* The finished-TB statistics the firmware sums from the status table's exit reports (count,
 * warp instructions, residency cycles, and the CPIs' count, sum and sum of squares: Shieh's
 * predictor and Chimera's estimate), per kernel: over every launch of the launch's kernel since
 * the run began (Shieh L236, "the average instructions of a TB in the preempted kernel"; the
 * thesis names no reset), or per launch with [context] kstats_per_launch (or for a launch whose
 * kernel the GPU did not name). */
struct hd_shieh_kstats_acc {
    uint64_t n, instrs, cycles, cpi_n;
    double cpi_sum, cpi_sq;
};
void hd_shieh_loop_kstats(const struct hd_shieh_loop *L, uint32_t launch,
                          struct hd_shieh_kstats_acc *out);
/* The block scheduler launched `launch` of kernel `kernel` (the timing kernel's id). Returns 0,
 * or -1 when out of memory. */
int hd_shieh_loop_launch_kernel(struct hd_shieh_loop *L, uint32_t launch, uint32_t kernel);

/* The tables for a GPU of params p (positions: also the positions, candidate and status tables).
 * hw points at the GPU's factory (may point at NULL: C references); instances are made at the
 * first cycle. Returns NULL with a message when the configuration does not fit the built tables
 * (more CTAs per SM than MaxTb, more issue ports, more SMs, a footprint width). */
struct hd_shieh_loop *hd_shieh_loop_create(const struct hd_gpu_timing_params *p, bool positions,
                                           const struct hd_hw_factory *const *hw, char *err,
                                           size_t errlen);
void hd_shieh_loop_destroy(struct hd_shieh_loop *L);

/* {==== Events of the cycle (the SM) ==== */
void hd_shieh_loop_placed(struct hd_shieh_loop *L, uint32_t sm, uint32_t slot, uint32_t launch,
                          uint32_t ctx, uint64_t cycle, uint64_t instrs, bool flush,
                          uint32_t reg_base, uint32_t regs, uint64_t smem_base, uint64_t smem);
void hd_shieh_loop_issued(struct hd_shieh_loop *L, uint32_t sm, uint32_t port, uint32_t slot,
                          bool nonidem);
/* finished: it retired (not switched out or flushed), first placed at `first`, ending with
 * cycle end - 1: the exit report adds it to its launch's finished-TB statistics. */
void hd_shieh_loop_left(struct hd_shieh_loop *L, uint32_t sm, uint32_t slot, uint64_t instrs,
                        bool finished, uint64_t first, uint64_t end);
/* }==== */

/* Make the instances (once; the factory set on the GPU by then). Returns 0 or -1 with a
 * message. The GPU calls it before its first cycle, so waveforms declare them. */
int hd_shieh_loop_make(struct hd_shieh_loop *L, char *err, size_t errlen);

/* The end of cycle `now`: step every instance with work. Returns 0, or -1 with a located
 * message (a block failed, an exit report or a read disagreed with the model). *ready: a
 * snapshot completed (the GPU should look for a placement again); *busy: work is pending
 * (the GPU must not skip the next cycle). */
int hd_shieh_loop_cycle(struct hd_shieh_loop *L, uint64_t now, bool *ready, bool *busy, char *err,
                        size_t errlen);

/* The policy's read of SM sm for launch `launch` of footprint f: READY with *out (consumed: the
 * next call starts new reads; only in the cycle after the last result, the one the GPU looks
 * again in: a snapshot left unused is read anew), PENDING (reads under way), or NONE after
 * starting them. */
enum hd_shl_state hd_shieh_loop_read(struct hd_shieh_loop *L, uint32_t sm, uint32_t launch,
                                     const struct hd_shieh_footprint *f, uint64_t now,
                                     struct hd_shieh_snap *out);

#endif
