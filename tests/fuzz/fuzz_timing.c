/* SPDX-License-Identifier: MIT
 * fuzz_timing.c - libFuzzer target for the cycle-level timing model on fuzzer-made kernels
 * (issue 17, deliverable 4): every .entry of a module that parses is launched through the public
 * runtime (model/runtime/heddle.h) on a small GPU in cycle mode (2 SMs, the full memory system,
 * 16 MiB of device memory; 2 CTAs of 64 threads; 8-byte parameters get the address of a 4 KiB
 * buffer, others zero), bounded by the run-time limits ([timing] max_cycles = 30,000 and
 * max_instructions = 20,000), so loops and deadlocks end. Properties checked:
 *   - nothing crashes, hangs or trips a sanitizer (ASan, UBSan under libFuzzer);
 *   - every failure carries a message (hd_last_error non-empty);
 *   - the run is deterministic: a second GPU running the same launches gives the same status,
 *     the same cycles and the same buffer contents.
 * An input whose first line is "// attr arrive=N priority=P" (a PTX comment) launches its
 * kernels with those attributes (issue 34: late arrivals wait without the watchdog counting,
 * skipped at once up to the max_cycles bound). Inputs above 16 KiB are skipped. Built with libFuzzer by scripts/fuzz-timing.sh (a clang build
 * with coverage on every model library); fuzz_replay.c runs it over the seeds in every build
 * (timing_fuzz_replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "heddle.h"
#include "ptx_ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUF_BYTES 4096
#define MAX_KERNELS 4

static void require(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz_timing: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
        abort();
    }
}

/* The configuration file, written once per process (hd_gpu_create reads a path) and removed at
 * its exit. */
static char cfg_path[64];

static void remove_config(void)
{
    if (cfg_path[0])
        unlink(cfg_path);
}

static const char *config_path(void)
{
    char *path = cfg_path;
    if (path[0])
        return path;
    static const char text[] = "# fuzz_timing.c: a small GPU, bounded runs\n"
                               "[gpu]\nnum_sms = 2\nglobal_mem_mb = 16\n"
                               "[timing]\nmax_cycles = 30000\nmax_instructions = 20000\n";
    char tmpl[] = "/tmp/heddle-fuzz-timing-XXXXXX";
    int fd = mkstemp(tmpl);
    require(fd >= 0, "cannot create the configuration file", NULL);
    require(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1), "write", NULL);
    close(fd);
    memcpy(path, tmpl, sizeof tmpl);
    atexit(remove_config);
    return path;
}

struct outcome {
    int loaded;
    int status[MAX_KERNELS];
    uint64_t cycles;
    uint8_t buf[BUF_BYTES];
};

/* The launch attributes of a first line "// attr arrive=N priority=P" (either may be missing;
 * values beyond their range are clamped, the runtime takes any). */
static struct hd_launch_attr input_attr(const uint8_t *data, size_t size)
{
    struct hd_launch_attr a;
    memset(&a, 0, sizeof a);
    char line[128];
    size_t n = 0;
    while (n < size && n < sizeof line - 1 && data[n] != '\n')
        n++;
    memcpy(line, data, n);
    line[n] = '\0';
    if (strncmp(line, "// attr ", 8) != 0)
        return a;
    const char *p = strstr(line, "arrive=");
    if (p)
        a.arrive_cycle = strtoull(p + 7, NULL, 10);
    if ((p = strstr(line, "priority=")) != NULL) {
        long v = strtol(p + 9, NULL, 10);
        a.priority = (int32_t)(v < -1000000 ? -1000000 : v > 1000000 ? 1000000 : v);
    }
    return a;
}

/* Run every kernel of the PTX text on a new GPU (the runtime's module handle is the parsed IR,
 * ptx_ir.h); *o gets each launch's status, the total cycles and the buffer afterwards. */
static void run_all(const uint8_t *data, size_t size, struct outcome *o)
{
    char err[1024] = "";
    memset(o, 0, sizeof *o);
    struct hd_gpu *gpu = hd_gpu_create(config_path(), err, sizeof err);
    require(gpu != NULL, "the fuzz configuration does not load", err);
    struct hd_module *mod = NULL;
    int st = hd_module_load_text(gpu, (const char *)data, size, "fuzz.ptx", &mod);
    if (st != 0) {
        require(hd_last_error(gpu)[0] != '\0', "a module refused without a message", NULL);
        o->status[0] = st;
        hd_gpu_destroy(gpu);
        return;
    }
    o->loaded = 1;
    const struct hd_launch_attr attr = input_attr(data, size);
    hd_set_launch_attr(gpu, &attr);
    hd_devptr buf = 0;
    require(hd_malloc(gpu, &buf, BUF_BYTES) == 0, "a 4 KiB buffer", hd_last_error(gpu));
    require(hd_memset(gpu, buf, 0, BUF_BYTES) == 0, "memset", hd_last_error(gpu));
    unsigned nk = 0;
    for (uint32_t fi = 0; fi < mod->nfuncs && nk < MAX_KERNELS; fi++) {
        const struct hd_func *f = &mod->funcs[fi];
        if (!f->is_entry || !f->has_body)
            continue;
        struct hd_arg args[64];
        uint64_t vals[64];
        unsigned np = f->nparams < 64 ? f->nparams : 64;
        for (unsigned i = 0; i < np; i++) {
            vals[i] = f->params[i].size == 8 ? buf : 0;
            args[i].value = &vals[i];
            args[i].size = f->params[i].size <= 8 ? (size_t)f->params[i].size : 8;
        }
        const struct hd_dim3 grid = {2, 1, 1}, block = {64, 1, 1};
        st = hd_launch(gpu, mod, f->name, grid, block, 0, 0, args, np);
        if (st == 0)
            st = hd_synchronize(gpu);
        if (st != 0)
            require(hd_last_error(gpu)[0] != '\0', "a launch failed without a message", f->name);
        o->status[nk++] = st;
    }
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(gpu, &tt);
    o->cycles = tt.cycles;
    if (hd_memcpy_d2h(gpu, o->buf, buf, BUF_BYTES) != 0)
        require(hd_last_error(gpu)[0] != '\0', "a copy failed without a message", NULL);
    hd_gpu_destroy(gpu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    static struct outcome a, b;
    run_all(data, size, &a);
    if (!a.loaded)
        return 0; /* refused with a message: nothing ran */
    run_all(data, size, &b);
    require(b.loaded, "a module loads once and not again", NULL);
    for (unsigned i = 0; i < MAX_KERNELS; i++)
        require(a.status[i] == b.status[i], "two runs of one input end differently", NULL);
    require(a.cycles == b.cycles, "two runs of one input take different cycles", NULL);
    require(memcmp(a.buf, b.buf, BUF_BYTES) == 0, "two runs of one input write different data",
            NULL);
    return 0;
}
