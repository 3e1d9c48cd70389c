/* SPDX-License-Identifier: MIT
 * gpu_limits.c - the run-time limits of the timing model (gpu_limits.h).
 *
 * Design: an infinite loop in a kernel makes progress every cycle, so the watchdog (no progress)
 * never stops it; these limits do. Both are 0 (off) by default. The report reuses the watchdog's
 * description of where the run is, under a first line that names the limit that was reached.
 * The watchdog on instruction progress lives here too: the idle watchdog (gpu_timing.c) counts
 * any movement as progress, so a GPU that only saves and restores contexts never trips it.
 */
#include "gpu_limits.h"

#include "func_status.h"
#include "gpu_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int hd_gpu_limits_check(const struct hd_gpu_timing *g, char *err, size_t errlen)
{
    const uint64_t max_cycles = g->p.max_cycles, max_instrs = g->p.max_instrs;
    if (!max_cycles && !max_instrs)
        return HD_FUNC_OK;
    uint64_t instrs = 0;
    for (uint32_t i = 0; max_instrs && i < g->p.num_sms; i++)
        instrs += g->stats.sm[i].warp_instrs;
    const char *key = max_cycles && g->now >= max_cycles  ? "max_cycles"
                      : max_instrs && instrs > max_instrs ? "max_instructions"
                                                            : NULL;
    if (!key)
        return HD_FUNC_OK;
    if (!max_instrs)
        for (uint32_t i = 0; i < g->p.num_sms; i++)
            instrs += g->stats.sm[i].warp_instrs;
    char where[4096] = "";
    hd_gpu_watchdog_report(g, where, sizeof where); /* its first line is the watchdog's own */
    const char *rest = strchr(where, '\n');
    snprintf(err, errlen,
             "timing model: stopped at the limit [timing] %s = %" PRIu64 " at cycle %" PRIu64
             " after %" PRIu64 " warp instructions%s",
             key, key[4] == 'c' ? max_cycles : max_instrs, g->now, instrs, rest ? rest : "");
    return HD_FUNC_ERR_INTERNAL;
}

int hd_gpu_livelock_check(struct hd_gpu_timing *g, bool waiting, char *err, size_t errlen)
{
    uint64_t instrs = 0;
    for (uint32_t i = 0; i < g->p.num_sms; i++)
        instrs += g->stats.sm[i].warp_instrs;
    if (waiting || instrs != g->instr_last || g->now < g->instr_cycle) {
        g->instr_last = instrs;
        g->instr_cycle = g->now;
        return HD_FUNC_OK;
    }
    const uint64_t quiet = g->now - g->instr_cycle;
    if (quiet < g->p.watchdog)
        return HD_FUNC_OK;
    char where[4096] = "";
    hd_gpu_watchdog_report(g, where, sizeof where);
    const char *rest = strchr(where, '\n');
    char why[256] = "";
    if (g->p.ctx.stress_period)
        snprintf(why, sizeof why,
                 ": [context] stress_period = %" PRIu64 " with stress_fraction = %g switches "
                 "CTAs out before they issue (raise stress_period or lower stress_fraction)",
                 g->p.ctx.stress_period, g->p.ctx.stress_fraction);
    snprintf(err, errlen,
             "timing model: livelock: no warp instruction issued for %" PRIu64 " cycles at cycle "
             "%" PRIu64 " while work is pending, although the GPU was busy ([timing] "
             "watchdog_cycles; %" PRIu64 " warp instructions so far)%s%s",
             quiet, g->now, instrs, why, rest ? rest : "");
    return HD_FUNC_ERR_INTERNAL;
}
