/* SPDX-License-Identifier: MIT
 * stats_text.c - the human summary of a timed run, printed by `heddle run`.
 *
 * Design: a few dozen lines: totals and IPC, launches grouped by kernel, how the issue slots of
 * all schedulers were spent (issued or the stall reasons of sched_stats.def, which add up to
 * 100%), occupancy, register-bank and shared-memory conflicts, memory traffic, and the PTX lines
 * where the oldest warps stalled most.
 */
#include "timing_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void kernels(const struct hd_timing_stats *s, FILE *f)
{
    fprintf(f, "  %-28s %8s %14s %16s %7s %-22s %s\n", "kernel", "launches", "cycles",
            "warp instrs", "IPC", "CTAs/SM (limit)", "regs (source)");
    bool *seen = calloc(s->nlaunch + 1, sizeof *seen);
    if (!seen)
        return;
    unsigned shown = 0;
    for (uint32_t i = 0; i < s->nlaunch && shown < 20; i++) {
        if (seen[i])
            continue;
        const struct hd_launch_info *a = &s->launch[i];
        uint64_t cyc = 0, ins = 0, n = 0;
        for (uint32_t j = i; j < s->nlaunch; j++) {
            const struct hd_launch_info *b = &s->launch[j];
            if (seen[j] || strcmp(a->kernel, b->kernel) != 0)
                continue;
            seen[j] = true;
            cyc += b->c.cycles;
            ins += b->c.warp_instrs;
            n++;
        }
        char occ[48];
        snprintf(occ, sizeof occ, "%u (%s)", a->ctas_per_sm, a->limiter);
        fprintf(f, "  %-28.28s %8" PRIu64 " %14" PRIu64 " %16" PRIu64 " %7.2f %-22s %u (%s)\n",
                a->kernel, n, cyc, ins, ratio(ins, cyc), occ, a->regs_per_thread,
                a->regs_source);
        shown++;
    }
    free(seen);
}

/* Kernels that ran without a recorded register count (regs_source.h): one warning each. */
static void regs_warnings(const struct hd_timing_stats *s, FILE *f)
{
    for (uint32_t i = 0; i < s->nlaunch; i++) {
        const struct hd_launch_info *a = &s->launch[i];
        bool first = strcmp(a->regs_source, "regalloc-fallback") == 0;
        for (uint32_t j = 0; first && j < i; j++)
            first = strcmp(s->launch[j].kernel, a->kernel) != 0;
        if (first)
            fprintf(f, "  warning: %s: no register count recorded by ptxas; occupancy counts "
                    "Heddle's own, %u per thread (give one: heddle launch --regs N, "
                    "hd_kernel_set_regs)\n", a->kernel, a->regs_per_thread);
    }
}

struct hot {
    uint32_t set, line;
    uint64_t stall, issued;
};

/* Preemption requests (ctx_preempt.c): one line each, at most 16, then a count. */
static void preemptions(const struct hd_timing_stats *s, FILE *f)
{
    static const char *const prim[] = {"none", "switch", "drain", "flush", "mixed"};
    for (uint32_t i = 0; i < s->npreempt && i < 16; i++) {
        const struct hd_preempt_rec *r = &s->preempt[i];
        const char *kv = r->victim < s->nlaunch ? s->launch[r->victim].kernel : "?";
        if (r->launch == HD_PREEMPT_SIGNAL)
            fprintf(f, "  preemption         SM %u for a signal", r->sm);
        else
            fprintf(f, "  preemption         SM %u for %s (launch %u)", r->sm,
                    r->launch < s->nlaunch ? s->launch[r->launch].kernel : "?", r->launch);
        fprintf(f, " by %s of %s at cycle %" PRIu64 " (%u switched, %u drained, %u flushed",
                prim[r->primitive < 5 ? r->primitive : 0], kv, r->signal, r->switched,
                r->drained, r->flushed);
        if (r->bytes)
            fprintf(f, ", %" PRIu64 " bytes saved", r->bytes);
        fprintf(f, "): ");
        if (r->met)
            fprintf(f, "freed after %" PRIu64 " cycles", r->freed - r->signal);
        else if (r->launch == HD_PREEMPT_SIGNAL)
            fprintf(f, "not emptied when the run ended");
        else
            fprintf(f, "the launch took no CTA there (placed elsewhere, or the run ended)");
        if (r->saved)
            fprintf(f, " (victims quiet after %" PRIu64 ", %s after %" PRIu64 ")",
                    r->quiet - r->signal, r->primitive == 3 ? "flushed" : "saved",
                    r->saved - r->signal);
        if (r->refused)
            fprintf(f, "; flush refused for %u CTAs (they wrote global memory), drained instead",
                    r->refused);
        if (r->missed)
            fprintf(f, "; MISSED its latency bound of %" PRIu64 " cycles", r->bound);
        else if (r->bound)
            fprintf(f, "; within its bound of %" PRIu64 " cycles", r->bound);
        fputc('\n', f);
    }
    if (s->npreempt > 16)
        fprintf(f, "  preemption         ... %u requests in all\n", s->npreempt);
}

