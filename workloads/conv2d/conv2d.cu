// SPDX-License-Identifier: MIT
// conv2d.cu - non-separable 3x3 2-D convolution of an ni x nj float image (Polybench 2DCONV-like;
// Lin thesis ch.3 Table 3.2, "CONV", an L2->SM interconnect-intensive kernel in Fig 3.4).
//
// conv2d_3x3(a, b, ni, nj, c): one thread per output pixel on a 2-D grid of 32x8 CTAs (the
// Polybench launch shape, 256 threads); each interior pixel is the weighted sum of its 3x3
// neighbourhood with the nine fixed coefficients of Polybench (CV_Crc, row r, column c), read straight
// from global memory (no shared-memory tiling, as in Polybench: neighbouring threads' loads
// overlap and are served by the L1/L2). Border pixels (first/last row or column) are written 0.
// The nine products are accumulated in a fixed order with explicit fmaf, so the CPU reference
// replays the exact float operations (bit-exact check).
//
// Idempotent: each thread reads `a` and writes only its own element of `b`.

#ifndef HD_CV_BX
#define HD_CV_BX 32 // CTA shape; must match conv2d.c
#endif
#ifndef HD_CV_BY
#define HD_CV_BY 8
#endif

// The 3x3 weights, row-major (Polybench 2DCONV's c11..c33); must match conv2d.c.
#define CV_C11 0.2f
#define CV_C12 -0.3f
#define CV_C13 0.4f
#define CV_C21 0.5f
#define CV_C22 0.6f
#define CV_C23 0.7f
#define CV_C31 -0.8f
#define CV_C32 -0.9f
#define CV_C33 0.10f

extern "C" __global__ void __launch_bounds__(HD_CV_BX * HD_CV_BY)
    conv2d_3x3(const float *__restrict__ a, float *__restrict__ b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    if (i == 0 || j == 0 || i == ni - 1 || j == nj - 1) {
        b[i * nj + j] = 0.0f;
        return;
    }
    const float *r0 = a + (i - 1) * nj + j;
    const float *r1 = r0 + nj;
    const float *r2 = r1 + nj;
    float acc = CV_C11 * r0[-1];
    acc = fmaf(CV_C12, r0[0], acc);
    acc = fmaf(CV_C13, r0[1], acc);
    acc = fmaf(CV_C21, r1[-1], acc);
    acc = fmaf(CV_C22, r1[0], acc);
    acc = fmaf(CV_C23, r1[1], acc);
    acc = fmaf(CV_C31, r2[-1], acc);
    acc = fmaf(CV_C32, r2[0], acc);
    acc = fmaf(CV_C33, r2[1], acc);
    b[i * nj + j] = acc;
}
