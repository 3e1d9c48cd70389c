/* SPDX-License-Identifier: MIT
 * persistent.c - host driver of the persistent workload: PT_GRID resident CTAs drain a global
 * work queue of `items` slices of PT_CHUNK inputs each (Collatz trajectory lengths).
 *
 * The grid is fixed (PT_GRID CTAs of PT_CHUNK threads: four per SM of a GTX 480), independent of
 * the amount of work, as persistent-threads codes size it for the machine. Inputs are random in
 * [1, 2^16] (trajectories of up to 339 steps). Checks: every output exactly against a CPU loop, every item taken exactly once, every
 * owner a valid CTA; the log shows how many items the busiest and the idlest CTA took.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define PT_CHUNK 256 /* these two must match persistent.cu */
#define PT_MAX_STEPS 1000
#define PT_GRID 60

static unsigned pt_items(enum hd_wl_size size)
{
    /* warp instructions: ~1.2 M, ~4.9 M, ~39 M (about 19 k per item) */
    static const unsigned n[3] = {64, 256, 2048};
    return n[size];
}

static unsigned pt_collatz(uint32_t x)
{
    uint64_t v = x;
    unsigned steps = 0;
    while (v != 1 && steps < PT_MAX_STEPS) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        steps++;
    }
    return steps;
}

static int pt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const unsigned items = pt_items(ctx->size);
    const size_t n = (size_t)items * PT_CHUNK, nb = sizeof(unsigned) * n;
    const size_t ib = sizeof(unsigned) * items;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_head = 0, d_in = 0, d_out = 0, d_owner = 0, d_taken = 0;
    unsigned *in = malloc(nb), *out = malloc(nb), *owner = malloc(ib), *taken = malloc(ib);
    unsigned per_cta[PT_GRID] = {0};

    if (!in || !out || !owner || !taken) {
        rc = hd_wl_fail(ctx, "persistent: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x70657273u);
    for (size_t i = 0; i < n; i++)
        in[i] = 1 + hd_wl_rng_u32(&rng) % (1u << 16);
    fprintf(ctx->log, "persistent: %u items x %d elements, fixed grid of %d CTAs\n", items,
            PT_CHUNK, PT_GRID);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_head, sizeof(unsigned)));
    HD_WL_TRY(hd_malloc(gpu, &d_in, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_out, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_owner, ib));
    HD_WL_TRY(hd_malloc(gpu, &d_taken, ib));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_in, in, nb));
    HD_WL_TRY(hd_memset(gpu, d_head, 0, sizeof(unsigned)));
    HD_WL_TRY(hd_memset(gpu, d_taken, 0, ib));
    HD_WL_TRY(hd_memset(gpu, d_owner, 0xff, ib));
    HD_WL_TRY(hd_memset(gpu, d_out, 0xff, nb));

    struct hd_dim3 grid = {PT_GRID, 1, 1}, block = {PT_CHUNK, 1, 1};
    struct hd_arg args[] = {HD_ARG(d_head), HD_ARG(items), HD_ARG(d_in),
                            HD_ARG(d_out),  HD_ARG(d_owner), HD_ARG(d_taken)};
    HD_WL_TRY(hd_launch(gpu, mod, "pt_worker", grid, block, 0, 0, args, 6));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, out, d_out, nb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, owner, d_owner, ib));
    HD_WL_TRY(hd_memcpy_d2h(gpu, taken, d_taken, ib));

    for (unsigned it = 0; it < items; it++) {
        if (taken[it] != 1 || owner[it] >= PT_GRID) {
            rc = hd_wl_fail(ctx, "persistent: item %u taken %u times, owner %u (want once, < %d)",
                            it, taken[it], owner[it], PT_GRID);
            goto out;
        }
        per_cta[owner[it]]++;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned want = pt_collatz(in[i]);
        if (out[i] != want) {
            rc = hd_wl_fail(ctx, "persistent: element %zu (input %u): expected %u steps, got %u", i,
                            in[i], want, out[i]);
            goto out;
        }
    }
    unsigned lo = per_cta[0], hi = per_cta[0];
    for (int c = 1; c < PT_GRID; c++) {
        lo = per_cta[c] < lo ? per_cta[c] : lo;
        hi = per_cta[c] > hi ? per_cta[c] : hi;
    }
    fprintf(ctx->log, "persistent: items per CTA between %u and %u\n", lo, hi);

out:
    hd_free(gpu, d_head);
    hd_free(gpu, d_in);
    hd_free(gpu, d_out);
    hd_free(gpu, d_owner);
    hd_free(gpu, d_taken);
    free(in);
    free(out);
    free(owner);
    free(taken);
    return rc;
}

const struct hd_workload hd_workload_persistent = {
    .name = "persistent",
    .description = "persistent threads: fixed grid drains a global work queue (atomicAdd)",
    .klass = "irregular",
    .idempotent = false,
    .run = pt_run,
};
