/* SPDX-License-Identifier: MIT
 * fuzz_exec.c - libFuzzer target for functional execution of fuzzer-made kernels: every .entry
 * of a module that parses and loads is launched (2 CTAs of 64 threads; 8-byte parameters get
 * the address of a 4 KiB buffer, others zero) on the functional model (model/func) and run to
 * completion or to its first fault, bounded by the run-time limit (max_instrs = 20,000 warp
 * instructions per launch), so loops end. Every failure must carry a message; nothing may
 * crash, hang or trip a sanitizer. Inputs above 16 KiB are skipped. Built with libFuzzer by
 * scripts/fuzz-compile.sh; fuzz_replay.c runs it over the seeds in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmem.h"
#include "launch.h"
#include "module.h"
#include "ptx_parse.h"
#include "runner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_exec: %s\n", what);
        abort();
    }
}

static void run_kernel(struct hd_devmem *mem, const struct hd_func_kernel *k, uint64_t buf)
{
    const struct hd_func *f = k->entry;
    struct hd_func_arg *args = calloc(f->nparams + 1, sizeof *args);
    uint64_t *vals = calloc(f->nparams + 1, sizeof *vals);
    require(args && vals, "out of memory");
    for (uint32_t i = 0; i < f->nparams; i++) {
        vals[i] = f->params[i].size == 8 ? buf : 0;
        args[i].value = &vals[i];
        args[i].size = f->params[i].size <= 8 ? (size_t)f->params[i].size : 8;
    }
    const struct hd_func_gpu_params gp = {2, 48, 48 * 1024};
    const uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    struct hd_func_launch l;
    char err[1024] = "";
    memset(&l, 0, sizeof l);
    if (hd_func_launch_init(&l, k, mem, &gp, grid, block, 0, args, f->nparams, 1, err,
                            sizeof err) != 0) {
        require(err[0] != '\0', "a launch refused without a message");
    } else {
        l.max_instrs = 20000;
        if (hd_func_run(&l) != 0)
            require(l.err[0] != '\0', "a run failed without a message");
    }
    hd_func_launch_destroy(&l);
    free(args);
    free(vals);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char err[1024] = "";
    struct hd_module *ir = hd_ptx_parse((const char *)data, size, "fuzz.ptx", err, sizeof err);
    if (!ir)
        return 0;
    struct hd_devmem mem;
    require(hd_devmem_init(&mem, (uint64_t)4 << 20) == 0, "device memory");
    struct hd_func_module *img = NULL;
    if (hd_func_module_load(&mem, ir, 64 * 1024, &img, err, sizeof err) != 0) {
        require(err[0] != '\0', "a module refused without a message");
    } else {
        uint64_t buf = 0;
        require(hd_devmem_alloc(&mem, 4096, HD_DEVMEM_USER, "buf", &buf, err, sizeof err) == 0,
                "a 4 KiB buffer");
        for (uint32_t i = 0; i < img->nkernels; i++)
            if (!img->kernels[i].unsupported[0])
                run_kernel(&mem, &img->kernels[i], buf);
        hd_func_module_unload(img);
    }
    hd_devmem_destroy(&mem);
    hd_ptx_module_free(ir);
    return 0;
}
