/* SPDX-License-Identifier: MIT
 * sad.c - host driver of the sad workload: full-search motion estimation SADs between two 8-bit
 * frames (Parboil "sad"; Lin thesis Table 3.2 "SAD_1, SAD_2", Table 4.2 "SAD").
 *
 * The reference frame is a smooth random pattern plus noise; the current frame is the reference
 * moved by a per-frame motion vector, with fresh noise, so the SAD surface has a clear minimum
 * near that vector (the kernels do the same work whatever the content). The host launches
 * sad_4x4 (one CTA per 16x16 macroblock) and then sad_merge (one thread per macroblock and search
 * position) and compares both outputs exactly with a CPU loop over macroblocks, positions and
 * 4x4 blocks using the same clamped reference coordinates.
 */
#include "workload.h"

#include <stdlib.h>

#define SAD_R 16 /* search range, positions and threads; must match sad.cu */
#define SAD_SIDE (2 * SAD_R + 1)
#define SAD_NPOS (SAD_SIDE * SAD_SIDE)
#define SAD_TB 128
#define SAD_MERGE_TB 128 /* threads per CTA of sad_merge */

struct sad_size {
    int width, height; /* multiples of 16 (macroblocks) */
};

static struct sad_size sad_size_of(enum hd_wl_size size)
{
    /* 6, 99 (QCIF) and 396 (CIF, 3.3 waves of 8 CTAs on 15 SMs) macroblocks: 0.29 M, 4.8 M and 19 M
     * warp instructions (measured, --functional). */
    static const struct sad_size s[3] = {{48, 32}, {176, 144}, {352, 288}};
    return s[size];
}

static int sad_clamp(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

static void sad_make_frames(struct hd_wl_rng *rng, uint8_t *cur, uint8_t *ref, int w, int h)
{
    int fx = (int)(hd_wl_rng_u32(rng) % 7u), fy = (int)(hd_wl_rng_u32(rng) % 5u);
    int mvx = (int)(hd_wl_rng_u32(rng) % 21u) - 10, mvy = (int)(hd_wl_rng_u32(rng) % 21u) - 10;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = 128 + ((x * (3 + fx) + y * (2 + fy)) % 64) - 32 +
                    (int)(hd_wl_rng_u32(rng) % 16u);
            ref[y * w + x] = (uint8_t)sad_clamp(v, 255);
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = ref[sad_clamp(y + mvy, h - 1) * w + sad_clamp(x + mvx, w - 1)] +
                    (int)(hd_wl_rng_u32(rng) % 9u) - 4;
            cur[y * w + x] = (uint8_t)sad_clamp(v, 255);
        }
}

/* sads4[(mb * NPOS + pos) * 16 + blk] and merged[(mb * NPOS + pos) * 9 + s], as in sad.cu. */
static void sad_reference(const uint8_t *cur, const uint8_t *ref, int w, int h, uint32_t *sads4,
                          uint32_t *merged)
{
    int mbw = w / 16, mbh = h / 16;
    for (int mb = 0; mb < mbw * mbh; mb++) {
        int ox = (mb % mbw) * 16, oy = (mb / mbw) * 16;
        for (int pos = 0; pos < SAD_NPOS; pos++) {
            int dx = pos % SAD_SIDE - SAD_R, dy = pos / SAD_SIDE - SAD_R;
            uint32_t *s = sads4 + ((size_t)mb * SAD_NPOS + pos) * 16;
            for (int blk = 0; blk < 16; blk++) {
                int bx = ox + (blk & 3) * 4, by = oy + (blk >> 2) * 4;
                uint32_t sum = 0;
                for (int y = by; y < by + 4; y++)
                    for (int x = bx; x < bx + 4; x++) {
                        int r = ref[sad_clamp(y + dy, h - 1) * w + sad_clamp(x + dx, w - 1)];
                        int d = (int)cur[y * w + x] - r;
                        sum += (uint32_t)(d < 0 ? -d : d);
                    }
                s[blk] = sum;
            }
            uint32_t q[4];
            for (int k = 0; k < 4; k++) {
                int b = (k >> 1) * 8 + (k & 1) * 2;
                q[k] = s[b] + s[b + 1] + s[b + 4] + s[b + 5];
            }
            uint32_t *o = merged + ((size_t)mb * SAD_NPOS + pos) * 9;
            for (int k = 0; k < 4; k++)
                o[k] = q[k];
            o[4] = q[0] + q[1];
            o[5] = q[2] + q[3];
            o[6] = q[0] + q[2];
            o[7] = q[1] + q[3];
            o[8] = q[0] + q[1] + q[2] + q[3];
        }
    }
}

