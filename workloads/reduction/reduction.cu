// SPDX-License-Identifier: MIT
// reduction.cu - sum of a float array: shared-memory tree reduction with barriers.
//
// reduce_sum(in, out, n): each CTA of blockDim.x threads (a power of two, at least 64) sums
// 2 * blockDim.x consecutive elements and writes its partial sum to out[blockIdx.x]. Thread t
// first adds in[base + t] and in[base + t + blockDim.x] (missing elements count as 0), stores
// the sum in dynamic shared memory, then the tree halves the active threads with a barrier after
// every step down to 64 values; the last 32 threads finish with warp shuffles (offsets 16, 8, 4,
// 2, 1), so no warp-synchronous shared-memory tricks are needed. The host launches the same
// kernel again on the partial sums until one value remains (a second kernel, no atomics).
//
// Idempotent: a CTA reads an input the launch never writes and writes only out[blockIdx.x].
// The order of the additions is fixed by the code above, which the host reference replays.
//
// Resource-specification variants (ptx.flags, README): TB (threads per CTA; the kernel gets
// __launch_bounds__(TB) and the host launches TB threads with TB floats of shared memory), ITEMS
// (elements each thread loads and adds before the tree, 2 in the base kernel: more loads in
// flight, more registers), MAXREG (register cap, __maxnreg__, which replaces the launch bounds:
// nvcc accepts only one of the two).

#ifndef ITEMS
#define ITEMS 2
#endif
#if defined(MAXREG)
#define RED_BOUNDS __maxnreg__(MAXREG)
#elif defined(TB)
#define RED_BOUNDS __launch_bounds__(TB)
#else
#define RED_BOUNDS
#endif

extern "C" __global__ void RED_BOUNDS reduce_sum(const float *__restrict__ in,
                                                 float *__restrict__ out, unsigned int n)
{
    extern __shared__ float partial[];
    unsigned int t = threadIdx.x;
#if ITEMS == 2
    unsigned int base = blockIdx.x * (2u * blockDim.x);
    unsigned int i = base + t;
    unsigned int j = i + blockDim.x;

    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (j < n)
        v = v + in[j];
#else /* ITEMS elements per thread, blockDim.x apart, added in order */
    unsigned int i = blockIdx.x * (ITEMS * blockDim.x) + t;
    float x[ITEMS];
#pragma unroll
    for (int c = 0; c < ITEMS; c++) /* all loads first: ITEMS loads in flight per thread */
        x[c] = i + c * blockDim.x < n ? in[i + c * blockDim.x] : 0.0f;
    float v = x[0];
#pragma unroll
    for (int c = 1; c < ITEMS; c++)
        if (i + c * blockDim.x < n)
            v = v + x[c];
#endif
    partial[t] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s >= 32; s >>= 1) {
        if (t < s)
            partial[t] = partial[t] + partial[t + s];
        __syncthreads();
    }

    if (t < 32) {
        v = partial[t];
        for (int off = 16; off > 0; off >>= 1)
            v = v + __shfl_down_sync(0xffffffffu, v, off);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
