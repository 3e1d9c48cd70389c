/* SPDX-License-Identifier: MIT
 * btree.c - host driver of the btree workload: a B+tree of distinct integer keys built on the host
 * by bulk loading, then many exact-key lookups (btree_find_k) and range counts (btree_find_range).
 *
 * Keys are strictly increasing with random gaps of 1..16. Leaves are filled to a random occupancy
 * between half and all of BT_ORDER slots; each internal level groups the level below the same
 * way, until one root remains (height = number of internal levels). Lookups ask for a present key
 * (3/8), a random value, usually absent (3/8), a separator key, i.e. the first key of a leaf
 * (1/8), or an edge case: below, at, past the first and last keys (1/8). Ranges are random
 * intervals of up to a few leaves, intervals from a separator to another one (or to just below
 * it), and empty intervals (hi < lo). Both kernels are checked exactly against binary searches on the sorted key
 * array: record (or -1), first rank >= lo, and number of keys in [lo, hi].
 *
 * Input-size variant (ptx.flags, token `wN`; issue 24 item 3, Shieh Table 4.2 victims): WAVES=N
 * asks N x 90 queries of each kernel at small size (one CTA per query: N full waves at Table 4.2's
 * 6 TBs per SM on 15 SMs; small's 300 are 3.3), same tree, same kernels, same reference.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define BT_ORDER 256 /* must match btree.cu */
#define BT_KEY_MAX 0x7fffffff
#define BT_BLOCK BT_ORDER

struct bt_size {
    int nkeys;
    int nqueries; /* per kernel */
};

/* CTAs per full wave of either kernel on fermi-gtx480: 15 SMs x 6 (Shieh Table 4.2). */
#define BT_WAVE_CTAS 90

static const struct bt_size bt_sizes[3] = {
    {20000, 300},     /* ~0.45 M warp instructions */
    {1000000, 2048},  /* ~4.0 M */
    {4000000, 20000}, /* ~42 M */
};

struct bt_tree {
    int *keys, *child, *nkeys, *base; /* node arrays (keys/child: BT_ORDER per node) */
    int nnodes, cap, root, height;
    int nleaves; /* leaves are nodes 0 .. nleaves - 1, in key order */
};

static int bt_new_node(struct bt_tree *t)
{
    if (t->nnodes == t->cap)
        return -1;
    int k = t->nnodes++;
    for (int s = 0; s < BT_ORDER; s++) {
        t->keys[(size_t)k * BT_ORDER + s] = BT_KEY_MAX;
        t->child[(size_t)k * BT_ORDER + s] = -1;
    }
    t->nkeys[k] = 0;
    t->base[k] = 0;
    return k;
}

/* Random fan-out for the next node: between half and all of the slots, at most `left`. */
static int bt_fill(struct hd_wl_rng *rng, int left)
{
    int f = BT_ORDER / 2 + (int)(hd_wl_rng_u32(rng) % (BT_ORDER / 2 + 1));
    return f < left ? f : left;
}

/* Bulk-load the tree over sorted keys; returns 0, or -1 if the node budget is exceeded. */
static int bt_build(struct bt_tree *t, const int *key, const int *rec, int n,
                    struct hd_wl_rng *rng)
{
    int *level = malloc(sizeof(int) * (size_t)(n / (BT_ORDER / 2) + 2));
    int nlevel = 0;
    if (!level)
        return -1;
    for (int pos = 0; pos < n;) {
        int k = bt_new_node(t), cnt = bt_fill(rng, n - pos);
        if (k < 0)
            goto fail;
        for (int s = 0; s < cnt; s++) {
            t->keys[(size_t)k * BT_ORDER + s] = key[pos + s];
            t->child[(size_t)k * BT_ORDER + s] = rec[pos + s];
        }
        t->nkeys[k] = cnt;
        t->base[k] = pos;
        level[nlevel++] = k;
        pos += cnt;
    }
    t->nleaves = nlevel;
    t->height = 0;
    while (nlevel > 1) {
        int nup = 0;
        for (int pos = 0; pos < nlevel;) {
            int k = bt_new_node(t), cnt = bt_fill(rng, nlevel - pos);
            if (k < 0)
                goto fail;
            for (int s = 0; s < cnt; s++) {
                int c = level[pos + s];
                t->keys[(size_t)k * BT_ORDER + s] = t->keys[(size_t)c * BT_ORDER];
                t->child[(size_t)k * BT_ORDER + s] = c;
            }
            t->nkeys[k] = cnt;
            level[nup++] = k;
            pos += cnt;
        }
        nlevel = nup;
        t->height++;
    }
    t->root = level[0];
    free(level);
    return 0;
fail:
    free(level);
    return -1;
}