static void hot_lines(const struct hd_timing_stats *s, FILE *f)
{
    struct hot top[5];
    unsigned n = 0;
    for (uint32_t i = 0; i < s->nlines; i++) {
        const struct hd_line_stats *ls = &s->lines[i];
        for (uint32_t pc = 0; pc < ls->npc; pc++) {
            if (!ls->stall[pc])
                continue;
            /* fold PCs of the same line */
            uint64_t st = 0, is = 0;
            bool first = true;
            for (uint32_t q = 0; q < ls->npc; q++)
                if (ls->line[q] == ls->line[pc]) {
                    if (q < pc && ls->stall[q])
                        first = false;
                    st += ls->stall[q];
                    is += ls->issued[q];
                }
            if (!first)
                continue;
            struct hot h = {i, ls->line[pc], st, is};
            unsigned k;
            if (n < 5) {
                k = n++;
            } else {
                if (top[4].stall >= st)
                    continue;
                k = 4;
            }
            top[k] = h;
            while (k > 0 && top[k - 1].stall < top[k].stall) {
                struct hot t = top[k - 1];
                top[k - 1] = top[k];
                top[k] = t;
                k--;
            }
        }
    }
    if (!n)
        return;
    fprintf(f, "  lines where the oldest warp stalled most:\n");
    for (unsigned k = 0; k < n; k++)
        fprintf(f, "    %s:%u (%s)  %" PRIu64 " stall cycles, %" PRIu64 " warp instrs\n",
                s->lines[top[k].set].file, top[k].line, s->lines[top[k].set].kernel, top[k].stall,
                top[k].issued);
}

