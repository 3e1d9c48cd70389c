/* SPDX-License-Identifier: MIT
 * heartwall.c - host driver of the heartwall workload: points on the walls of a beating heart
 * tracked through a sequence of frames by template matching (Rodinia-like heartwall; Lin's
 * thesis Table 2.2, HW_1).
 *
 * Inputs: a smooth random texture (value noise on an 8-pixel lattice, bilinearly interpolated)
 * that moves from frame to frame by a periodic "heartbeat" displacement, plus fresh pixel noise
 * in every frame; the tracked points lie on two ellipses around the frame centre (Rodinia's
 * endocardium and epicardium: 20 and 31 points at medium and large size). Templates are cut
 * from frame 0 around each point. For every following frame the host launches hw_track once
 * (one CTA per point), ping-ponging the templates and writing each frame's positions and scores
 * into their own rows.
 *
 * Verification: the CPU replays the tracking (every candidate's sum of squared differences, the
 * lowest score with the lowest candidate index, the same integer template update); positions and
 * scores of every frame and the final templates must be equal exactly (integers). The log also
 * says how many points followed the true displacement, as a sanity check of the inputs.
 *
 * Variant (ptx.flags): heartwall_r32 caps hw_track at 32 registers (MAXREG) and pins the count
 * occupancy uses to 32 (REGSPEC, zorua_spec.h); same inputs, same reference.
 * Input-size variant (token wN; issue 24 item 3, Shieh Table 4.2 victims): heartwall_r32_w3
 * tracks WAVES x HW_WAVE_CTAS points (3 full waves of 4 TBs per SM on 15 SMs) through one
 * launch on the small frames, so a preemption request finds the GPU at full occupancy for most
 * of the run; the points lie on the same two ellipses, 2/5 of them on the inner one (Rodinia's
 * 20 of 51), so neighbours' templates overlap: the tracking is the same computation per point.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdbool.h>
#include <stdlib.h>

#define HW_T 21        /* must match heartwall.cu */
#define HW_R 12        /* largest search radius; must match heartwall.cu */
#define HW_THREADS 256 /* must match heartwall.cu */
#define HW_WIN (HW_T + 2 * HW_R)
#define HW_CELL 8  /* texture lattice spacing in pixels */
#define HW_BEAT 8  /* frames per heartbeat */
#define HW_WAVE_CTAS (15 * 4) /* one wave on the GTX480's 15 SMs at Table 4.2's 4 TBs per SM */

struct hw_size {
    int fw, fh;       /* frame size in pixels */
    int frames;       /* frame 0 gives the templates; frames - 1 launches */
    int radius;       /* search radius, <= HW_R (a beat moves the texture by <= 3 per frame) */
    int endo, epi;    /* points on the inner and the outer ellipse */
    int rx_in, ry_in, rx_out, ry_out;
};

static struct hw_size hw_size_of(enum hd_wl_size size, long waves)
{
    if (waves > 0 && size == HD_WL_SMALL) { /* small's frames, one launch of `waves` waves */
        const int np = (int)waves * HW_WAVE_CTAS;
        return (struct hw_size){160, 128, 2, 4, np * 2 / 5, np - np * 2 / 5, 20, 16, 40, 32};
    }
    /* ~0.57 M, 11 M and 56 M warp instructions. Small searches a radius of 4 (81 candidates)
     * so that its CTAs are short and many; medium and large the full 12 (625 candidates). */
    static const struct hw_size s[3] = {
        {160, 128, 4, 4, 0, 10, 0, 0, 40, 32},
        {320, 256, 3, 12, 20, 31, 50, 40, 90, 75},
        {640, 480, 11, 12, 20, 31, 90, 70, 170, 140},
    };
    return s[size];
}

/* Displacement of the texture in frame f (pixels): one heartbeat every HW_BEAT frames. */
static const int hw_beat_dx[HW_BEAT] = {0, 3, 5, 3, 0, -3, -5, -3};
static const int hw_beat_dy[HW_BEAT] = {0, 2, 3, 2, 0, -2, -3, -2};

/* cos and sin by their Taylor series in double arithmetic (no libm: the same on every host). */
static double hw_cos(double x)
{
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 30; k++) {
        term *= -x * x / (double)((2 * k - 1) * (2 * k));
        sum += term;
    }
    return sum;
}

static double hw_sin(double x)
{
    return hw_cos(x - 1.5707963267948966);
}