/* First index with key[i] >= v (lower bound) or > v (upper bound) in the sorted keys. */
static int bt_bound(const int *key, int n, int v, int upper)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (key[mid] < v || (upper && key[mid] == v))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int bt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "btree: WAVES=%ld out of range 0..64", waves);
    struct bt_size sz = bt_sizes[ctx->size];
    if (waves > 0 && ctx->size == HD_WL_SMALL) /* one CTA per query: `waves` full waves */
        sz.nqueries = (int)waves * BT_WAVE_CTAS;
    const int n = sz.nkeys, nq = sz.nqueries;
    const size_t qb = sizeof(int) * (size_t)nq;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    struct bt_tree t = {0};
    hd_devptr d_keys = 0, d_child = 0, d_nkeys = 0, d_base = 0, d_query = 0, d_curr = 0;
    hd_devptr d_rec = 0, d_lo = 0, d_hi = 0, d_clo = 0, d_chi = 0, d_start = 0, d_count = 0;
    int *key = malloc(sizeof(int) * (size_t)n), *rec = malloc(sizeof(int) * (size_t)n);
    int *query = malloc(qb), *lo = malloc(qb), *hi = malloc(qb), *curr = malloc(qb);
    int *got = malloc(qb), *got2 = malloc(qb);

    t.cap = n / (BT_ORDER / 2) * 2 + 8;
    t.keys = malloc(sizeof(int) * (size_t)t.cap * BT_ORDER);
    t.child = malloc(sizeof(int) * (size_t)t.cap * BT_ORDER);
    t.nkeys = malloc(sizeof(int) * (size_t)t.cap);
    t.base = malloc(sizeof(int) * (size_t)t.cap);
    if (!key || !rec || !query || !lo || !hi || !curr || !got || !got2 || !t.keys || !t.child ||
        !t.nkeys || !t.base) {
        rc = hd_wl_fail(ctx, "btree: out of host memory");
        goto out;
    }

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x62747265u);
    int v = 0;
    for (int i = 0; i < n; i++) {
        v += 1 + (int)(hd_wl_rng_u32(&rng) % 16u);
        key[i] = v;
        rec[i] = (int)((hd_wl_rng_u32(&rng) >> 1) & 0x7fffffffu);
    }
    const int key_max = v;
    if (bt_build(&t, key, rec, n, &rng) != 0) {
        rc = hd_wl_fail(ctx, "btree: node budget exceeded while building the tree");
        goto out;
    }
    for (int q = 0; q < nq; q++) {
        uint32_t r = hd_wl_rng_u32(&rng), leaf = hd_wl_rng_u32(&rng) % (uint32_t)t.nleaves;
        const int sep = t.keys[(size_t)leaf * BT_ORDER]; /* a key that is also a separator */
        const int edge[4] = {0, key[0], key[n - 1], key_max + 5};
        switch (q % 8) {
        case 6: query[q] = sep; break;
        case 7: query[q] = edge[(q / 8) % 4]; break;
        default:
            if (q % 2 == 0)
                query[q] = key[r % (uint32_t)n];
            else
                query[q] = (int)(r % (uint32_t)(key_max + 16));
        }
        r = hd_wl_rng_u32(&rng);
        if (q % 4 == 0) { /* from one separator to another (or one below it) */
            lo[q] = sep;
            leaf += 1 + r % 3;
            hi[q] = leaf < (uint32_t)t.nleaves ? t.keys[(size_t)leaf * BT_ORDER] - (int)(r >> 31)
                                               : key_max + 1;
        } else if (q % 16 == 5) { /* empty: hi < lo */
            lo[q] = (int)(r % (uint32_t)(key_max + 16)) + 8;
            hi[q] = lo[q] - 1 - (int)(hd_wl_rng_u32(&rng) % 8);
        } else {
            lo[q] = (int)(r % (uint32_t)(key_max + 16));
            hi[q] = lo[q] + (int)(hd_wl_rng_u32(&rng) % (uint32_t)(3 * BT_ORDER * 8));
        }
    }
    fprintf(ctx->log, "btree: %d keys, %d nodes, height %d (+ leaves), %d queries per kernel\n",
            n, t.nnodes, t.height, nq);

    const size_t nodeb = sizeof(int) * (size_t)t.nnodes;
    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const bt_pinned[] = {"btree_find_range"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, bt_pinned, 1)) != HD_OK)
        goto out;
    /* Per-kernel pins (btree_r28: both kernels at the thesis's ch.3 footprint) */
    static const char *const bt_kernels[] = {"btree_find_k", "btree_find_range"};
    static const char *const bt_kflags[] = {"REGSPEC_K", "REGSPEC_RANGE"};
    if ((rc = hd_wl_pin_kernel_regs(gpu, ctx, mod, bt_kernels, bt_kflags, 2)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_keys, nodeb * BT_ORDER));
    HD_WL_TRY(hd_malloc(gpu, &d_child, nodeb * BT_ORDER));
    HD_WL_TRY(hd_malloc(gpu, &d_nkeys, nodeb));
    HD_WL_TRY(hd_malloc(gpu, &d_base, nodeb));
    HD_WL_TRY(hd_malloc(gpu, &d_query, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_curr, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_rec, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_lo, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_hi, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_clo, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_chi, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_start, qb));
    HD_WL_TRY(hd_malloc(gpu, &d_count, qb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_keys, t.keys, nodeb * BT_ORDER));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_child, t.child, nodeb * BT_ORDER));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_nkeys, t.nkeys, nodeb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_base, t.base, nodeb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_query, query, qb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_lo, lo, qb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_hi, hi, qb));
    for (int q = 0; q < nq; q++)
        curr[q] = t.root;
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_curr, curr, qb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_clo, curr, qb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_chi, curr, qb));
    /* Outputs start as garbage: 0xee bytes is neither a record (>= 0) nor -1 (not found). */
    HD_WL_TRY(hd_memset(gpu, d_rec, 0xee, qb));
    HD_WL_TRY(hd_memset(gpu, d_start, 0xff, qb));
    HD_WL_TRY(hd_memset(gpu, d_count, 0xff, qb));

    struct hd_dim3 grid = {(uint32_t)nq, 1, 1}, block = {BT_BLOCK, 1, 1};
    {
        struct hd_arg args[] = {HD_ARG(d_keys),  HD_ARG(d_child), HD_ARG(d_nkeys), HD_ARG(t.height),
                                HD_ARG(d_query), HD_ARG(d_curr),  HD_ARG(d_rec)};
        HD_WL_TRY(hd_launch(gpu, mod, "btree_find_k", grid, block, 0, 0, args, 7));
    }
    {
        struct hd_arg args[] = {HD_ARG(d_keys), HD_ARG(d_child), HD_ARG(d_nkeys),
                                HD_ARG(d_base), HD_ARG(t.height), HD_ARG(d_lo),
                                HD_ARG(d_hi),   HD_ARG(d_clo),   HD_ARG(d_chi),
                                HD_ARG(d_start), HD_ARG(d_count)};
        HD_WL_TRY(hd_launch(gpu, mod, "btree_find_range", grid, block, 0, 0, args, 11));
    }
    HD_WL_TRY(hd_synchronize(gpu));

    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_rec, qb));
    for (int q = 0; q < nq; q++) {
        int i = bt_bound(key, n, query[q], 0);
        int want = (i < n && key[i] == query[q]) ? rec[i] : -1;
        if (got[q] != want) {
            rc = hd_wl_fail(ctx, "btree: find_k query %d (key %d): expected record %d, got %d", q,
                            query[q], want, got[q]);
            goto out;
        }
    }
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_start, qb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got2, d_count, qb));
    for (int q = 0; q < nq; q++) {
        int s = bt_bound(key, n, lo[q], 0), e = bt_bound(key, n, hi[q], 1);
        if (e < s) /* empty interval */
            e = s;
        if (got[q] != s || got2[q] != e - s) {
            rc = hd_wl_fail(ctx,
                            "btree: find_range query %d [%d, %d]: expected start %d count %d, "
                            "got start %d count %d",
                            q, lo[q], hi[q], s, e - s, got[q], got2[q]);
            goto out;
        }
    }

