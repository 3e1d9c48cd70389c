// SPDX-License-Identifier: MIT
// mm2.cu - two chained matrix products, D' = alpha * A * B * C + beta * D (Polybench 2MM; Lin
// thesis ch.3 Table 3.2 "MM", an SM->L2 interconnect-intensive kernel in Fig 3.4; Gong thesis
// Table 6.2 "2MM", locality hint 1).
//
// Row-major float matrices A (ni x nk), B (nk x nj), C (nj x nl), D (ni x nl). As in Polybench's
// GPU version, each product is a naive kernel, one thread per output element on 32x8 CTAs, the
// dot product read straight from global memory (no shared-memory tiling):
//   mm2_kernel1: tmp[i][j] = alpha * sum_k A[i][k] * B[k][j]
//   mm2_kernel2: dout[i][l] = beta * D[i][l] + sum_j tmp[i][j] * C[j][l]
// Each sum is one fmaf per term in index order, so the CPU reference is bit-exact.
//
// Idempotent: kernel 1 writes only tmp, kernel 2 reads D and writes dout (not D in place, unlike
// Polybench), each thread its own element.

#define MM2_BX 32 // CTA shape; must match mm2.c
#define MM2_BY 8

#ifndef MM2_POLY

extern "C" __global__ void __launch_bounds__(MM2_BX * MM2_BY)
    mm2_kernel1(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ tmp,
                int ni, int nj, int nk, float alpha)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    float acc = 0.0f;
    for (int k = 0; k < nk; k++)
        acc = fmaf(a[i * nk + k], b[k * nj + j], acc);
    tmp[i * nj + j] = alpha * acc;
}

extern "C" __global__ void __launch_bounds__(MM2_BX * MM2_BY)
    mm2_kernel2(const float *__restrict__ tmp, const float *__restrict__ c,
                const float *__restrict__ d, float *__restrict__ dout, int ni, int nl, int nj,
                float beta)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || l >= nl)
        return;
    float acc = beta * d[i * nl + l];
    for (int j = 0; j < nj; j++)
        acc = fmaf(tmp[i * nj + j], c[j * nl + l], acc);
    dout[i * nl + l] = acc;
}
#else // MM2_POLY: mm2_poly, the kernels of PolyBench/GPU 1.0's 2mm.cu (Grauer-Gray et al. 2012)
//
// Lin thesis Table 3.2's MM is that suite's 2MM at its 2048x2048 default. Its two kernels differ
// from the ones above in what the memory system sees: every inner iteration adds into the output
// element in global memory (`C[i][j] += A[i][k] * B[k][j]`), on plain pointers that may alias,
// so each iteration issues one store of the running sum as well as its two loads ("stores of
// intermediates", Lin's Fig 3.4 SM->L2 category); no alpha or beta. Written here from that
// description:
//   mm2_kernel1: tmp[i][j] = 0, then tmp[i][j] += a[i][k] * b[k][j] for each k
//   mm2_kernel2: dout[i][l] = 0, then dout[i][l] += tmp[i][j] * c[j][l] for each j
// The suite's 1.0 kernels add onto whatever the host copied in; the zeroing store is the later
// PolyBench-ACC form of kernel 1 (`tmp[i][j] = 0` first), one store before a loop of n, and it
// keeps the kernels idempotent (a re-run CTA starts its sums from 0 again), as mm2's are. The
// suite's sizes are compile-time constants; here they are parameters (one PTX for every size).

extern "C" __global__ void __launch_bounds__(MM2_BX * MM2_BY)
    mm2_kernel1(float *a, float *b, float *tmp, int ni, int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        tmp[i * nj + j] = 0.0f;
        for (int k = 0; k < nk; k++)
            tmp[i * nj + j] += a[i * nk + k] * b[k * nj + j];
    }
}

extern "C" __global__ void __launch_bounds__(MM2_BX * MM2_BY)
    mm2_kernel2(float *tmp, float *c, float *dout, int ni, int nl, int nj)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && l < nl) {
        dout[i * nl + l] = 0.0f;
        for (int j = 0; j < nj; j++)
            dout[i * nl + l] += tmp[i * nj + j] * c[j * nl + l];
    }
}
#endif // MM2_POLY
