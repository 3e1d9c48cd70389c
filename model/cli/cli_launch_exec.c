/* SPDX-License-Identifier: MIT
 * cli_launch_exec.c - runs a parsed `heddle launch`: GPU, module, buffers, one launch, then the
 * post-run prints, dumps and byte-exact expectations.
 *
 * Every runtime error is printed with the runtime's located message (hd_last_error) and gives
 * exit status 1; Ctrl-C gives 130 after the totals gathered so far. Buffers are freed on every
 * path before the GPU is destroyed.
 */
#include "cli_launch.h"

#include "cli_fill.h"
#include "cli_out.h"
#include "cli_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define POST_MISMATCH (-1) /* an --expect did not hold (already reported) */

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
        uint8_t *host = malloc((size_t)buf->bytes);
        if (!host)
            return hd_cli_fail("launch", "buffer %s: out of host memory (%" PRIu64 " bytes)",
                               buf->name, buf->bytes);
        char err[512];
        if (hd_cli_fill(buf->fill, host, buf->bytes, err, sizeof err) != 0) {
            free(host);
            return hd_cli_fail("launch", "buffer %s: %s", buf->name, err);
        }
        st = hd_memcpy_h2d(gpu, buf->ptr, host, (size_t)buf->bytes);
        free(host);
        if (st != HD_OK)
            return runtime_fail(gpu, buf->name, st);
    }
    return HD_CLI_OK;
}

static int expect(const struct hd_launch_buf *buf, const char *fill, const uint8_t *got)
{
    uint8_t *want = malloc((size_t)buf->bytes);
    char err[512];
    if (!want)
        return hd_cli_fail("launch", "out of host memory");
    if (hd_cli_fill(fill, want, buf->bytes, err, sizeof err) != 0) {
        free(want);
        return hd_cli_fail("launch", "--expect %s: %s", buf->name, err);
    }
    uint64_t i = 0;
    while (i < buf->bytes && want[i] == got[i])
        i++;
    int rc = HD_CLI_OK;
    if (i == buf->bytes) {
        printf("expect %s = %s: OK (%" PRIu64 " bytes)\n", buf->name, fill, buf->bytes);
    } else {
        uint64_t w0 = i & ~(uint64_t)3; /* show the 32-bit word around the difference */
        printf("expect %s = %s: MISMATCH at byte %" PRIu64 " (32-bit word %" PRIu64 ")\n",
               buf->name, fill, i, w0 / 4);
        if (w0 + 4 <= buf->bytes) {
            uint32_t we = 0, wg = 0;
            for (int k = 3; k >= 0; k--) {
                we = we << 8 | want[w0 + (unsigned)k];
                wg = wg << 8 | got[w0 + (unsigned)k];
            }
            printf("  expected 0x%08" PRIx32 ", got 0x%08" PRIx32 "\n", we, wg);
        }
        rc = POST_MISMATCH;
    }
    free(want);
    return rc;
}

/* One post-run action: HD_CLI_OK, POST_MISMATCH, or an exit code. */
static int post_one(struct hd_gpu *gpu, const struct hd_launch *l, const struct hd_launch_post *p)
{
    const struct hd_launch_buf *buf = &l->bufs[p->buf];
    uint8_t *host = malloc((size_t)buf->bytes);
    if (!host)
        return hd_cli_fail("launch", "buffer %s: out of host memory", buf->name);
    int st = hd_memcpy_d2h(gpu, host, buf->ptr, (size_t)buf->bytes);
    int rc = HD_CLI_OK;
    if (st != HD_OK) {
        rc = runtime_fail(gpu, buf->name, st);
    } else if (p->kind == 'p') {
        printf("%s[0..%" PRIu64 ") %s:\n", buf->name, p->count, p->type);
        hd_cli_print_elems(stdout, p->type, host, p->count);
    } else if (p->kind == 'd') {
        struct hd_cli_out out; /* a temporary file renamed over the target when complete */
        rc = hd_cli_out_open(&out, "launch", "--dump", p->path);
        if (rc == HD_CLI_OK) {
            if (fwrite(host, 1, (size_t)buf->bytes, out.f) != buf->bytes) {
                rc = hd_cli_fail("launch", "--dump %s: cannot write %s: %s", buf->name, p->path,
                                 strerror(errno));
                hd_cli_out_discard(&out);
            } else {
                rc = hd_cli_out_commit(&out);
            }
        }
        if (rc == HD_CLI_OK)
            printf("dumped %s (%" PRIu64 " bytes) to %s\n", buf->name, buf->bytes, p->path);
    } else {
        rc = expect(buf, p->fill, host);
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
    return HD_CLI_OK;
}

int hd_cli_launch_execute(struct hd_launch *l)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve("launch", &l->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    struct hd_gpu *gpu = hd_cli_gpu_create("launch", &l->cfg, &cfg);
    if (!gpu)
        return HD_CLI_FAIL;
    hd_gpu_set_interrupt(gpu, hd_cli_interrupt_install());
    struct hd_module *mod = NULL;
    if (hd_module_load_file(gpu, l->ptx, &mod) != HD_OK)
        rc = hd_cli_fail("launch", "%s", hd_last_error(gpu));
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