static int hw_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Frames: value-noise texture shifted by the heartbeat, plus +-4 of fresh noise per pixel. */
static bool hw_make_frames(uint8_t *frames, const struct hw_size *sz)
{
    const int margin = 16, tw = sz->fw + 2 * margin, th = sz->fh + 2 * margin;
    const int lw = tw / HW_CELL + 2, lh = th / HW_CELL + 2;
    int *lattice = malloc(sizeof(int) * (size_t)lw * lh);
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x68727477u);
    if (!lattice)
        return false;
    for (int k = 0; k < lw * lh; k++)
        lattice[k] = 30 + (int)(hd_wl_rng_u32(&rng) % 196u);
    for (int f = 0; f < sz->frames; f++) {
        int dx = hw_beat_dx[f % HW_BEAT], dy = hw_beat_dy[f % HW_BEAT];
        for (int y = 0; y < sz->fh; y++) {
            for (int x = 0; x < sz->fw; x++) {
                int tx = x - dx + margin, ty = y - dy + margin; /* texture coordinates */
                int cx = tx / HW_CELL, cy = ty / HW_CELL, ux = tx % HW_CELL, uy = ty % HW_CELL;
                int a = lattice[cy * lw + cx], b = lattice[cy * lw + cx + 1];
                int c = lattice[(cy + 1) * lw + cx], d = lattice[(cy + 1) * lw + cx + 1];
                int top = a * (HW_CELL - ux) + b * ux, bot = c * (HW_CELL - ux) + d * ux;
                int v = (top * (HW_CELL - uy) + bot * uy) / (HW_CELL * HW_CELL);
                v += (int)(hd_wl_rng_u32(&rng) % 9u) - 4;
                frames[((size_t)f * sz->fh + y) * sz->fw + x] = (uint8_t)hw_clamp(v, 0, 255);
            }
        }
    }
    free(lattice);
    return true;
}

static void hw_make_points(int *pos, const struct hw_size *sz)
{
    const double two_pi = 6.283185307179586;
    int n = 0;
    for (int ring = 0; ring < 2; ring++) {
        int count = ring ? sz->epi : sz->endo;
        int rx = ring ? sz->rx_out : sz->rx_in, ry = ring ? sz->ry_out : sz->ry_in;
        for (int i = 0; i < count; i++, n++) {
            double a = two_pi * i / count;
            pos[2 * n] = sz->fw / 2 + (int)(rx * hw_cos(a) + (rx * hw_cos(a) < 0 ? -0.5 : 0.5));
            pos[2 * n + 1] = sz->fh / 2 + (int)(ry * hw_sin(a) + (ry * hw_sin(a) < 0 ? -0.5 : 0.5));
        }
    }
}

/* The CPU replay of one CTA of hw_track. */
static void hw_ref_track(const uint8_t *frame, int fw, int fh, const int *tmpl, const int *pos,
                         int radius, int *tmpl_out, int *pos_out, uint32_t *score_out, int *win)
{
    int px = pos[0], py = pos[1];
    int wx0 = px - HW_R - HW_T / 2, wy0 = py - HW_R - HW_T / 2;
    for (int y = 0; y < HW_WIN; y++)
        for (int x = 0; x < HW_WIN; x++)
            win[y * HW_WIN + x] =
                frame[hw_clamp(wy0 + y, 0, fh - 1) * fw + hw_clamp(wx0 + x, 0, fw - 1)];
    uint32_t best = 0xffffffffu;
    int best_c = 0;
    const int span = 2 * radius + 1, skip = HW_R - radius;
    for (int c = 0; c < span * span; c++) {
        int oy = c / span + skip, ox = c % span + skip;
        uint32_t ssd = 0;
        for (int ty = 0; ty < HW_T; ty++)
            for (int tx = 0; tx < HW_T; tx++) {
                int d = win[(oy + ty) * HW_WIN + ox + tx] - tmpl[ty * HW_T + tx];
                ssd += (uint32_t)(d * d);
            }
        if (ssd < best) {
            best = ssd;
            best_c = c;
        }
    }
    int oy = best_c / span + skip, ox = best_c % span + skip;
    pos_out[0] = px + ox - HW_R;
    pos_out[1] = py + oy - HW_R;
    *score_out = best;
    for (int y = 0; y < HW_T; y++)
        for (int x = 0; x < HW_T; x++) /* >> 2 of a non-negative sum: exact floor */
            tmpl_out[y * HW_T + x] =
                (3 * tmpl[y * HW_T + x] + win[(oy + y) * HW_WIN + ox + x] + 2) >> 2;
}

