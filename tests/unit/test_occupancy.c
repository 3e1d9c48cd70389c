/* SPDX-License-Identifier: MIT
 * test_occupancy.c - CTAs per SM and the limiting resource against hand calculations, for each
 * named configuration (loaded from configs/), plus the granularity rules and "does not fit".
 *
 * Every expected number below is worked out in the comment beside it from the configuration's
 * values, so a change to a config or to the rule shows up here with the arithmetic to check.
 */
#include "config.h"
#include "occupancy.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

struct occ_case {
    uint32_t threads, regs;
    uint64_t smem_static, smem_dynamic;
    uint32_t ctas;            /* expected CTAs per SM */
    unsigned limit_mask;      /* expected limiting resources */
    const char *why;          /* the hand calculation */
};

#define R (1u << HD_OCC_REGISTERS)
#define S (1u << HD_OCC_SHARED)
#define T (1u << HD_OCC_THREADS)
#define C (1u << HD_OCC_CTA_SLOTS)

static bool load(struct hd_test_state *t, const char *path, struct hd_occ_params *p)
{
    struct hd_config cfg;
    char err[512] = "";
    if (!HD_CHECK(t, hd_config_load(path, &cfg, err, sizeof err) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return false;
    }
    hd_occ_params_from_config(&cfg, p);
    return true;
}

static void run_cases(struct hd_test_state *t, const struct hd_occ_params *p,
                      const struct occ_case *cs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct occ_case *c = &cs[i];
        struct hd_occ_kernel k = {c->threads, c->regs, c->smem_static, c->smem_dynamic};
        struct hd_occupancy o;
        int rc = hd_occupancy_compute(p, &k, &o);
        bool ok = HD_CHECK(t, rc == 0);
        ok = HD_CHECK_U64(t, c->ctas, o.ctas) && ok;
        ok = HD_CHECK_U64(t, c->limit_mask, o.limit_mask) && ok;
        ok = HD_CHECK_U64(t, (uint64_t)c->ctas * ((c->threads + 31) / 32), o.warps) && ok;
        ok = HD_CHECK_F64(t, (double)o.warps / (double)p->max_warps, o.occupancy, 1e-12) && ok;
        if (!ok)
            fprintf(stderr, "  case %zu (%s): got %u CTAs, mask %#x\n", i, c->why, o.ctas,
                    o.limit_mask);
    }
}

static void test_fermi(struct hd_test_state *t)
{
    hd_test_begin(t, "fermi-gtx480: 48 warps, 8 CTAs, 32768 regs (128 per warp), 48 KB");
    struct hd_occ_params p;
    if (!load(t, "configs/fermi-gtx480.ini", &p))
        return;
    static const struct occ_case cs[] = {
        {256, 32, 0, 0, 4, R, "regs: 8 warps x 32x32=1024 = 8192; 32768/8192 = 4 < 6 by warps"},
        {256, 21, 0, 0, 5, R,
         "regs: 21 -> 24 per thread (GPGPU-Sim x4): 8 x 768 = 6144; 32768/6144 = 5 (exact: 6)"},
        {128, 10, 12288, 0, 4, S, "shared: 49152/12288 = 4; regs 4 x 384 -> 21; warps 12"},
        {128, 10, 8192, 4096, 4, S, "static 8 KB + dynamic 4 KB = 12 KB: 4"},
        {512, 16, 1024, 0, 3, T, "warps: 48/16 = 3; regs 32768/8192 = 4; shared 48"},
        {64, 8, 0, 0, 8, C, "CTA slots: 8; warps 48/2 = 24; regs 32768/512 = 64"},
        {192, 16, 0, 0, 8, T | C, "tie: warps 48/6 = 8 = CTA slots 8; regs 32768/3072 = 10"},
        {100, 20, 0, 0, 8, C, "100 threads = 4 warps: warps 12, regs 32768/(4x640) = 12, slots 8"},
        {256, 64, 0, 0, 2, R, "64 > 63: clamped to 63 -> 2048 per warp; 8 x 2048 = 16384: 2"},
        {1024, 32, 0, 0, 1, R | T, "1024 threads: warps 48/32 = 1; regs 32768/32768 = 1"},
    };
    run_cases(t, &p, cs, sizeof cs / sizeof cs[0]);

    struct hd_occ_kernel k = {256, 64, 0, 0};
    struct hd_occupancy o;
    hd_occupancy_compute(&p, &k, &o);
    HD_CHECK(t, o.regs_clamped);
    HD_CHECK_U64(t, 63, o.regs_per_thread);
    HD_CHECK_U64(t, 2048, o.demand.regs_per_warp);
}

