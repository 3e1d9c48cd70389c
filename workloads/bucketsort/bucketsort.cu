// SPDX-License-Identifier: MIT
// bucketsort.cu - bucket sort of floats into BK_DIV buckets, then each bucket sorted (Rodinia
// hybridsort's bucket stage; Lin thesis ch.4 Table 4.2 "SRT", a DRAM-bandwidth-intensive (DBI)
// kernel).
//
// The host chooses BK_DIV - 1 ascending pivots (from a sample of the input); bucket(key) = the
// number of pivots <= key (a binary search). Four kernels:
//   bucket_count: BK_TB threads per CTA walk the input with a grid stride (element e belongs to
//     CTA (e mod (grid * BK_TB)) / BK_TB); each finds its element's bucket with the pivots in
//     shared memory, takes a slot with an atomicAdd on the CTA's shared bucket counter, and records
//     (bucket << BK_OFF_BITS) | slot; the CTA then writes its BK_DIV counters to counts[cta][*].
//   bucket_prefix: one thread per bucket runs over the CTAs: offsets[cta][b] = the elements of
//     bucket b in earlier CTAs; totals[b] = all of them.
//   bucket_scatter: with the same grid as bucket_count, each element goes to
//     tmp[start[b] + offsets[cta][b] + slot] (start: the host's exclusive scan of totals).
//   bucket_sort_local: one CTA of cap/2 threads per bucket loads the bucket (at most cap <=
//     BK_CAP keys, padded with +inf) into shared memory, sorts it with a bitonic network and writes
//     it to out at the bucket's start.
// The slot order inside a bucket depends on the order of the shared atomics; the local sort
// makes the output independent of it.
//
// Idempotent: every kernel writes only arrays it does not read (the atomics are on shared
// counters, which a re-run starts afresh).

#define BK_DIV 1024     // buckets; must match bucketsort.c
#define BK_TB 512       // threads per CTA of bucket_count / bucket_scatter; must match bucketsort.c
#define BK_OFF_BITS 22  // slot bits of a packed index
#define BK_CAP 2048     // largest bucket bucket_sort_local sorts; must match bucketsort.c

extern "C" __global__ void __launch_bounds__(BK_TB)
    bucket_count(const float *__restrict__ keys, const float *__restrict__ pivots,
                 unsigned *__restrict__ packed, unsigned *__restrict__ counts, int n)
{
    __shared__ float piv[BK_DIV - 1];
    __shared__ unsigned cnt[BK_DIV];
    for (int k = threadIdx.x; k < BK_DIV; k += BK_TB) {
        cnt[k] = 0;
        if (k < BK_DIV - 1)
            piv[k] = pivots[k];
    }
    __syncthreads();
    const int stride = gridDim.x * BK_TB;
    for (int e = blockIdx.x * BK_TB + threadIdx.x; e < n; e += stride) {
        float key = keys[e];
        int lo = 0, hi = BK_DIV - 1;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (piv[mid] <= key)
                lo = mid + 1;
            else
                hi = mid;
        }
        unsigned slot = atomicAdd(&cnt[lo], 1u);
        packed[e] = ((unsigned)lo << BK_OFF_BITS) | slot;
    }
    __syncthreads();
    for (int k = threadIdx.x; k < BK_DIV; k += BK_TB)
        counts[blockIdx.x * BK_DIV + k] = cnt[k];
}

extern "C" __global__ void bucket_prefix(const unsigned *__restrict__ counts,
                                         unsigned *__restrict__ offsets,
                                         unsigned *__restrict__ totals, int ctas)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= BK_DIV)
        return;
    unsigned run = 0;
    for (int c = 0; c < ctas; c++) {
        offsets[c * BK_DIV + b] = run;
        run += counts[c * BK_DIV + b];
    }
    totals[b] = run;
}

extern "C" __global__ void __launch_bounds__(BK_TB)
    bucket_scatter(const float *__restrict__ keys, const unsigned *__restrict__ packed,
                   const unsigned *__restrict__ offsets, const unsigned *__restrict__ start,
                   float *__restrict__ tmp, int n)
{
    const int stride = gridDim.x * BK_TB;
    const unsigned *off = offsets + blockIdx.x * BK_DIV;
    for (int e = blockIdx.x * BK_TB + threadIdx.x; e < n; e += stride) {
        unsigned p = packed[e], b = p >> BK_OFF_BITS;
        tmp[start[b] + off[b] + (p & ((1u << BK_OFF_BITS) - 1))] = keys[e];
    }
}

extern "C" __global__ void __launch_bounds__(BK_CAP / 2)
    bucket_sort_local(const float *__restrict__ tmp, const unsigned *__restrict__ start,
                      const unsigned *__restrict__ totals, float *__restrict__ out, unsigned cap)
{
    __shared__ float s[BK_CAP];
    const unsigned b = blockIdx.x, t = threadIdx.x, half = cap >> 1;
    const unsigned first = start[b], size = totals[b];
    s[t] = t < size ? tmp[first + t] : __int_as_float(0x7f800000);
    s[t + half] = t + half < size ? tmp[first + t + half] : __int_as_float(0x7f800000);
    for (unsigned k = 2; k <= cap; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            unsigned i = 2 * t - (t & (j - 1));
            float a = s[i], c = s[i + j];
            if ((a > c) == ((i & k) == 0)) {
                s[i] = c;
                s[i + j] = a;
            }
        }
    }
    __syncthreads();
    if (t < size)
        out[first + t] = s[t];
    if (t + half < size)
        out[first + t + half] = s[t + half];
}

