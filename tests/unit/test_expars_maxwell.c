/* SPDX-License-Identifier: MIT
 * test_expars_maxwell.c - EXPARS's maximum-CTA calculator on the Maxwell SM of the paper's
 * static study (Yu et al. TACO 2018 §4.6, Table 2's Maxwell column: 65,536 registers, 64 KB
 * scratchpad, 32 CTA slots, 2,048 threads, 255 registers per thread; tau = 0.8; digest
 * ../shared/reference/papers/expars.md §4.3, §6.6, §7 item 1), which experiments/expars.py's
 * Maxwell section (Table 4, Fig. 16-17) runs through `heddle ptx-info`:
 *   - the register-sensitive stand-in kernels of that study (footprints as `heddle list
 *     --kernels` shows them: threads, shared bytes, ptxas's registers): CTA_Lower/Upper,
 *     (CTA_RF, CTA_Mix), Start_Reg, and Baseline / Warpman / EXPARS CTAs, warps and RF, SPM and
 *     overall utilisation, the expected values worked out from the digest's §2.2 search and
 *     §2.10 Warpman model by hand (one line each below);
 *   - over a grid of footprints (1..255 registers, 32..1,024 threads, 0..32 KB): the plan is the
 *     largest CTA count a brute-force search over (N, M, Start_Reg) finds feasible under
 *     constraints (1)-(2) and tau, with the fewest mix CTAs; the plan's RF and scratchpad use
 *     fit; EXPARS never has fewer CTAs than the baseline, Warpman adds at most one partial CTA;
 *     every utilisation is within [0, 1]; a kernel the search leaves alone is the baseline.
 */
#include "expars_calc.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static struct hd_expars_in maxwell(uint32_t threads, uint32_t shared, uint32_t regs)
{
    const uint32_t t = (threads + 31) / 32 * 32;
    return (struct hd_expars_in){.R = 65536, .S = 65536, .max_ctas = 32, .max_threads = 2048,
                                 .r_cta = regs * t, .s_cta = shared, .t_cta = t,
                                 .tau_num = 4, .tau_den = 5};
}

struct kcase {
    const char *name;
    uint32_t threads, shared, regs;
    uint32_t lower, upper, cta_rf, cta_mix, start_reg;
    uint32_t b_ctas, b_warps, w_ctas, w_warps, e_ctas, e_warps;
    double e_rf, e_spm, e_all, b_all, w_all; /* percent */
};

/* Worked by hand from §2.2 / §2.10 / §5.3, e.g. cfd_flux: R_CTA = 55 x 192 = 10,560; Lower =
 * floor(65536 / 10560) = 6; Upper = min(32, 2048/192 = 10, floor(327680 / 42240) = 7) = 7;
 * N = 7, M = 1: Start_Reg = floor((65536 - 6 x 10560) / 192) = 11 >= 55/5; SPM = (55 - 11) x
 * 192 x 4 = 33,792 <= 65,536: (6, 1); RF = (63360 + 2112) / 65536 = 99.90 %, SPM 51.56 %,
 * overall (4 x 65472 + 33792) / 327680 = 90.23 %. */
static const struct kcase cases[] = {
    {"cfd_flux", 192, 0, 55, 6, 7, 6, 1, 11, 6, 36, 7, 37, 7, 42, 99.902, 51.563, 90.234, 77.344, 79.492},
    {"lbm_stream_collide", 128, 0, 64, 8, 10, 6, 4, 32, 8, 32, 8, 32, 10, 40, 100.0, 100.0, 100.0, 80.0, 80.0},
    {"km_assign", 256, 0, 52, 4, 6, 4, 2, 24, 4, 32, 5, 39, 6, 48, 100.0, 87.5, 97.5, 65.0, 79.219},
    {"sad_4x4", 128, 2304, 53, 9, 11, 9, 2, 17, 9, 36, 10, 38, 11, 44, 99.805, 94.922, 98.828, 80.859, 85.703},
    {"stencil7", 512, 0, 33, 3, 4, 3, 1, 29, 3, 48, 4, 62, 4, 64, 100.0, 12.5, 82.5, 61.875, 79.922},
    {"lavamd_forces", 128, 3600, 48, 10, 11, 10, 1, 32, 10, 40, 11, 42, 11, 44, 100.0, 72.925, 94.585, 85.986, 90.835},
    {"bucket_count", 512, 8188, 48, 2, 3, 2, 1, 32, 2, 32, 3, 42, 3, 48, 100.0, 87.482, 97.496, 64.998, 86.246},
    {"qrng_generate", 384, 0, 42, 4, 5, 3, 2, 22, 4, 48, 4, 48, 5, 60, 99.609, 93.75, 98.438, 78.75, 78.75},
};
#define NCASES (sizeof cases / sizeof cases[0])

