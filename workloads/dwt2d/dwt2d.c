/* SPDX-License-Identifier: MIT
 * dwt2d.c - host driver of the dwt2d workload: a three-level forward 2-D CDF 5/3 wavelet
 * transform of an RGB image (Rodinia-like dwt2d; Lin's thesis Table 2.2 DWT_1 and DWT_2).
 *
 * The host makes a deterministic RGB image (smooth gradients plus noise, so the wavelet bands
 * hold both small and large coefficients), splits it into three level-shifted integer planes on
 * the device (dwt_copy_components), and runs DWT_LEVELS levels of dwt_fdwt53 per plane: level 1
 * transforms the w x h plane into its own buffer, each further level transforms the LL quarter of
 * the previous level's buffer into a buffer of its own. Every plane and every level's output is
 * compared with a CPU transform of the whole image (row lifting on every row, then column
 * lifting on every column, symmetric extension at the borders), which is computed without tiles.
 * Integer lifting is exact, so the comparison is exact. Width and height are multiples of
 * 2^DWT_LEVELS so that every level has even dimensions.
 *
 * Variant (ptx.flags): HD_DWT_COPY_BLOCK, the CTA size of dwt_copy_components, is read back from
 * the variant's flags; REGSPEC pins the register count occupancy uses for dwt_copy_components
 * (zorua_spec.h); same inputs, same reference.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>

#define DWT_COPY_BLOCK 256 /* must match dwt2d.cu */
#define DWT_TX 192         /* must match dwt2d.cu */
#define DWT_TY 8           /* must match dwt2d.cu */
#define DWT_LEVELS 3

struct dwt_size {
    int w, h;
};

static struct dwt_size dwt_size_of(enum hd_wl_size size)
{
    /* ~0.41 M, 4.2 M and 16 M warp instructions; large is Rodinia's 1024 x 1024 data set. At
     * small size no level's width is a multiple of the 192-column strip and levels 2 and 3 are
     * not multiples of the 8-row tile; medium and large are both at every level but the last. */
    static const struct dwt_size s[3] = {{168, 120}, {512, 512}, {1024, 1024}};
    return s[size];
}

/* floor(a / 2^k) for any sign (arithmetic shift, as the GPU's shr.s32 does). */
static int dwt_floor_shift(int a, int k)
{
    return a >= 0 ? a >> k : -((-a + (1 << k) - 1) >> k);
}

static int dwt_mirror(int i, int n)
{
    i = i < 0 ? -i : i;
    i = i >= n ? 2 * n - 2 - i : i;
    return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
}

/* One 1-D forward 5/3 lifting of n (even) samples x[0], x[stride], ...; low-pass results go to
 * out[0 .. n/2), high-pass to out[n/2 .. n) (both with stride `ostride`). */
static void dwt_ref_1d(const int *x, int stride, int n, int *out, int ostride, int *d)
{
    for (int i = 0; i < n / 2; i++) {
        int a = x[dwt_mirror(2 * i, n) * stride], b = x[dwt_mirror(2 * i + 2, n) * stride];
        d[i] = x[(2 * i + 1) * stride] - dwt_floor_shift(a + b, 1);
    }
    for (int i = 0; i < n / 2; i++) {
        int dl = i > 0 ? d[i - 1] : d[0]; /* d[-1] = d[0] by symmetric extension */
        out[i * ostride] = x[2 * i * stride] + dwt_floor_shift(dl + d[i] + 2, 2);
        out[(n / 2 + i) * ostride] = d[i];
    }
}

/* One 2-D level: src (w x h, row stride sstride) -> dst (w x h, row stride w). */
static void dwt_ref_level(const int *src, int sstride, int w, int h, int *dst, int *tmp,
                          int *scratch)
{
    for (int y = 0; y < h; y++)
        dwt_ref_1d(src + (size_t)y * sstride, 1, w, tmp + (size_t)y * w, 1, scratch);
    for (int x = 0; x < w; x++)
        dwt_ref_1d(tmp + x, w, h, dst + x, w, scratch);
}

static void dwt_make_image(uint8_t *rgb, int w, int h)
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x64777432u);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = rgb + 3 * ((size_t)y * w + x);
            int noise = (int)(hd_wl_rng_u32(&rng) % 33u) - 16;
            int r = (x * 255) / w + noise, g = (y * 255) / h - noise;
            int b = ((x / 16 + y / 16) & 1) ? 200 + noise : 40 - noise; /* hard edges */
            p[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
            p[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
            p[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
        }
    }
}

