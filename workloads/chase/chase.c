/* SPDX-License-Identifier: MIT
 * chase.c - host driver for chase: one thread follows a chain of device pointers (chase.cu).
 *
 * Layout: the chain has N = CHASE_FOOTPRINT / CHASE_STRIDE nodes, node k at byte k * STRIDE of
 * one buffer of FOOTPRINT bytes (the variant flags of ptx.flags choose both: chase 8 KiB,
 * chase_l2 128 KiB, chase_dram 32 MiB, all at a 128-byte stride, one node per cache line). The
 * nodes form a single random cycle (Sattolo's shuffle from a fixed seed), so the walk visits
 * every node before it repeats one, consecutive hops land on unrelated lines (no spatial
 * locality, and no DRAM row locality beyond chance), and an LRU cache smaller than the chain
 * misses on every hop. Which level serves a hop (the footprint classes of workloads/chase/
 * README.md) depends on the footprint against the configuration's L1 and L2.
 *
 * Hops: a warm-up pass over the whole chain when it has at most CHASE_WARM_MAX_NODES nodes (the
 * L1 and L2 classes: their cold first touches all cost the same in two hop counts, so the
 * difference of two runs is the latency of warm hops only), none for longer chains (the DRAM
 * class, whose hops are all first touches of lines in a footprint far beyond any L2), plus 96
 * (small), 512 (medium), 1536 (large) or 4096 (paper) hops. All counts are multiples of 4, nvcc's unroll
 * factor, so every hop runs in the unrolled body.
 *
 * Reference: the same walk on the host over the host copy of the chain; the kernel's final
 * pointer (a device address) must equal it exactly. Every node is visited at most once per
 * cycle of N hops, so a wrong hop count (mod N) or a wrong load shows as a different pointer.
 */
#include "workload.h"

#include <stdlib.h>

#define CHASE_DEFAULT_FOOTPRINT 8192L /* must match ptx.flags' comment (chase, the base) */
#define CHASE_DEFAULT_STRIDE 128L
#define CHASE_WARM_MAX_NODES 4096L

static long chase_extra_hops(const struct hd_wl_ctx *ctx)
{
    /* Paper (issue 26 item 4): 4096 hops, so the base chain's run passes 100,000 cycles on
     * fermi-gtx480 (large's 1536 give ~52,000); still one thread, a latency probe by design. */
    if (ctx->paper)
        return 4096;
    switch (ctx->size) {
    /* warp instructions: about 1.3 per hop plus ~20 (4 loads + 3 loop instructions per 4 hops) */
    case HD_WL_SMALL: return 96;
    case HD_WL_MEDIUM: return 512;
    case HD_WL_LARGE: return 1536;
    }
    return 0;
}

static int chase_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const char *flags = hd_wl_variant_flags(ctx);
    const long footprint = hd_wl_flag(flags, "CHASE_FOOTPRINT", CHASE_DEFAULT_FOOTPRINT);
    const long stride = hd_wl_flag(flags, "CHASE_STRIDE", CHASE_DEFAULT_STRIDE);
    if (stride < 8 || stride % 8 != 0 || footprint < 2 * stride || footprint % stride != 0 ||
        footprint > (1L << 30))
        return hd_wl_fail(ctx,
                          "chase: bad layout in the variant flags '%s': CHASE_STRIDE=%ld must "
                          "be a multiple of 8, CHASE_FOOTPRINT=%ld a multiple of it holding at "
                          "least 2 nodes, at most 1 GiB",
                          flags ? flags : "", stride, footprint);
    const size_t nodes = (size_t)(footprint / stride), words = (size_t)footprint / 8;
    const size_t step = (size_t)stride / 8; /* words per node */
    const long warm = (long)nodes <= CHASE_WARM_MAX_NODES ? (long)nodes : 0;
    const long hops = warm + chase_extra_hops(ctx);

    uint64_t *chain = calloc(words, sizeof *chain);
    size_t *order = malloc(nodes * sizeof *order);
    hd_devptr dchain = 0, dresult = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!chain || !order) {
        rc = hd_wl_fail(ctx, "chase: out of host memory (%ld bytes)", footprint);
        goto out;
    }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dchain, (size_t)footprint));
    HD_WL_TRY(hd_malloc(gpu, &dresult, sizeof(uint64_t)));

    /* Sattolo's shuffle: a uniformly random permutation that is one single cycle. */
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6368617365ULL);
    for (size_t i = 0; i < nodes; i++)
        order[i] = i;
    for (size_t i = nodes - 1; i > 0; i--) {
        size_t j = (((size_t)hd_wl_rng_u32(&rng) << 32) | hd_wl_rng_u32(&rng)) % i; /* j < i */
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* order[] as a cycle: node order[k] points to node order[k + 1]; start at node 0. */
    for (size_t k = 0; k < nodes; k++) {
        size_t from = order[k], to = order[(k + 1) % nodes];
        chain[from * step] = dchain + (uint64_t)(to * (size_t)stride);
    }
    fprintf(ctx->log, "chase: %zu nodes, %ld-byte stride, %ld-byte footprint, %ld hops (%ld warm-up)\n",
            nodes, stride, footprint, hops, warm);

    HD_WL_TRY(hd_memcpy_h2d(gpu, dchain, chain, (size_t)footprint));
    HD_WL_TRY(hd_memset(gpu, dresult, 0xff, sizeof(uint64_t)));
    int h32 = (int)hops;
    struct hd_arg args[] = {HD_ARG(dchain), HD_ARG(dresult), HD_ARG(h32)};
    struct hd_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    HD_WL_TRY(hd_launch(gpu, mod, "chase", grid, block, 0, 0, args, 3));
    HD_WL_TRY(hd_synchronize(gpu));
    uint64_t got = 0;
    HD_WL_TRY(hd_memcpy_d2h(gpu, &got, dresult, sizeof got));

    /* CPU reference: the same walk over the host copy. */
    uint64_t p = dchain;
    for (long h = 0; h < hops; h++)
        p = chain[(size_t)(p - dchain) / 8];
    if (got != p)
        rc = hd_wl_fail(ctx,
                        "chase: final pointer after %ld hops: expected 0x%llx (node %llu), got "
                        "0x%llx",
                        hops, (unsigned long long)p,
                        (unsigned long long)((p - dchain) / (uint64_t)stride),
                        (unsigned long long)got);

out:
    if (gpu) {
        hd_free(gpu, dchain);
        hd_free(gpu, dresult);
    }
    free(chain);
    free(order);
    return rc;
}

const struct hd_workload hd_workload_chase = {
    .name = "chase",
    .description = "pointer chase by one thread over an 8 KiB chain (L1-resident): load-to-use latency",
    .klass = "latency-bound",
    .idempotent = true,
    .run = chase_run,
};
const struct hd_workload hd_workload_chase_l2 = {
    .name = "chase_l2",
    .description = "chase variant: 128 KiB chain (L2-resident, beyond every L1)",
    .klass = "latency-bound",
    .idempotent = true,
    .run = chase_run,
    .variant_of = "chase",
    .variant_flags = "-DCHASE_FOOTPRINT=131072",
};
const struct hd_workload hd_workload_chase_dram = {
    .name = "chase_dram",
    .description = "chase variant: 32 MiB chain walked cold (DRAM: beyond every L2)",
    .klass = "latency-bound",
    .idempotent = true,
    .run = chase_run,
    .variant_of = "chase",
    .variant_flags = "-DCHASE_FOOTPRINT=33554432",
};