static void study_kernels(struct hd_test_state *t)
{
    hd_test_begin(t, "Maxwell: the study's register-sensitive kernels, worked by hand");
    for (unsigned i = 0; i < NCASES; i++) {
        const struct kcase *c = &cases[i];
        const struct hd_expars_in in = maxwell(c->threads, c->shared, c->regs);
        struct hd_expars_plan p;
        struct hd_expars_static b, w, e;
        const int bad = t->failures;
        HD_CHECK(t, hd_expars_plan(&in, &p) == 0);
        hd_expars_static_baseline(&in, &b);
        hd_expars_static_warpman(&in, &w);
        hd_expars_static_expars(&in, &p, &e);
        HD_CHECK_U64(t, c->lower, p.lower);
        HD_CHECK_U64(t, c->upper, p.upper);
        HD_CHECK_U64(t, c->cta_rf, p.cta_rf);
        HD_CHECK_U64(t, c->cta_mix, p.cta_mix);
        HD_CHECK_U64(t, c->start_reg, p.start_reg);
        HD_CHECK_U64(t, c->regs - 1, p.max_reg);
        HD_CHECK(t, p.on);
        HD_CHECK_U64(t, c->b_ctas, b.ctas);
        HD_CHECK_U64(t, c->b_warps, b.warps);
        HD_CHECK_U64(t, c->w_ctas, w.ctas);
        HD_CHECK_U64(t, c->w_warps, w.warps);
        HD_CHECK_U64(t, c->e_ctas, e.ctas);
        HD_CHECK_U64(t, c->e_warps, e.warps);
        HD_CHECK_F64(t, c->e_rf, 100.0 * e.rf_util, 0.001);
        HD_CHECK_F64(t, c->e_spm, 100.0 * e.spm_util, 0.001);
        HD_CHECK_F64(t, c->e_all, 100.0 * e.overall, 0.001);
        HD_CHECK_F64(t, c->b_all, 100.0 * b.overall, 0.001);
        HD_CHECK_F64(t, c->w_all, 100.0 * w.overall, 0.001);
        if (t->failures != bad)
            printf("    (in kernel %s)\n", c->name);
    }
    hd_test_begin(t, "Maxwell: kernels EXPARS leaves alone (no register pressure; 255 registers)");
    struct hd_expars_in in = maxwell(256, 3072, 16); /* hotspot: 8 CTAs by threads */
    struct hd_expars_plan p;
    HD_CHECK(t, hd_expars_plan(&in, &p) == 0);
    HD_CHECK(t, !p.on);
    HD_CHECK_U64(t, 8, p.cta_rf);
    in = maxwell(128, 0, 255); /* spill: 2 CTAs; 3 need 97,920 words > R + S/4 */
    HD_CHECK(t, hd_expars_plan(&in, &p) == 0);
    HD_CHECK(t, !p.on);
    HD_CHECK_U64(t, 2, p.cta_rf);
    HD_CHECK_U64(t, 2, p.upper);
}

/* The largest N (<= upper) for which some M mix CTAs and one Start_Reg s meet constraints (1)
 * and (2) and tau, by exhaustion; *m: the fewest such M for that N, *s: the largest s. */
