// SPDX-License-Identifier: MIT
// leukocyte.cu - leukocyte-like cell detection: image gradient, a GICOV-like score over circle
// sample points, and a grey-level dilation of the score map.
//
// lk_gradient: central differences gx = (I[x+1] - I[x-1]) / 2, gy likewise (0 on the border).
// lk_gicov: for every pixel at least LK_MARGIN from the border and every candidate radius, sample
//   the gradient at LK_NPTS points of the circle around the pixel and project it on the outward
//   normal (cos, sin) of each point. The score of the radius is mean / standard deviation of the
//   projections (the gradient inverse coefficient of variation: large when the gradient is strong
//   and uniform all around, i.e. on the rim of a round cell); the pixel keeps the best radius.
//   The variance is computed in a second pass over the samples (numerically safe).
// lk_dilate: out = maximum of the score over a disk of radius LK_DIL_R (clipped to the image).
// The sample offsets live in constant memory (filled by the host): a broadcast per warp, with
// gathers from 2D-local but scattered global addresses. Every kernel reads only its inputs and
// writes a separate output: all three are idempotent.
//
// Knob (Lin Table 2.2 variant leukocyte_tb192_r18, ptx.flags): MAXREG caps the registers per
// thread of lk_gicov (__maxnreg__); undefined in the base, whose PTX it leaves unchanged. The CTA
// shape is the launch's (HD_LK_TX x HD_LK_TY, read back by leukocyte.c); the kernels use blockDim.
// LK_NPTS, the points sampled on each circle (32; Rodinia's GICOV kernel samples 150, variant
// leukocyte_tb192_r18_p150), is read back by leukocyte.c as well.

#ifndef LK_NPTS
#define LK_NPTS 32
#endif
#define LK_NRAD 7
#define LK_MARGIN 12
#define LK_DIL_MAX 64
#define LK_EPS 1e-6f

__constant__ float lk_cos[LK_NPTS];
__constant__ float lk_sin[LK_NPTS];
__constant__ int lk_off_x[LK_NRAD * LK_NPTS];
__constant__ int lk_off_y[LK_NRAD * LK_NPTS];
__constant__ int lk_dil_x[LK_DIL_MAX];
__constant__ int lk_dil_y[LK_DIL_MAX];

extern "C" __global__ void lk_gradient(const float *__restrict__ img, float *__restrict__ gx,
                                       float *__restrict__ gy, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int i = y * w + x;
    float dx = 0.0f, dy = 0.0f;
    if (x > 0 && x < w - 1)
        dx = (img[i + 1] - img[i - 1]) * 0.5f;
    if (y > 0 && y < h - 1)
        dy = (img[i + w] - img[i - w]) * 0.5f;
    gx[i] = dx;
    gy[i] = dy;
}

#ifdef MAXREG
#define LK_GICOV_REGS __maxnreg__(MAXREG)
#else
#define LK_GICOV_REGS
#endif

extern "C" __global__ void LK_GICOV_REGS lk_gicov(const float *__restrict__ gx, const float *__restrict__ gy,
                                    float *__restrict__ score, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float best = 0.0f;
    if (x >= LK_MARGIN && x < w - LK_MARGIN && y >= LK_MARGIN && y < h - LK_MARGIN) {
        for (int r = 0; r < LK_NRAD; r++) {
            float sum = 0.0f;
#pragma unroll 4
            for (int p = 0; p < LK_NPTS; p++) {
                int j = (y + lk_off_y[r * LK_NPTS + p]) * w + x + lk_off_x[r * LK_NPTS + p];
                sum += gx[j] * lk_cos[p] + gy[j] * lk_sin[p];
            }
            float mean = sum / (float)LK_NPTS;
            float var = 0.0f;
#pragma unroll 4
            for (int p = 0; p < LK_NPTS; p++) {
                int j = (y + lk_off_y[r * LK_NPTS + p]) * w + x + lk_off_x[r * LK_NPTS + p];
                float d = gx[j] * lk_cos[p] + gy[j] * lk_sin[p] - mean;
                var += d * d;
            }
            var /= (float)(LK_NPTS - 1);
            float s = mean / sqrtf(var + LK_EPS);
            if (r == 0 || s > best)
                best = s;
        }
    }
    score[y * w + x] = best;
}

extern "C" __global__ void lk_dilate(const float *__restrict__ in, float *__restrict__ out, int w,
                                     int h, int npts)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float m = in[y * w + x];
    for (int k = 0; k < npts; k++) {
        int xx = x + lk_dil_x[k], yy = y + lk_dil_y[k];
        if (xx >= 0 && xx < w && yy >= 0 && yy < h)
            m = fmaxf(m, in[yy * w + xx]);
    }
    out[y * w + x] = m;
}