static int hw_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "heartwall: WAVES=%ld out of range 0..64", waves);
    struct hw_size sz = hw_size_of(ctx->size, waves);
    const int np = sz.endo + sz.epi, nf = sz.frames, tt = HW_T * HW_T;
    const size_t frame_px = (size_t)sz.fw * sz.fh;
    const size_t tmpl_bytes = sizeof(int) * (size_t)np * tt;
    const size_t pos_bytes = sizeof(int) * 2 * (size_t)np * nf;
    const size_t score_bytes = sizeof(uint32_t) * (size_t)np * nf;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_frames = 0, d_tmpl[2] = {0, 0}, d_pos = 0, d_score = 0;
    uint8_t *frames = malloc(frame_px * nf);
    int *tmpl[2] = {malloc(tmpl_bytes), malloc(tmpl_bytes)}, *got_tmpl = malloc(tmpl_bytes);
    int *pos = malloc(pos_bytes), *got_pos = malloc(pos_bytes);
    uint32_t *score = malloc(score_bytes), *got_score = malloc(score_bytes);
    int *win = malloc(sizeof(int) * HW_WIN * HW_WIN);

    if (!frames || !tmpl[0] || !tmpl[1] || !got_tmpl || !pos || !got_pos || !score ||
        !got_score || !win || !hw_make_frames(frames, &sz)) {
        rc = hd_wl_fail(ctx, "heartwall: out of host memory");
        goto out;
    }
    hw_make_points(pos, &sz);
    for (int p = 0; p < np; p++)
        for (int y = 0; y < HW_T; y++)
            for (int x = 0; x < HW_T; x++) {
                int gx = hw_clamp(pos[2 * p] - HW_T / 2 + x, 0, sz.fw - 1);
                int gy = hw_clamp(pos[2 * p + 1] - HW_T / 2 + y, 0, sz.fh - 1);
                tmpl[0][(size_t)p * tt + y * HW_T + x] = frames[(size_t)gy * sz.fw + gx];
            }
    for (int p = 0; p < np; p++)
        score[p] = 0; /* frame 0 has no score; the device row is set to 0 as well */
    fprintf(ctx->log, "heartwall: %dx%d frames, %d frames, %d points, %dx%d templates, "
                      "search radius %d\n", sz.fw, sz.fh, nf, np, HW_T, HW_T, sz.radius);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const hw_pinned[] = {"hw_track"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, hw_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_frames, frame_px * nf));
    HD_WL_TRY(hd_malloc(gpu, &d_tmpl[0], tmpl_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_tmpl[1], tmpl_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_pos, pos_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_score, score_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_frames, frames, frame_px * nf));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_tmpl[0], tmpl[0], tmpl_bytes));
    HD_WL_TRY(hd_memset(gpu, d_tmpl[1], 0xff, tmpl_bytes));
    HD_WL_TRY(hd_memset(gpu, d_pos, 0xff, pos_bytes)); /* -1: an unwritten row shows */
    HD_WL_TRY(hd_memset(gpu, d_score, 0xff, score_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_pos, pos, sizeof(int) * 2 * (size_t)np));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_score, score, sizeof(uint32_t) * (size_t)np));

    for (int f = 1; f < nf; f++) {
        int cur = (f - 1) & 1;
        hd_devptr frame = d_frames + (hd_devptr)((size_t)f * frame_px);
        hd_devptr pin = d_pos + (hd_devptr)(sizeof(int) * 2 * (size_t)np * (f - 1));
        hd_devptr pout = d_pos + (hd_devptr)(sizeof(int) * 2 * (size_t)np * f);
        hd_devptr sout = d_score + (hd_devptr)(sizeof(uint32_t) * (size_t)np * f);
        struct hd_dim3 grid = {(uint32_t)np, 1, 1}, block = {HW_THREADS, 1, 1};
        struct hd_arg args[] = {HD_ARG(frame), HD_ARG(sz.fw), HD_ARG(sz.fh),
                                HD_ARG(d_tmpl[cur]), HD_ARG(pin), HD_ARG(d_tmpl[1 - cur]),
                                HD_ARG(pout), HD_ARG(sout), HD_ARG(sz.radius)};
        HD_WL_TRY(hd_launch(gpu, mod, "hw_track", grid, block, 0, 0, args, 9));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got_pos, d_pos, pos_bytes));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got_score, d_score, score_bytes));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got_tmpl, d_tmpl[(nf - 1) & 1], tmpl_bytes));

    int followed = 0;
    for (int f = 1; f < nf; f++) {
        int cur = (f - 1) & 1;
        const uint8_t *frame = frames + (size_t)f * frame_px;
        for (int p = 0; p < np; p++) {
            int *pin = pos + 2 * ((size_t)np * (f - 1) + p), *pout = pos + 2 * ((size_t)np * f + p);
            hw_ref_track(frame, sz.fw, sz.fh, tmpl[cur] + (size_t)p * tt, pin, sz.radius,
                         tmpl[1 - cur] + (size_t)p * tt, pout, score + (size_t)np * f + p, win);
        }
    }
    for (int p = 0; p < np; p++) {
        int mx = hw_beat_dx[(nf - 1) % HW_BEAT] - hw_beat_dx[0];
        int my = hw_beat_dy[(nf - 1) % HW_BEAT] - hw_beat_dy[0];
        const int *first = pos + 2 * p, *last = pos + 2 * ((size_t)np * (nf - 1) + p);
        int ex = last[0] - first[0] - mx, ey = last[1] - first[1] - my;
        followed += ex >= -1 && ex <= 1 && ey >= -1 && ey <= 1;
    }
    fprintf(ctx->log, "heartwall: CPU replay: %d of %d points within 1 pixel of the true motion\n",
            followed, np);
    if ((rc = hd_wl_compare_i32(ctx, "positions", pos, got_pos, 2 * (size_t)np * nf)) != HD_OK)
        goto out;
    if ((rc = hd_wl_compare_u32(ctx, "scores", score, got_score, (size_t)np * nf)) != HD_OK)
        goto out;
    rc = hd_wl_compare_i32(ctx, "templates", tmpl[(nf - 1) & 1], got_tmpl, (size_t)np * tt);

