// SPDX-License-Identifier: MIT
// histo1024.cu - the 1,024-bin histogram of hybridsort's first phase (Rodinia hybridsort,
// histogram1024Kernel; Lin thesis Table 2.2 HG_1: 3 warps per TB, 12,324 B of shared memory,
// 3 TBs/SM, limited by shared memory), written from the algorithm.
//
// Hybridsort buckets float keys by value before sorting each bucket; its first phase counts how
// many keys fall in each of 1,024 equal-width bins between the keys' minimum and maximum.
//
// histo1024_block(keys, n, lo, scale, partial): CTAs of 96 threads (HISTO_WARPS = 3 warps). Each
// warp owns a private 1,024-bin sub-histogram in shared memory (3 x 4 KB = 12,288 B), so atomics
// contend only within a warp. A thread walks the keys with a grid-wide stride and adds one to
// bin min((int)((key - lo) * scale), 1023) of its warp's sub-histogram (scale = 1024 / (max -
// lo), computed by the host; one subtraction and one multiplication, nothing to contract). After
// a barrier, the CTA sums its three sub-histograms bin by bin into partial[blockIdx.x][bin].
//
// histo1024_merge(partial, blocks, hist): one thread per bin sums the CTAs' partial histograms.
//
// Idempotent: both kernels read only their inputs and write only their own outputs (each CTA its
// own row of `partial`, each merge thread its own bin); the shared sub-histograms are cleared at
// the start of every CTA, so re-running a CTA from its start rewrites the same values.

#ifndef HISTO_WARPS
#define HISTO_WARPS 3 // must match histo1024.c
#endif
#define HISTO_BINS 1024 // must match histo1024.c
// MAXREG (a variant's register cap, __maxnreg__) on histo1024_block only: Lin's HG_1 has 10
// registers per thread (Table 2.2); ours 55 without a cap.
#ifdef MAXREG
#define HISTO_BOUNDS __maxnreg__(MAXREG)
#else
#define HISTO_BOUNDS
#endif

extern "C" __global__ void HISTO_BOUNDS histo1024_block(const float *__restrict__ keys, int n, float lo,
                                           float scale, unsigned *__restrict__ partial)
{
    __shared__ unsigned sub[HISTO_WARPS * HISTO_BINS];
    const int threads = HISTO_WARPS * 32;
    for (int b = threadIdx.x; b < HISTO_WARPS * HISTO_BINS; b += threads)
        sub[b] = 0;
    __syncthreads();
    unsigned *mine = sub + (threadIdx.x >> 5) * HISTO_BINS;
    const int stride = gridDim.x * threads;
    for (int i = blockIdx.x * threads + threadIdx.x; i < n; i += stride) {
        int bin = (int)((keys[i] - lo) * scale);
        bin = bin < 0 ? 0 : (bin > HISTO_BINS - 1 ? HISTO_BINS - 1 : bin);
        atomicAdd(mine + bin, 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HISTO_BINS; b += threads) {
        unsigned s = 0;
        for (int w = 0; w < HISTO_WARPS; ++w)
            s += sub[w * HISTO_BINS + b];
        partial[(size_t)blockIdx.x * HISTO_BINS + b] = s;
    }
}

extern "C" __global__ void histo1024_merge(const unsigned *__restrict__ partial, int blocks,
                                           unsigned *__restrict__ hist)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= HISTO_BINS)
        return;
    unsigned s = 0;
    for (int k = 0; k < blocks; ++k)
        s += partial[(size_t)k * HISTO_BINS + b];
    hist[b] = s;
}
