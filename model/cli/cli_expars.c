/* SPDX-License-Identifier: MIT
 * cli_expars.c - `heddle ptx-info`'s EXPARS section (cli_expars.h): the calculator's plan
 * (model/mech/expars/expars_calc.h, tau = [expars] tau) and the bundles of
 * model/compiler/bundles.h ([expars] oc_lines, at most 32 instructions, cut at barriers).
 */
#include "cli_expars.h"

#include "bundles.h"
#include "expars_calc.h"

#include <stdio.h>

/* The static metrics of the digest's §5.3 for the three configurations, one line that
 * experiments/expars.py's Maxwell study (§4.6, Fig. 16-17) reads: CTAs, warps, RF, scratchpad
 * and overall utilisation (percent, 4 decimals: the study's means are taken over these). */
static void print_static(const struct hd_expars_static *b, const struct hd_expars_static *w,
                         const struct hd_expars_static *e)
{
    const struct hd_expars_static *s[3] = {b, w, e};
    const char *name[3] = {"baseline", "warpman", "expars"};
    printf("    static:");
    for (int i = 0; i < 3; i++)
        printf("%s %s %u CTAs %u warps RF %.4f%% SPM %.4f%% overall %.4f%%", i ? ";" : "",
               name[i], s[i]->ctas, s[i]->warps, 100 * s[i]->rf_util, 100 * s[i]->spm_util,
               100 * s[i]->overall);
    printf("\n");
}

static void print_plan(const struct hd_config *cfg, uint32_t regs, uint32_t threads,
                       uint64_t smem)
{
    const uint32_t t = (threads + 31) / 32 * 32;
    const struct hd_expars_in in = {
        .R = cfg->sm_registers, .S = (uint32_t)cfg->sm_shared_mem_bytes,
        .max_ctas = cfg->sm_max_ctas, .max_threads = cfg->sm_max_threads, .r_cta = regs * t,
        .s_cta = (uint32_t)smem, .t_cta = t,
        .tau_num = (uint32_t)(cfg->expars_tau * 1000.0 + 0.5), .tau_den = 1000};
    struct hd_expars_plan p;
    if (hd_expars_plan(&in, &p) != 0) {
        printf("  EXPARS plan: none (%u registers x %u threads does not fit the SM)\n", regs, t);
        return;
    }
    struct hd_expars_static b, e, w;
    hd_expars_static_baseline(&in, &b);
    hd_expars_static_expars(&in, &p, &e);
    hd_expars_static_warpman(&in, &w);
    printf("  EXPARS plan (tau %.2f, %u registers x %u threads, %u B shared): CTA_Lower %u, "
           "CTA_Upper %u", cfg->expars_tau, regs, t, in.s_cta, p.lower, p.upper);
    if (!p.on) {
        printf("; no mix CTA (the baseline's %u CTAs)\n", p.cta_rf);
        print_static(&b, &w, &e);
        return;
    }
    printf("\n    CTA_RF %u + CTA_Mix %u = %u CTAs (%u warps; baseline %u CTAs, %u warps); "
           "Start_CTA %u, Start_Reg %u, Max_Reg %u, Warps_Per_CTA %u\n",
           p.cta_rf, p.cta_mix, p.cta_rf + p.cta_mix, e.warps, b.ctas, b.warps, p.cta_rf,
           p.start_reg, p.max_reg, p.wpc);
    printf("    register region %u B per mix CTA; SBR", p.region_bytes);
    for (uint32_t k = 0; k < p.cta_mix; k++)
        printf(" %u", hd_expars_sbr(in.S, &p, k));
    printf("; RF %.2f%% -> %.2f%%, shared memory %.2f%% -> %.2f%%\n", 100 * b.rf_util,
           100 * e.rf_util, 100 * b.spm_util, 100 * e.spm_util);
    print_static(&b, &w, &e);
}

static void print_bundles(const struct hd_func_kernel *k, const struct hd_bundles *bs)
{
    if (bs->note[0]) {
        printf("  EXPARS bundles: none (%s)\n", bs->note);
        return;
    }
    uint32_t maxn = 0, maxr = 0, conf = 0;
    for (uint32_t i = 0; i < bs->n; i++) {
        maxn = bs->b[i].n > maxn ? bs->b[i].n : maxn;
        maxr = bs->b[i].nregs > maxr ? bs->b[i].nregs : maxr;
        conf += bs->b[i].conflict;
    }
    printf("  EXPARS bundles: %u over %u instructions (%.2f per bundle, longest %u; at most %u "
           "registers; %u single-instruction line conflicts): %u PREF added\n",
           bs->n, bs->instrs, bs->n ? (double)bs->instrs / bs->n : 0.0, maxn, maxr, conf, bs->n);
    printf("    register order (rank: physical register, weight):");
    for (uint32_t r = 0; r < bs->nphys; r++)
        printf("%s %u:R%u/%u", r % 8 ? "" : "\n     ", r, bs->order[r], bs->weight[bs->order[r]]);
    printf("\n");
    for (uint32_t i = 0; i < bs->n; i++) {
        const struct hd_bundle *b = &bs->b[i];
        const uint32_t line = hd_cli_kernel_line(k, b->pc);
        printf("    bundle %u: PC %u (line %u), %u instructions, PREF {", i, b->pc, line, b->n);
        for (uint32_t r = 0, c = 0; r < HD_BUNDLE_MAX_REGS; r++)
            if (b->vec[r / 64] >> (r % 64) & 1u)
                printf("%sr%u", c++ ? " " : "", r);
        printf("}%s\n", b->conflict ? " (line conflict)" : "");
    }
}

int hd_cli_print_expars(const struct hd_cli_kernel_view *v, const struct hd_config *cfg,
                        uint32_t regs, uint32_t threads, uint64_t smem)
{
    if (regs && threads)
        print_plan(cfg, regs, threads, smem);
    if (!hd_cli_kernel_view_ready(v, "EXPARS bundles", true))
        return -1;
    char err[512] = "";
    struct hd_bundles *bs = NULL;
    const struct hd_bundle_params bp = {cfg->expars_oc_lines, cfg->expars_oc_ways, 32, true, true,
                                        cfg->expars_bundle_regs};
    if (hd_bundles_build(v->a, &bp, &bs, err, sizeof err) != 0 ||
        hd_bundles_annotate(v->a, bs) != 0) {
        printf("  EXPARS bundles: (%s)\n", err);
        hd_bundles_free(bs);
        return -1;
    }
    print_bundles(v->k, bs);
    hd_bundles_free(bs);
    return 0;
}
