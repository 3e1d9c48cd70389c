// SPDX-License-Identifier: MIT
// mvt.cu - matrix-vector product and transpose (Polybench MVT; Gong Table 6.2, type 3):
//     x1 = x1_in + A y1        x2 = x2_in + A^T y2        (A is n x n, row-major)
//
// One thread per output element, MVT_TB threads per CTA (Polybench-GPU's 256). mvt_rows walks a
// row of A (thread i reads A[i][0..n), so a warp's 32 loads of one step touch 32 different rows:
// uncoalesced, one cache line per thread); mvt_cols walks a column (thread i reads A[0..n)[i], so a
// warp's loads of one step are one contiguous 128-byte line: coalesced). Each thread sums in a
// register starting from x_in[i], in the order j = 0 .. n-1 (nvcc contracts each step to one
// fma.rn.f32), and stores once.
//
// Idempotent: yes. Polybench updates x1 and x2 in place; here the inputs x1_in, x2_in are separate
// from the outputs, so a CTA reads only inputs and writes only its own outputs.

#ifndef MVT_TB
#define MVT_TB 256
#endif

extern "C" __global__ void __launch_bounds__(MVT_TB)
mvt_rows(const float *__restrict__ a, const float *__restrict__ y1,
         const float *__restrict__ x1_in, float *__restrict__ x1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = a + (size_t)i * n;
    float sum = x1_in[i];
    for (int j = 0; j < n; j++)
        sum += row[j] * y1[j];
    x1[i] = sum;
}

extern "C" __global__ void __launch_bounds__(MVT_TB)
mvt_cols(const float *__restrict__ a, const float *__restrict__ y2,
         const float *__restrict__ x2_in, float *__restrict__ x2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = x2_in[i];
    for (int j = 0; j < n; j++)
        sum += a[(size_t)j * n + i] * y2[j];
    x2[i] = sum;
}
