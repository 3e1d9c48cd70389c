// SPDX-License-Identifier: MIT
// fwt.cu - fast Walsh(-Hadamard) transform of a float array of length N = 2^L, in place
// (CUDA SDK fastWalshTransform-like; the FW of Gong Tables 4.2, 5.1 and 6.2).
//
//     X[k] = sum_j (-1)^popcount(j & k) x[j]     (unnormalised)
//
// The transform is L butterfly stages, stage s (stride s = N/2, N/4, ..., 1) replacing each pair
// (x[i], x[i + s]) with bit s of i clear by (x[i] + x[i + s], x[i] - x[i + s]). The stages commute,
// so any grouping works:
// - fwt_radix4_global: two stages (strides 2s and s) on global memory, one quad
//   (i, i + s, i + 2s, i + 3s) per thread, N/4 threads. The host applies it while more than
//   2^FWT_SHARED_LOG2 elements would be coupled (the strides >= 2^FWT_SHARED_LOG2).
// - fwt_shared: every remaining stage (strides 2^(l-1) .. 1) on independent chunks of 2^l
//   elements (l <= FWT_SHARED_LOG2): a CTA of 2^l / 4 threads loads its chunk into dynamic shared
//   memory, runs radix-4 stage pairs and, when l is odd, a last radix-2 stage, with a barrier
//   between passes, and stores the chunk back.
//
// Idempotent: no. Every launch updates the array in place: a CTA re-run after it stored part of
// its quads or its chunk would transform those elements twice.

#ifndef FWT_SHARED_LOG2
#define FWT_SHARED_LOG2 11
#endif
#define FWT_MAX_THREADS ((1 << FWT_SHARED_LOG2) / 4)

extern "C" __global__ void __launch_bounds__(256)
fwt_radix4_global(float *__restrict__ d, int stride_log2, int quads)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= quads)
        return;
    const int s = 1 << stride_log2;
    const int lo = t & (s - 1);
    const int i0 = ((t - lo) << 2) + lo; // bits stride_log2 and stride_log2 + 1 of i0 are clear
    float x0 = d[i0], x1 = d[i0 + s], x2 = d[i0 + 2 * s], x3 = d[i0 + 3 * s];
    float a0 = x0 + x2, a2 = x0 - x2, a1 = x1 + x3, a3 = x1 - x3; // stride 2s
    d[i0] = a0 + a1;                                               // stride s
    d[i0 + s] = a0 - a1;
    d[i0 + 2 * s] = a2 + a3;
    d[i0 + 3 * s] = a2 - a3;
}

extern "C" __global__ void __launch_bounds__(FWT_MAX_THREADS)
fwt_shared(float *__restrict__ d, int chunk_log2)
{
    extern __shared__ float s_chunk[];
    const int chunk = 1 << chunk_log2;
    float *g = d + ((size_t)blockIdx.x << chunk_log2);
    const int tid = threadIdx.x, nt = blockDim.x; // nt = chunk / 4
    for (int k = tid; k < chunk; k += nt)
        s_chunk[k] = g[k];
    for (int s = chunk >> 2; s >= 1; s >>= 2) {
        __syncthreads();
        const int lo = tid & (s - 1);
        const int i0 = ((tid - lo) << 2) + lo;
        float x0 = s_chunk[i0], x1 = s_chunk[i0 + s];
        float x2 = s_chunk[i0 + 2 * s], x3 = s_chunk[i0 + 3 * s];
        float a0 = x0 + x2, a2 = x0 - x2, a1 = x1 + x3, a3 = x1 - x3;
        s_chunk[i0] = a0 + a1;
        s_chunk[i0 + s] = a0 - a1;
        s_chunk[i0 + 2 * s] = a2 + a3;
        s_chunk[i0 + 3 * s] = a2 - a3;
    }
    __syncthreads();
    if (chunk_log2 & 1) { // one stage (stride 1) left: two pairs per thread
        for (int p = tid; p < chunk / 2; p += nt) {
            float x0 = s_chunk[2 * p], x1 = s_chunk[2 * p + 1];
            s_chunk[2 * p] = x0 + x1;
            s_chunk[2 * p + 1] = x0 - x1;
        }
        __syncthreads();
    }
    for (int k = tid; k < chunk; k += nt)
        g[k] = s_chunk[k];
}
