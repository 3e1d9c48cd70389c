// SPDX-License-Identifier: MIT
// histogram.cu - 256-bin histogram of bytes: privatized shared-memory bins, then global atomics.
//
// histogram256(data, nwords, bins): the input is read as 32-bit words (4 bytes each) by a
// grid-stride loop so any grid size covers it. Each CTA first clears its private 256 bins in
// shared memory, counts every byte with a shared-memory atomicAdd (contention depends on the
// data), waits at a barrier, and adds its non-zero bins to the global bins with atomicAdd.
//
// Not idempotent: re-running a CTA from its start adds its counts to the global bins twice.
//
// Resource-specification variants (ptx.flags, README): TB (threads per CTA; __launch_bounds__(TB),
// the host launches TB threads) and HIST_COPIES (sub-histograms per CTA in shared memory, warp w
// counting into copy w % HIST_COPIES: HIST_COPIES KB of scratchpad per CTA and fewer colliding
// atomics; the copies are added up before the global atomics).

#define BINS 256
#ifndef HIST_COPIES
#define HIST_COPIES 1
#endif
#ifdef TB
#define HIST_BOUNDS __launch_bounds__(TB)
#else
#define HIST_BOUNDS
#endif

extern "C" __global__ void HIST_BOUNDS histogram256(const unsigned int *__restrict__ data,
                                                    unsigned int nwords, unsigned int *bins)
{
#if HIST_COPIES == 1
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
#else /* HIST_COPIES sub-histograms, one per group of warps */
    __shared__ unsigned int local[HIST_COPIES * BINS];

    for (unsigned int b = threadIdx.x; b < HIST_COPIES * BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    unsigned int *mine = local + ((threadIdx.x / 32u) % HIST_COPIES) * BINS;
    unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += stride) {
        unsigned int w = data[i];
        atomicAdd(&mine[w & 0xffu], 1u);
        atomicAdd(&mine[(w >> 8) & 0xffu], 1u);
        atomicAdd(&mine[(w >> 16) & 0xffu], 1u);
        atomicAdd(&mine[w >> 24], 1u);
    }
    __syncthreads();

    for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int c = 0;
#pragma unroll
        for (int k = 0; k < HIST_COPIES; k++)
            c += local[k * BINS + b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
#endif
}