out:
    hd_free(gpu, d_keys);
    hd_free(gpu, d_child);
    hd_free(gpu, d_nkeys);
    hd_free(gpu, d_base);
    hd_free(gpu, d_query);
    hd_free(gpu, d_curr);
    hd_free(gpu, d_rec);
    hd_free(gpu, d_lo);
    hd_free(gpu, d_hi);
    hd_free(gpu, d_clo);
    hd_free(gpu, d_chi);
    hd_free(gpu, d_start);
    hd_free(gpu, d_count);
    free(key);
    free(rec);
    free(query);
    free(lo);
    free(hi);
    free(curr);
    free(got);
    free(got2);
    free(t.keys);
    free(t.child);
    free(t.nkeys);
    free(t.base);
    return rc;
}

const struct hd_workload hd_workload_btree = {
    .name = "btree",
    .description = "B+tree exact-key and range lookups, one CTA per query, tree built on the host",
    .klass = "latency-bound",
    .idempotent = false,
    .run = bt_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_btree_r20 = {
    .name = "btree_r20",
    .description = "btree variant: btree_find_range counted at 20 registers (Shieh Table 4.2 findRangeK)",
    .klass = "latency-bound",
    .idempotent = false,
    .run = bt_run,
    .variant_of = "btree",
    .variant_flags = "-DREGSPEC=20",
    .paper_row = "Shieh Table 4.2 b+tree findRangeK: 5,120 regs/TB (20/thread), 0 B, 256 threads, 6 TBs/SM",
};

/* Input-size variant (session 19): 1,080 queries per kernel, 12 full waves each, so that uniform
 * preemption requests find finished-TB statistics ~87 % of the time instead of 62 % (8 waves:
 * 81 %; each kernel's first wave ends with its first CTA, ~4,500 cycles at any size). */
const struct hd_workload hd_workload_btree_r20_w12 = {
    .name = "btree_r20_w12",
    .description = "btree_r20 variant: small tree, 1,080 queries per kernel (12 full waves of 6 CTAs per SM on 15 SMs)",
    .klass = "latency-bound",
    .idempotent = false,
    .run = bt_run,
    .variant_of = "btree",
    .variant_flags = "-DREGSPEC=20 -DWAVES=12",
    .paper_row = "Shieh Table 4.2 b+tree findRangeK: 5,120 regs/TB (20/thread), 0 B, 256 threads, 6 TBs/SM, >= 3 waves",
};
/* Lin thesis ch.3's BT footprint (issue 28, session 28; README.md "Variant btree_r28"): 256
 * threads per TB, 8 TBs per SM by Table 3.1's 64 warp slots, the register file 88 % occupied
 * (L1813-L1816): 0.88 x 65,536 / 2,048 threads = 28.2 -> 28 registers per thread (87.5 %). ptxas
 * needs 22 and 19 and cannot be made to use more, so both kernels' counts are pinned to 28. */
const struct hd_workload hd_workload_btree_r28 = {
    .name = "btree_r28",
    .description = "btree variant: both kernels counted at 28 registers (Lin ch.3 BT: 88 % of Table 3.1's RF at 8 TBs/SM)",
    .klass = "latency-bound",
    .idempotent = false,
    .run = bt_run,
    .variant_of = "btree",
    .variant_flags = "-DREGSPEC_K=28 -DREGSPEC_RANGE=28",
    .paper_row = "Lin ch.3 BT (b+tree): 256 threads, 8 TBs/SM by warp slots, RF 88 % (28 regs/thread), VT 1 extra TB, GPUDuet 6",
};
/* }==== */
