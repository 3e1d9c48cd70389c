/* SPDX-License-Identifier: MIT
 * cli_launch_exec.c - runs a parsed `heddle launch`: GPU, module, buffers, one launch, then the
 * post-run prints, dumps and byte-exact expectations.
 *
 * Every runtime error is printed with the runtime's located message (hd_last_error) and gives
 * exit status 1; Ctrl-C gives 130 after the totals gathered so far. Buffers are freed on every
 * path before the GPU is destroyed. --dump and --expect go through the buffer in 1 MiB pieces,
 * so a large buffer costs its device memory only (a 1.5 GiB --expect used to peak at 3x).
 */
#include "cli_launch.h"

#include "cli_fill.h"
#include "cli_kres.h"
#include "cli_out.h"
#include "cli_util.h"
#include "regs_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define POST_MISMATCH (-1) /* an --expect did not hold (already reported) */
#define POST_CHUNK ((uint64_t)1 << 20) /* bytes per piece: no host copy of a whole buffer */

/* Report the runtime's located message; `what` names a buffer, or NULL. */
static int runtime_fail(struct hd_gpu *gpu, const char *what, int status)
{
    if (what)
        hd_cli_fail("launch", "buffer %s: %s", what, hd_last_error(gpu));
    else
        hd_cli_fail("launch", "%s", hd_last_error(gpu));
    return status == HD_ERR_INTERRUPTED ? HD_CLI_INTERRUPTED : HD_CLI_FAIL;
}

static int make_buffers(struct hd_gpu *gpu, struct hd_launch *l)
{
    for (unsigned b = 0; b < l->nbufs; b++) {
        struct hd_launch_buf *buf = &l->bufs[b];
        int st = hd_malloc(gpu, &buf->ptr, (size_t)buf->bytes);
        if (st != HD_OK)
            return runtime_fail(gpu, buf->name, st);
        if (strcmp(buf->fill, "zero") == 0) {
            st = hd_memset(gpu, buf->ptr, 0, (size_t)buf->bytes);
            if (st != HD_OK)
                return runtime_fail(gpu, buf->name, st);
            continue;
        }
        uint64_t chunk = buf->bytes < POST_CHUNK ? buf->bytes : POST_CHUNK; /* in pieces */
        uint8_t *host = malloc((size_t)chunk);
        if (!host)
            return hd_cli_fail("launch", "buffer %s: out of host memory (%" PRIu64 " bytes)",
                               buf->name, chunk);
        char err[512];
        struct hd_cli_filler z;
        if (hd_cli_filler_open(&z, buf->fill, buf->bytes, err, sizeof err) != 0) {
            free(host);
            return hd_cli_fail("launch", "buffer %s: %s", buf->name, err);
        }
        int rc = HD_CLI_OK;
        for (uint64_t off = 0; rc == HD_CLI_OK && off < buf->bytes; off += chunk) {
            uint64_t n = buf->bytes - off < chunk ? buf->bytes - off : chunk;
            if (hd_cli_filler_next(&z, host, n, err, sizeof err) != 0)
                rc = hd_cli_fail("launch", "buffer %s: %s", buf->name, err);
            else if ((st = hd_memcpy_h2d(gpu, buf->ptr + off, host, (size_t)n)) != HD_OK)
                rc = runtime_fail(gpu, buf->name, st);
        }
        hd_cli_filler_close(&z);
        free(host);
        if (rc != HD_CLI_OK)
            return rc;
    }
    return HD_CLI_OK;
}

/* The difference at byte i of the piece at `off` (want and got hold the piece). */
static int report_mismatch(const struct hd_launch_buf *buf, const char *fill, uint64_t off,
                           uint64_t i, const uint8_t *want, const uint8_t *got, uint64_t n)
{
    uint64_t w0 = i & ~(uint64_t)3; /* show the 32-bit word around the difference */
    printf("expect %s = %s: MISMATCH at byte %" PRIu64 " (32-bit word %" PRIu64 ")\n",
           buf->name, fill, off + i, (off + w0) / 4);
    if (w0 + 4 <= n) { /* pieces are multiples of 4 bytes: the word is inside this one */
        uint32_t we = 0, wg = 0;
        for (int k = 3; k >= 0; k--) {
            we = we << 8 | want[w0 + (unsigned)k];
            wg = wg << 8 | got[w0 + (unsigned)k];
        }
        printf("  expected 0x%08" PRIx32 ", got 0x%08" PRIx32 "\n", we, wg);
    }
    return POST_MISMATCH;
}

