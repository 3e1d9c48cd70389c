/* SPDX-License-Identifier: MIT
 * fuzz_compile.c - libFuzzer target for the compiler passes on fuzzer-made PTX: every function
 * that parses goes through the CFG, the divergence-aware liveness and the register allocator
 * (with and without constant rematerialisation), and the allocation must pass its checker
 * (hd_regalloc_check: no two live registers share a physical register at any PC), or a pass
 * must fail with a message naming the function. Calls are then linked across the module.
 * Inputs larger than 64 KiB are skipped (the passes are bounded per function, not fast).
 * Built with libFuzzer when HD_FUZZ=ON; fuzz_replay.c runs it over the seeds in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "liveness.h"
#include "ptx_parse.h"
#include "regalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz_compile: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char err[1024] = "";
    struct hd_module *m = hd_ptx_parse((const char *)data, size, "fuzz.ptx", err, sizeof err);
    if (!m)
        return 0;
    struct hd_regalloc *ra = calloc(m->nfuncs + 1, sizeof *ra);
    require(ra != NULL, "out of memory", NULL);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct hd_func *f = &m->funcs[i];
        if (!f->has_body || !f->ninstrs)
            continue;
        struct hd_cfg *cfg = hd_cfg_build(f);
        if (!cfg)
            continue;
        struct hd_liveness *lv = hd_liveness_build(f, cfg, err, sizeof err);
        if (!lv) {
            require(err[0] != '\0', "liveness failed without a message", NULL);
            hd_cfg_free(cfg);
            continue;
        }
        for (int remat = 1; remat >= 0; remat--) {
            struct hd_regalloc_params p;
            hd_regalloc_params_default(&p);
            p.remat = remat;
            struct hd_regalloc *out = &ra[i], scratch;
            if (!remat) /* the second allocation is checked and dropped */
                out = &scratch;
            memset(out, 0, sizeof *out);
            if (hd_regalloc_run(f, cfg, lv, &p, out, err, sizeof err) != 0) {
                require(err[0] != '\0', "regalloc failed without a message", NULL);
                continue;
            }
            require(hd_regalloc_check(f, lv, out, err, sizeof err) == 0, "invalid allocation",
                    err);
            require(out->regs_per_thread <= p.max_regs, "registers above the budget", f->name);
            if (!remat)
                hd_regalloc_free(out);
        }
        hd_liveness_free(lv);
        hd_cfg_free(cfg);
    }
    hd_regalloc_link(m, ra);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        hd_regalloc_free(&ra[i]);
    free(ra);
    hd_ptx_module_free(m);
    return 0;
}
