/* SPDX-License-Identifier: MIT
 * cli_zphase.c - `heddle ptx-info`'s list of a kernel's Zorua phases (cli_zphase.h): per phase
 * its PCs and PTX lines, what begins it (kernel start, phase specifier, barrier), the live
 * registers at its start and its need (the most live at any instruction), in 32-bit words and in
 * Zorua's register sets of 4 per thread, and whether the scratchpad is live in it. The module is
 * loaded as the timing model loads it, so the PCs and the annotation store are the run's.
 */
#include "cli_zphase.h"

#include "zphase.h"

#include <stdio.h>

int hd_cli_print_zphases(const struct hd_cli_kernel_view *v, const struct hd_config *cfg)
{
    if (!hd_cli_kernel_view_ready(v, "Zorua phases", true))
        return -1;
    char err[512] = "";
    struct hd_zphases *z = NULL;
    if (hd_zphase_build(v->a, &z, err, sizeof err) != 0) {
        printf("  Zorua phases: (%s)\n", err);
        return -1;
    }
    const struct hd_func_kernel *k = v->k;
    const uint32_t set = cfg->zorua_reg_set ? cfg->zorua_reg_set : 4;
    printf("  Zorua phases (Sec. 3.6: >= %.0f %% live-register change, >= %u instructions, no "
           "divergence; barriers): %u, %u phase specifier%s\n",
           z->change * 100, z->min_instrs, z->n, z->specifiers, z->specifiers == 1 ? "" : "s");
    for (uint32_t i = 0; i < z->n; i++) {
        const struct hd_zphase *p = &z->ph[i];
        char grp[48] = "";
        if (p->group != i) /* a barrier's phase: its needs are its specifier's group's */
            snprintf(grp, sizeof grp, " (group of phase %u)", p->group);
        printf("    phase %u: PC %u-%u (lines %u-%u), %s%s; live %u at start, needs %u "
               "registers (%u sets); scratchpad %s\n",
               i, p->start, p->end - 1, hd_cli_kernel_line(k, p->start), hd_cli_kernel_line(k, p->end - 1),
               i == 0 ? "kernel start"
               : p->barrier && p->specifier ? "barrier + phase specifier"
               : p->barrier ? "barrier" : "phase specifier",
               grp, p->live_start, p->live_max, (p->live_max + set - 1) / set,
               p->smem ? "live" : "none");
    }
    hd_zphase_free(z);
    return 0;
}