static void test_kepler(struct hd_test_state *t)
{
    hd_test_begin(t, "kepler-gk110: 64 warps, 16 CTAs, 65536 regs (no rounding), 16 KB");
    struct hd_occ_params p;
    if (!load(t, "configs/kepler-gk110.ini", &p))
        return;
    static const struct occ_case cs[] = {
        {256, 64, 0, 0, 4, R, "regs: 8 x 2048 = 16384; 65536/16384 = 4 < 8 by warps"},
        {256, 41, 0, 0, 6, R,
         "regs: 8 x 1312 = 10496; 65536/10496 = 6 (GPGPU-Sim's x4 would give 5)"},
        {128, 20, 6144, 0, 2, S, "shared: 16384/6144 = 2; regs 65536/2560 = 25; warps 16"},
        {512, 24, 0, 0, 4, T, "warps: 64/16 = 4; regs 65536/12288 = 5"},
        {64, 16, 0, 0, 16, C, "CTA slots 16; warps 32; regs 65536/1024 = 64"},
        {96, 33, 512, 0, 16, C, "3 warps: warps 21, regs 65536/3168 = 20, shared 32, slots 16"},
    };
    run_cases(t, &p, cs, sizeof cs / sizeof cs[0]);
}

static void test_maxwell(struct hd_test_state *t)
{
    hd_test_begin(t, "maxwell-gpuduet: 64 warps, 32 CTAs, 65536 regs (128 per warp), 96 KB");
    struct hd_occ_params p;
    if (!load(t, "configs/maxwell-gpuduet.ini", &p))
        return;
    static const struct occ_case cs[] = {
        {256, 41, 0, 0, 5, R, "regs: 41 -> 44: 8 x 1408 = 11264; 65536/11264 = 5 < 8 by warps"},
        {128, 10, 40960, 0, 2, S, "shared: 98304/40960 = 2; regs 65536/1536 = 42; warps 16"},
        {1024, 16, 0, 0, 2, T, "warps: 64/32 = 2; regs 65536/16384 = 4"},
        {32, 8, 0, 0, 32, C, "CTA slots 32; warps 64; regs 65536/256 = 256"},
        {64, 255, 0, 0, 4, R, "255 -> 256 per thread: 2 x 8192 = 16384; 65536/16384 = 4"},
    };
    run_cases(t, &p, cs, sizeof cs / sizeof cs[0]);
}