/* --dump (kind 'd') or --expect (kind 'e') through pieces of POST_CHUNK bytes. */
static int post_pieces(struct hd_gpu *gpu, const struct hd_launch_buf *buf,
                       const struct hd_launch_post *p)
{
    uint64_t chunk = buf->bytes < POST_CHUNK ? buf->bytes : POST_CHUNK;
    uint8_t *got = malloc((size_t)chunk), *want = p->kind == 'e' ? malloc((size_t)chunk) : NULL;
    struct hd_cli_out out = {0};
    struct hd_cli_filler z;
    char err[512];
    int rc = HD_CLI_OK;
    if (!got || (p->kind == 'e' && !want)) {
        free(got), free(want);
        return hd_cli_fail("launch", "buffer %s: out of host memory", buf->name);
    }
    if (p->kind == 'd')
        rc = hd_cli_out_open(&out, "launch", "--dump", p->path);
    else if (hd_cli_filler_open(&z, p->fill, buf->bytes, err, sizeof err) != 0)
        rc = hd_cli_fail("launch", "--expect %s: %s", buf->name, err);
    bool open = rc == HD_CLI_OK;
    for (uint64_t off = 0; rc == HD_CLI_OK && off < buf->bytes; off += chunk) {
        uint64_t n = buf->bytes - off < chunk ? buf->bytes - off : chunk;
        int st = hd_memcpy_d2h(gpu, got, buf->ptr + off, (size_t)n);
        if (st != HD_OK) {
            rc = runtime_fail(gpu, buf->name, st);
        } else if (p->kind == 'd') {
            if (fwrite(got, 1, (size_t)n, out.f) != n)
                rc = hd_cli_fail("launch", "--dump %s: cannot write %s: %s", buf->name, p->path,
                                 strerror(errno));
        } else if (hd_cli_filler_next(&z, want, n, err, sizeof err) != 0) {
            rc = hd_cli_fail("launch", "--expect %s: %s", buf->name, err);
        } else if (memcmp(want, got, (size_t)n) != 0) {
            uint64_t i = 0;
            while (want[i] == got[i])
                i++;
            rc = report_mismatch(buf, p->fill, off, i, want, got, n);
        }
    }
    if (p->kind == 'd' && open) {
        if (rc == HD_CLI_OK)
            rc = hd_cli_out_commit(&out);
        else
            hd_cli_out_discard(&out);
        if (rc == HD_CLI_OK)
            printf("dumped %s (%" PRIu64 " bytes) to %s\n", buf->name, buf->bytes, p->path);
    } else if (open) {
        hd_cli_filler_close(&z);
        if (rc == HD_CLI_OK)
            printf("expect %s = %s: OK (%" PRIu64 " bytes)\n", buf->name, p->fill, buf->bytes);
    }
    free(got), free(want);
    return rc;
}

/* One post-run action: HD_CLI_OK, POST_MISMATCH, or an exit code. */
static int post_one(struct hd_gpu *gpu, const struct hd_launch *l, const struct hd_launch_post *p)
{
    const struct hd_launch_buf *buf = &l->bufs[p->buf];
    if (p->kind != 'p')
        return post_pieces(gpu, buf, p);
    uint64_t n = p->count * hd_cli_elem_size(p->type); /* within the buffer (cli_launch.c) */
    uint8_t *host = malloc(n ? (size_t)n : 1);
    if (!host)
        return hd_cli_fail("launch", "buffer %s: out of host memory", buf->name);
    int st = n ? hd_memcpy_d2h(gpu, host, buf->ptr, (size_t)n) : HD_OK;
    int rc = HD_CLI_OK;
    if (st != HD_OK) {
        rc = runtime_fail(gpu, buf->name, st);
    } else {
        printf("%s[0..%" PRIu64 ") %s:\n", buf->name, p->count, p->type);
        hd_cli_print_elems(stdout, p->type, host, p->count);
    }
    free(host);
    return rc;
}

static void print_totals(const struct hd_gpu *gpu, double seconds, const char *verdict)
{
    struct hd_run_totals t;
    hd_gpu_totals(gpu, &t);
    char c[32], w[32], rate[32];
    hd_cli_group(t.ctas, c, sizeof c);
    hd_cli_group(t.warp_instrs, w, sizeof w);
    hd_cli_rate(seconds > 0 ? (double)t.warp_instrs / seconds : 0.0, rate, sizeof rate);
    printf("%s: %llu kernel%s, %s CTAs, %s warp instructions, %.3f s (%s warp instrs/s)\n",
           verdict, (unsigned long long)t.kernels, t.kernels == 1 ? "" : "s", c, w, seconds, rate);
}

/* Registers per thread: ptxas's from FILE.ptxas.txt beside the PTX, --regs by hand. */
static int set_regs(struct hd_gpu *gpu, struct hd_module *mod, const struct hd_launch *l)
{
    char path[4096];
    size_t len = 0;
    char *summary = hd_cli_ptxas_beside(l->ptx, &len, path, sizeof path);
    int st = summary ? hd_module_set_ptxas(gpu, mod, summary, len, path) : HD_OK;
    free(summary);
    if (st == HD_OK && l->have_regs)
        st = hd_kernel_set_regs(gpu, mod, l->kernel, (uint32_t)l->regs);
    return st == HD_OK ? HD_CLI_OK : hd_cli_fail("launch", "%s", hd_last_error(gpu));
}

