// SPDX-License-Identifier: MIT
// bitonic.cu - bitonic sort of key/value pairs (unsigned keys), the CUDA SDK sortingNetworks
// scheme (Gong thesis Tables 4.2, 5.3 and 6.2 "BS", Table 5.1 "BI": not memory-intensive,
// locality hint 3).
//
// The network for n = 2^m elements: for each stage size k = 2, 4, ..., n and each stride
// j = k/2, ..., 1, every element i whose partner i + j has bit j clear (i & j == 0) is compared
// with it and the pair ordered ascending when (i & k) == 0, descending otherwise; after stage n
// the array is sorted ascending. Three kernels split it at the CTA's chunk of BS_CHUNK elements:
//   bitonic_sort_shared: one CTA of BS_CHUNK/2 threads per chunk copies the chunk from src into
//     shared memory, runs every stage k <= BS_CHUNK there (one barrier per stride) and writes it
//     to dst (out of place);
//   bitonic_merge_global: one compare-exchange per thread for a stride j >= BS_CHUNK of stage k
//     (the pairs span chunks), in place in global memory;
//   bitonic_merge_shared: the strides j < BS_CHUNK of stage k > BS_CHUNK, a chunk per CTA in
//     shared memory, in place.
// Each thread owns the pair whose lower index is i = 2t - (t & (j - 1)).
//
// Not idempotent: the merge kernels compare-exchange in place; a thread re-run after storing one
// element of its pair but not the other would see a duplicate and lose the other key.

#define BS_CHUNK 1024 // elements per CTA in the shared-memory kernels; must match bitonic.c

__device__ __forceinline__ void bs_order(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb,
                                         bool ascending)
{
    if ((ka > kb) == ascending) {
        unsigned t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
}

extern "C" __global__ void __launch_bounds__(BS_CHUNK / 2)
    bitonic_sort_shared(const unsigned *__restrict__ src_k, const unsigned *__restrict__ src_v,
                        unsigned *__restrict__ dst_k, unsigned *__restrict__ dst_v)
{
    __shared__ unsigned sk[BS_CHUNK], sv[BS_CHUNK];
    const unsigned base = blockIdx.x * BS_CHUNK, t = threadIdx.x;
    sk[t] = src_k[base + t];
    sv[t] = src_v[base + t];
    sk[t + BS_CHUNK / 2] = src_k[base + t + BS_CHUNK / 2];
    sv[t + BS_CHUNK / 2] = src_v[base + t + BS_CHUNK / 2];
    for (unsigned k = 2; k <= BS_CHUNK; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            unsigned i = 2 * t - (t & (j - 1));
            bs_order(sk[i], sv[i], sk[i + j], sv[i + j], ((base + i) & k) == 0);
        }
    }
    __syncthreads();
    dst_k[base + t] = sk[t];
    dst_v[base + t] = sv[t];
    dst_k[base + t + BS_CHUNK / 2] = sk[t + BS_CHUNK / 2];
    dst_v[base + t + BS_CHUNK / 2] = sv[t + BS_CHUNK / 2];
}

extern "C" __global__ void bitonic_merge_global(unsigned *__restrict__ keys,
                                                unsigned *__restrict__ vals, unsigned n,
                                                unsigned k, unsigned j)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n / 2)
        return;
    unsigned i = 2 * t - (t & (j - 1));
    unsigned ka = keys[i], kb = keys[i + j], va = vals[i], vb = vals[i + j];
    bool ascending = (i & k) == 0;
    if ((ka > kb) == ascending) {
        keys[i] = kb;
        keys[i + j] = ka;
        vals[i] = vb;
        vals[i + j] = va;
    }
}

extern "C" __global__ void __launch_bounds__(BS_CHUNK / 2)
    bitonic_merge_shared(unsigned *__restrict__ keys, unsigned *__restrict__ vals, unsigned k)
{
    __shared__ unsigned sk[BS_CHUNK], sv[BS_CHUNK];
    const unsigned base = blockIdx.x * BS_CHUNK, t = threadIdx.x;
    sk[t] = keys[base + t];
    sv[t] = vals[base + t];
    sk[t + BS_CHUNK / 2] = keys[base + t + BS_CHUNK / 2];
    sv[t + BS_CHUNK / 2] = vals[base + t + BS_CHUNK / 2];
    const bool ascending = (base & k) == 0; // the whole chunk lies in one half of a k-block
    for (unsigned j = BS_CHUNK / 2; j > 0; j >>= 1) {
        __syncthreads();
        unsigned i = 2 * t - (t & (j - 1));
        bs_order(sk[i], sv[i], sk[i + j], sv[i + j], ascending);
    }
    __syncthreads();
    keys[base + t] = sk[t];
    vals[base + t] = sv[t];
    keys[base + t + BS_CHUNK / 2] = sk[t + BS_CHUNK / 2];
    vals[base + t + BS_CHUNK / 2] = sv[t + BS_CHUNK / 2];
}