out:
    hd_free(gpu, d_frames);
    hd_free(gpu, d_tmpl[0]);
    hd_free(gpu, d_tmpl[1]);
    hd_free(gpu, d_pos);
    hd_free(gpu, d_score);
    free(frames);
    free(tmpl[0]);
    free(tmpl[1]);
    free(got_tmpl);
    free(pos);
    free(got_pos);
    free(score);
    free(got_score);
    free(win);
    return rc;
}

const struct hd_workload hd_workload_heartwall = {
    .name = "heartwall",
    .description = "heart-wall point tracking: 21x21 template SSD search per point and frame",
    .klass = "compute",
    .idempotent = true,
    .run = hw_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_heartwall_r32 = {
    .name = "heartwall_r32",
    .description = "heartwall variant: hw_track counted at 32 registers per thread (Shieh Table 4.2 heartwall)",
    .klass = "compute",
    .idempotent = true,
    .run = hw_run,
    .variant_of = "heartwall",
    .variant_flags = "-DMAXREG=32 -DREGSPEC=32",
    .paper_row = "Shieh Table 4.2 heartwall: 8,192 regs/TB (32/thread), 11,872 B, 256 threads, 4 TBs/SM",
};

/* Input-size variant (ptx.flags; README.md, "Variants": token wN) */
const struct hd_workload hd_workload_heartwall_r32_w3 = {
    .name = "heartwall_r32_w3",
    .description = "heartwall_r32 variant: small frames, one launch of 3 full waves (180 points, 4 TBs per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = hw_run,
    .variant_of = "heartwall",
    .variant_flags = "-DMAXREG=32 -DREGSPEC=32 -DWAVES=3",
    .paper_row = "Shieh Table 4.2 heartwall kernel: 8,192 regs/TB, 11,872 B, 256 threads, 4 TBs/SM, >= 3 waves",
};
/* Session 19: 6 waves (360 points), so that uniform preemption requests find finished-TB
 * statistics and full occupancy more often (the first and the last wave are each ~1/6 of the run,
 * not 1/3; docs/blocks/shieh.md, issue 24 item 3). */
const struct hd_workload hd_workload_heartwall_r32_w6 = {
    .name = "heartwall_r32_w6",
    .description = "heartwall_r32 variant: small frames, one launch of 6 full waves (360 points, 4 TBs per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = hw_run,
    .variant_of = "heartwall",
    .variant_flags = "-DMAXREG=32 -DREGSPEC=32 -DWAVES=6",
    .paper_row = "Shieh Table 4.2 heartwall kernel: 8,192 regs/TB, 11,872 B, 256 threads, 4 TBs/SM, >= 3 waves",
};
/* }==== */