static uint32_t brute_force(const struct hd_expars_in *in, uint32_t regs, uint32_t lower,
                            uint32_t upper, uint32_t *m, uint32_t *s)
{
    for (uint32_t n = upper; n > lower; n--)
        for (uint32_t mm = 1; mm <= n; mm++)
            for (uint32_t ss = regs; ss + 1 > 0; ss--) {
                if ((uint64_t)ss * in->tau_den < (uint64_t)(in->tau_den - in->tau_num) * regs)
                    break; /* more than tau of the registers in the scratchpad */
                const uint64_t rf = (uint64_t)(n - mm) * in->r_cta + (uint64_t)mm * ss * in->t_cta;
                const uint64_t spm = (uint64_t)n * in->s_cta +
                                     (uint64_t)mm * (regs - ss) * in->t_cta * 4;
                if (rf <= in->R && spm <= in->S) {
                    *m = mm, *s = ss;
                    return n;
                }
            }
    *m = 0, *s = regs;
    return lower;
}

static void grid(struct hd_test_state *t)
{
    hd_test_begin(t, "Maxwell grid: the plan is the exhaustive optimum and fits");
    static const uint32_t threads[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    static const uint32_t shared[] = {0, 1024, 3600, 8192, 16384, 32768};
    unsigned n = 0, on = 0;
    for (uint32_t regs = 1; regs <= 255; regs += 2)
        for (unsigned ti = 0; ti < sizeof threads / sizeof *threads; ti++)
            for (unsigned si = 0; si < sizeof shared / sizeof *shared; si++) {
                const struct hd_expars_in in = maxwell(threads[ti], shared[si], regs);
                if (in.r_cta > in.R)
                    continue; /* one CTA does not fit: refused (test_expars_calc) */
                struct hd_expars_plan p;
                struct hd_expars_static b, w, e;
                const int bad = t->failures;
                HD_CHECK(t, hd_expars_plan(&in, &p) == 0);
                hd_expars_static_baseline(&in, &b);
                hd_expars_static_warpman(&in, &w);
                hd_expars_static_expars(&in, &p, &e);
                uint32_t m, s;
                const uint32_t best = brute_force(&in, regs, p.lower, p.upper, &m, &s);
                HD_CHECK_U64(t, best, p.cta_rf + p.cta_mix);
                HD_CHECK_U64(t, m, p.cta_mix);
                if (p.on) {
                    on++;
                    HD_CHECK_U64(t, s, p.start_reg);
                    HD_CHECK(t, (uint64_t)p.cta_rf * in.r_cta +
                                    (uint64_t)p.cta_mix * p.start_reg * in.t_cta <= in.R);
                    HD_CHECK(t, (uint64_t)(p.cta_rf + p.cta_mix) * in.s_cta +
                                    (uint64_t)p.cta_mix * p.region_bytes <= in.S);
                    HD_CHECK(t, 5 * p.start_reg >= regs); /* tau = 0.8 */
                } else {
                    HD_CHECK_U64(t, b.ctas, e.ctas);
                }
                HD_CHECK_U64(t, b.ctas, p.lower);
                HD_CHECK(t, e.ctas >= b.ctas && e.ctas <= 32 && e.warps <= 64);
                HD_CHECK(t, w.ctas == b.ctas || w.ctas == b.ctas + 1);
                HD_CHECK(t, w.warps >= b.warps && w.warps <= 64);
                const struct hd_expars_static *s3[3] = {&b, &w, &e};
                for (int k = 0; k < 3; k++)
                    HD_CHECK(t, s3[k]->rf_util >= 0 && s3[k]->rf_util <= 1 + 1e-12 &&
                                    s3[k]->spm_util >= 0 && s3[k]->spm_util <= 1 + 1e-12 &&
                                    s3[k]->overall <= 1 + 1e-12);
                HD_CHECK(t, e.overall >= b.overall - 1e-12);
                if (t->failures != bad) {
                    printf("    (at %u registers, %u threads, %u B)\n", regs, threads[ti],
                           shared[si]);
                    return;
                }
                n++;
            }
    printf("    %u footprints, %u with mix CTAs\n", n, on);
    HD_CHECK(t, on > 100); /* the grid does exercise the search */
}

int main(void)
{
    struct hd_test_state t;
    memset(&t, 0, sizeof t);
    study_kernels(&t);
    grid(&t);
    return hd_test_finish(&t);
}