static int dwt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct dwt_size sz = dwt_size_of(ctx->size);
    const int w = sz.w, h = sz.h;
    const size_t pixels = (size_t)w * h, plane_bytes = sizeof(int) * pixels;
    const size_t rgb_words = (3 * pixels + 3) / 4;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_rgb = 0, d_plane[3] = {0, 0, 0}, d_level[3][DWT_LEVELS] = {{0}};
    uint8_t *rgb = calloc(rgb_words, 4);
    int *ref_in = malloc(plane_bytes), *ref_out = malloc(plane_bytes);
    int *ref_tmp = malloc(plane_bytes), *got = malloc(plane_bytes);
    int *scratch = malloc(sizeof(int) * (size_t)(w > h ? w : h));

    if (!rgb || !ref_in || !ref_out || !ref_tmp || !got || !scratch) {
        rc = hd_wl_fail(ctx, "dwt2d: out of host memory");
        goto out;
    }
    dwt_make_image(rgb, w, h);
    fprintf(ctx->log, "dwt2d: %dx%d RGB image, %d levels of CDF 5/3, %dx%d tiles\n", w, h,
            DWT_LEVELS, DWT_TX, DWT_TY);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const dwt_pinned[] = {"dwt_copy_components"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, dwt_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_rgb, 4 * rgb_words));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_rgb, rgb, 4 * rgb_words));
    for (int c = 0; c < 3; c++) {
        HD_WL_TRY(hd_malloc(gpu, &d_plane[c], plane_bytes));
        HD_WL_TRY(hd_memset(gpu, d_plane[c], 0xff, plane_bytes));
        for (int l = 0; l < DWT_LEVELS; l++) {
            size_t bytes = plane_bytes >> (2 * l);
            HD_WL_TRY(hd_malloc(gpu, &d_level[c][l], bytes));
            HD_WL_TRY(hd_memset(gpu, d_level[c][l], 0xff, bytes)); /* -1: unwritten shows */
        }
    }

    {
        int npix = (int)pixels;
        const long cb = hd_wl_flag(hd_wl_variant_flags(ctx), "HD_DWT_COPY_BLOCK", DWT_COPY_BLOCK);
        if (cb < 4 || cb > 1024 || cb % 4 != 0) {
            rc = hd_wl_fail(ctx, "dwt2d: HD_DWT_COPY_BLOCK=%ld: want a multiple of 4 up to 1024", cb);
            goto out;
        }
        struct hd_dim3 grid = {(uint32_t)((pixels + (size_t)cb - 1) / (size_t)cb), 1, 1};
        struct hd_dim3 block = {(uint32_t)cb, 1, 1};
        struct hd_arg args[] = {HD_ARG(d_rgb), HD_ARG(d_plane[0]), HD_ARG(d_plane[1]),
                                HD_ARG(d_plane[2]), HD_ARG(npix)};
        HD_WL_TRY(hd_launch(gpu, mod, "dwt_copy_components", grid, block, 0, 0, args, 5));
    }
    for (int c = 0; c < 3; c++) {
        for (int l = 0; l < DWT_LEVELS; l++) {
            int lw = w >> l, lh = h >> l;
            /* Level l reads the LL quarter of level l-1 (row stride = that level's width). */
            int sstride = l == 0 ? w : w >> (l - 1), dstride = lw;
            hd_devptr src = l == 0 ? d_plane[c] : d_level[c][l - 1];
            struct hd_dim3 grid = {(uint32_t)((lw + DWT_TX - 1) / DWT_TX),
                                   (uint32_t)((lh + DWT_TY - 1) / DWT_TY), 1};
            struct hd_dim3 block = {DWT_TX, 1, 1};
            struct hd_arg args[] = {HD_ARG(src), HD_ARG(sstride), HD_ARG(d_level[c][l]),
                                    HD_ARG(dstride), HD_ARG(lw), HD_ARG(lh)};
            HD_WL_TRY(hd_launch(gpu, mod, "dwt_fdwt53", grid, block, 0, 0, args, 6));
        }
    }
    HD_WL_TRY(hd_synchronize(gpu));

    static const char *const plane_name[3] = {"red", "green", "blue"};
    for (int c = 0; c < 3 && rc == HD_OK; c++) {
        for (size_t k = 0; k < pixels; k++)
            ref_in[k] = (int)rgb[3 * k + c] - 128;
        HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_plane[c], plane_bytes));
        char what[64];
        snprintf(what, sizeof what, "%s plane", plane_name[c]);
        if ((rc = hd_wl_compare_i32(ctx, what, ref_in, got, pixels)) != HD_OK)
            break;
        const int *src = ref_in;
        int sstride = w;
        for (int l = 0; l < DWT_LEVELS; l++) {
            int lw = w >> l, lh = h >> l;
            size_t n = (size_t)lw * lh;
            dwt_ref_level(src, sstride, lw, lh, ref_out, ref_tmp, scratch);
            HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_level[c][l], sizeof(int) * n));
            snprintf(what, sizeof what, "%s level %d coefficients", plane_name[c], l + 1);
            if ((rc = hd_wl_compare_i32(ctx, what, ref_out, got, n)) != HD_OK)
                break;
            /* The next level reads this level's LL quarter in place: keep it in ref_in. */
            int *keep = ref_in;
            for (size_t k = 0; k < n; k++)
                keep[k] = ref_out[k];
            src = keep;
            sstride = lw;
        }
    }

out:
    hd_free(gpu, d_rgb);
    for (int c = 0; c < 3; c++) {
        hd_free(gpu, d_plane[c]);
        for (int l = 0; l < DWT_LEVELS; l++)
            hd_free(gpu, d_level[c][l]);
    }
    free(rgb);
    free(ref_in);
    free(ref_out);
    free(ref_tmp);
    free(got);
    free(scratch);
    return rc;
}

const struct hd_workload hd_workload_dwt2d = {
    .name = "dwt2d",
    .description = "3-level forward CDF 5/3 wavelet transform of an RGB image, shared-memory tiles",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dwt_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_dwt2d_copy64_r56 = {
    .name = "dwt2d_copy64_r56",
    .description = "dwt2d variant: 64-thread dwt_copy_components CTAs counted at 56 registers (Shieh Table 4.2 c_CopySrcToComponents)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dwt_run,
    .variant_of = "dwt2d",
    .variant_flags = "-DHD_DWT_COPY_BLOCK=64 -DREGSPEC=56",
    .paper_row = "Shieh Table 4.2 dwt2d c_CopySrcToComponents: 3,584 regs/TB (56/thread), 3,096 B, 64 threads, 8 TBs/SM",
};
/* }==== */