/* The registers per thread the timing model counted, and a warning when it fell back to ours. */
static void report_regs(const struct hd_gpu *gpu, const struct hd_launch *l)
{
    struct hd_launch_timing t;
    if (hd_gpu_launch_timing_count(gpu) == 0 || hd_gpu_launch_timing(gpu, 0, &t) != HD_OK)
        return; /* functional mode: no occupancy */
    printf("registers: %u per thread (%s), %u CTAs per SM\n", t.regs_per_thread, t.regs_source,
           t.ctas_per_sm);
    if (strcmp(t.regs_source, "regalloc-fallback") == 0)
        fprintf(stderr, "heddle launch: warning: %s: no register count recorded by ptxas (no "
                "NAME.ptxas.txt beside %s lists it) and no --regs; occupancy counted Heddle's "
                "register allocator's %u per thread, usually fewer than ptxas allocates\n",
                l->kernel, l->ptx, t.regs_per_thread);
}

static int launch_and_wait(struct hd_gpu *gpu, struct hd_module *mod, struct hd_launch *l)
{
    struct hd_arg *args = calloc(l->nargs + 1, sizeof *args);
    if (!args)
        return hd_cli_fail("launch", "out of memory");
    for (unsigned i = 0; i < l->nargs; i++) {
        struct hd_launch_arg *a = &l->args[i];
        if (a->buf >= 0) {
            hd_devptr p = l->bufs[a->buf].ptr + a->offset;
            for (int k = 0; k < 8; k++)
                a->bytes[k] = (uint8_t)(p >> (8 * k));
        }
        args[i].value = a->bytes;
        args[i].size = a->size;
    }
    printf("launch %s: grid (%u,%u,%u), block (%u,%u,%u), %u argument%s, %u bytes dynamic "
           "shared\n", l->kernel, l->grid.x, l->grid.y, l->grid.z, l->block.x, l->block.y,
           l->block.z, l->nargs, l->nargs == 1 ? "" : "s", l->shared);
    fflush(stdout);
    double t0 = hd_cli_now();
    hd_set_launch_attr(gpu, &l->attr);
    int st = hd_launch(gpu, mod, l->kernel, l->grid, l->block, l->shared, 0, args, l->nargs);
    free(args);
    if (st == HD_OK)
        st = hd_synchronize(gpu);
    double dt = hd_cli_now() - t0;
    if (st == HD_ERR_INTERRUPTED) {
        fprintf(stderr, "heddle launch: %s\n", hd_last_error(gpu)); /* where the kernel was */
        print_totals(gpu, dt, "interrupted");
        return HD_CLI_INTERRUPTED;
    }
    if (st != HD_OK)
        return runtime_fail(gpu, NULL, st);
    print_totals(gpu, dt, "completed");
    report_regs(gpu, l);
    return HD_CLI_OK;
}

int hd_cli_launch_execute(struct hd_launch *l)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve("launch", &l->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    char msg[512];
    if (l->have_regs && hd_regs_check_count(l->regs, cfg.sm_max_regs_per_thread, cfg.gpu_name.s,
                                            "--regs", msg, sizeof msg) != 0)
        return hd_cli_usage("launch", "%s", msg);
    struct hd_gpu *gpu = hd_cli_gpu_create("launch", &l->cfg, &cfg);
    if (!gpu)
        return HD_CLI_FAIL;
    hd_gpu_set_interrupt(gpu, hd_cli_interrupt_install());
    struct hd_module *mod = NULL;
    if (hd_module_load_file(gpu, l->ptx, &mod) != HD_OK)
        rc = hd_cli_fail("launch", "%s", hd_last_error(gpu));
    if (rc == HD_CLI_OK)
        rc = set_regs(gpu, mod, l);
    if (rc == HD_CLI_OK)
        rc = make_buffers(gpu, l);
    if (rc == HD_CLI_OK)
        rc = launch_and_wait(gpu, mod, l);
    bool mismatch = false;
    for (unsigned i = 0; rc == HD_CLI_OK && i < l->nposts; i++) {
        int r = post_one(gpu, l, &l->posts[i]);
        if (r == POST_MISMATCH)
            mismatch = true; /* reported; the remaining actions still run */
        else
            rc = r;
    }
    if (rc == HD_CLI_OK && mismatch)
        rc = HD_CLI_FAIL;
    for (unsigned b = 0; b < l->nbufs; b++)
        if (l->bufs[b].ptr)
            hd_free(gpu, l->bufs[b].ptr);
    hd_gpu_destroy(gpu);
    return rc;
}
