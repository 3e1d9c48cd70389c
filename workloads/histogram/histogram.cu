// SPDX-License-Identifier: MIT
// histogram.cu - 256-bin histogram of bytes: privatized shared-memory bins, then global atomics.
//
// histogram256(data, nwords, bins): the input is read as 32-bit words (4 bytes each) by a
// grid-stride loop so any grid size covers it. Each CTA first clears its private 256 bins in
// shared memory, counts every byte with a shared-memory atomicAdd (contention depends on the
// data), waits at a barrier, and adds its non-zero bins to the global bins with atomicAdd.
//
// Not idempotent: re-running a CTA from its start adds its counts to the global bins twice.

#define BINS 256

extern "C" __global__ void histogram256(const unsigned int *__restrict__ data, unsigned int nwords,
                                        unsigned int *bins)
{
    __shared__ unsigned int local[BINS];

    for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += stride) {
        unsigned int w = data[i];
        atomicAdd(&local[w & 0xffu], 1u);
        atomicAdd(&local[(w >> 8) & 0xffu], 1u);
        atomicAdd(&local[(w >> 16) & 0xffu], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();

    for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int c = local[b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
}