static int sad_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct sad_size sz = sad_size_of(ctx->size);
    const int w = sz.width, h = sz.height, n_mb = (w / 16) * (h / 16);
    const size_t pix = (size_t)w * h, n4 = (size_t)n_mb * SAD_NPOS * 16;
    const size_t n9 = (size_t)n_mb * SAD_NPOS * 9;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_cur = 0, d_ref = 0, d_s4 = 0, d_s9 = 0;
    uint8_t *cur = malloc(pix), *ref = malloc(pix);
    uint32_t *e4 = malloc(n4 * sizeof(uint32_t)), *e9 = malloc(n9 * sizeof(uint32_t));
    uint32_t *got = malloc(n4 * sizeof(uint32_t));
    uint16_t *raw = malloc(n4 * sizeof(uint16_t));

    if (!cur || !ref || !e4 || !e9 || !got || !raw) {
        rc = hd_wl_fail(ctx, "sad: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73616400u);
    sad_make_frames(&rng, cur, ref, w, h);
    fprintf(ctx->log, "sad: %dx%d frames, %d macroblocks, %d search positions (range %d)\n", w,
            h, n_mb, SAD_NPOS, SAD_R);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_cur, pix));
    HD_WL_TRY(hd_malloc(gpu, &d_ref, pix));
    HD_WL_TRY(hd_malloc(gpu, &d_s4, n4 * sizeof(uint16_t)));
    HD_WL_TRY(hd_malloc(gpu, &d_s9, n9 * sizeof(uint16_t)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_cur, cur, pix));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ref, ref, pix));
    HD_WL_TRY(hd_memset(gpu, d_s4, 0xff, n4 * sizeof(uint16_t))); /* 65535: never a real SAD */
    HD_WL_TRY(hd_memset(gpu, d_s9, 0xff, n9 * sizeof(uint16_t)));
    struct hd_dim3 g1 = {(uint32_t)(w / 16), (uint32_t)(h / 16), 1}, b1 = {SAD_TB, 1, 1};
    struct hd_arg a1[] = {HD_ARG(d_cur), HD_ARG(d_ref), HD_ARG(d_s4), HD_ARG(w), HD_ARG(h)};
    HD_WL_TRY(hd_launch(gpu, mod, "sad_4x4", g1, b1, 0, 0, a1, 5));
    struct hd_dim3 g2 = {((uint32_t)(n_mb * SAD_NPOS) + SAD_MERGE_TB - 1) / SAD_MERGE_TB, 1, 1};
    struct hd_dim3 b2 = {SAD_MERGE_TB, 1, 1};
    struct hd_arg a2[] = {HD_ARG(d_s4), HD_ARG(d_s9), HD_ARG(n_mb)};
    HD_WL_TRY(hd_launch(gpu, mod, "sad_merge", g2, b2, 0, 0, a2, 3));
    HD_WL_TRY(hd_synchronize(gpu));

    sad_reference(cur, ref, w, h, e4, e9);
    HD_WL_TRY(hd_memcpy_d2h(gpu, raw, d_s4, n4 * sizeof(uint16_t)));
    for (size_t k = 0; k < n4; k++)
        got[k] = raw[k];
    if ((rc = hd_wl_compare_u32(ctx, "sads4", e4, got, n4)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_memcpy_d2h(gpu, raw, d_s9, n9 * sizeof(uint16_t)));
    for (size_t k = 0; k < n9; k++)
        got[k] = raw[k];
    rc = hd_wl_compare_u32(ctx, "sads_merged", e9, got, n9);

out:
    hd_free(gpu, d_cur);
    hd_free(gpu, d_ref);
    hd_free(gpu, d_s4);
    hd_free(gpu, d_s9);
    free(cur);
    free(ref);
    free(e4);
    free(e9);
    free(got);
    free(raw);
    return rc;
}

const struct hd_workload hd_workload_sad = {
    .name = "sad",
    .description = "motion-estimation SADs (Parboil sad): 4x4 SADs per macroblock, merged to 8x8..16x16",
    .klass = "compute",
    .idempotent = true,
    .run = sad_run,
};
