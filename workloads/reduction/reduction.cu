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

extern "C" __global__ void reduce_sum(const float *__restrict__ in, float *__restrict__ out,
                                      unsigned int n)
{
    extern __shared__ float partial[];
    unsigned int t = threadIdx.x;
    unsigned int base = blockIdx.x * (2u * blockDim.x);
    unsigned int i = base + t;
    unsigned int j = i + blockDim.x;

    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (j < n)
        v = v + in[j];
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