void hd_timing_stats_summary(const struct hd_timing_stats *s, FILE *f)
{
    fprintf(f, "timing (cycle model):\n");
    fprintf(f, "  cycles             %" PRIu64 " (%.1f us at %.0f MHz)\n", s->cycles,
            s->core_mhz > 0 ? (double)s->cycles / s->core_mhz : 0.0, s->core_mhz);
    fprintf(f, "  warp instructions  %" PRIu64 "   IPC %.3f\n", s->warp_instrs,
            ratio(s->warp_instrs, s->cycles));
    if (s->nlaunch) {
        kernels(s, f);
        regs_warnings(s, f);
    }
    struct hd_sched_stats t;
    hd_timing_stats_sched_total(s, &t);
    uint64_t slots = (uint64_t)s->cycles * s->num_sms * s->num_sched;
    fprintf(f, "  scheduler cycles   issued %.1f%%, pipeline %.1f%%, memory %.1f%%, scoreboard "
               "%.1f%%, barrier %.1f%%, no instruction %.1f%%, idle %.1f%%\n",
            pct(t.issue_cycles, slots), pct(t.stall_pipeline, slots), pct(t.stall_memory, slots),
            pct(t.stall_scoreboard, slots), pct(t.stall_barrier, slots),
            pct(t.stall_ibuffer, slots), pct(t.stall_idle, slots));
    struct hd_sm_stats a;
    memset(&a, 0, sizeof a);
    unsigned nd;
    const struct hd_stat_desc *d = hd_sm_stats_desc(&nd);
    for (uint32_t i = 0; i < s->num_sms; i++)
        for (unsigned k = 0; k < nd; k++)
            *(uint64_t *)((char *)&a + d[k].offset) += hd_stat_get(&s->sm[i], &d[k]);
    fprintf(f, "  occupancy          %.1f warps, %.2f CTAs per active SM; SMs active %.1f%% of "
               "the time\n",
            ratio(a.resident_warps, a.active_cycles), ratio(a.resident_ctas, a.active_cycles),
            pct(a.active_cycles, (uint64_t)s->cycles * s->num_sms));
    fprintf(f, "  register banks     %" PRIu64 " conflicts in %" PRIu64 " reads (%.2f%%)\n",
            a.reg_bank_conflicts, a.reg_reads, pct(a.reg_bank_conflicts, a.reg_reads));
    fprintf(f, "  shared memory      %" PRIu64 " instructions, %" PRIu64
               " bank-conflict cycles\n",
            a.smem_instrs, a.smem_conflict_cycles);
    fprintf(f, "  global memory      %" PRIu64 " instructions, %" PRIu64 " requests (%.2f per "
               "instruction), %" PRIu64 " bytes\n",
            a.gmem_instrs, a.gmem_requests, ratio(a.gmem_requests, a.gmem_instrs), a.gmem_bytes);
    if (a.spill_fills || a.spill_stores) /* sm_spill.c: part of the memory instructions above */
        fprintf(f, "  register spills    %" PRIu64 " fills, %" PRIu64 " stores (%" PRIu64
                   " local-memory requests in all)\n",
                a.spill_fills, a.spill_stores, a.lmem_requests);
    if (a.oloc_fills || a.oloc_fills_mem || a.oloc_writes) /* sm_oloc_port.c, docs/oloc.md */
        fprintf(f, "  operand locations  %" PRIu64 " policy-port reads; fills %" PRIu64
                   " from ports, %" PRIu64 " from memory (%" PRIu64 " collector cycles waiting); %"
                   PRIu64 " policy-port writes (%" PRIu64 " delayed); %" PRIu64
                   " scratchpad-bank conflicts\n",
                a.oloc_reads, a.oloc_fills, a.oloc_fills_mem, a.oloc_fill_cycles, a.oloc_writes,
                a.oloc_write_conflicts, a.oloc_spad_conflicts);
    fprintf(f, "  branches           %" PRIu64 ", %" PRIu64 " divergent; icache misses %" PRIu64
               " of %" PRIu64 " fetches\n",
            a.branches, a.divergent_branches, a.icache_misses, a.fetches);
    if (a.ctx_suspends)
        fprintf(f, "  contexts           %" PRIu64 " suspended, %" PRIu64 " saved (evicted), %" PRIu64
                   " restored (resumed; %" PRIu64 " on another SM), %" PRIu64
                   " flushed (%" PRIu64 " refused), %" PRIu64
                   " finished meanwhile; %" PRIu64 " bytes saved, %" PRIu64 " restored; mean "
                   "quiesce %.1f, save %.1f, restore %.1f cycles; responses for moved warps: %" PRIu64
                   " forwarded to another SM, %" PRIu64 " to a saved context\n",
                a.ctx_suspends, a.ctx_saves, a.ctx_restores, a.ctx_restores_moved, a.ctx_flushes,
                a.ctx_flush_refused,
                a.ctx_finished_suspending, a.ctx_save_bytes, a.ctx_restore_bytes,
                ratio(a.ctx_quiesce_cycles, a.ctx_suspends - a.ctx_finished_suspending),
                ratio(a.ctx_save_cycles, a.ctx_saves), ratio(a.ctx_restore_cycles, a.ctx_restores),
                a.ctx_forwarded, a.ctx_to_saved);
    if (a.ctx_pp_stops || a.ctx_pp_timeouts)
        fprintf(f, "  preemption points  %" PRIu64 " warps ran on to a point (mean %.1f cycles after "
                   "the signal), %" PRIu64 " words decoded; %" PRIu64 " CTAs did not reach their "
                   "points within pp_wait_limit (stopped where they were after %.1f cycles on "
                   "average)\n",
                a.ctx_pp_stops, ratio(a.ctx_pp_wait_cycles, a.ctx_pp_stops), a.pp_decodes,
                a.ctx_pp_timeouts, ratio(a.ctx_pp_timeout_cycles, a.ctx_pp_timeouts));
    if (a.mover_jobs || a.swap_outs) /* docs/mover.md */
        fprintf(f, "  mover and swap     %" PRIu64 " on-chip moves, %" PRIu64 " bytes, %" PRIu64
                   " move cycles, %" PRIu64 " waited for the pipeline; %" PRIu64 " swapped out, %"
                   PRIu64 " back, %" PRIu64 " + %" PRIu64 " bytes (SWAP class); stress: %" PRIu64
                   " swapped, %" PRIu64 " moved, %" PRIu64 " dropped\n",
                a.mover_jobs, a.mover_bytes, a.mover_move_cycles, a.mover_wait_cycles, a.swap_outs,
                a.swap_ins, a.swap_out_bytes, a.swap_in_bytes, a.vstress_swaps, a.vstress_moves,
                a.vstress_skipped);
    preemptions(s, f);
    hot_lines(s, f);
}