#ifdef SRT_RODINIA
// srt_bucketsort_rod (variant bucketsort_rod_ccbp; issue 29, docs/blocks/ccbp.md "Session 25: SRT
// in Rodinia's form"): the form of Rodinia hybridsort's `bucketsort` kernel, the scatter that
// Lin's Table 4.2 SRT names, run alone (the host computes what hybridsort's bucketcount and
// bucketprefixoffset kernels would have left in memory). Rodinia's constants: 1,024 divisions,
// one warp per CTA (32 threads) and 128 elements per thread (BUCKET_BAND), so a CTA owns 4,096
// elements, taken with a grid stride (element e belongs to CTA (e mod (32 * grid)) / 32).
//   - The CTA's 1,024 write pointers go to shared memory (4 KB, volatile): the bucket's float4-
//     aligned start (starts[b]) plus the elements of bucket b in earlier CTAs (prefix[cta][b]).
//   - Per element: the key and its packed index (slot << 10 | bucket) are read coalesced; the
//     key is written to pointer[bucket] + slot, a scattered 4-byte store (a warp's 32 stores go
//     to up to 32 buckets). As in Rodinia, the pointer is read from the volatile shared array a
//     second time for a value nothing uses (Rodinia's `test`; volatile, so the load stays).
// No __launch_bounds__ (Rodinia has none). Idempotent: it writes only `out`.
#define SRT_DIV 1024
#define SRT_LOG_DIV 10
#define SRT_WARP_LOG 5

extern "C" __global__ void srt_bucketsort_rod(const float *keys, const int *packed, float *out,
                                              int n, const unsigned *prefix,
                                              const unsigned *starts)
{
    volatile __shared__ unsigned ptr[SRT_DIV];
    const int cta_base = blockIdx.x * SRT_DIV;
    const int warp_base = (threadIdx.x >> SRT_WARP_LOG) * SRT_DIV;
    const int stride = blockDim.x * gridDim.x;
    for (int b = threadIdx.x; b < SRT_DIV; b += blockDim.x)
        ptr[b] = starts[b & (SRT_DIV - 1)] + prefix[cta_base + b];
    __syncthreads();
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
        float key = keys[e];
        int p = packed[e];
        int b = warp_base + (p & (SRT_DIV - 1));
        out[ptr[b] + (p >> SRT_LOG_DIV)] = key;
        unsigned unused = ptr[b] + (p >> SRT_LOG_DIV);
        (void)unused;
    }
}

// srt_bucketcount_rod (variant bucketcount_rod_ccbp; docs/blocks/ccbp.md "Session 25"): the form of
// Rodinia hybridsort's `bucketcount` kernel alone, the other candidate for Lin's SRT. The same
// grid, CTA and grid stride as srt_bucketsort_rod; 4 KB of volatile shared counters, one per
// bucket (one warp per CTA). Per key: a binary search of the 1,024 pivots from index 511 in 9
// halving steps plus a last compare, 10 pivot reads (Rodinia reads them through a texture; here
// through the read-only path, ld.global.nc, as Heddle has no texture unit); then a slot from the
// warp-synchronous retry loop on the bucket's counter: each lane writes its lane tag in the top
// 5 bits with the count + 1 below, reads it back and retries until its own write survived; the
// packed index (slot << 10) + bucket is written. At the end the CTA's 1,024 counts go to
// counts[cta][*]. Idempotent: it reads keys and pivots and writes packed and counts.
#ifdef SRT_COUNT
#define SRT_COUNT_MASK 0x07FFFFFFu

extern "C" __global__ void srt_bucketcount_rod(const float *keys, int *packed,
                                               unsigned *counts, int n,
                                               const float *__restrict__ pivots)
{
    volatile __shared__ unsigned cnt[SRT_DIV];
    const unsigned tag = threadIdx.x << (32 - SRT_WARP_LOG);
    const int warp_base = (threadIdx.x >> SRT_WARP_LOG) * SRT_DIV;
    const int stride = blockDim.x * gridDim.x;
    for (int b = threadIdx.x; b < SRT_DIV; b += blockDim.x)
        cnt[b] = 0;
    __syncthreads();
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
        float key = keys[e];
        int at = SRT_DIV / 2 - 1, step = SRT_DIV / 4;
        float piv = __ldg(&pivots[at]);
        while (step >= 1) {
            at = key < piv ? at - step : at + step;
            piv = __ldg(&pivots[at]);
            step >>= 1;
        }
        at = key < piv ? at : at + 1;
        volatile unsigned *c = cnt + warp_base + at;
        unsigned mine;
        do {
            mine = tag | ((*c & SRT_COUNT_MASK) + 1);
            *c = mine;
        } while (*c != mine);
        packed[e] = (int)(((mine & SRT_COUNT_MASK) - 1) << SRT_LOG_DIV) + at;
    }
    __syncthreads();
    for (int b = threadIdx.x; b < SRT_DIV; b += blockDim.x)
        counts[blockIdx.x * SRT_DIV + b] = cnt[b] & SRT_COUNT_MASK;
}
#endif // SRT_COUNT
#endif // SRT_RODINIA