static void test_granularity(struct hd_test_state *t)
{
    hd_test_begin(t, "allocation units: registers per warp, shared bytes per CTA");
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    cfg.sm_reg_alloc_unit = 64;  /* Fermi hardware */
    cfg.sm_smem_alloc_unit = 128;
    struct hd_occ_params p;
    hd_occ_params_from_config(&cfg, &p);
    struct hd_occ_kernel k = {256, 21, 100, 0};
    struct hd_occupancy o;
    HD_CHECK(t, hd_occupancy_compute(&p, &k, &o) == 0);
    HD_CHECK_U64(t, 704, o.demand.regs_per_warp); /* 21 x 32 = 672 -> 704 */
    HD_CHECK_U64(t, 5632, o.demand.regs);         /* 8 warps */
    HD_CHECK_U64(t, 128, o.demand.smem);          /* 100 -> 128 */
    HD_CHECK_U64(t, 5, o.by[HD_OCC_REGISTERS]);   /* 32768 / 5632 = 5.8 */
    HD_CHECK_U64(t, 384, o.by[HD_OCC_SHARED]);    /* 49152 / 128 */
    HD_CHECK_U64(t, 6, o.by[HD_OCC_THREADS]);
    HD_CHECK_U64(t, 5, o.ctas);
    HD_CHECK_U64(t, 5 * 256, o.threads);
    cfg.sm_reg_alloc_unit = 1; /* none at all: 21 x 32 = 672 per warp, 5376 per CTA -> 6 */
    hd_occ_params_from_config(&cfg, &p);
    HD_CHECK(t, hd_occupancy_compute(&p, &k, &o) == 0);
    HD_CHECK_U64(t, 6, o.by[HD_OCC_REGISTERS]);
    HD_CHECK_U64(t, 6, o.ctas);
    HD_CHECK_U64(t, R | T, o.limit_mask);
    char buf[64];
    HD_CHECK(t, strcmp(hd_occ_limit_string(&o, buf, sizeof buf), "registers+threads") == 0);
    HD_CHECK(t, o.limit == HD_OCC_REGISTERS);
    /* resources a CTA does not use place no limit */
    struct hd_occ_kernel none = {32, 0, 0, 0};
    HD_CHECK(t, hd_occupancy_compute(&p, &none, &o) == 0);
    HD_CHECK_U64(t, HD_OCC_UNLIMITED, o.by[HD_OCC_REGISTERS]);
    HD_CHECK_U64(t, HD_OCC_UNLIMITED, o.by[HD_OCC_SHARED]);
    HD_CHECK_U64(t, 8, o.ctas);
}

static void test_no_fit(struct hd_test_state *t)
{
    hd_test_begin(t, "does not fit: the reason is named");
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    struct hd_occ_params p;
    hd_occ_params_from_config(&cfg, &p);
    static const struct {
        struct hd_occ_kernel k;
        enum hd_occ_nofit why;
        const char *msg;
    } cs[] = {
        {{0, 10, 0, 0}, HD_OCC_NO_THREADS, "a CTA of 0 threads"},
        {{1024, 40, 0, 0}, HD_OCC_CTA_TOO_MANY_REGS,
         "one CTA needs 40960 registers (32 warps x 1280), the SM has 32768"},
        {{128, 8, 50000, 0}, HD_OCC_CTA_TOO_MUCH_SHARED,
         "one CTA needs 50000 bytes of shared memory, the SM has 49152"},
        {{128, 8, 40000, 10000}, HD_OCC_CTA_TOO_MUCH_SHARED, "needs 50000 bytes"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        struct hd_occupancy o;
        HD_CHECK(t, hd_occupancy_compute(&p, &cs[i].k, &o) == -1);
        HD_CHECK_U64(t, 0, o.ctas);
        HD_CHECK(t, o.limit == HD_OCC_NOFIT);
        HD_CHECK(t, o.nofit == cs[i].why);
        if (!HD_CHECK(t, strstr(o.reason, cs[i].msg) != NULL))
            fprintf(stderr, "  case %zu: '%s'\n", i, o.reason);
        char buf[256];
        HD_CHECK(t, strncmp(hd_occ_limit_string(&o, buf, sizeof buf), "does not fit: ", 14) == 0);
    }
    cfg.sm_max_threads = 512; /* 16 warp slots: a 1024-thread CTA cannot be resident */
    hd_occ_params_from_config(&cfg, &p);
    struct hd_occ_kernel big = {1024, 8, 0, 0};
    struct hd_occupancy o;
    HD_CHECK(t, hd_occupancy_compute(&p, &big, &o) == -1);
    HD_CHECK(t, o.nofit == HD_OCC_CTA_TOO_MANY_THREADS);
    HD_CHECK(t, strstr(o.reason, "a CTA of 1024 threads (32 warps) exceeds the SM's 512 threads "
                                 "(16 warp slots)") != NULL);
    HD_CHECK(t, strcmp(hd_occ_limit_name(HD_OCC_SHARED), "shared memory") == 0);
    HD_CHECK(t, strcmp(hd_occ_limit_name(HD_OCC_CTA_SLOTS), "CTA slots") == 0);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_fermi(&t);
    test_kepler(&t);
    test_maxwell(&t);
    test_granularity(&t);
    test_no_fit(&t);
    return hd_test_finish(&t);
}
