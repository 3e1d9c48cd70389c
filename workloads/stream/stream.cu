// SPDX-License-Identifier: MIT
// stream.cu - the four STREAM bandwidth kernels (McCalpin's STREAM; the CUDA form follows the
// usual GPU ports): copy c = a, scale b = s*c, add c = a + b, triad a = b + s*c, on float arrays,
// and a fifth, read-dominated one, dot: one partial sum of a[i] * b[i] per CTA (the memory
// traffic of STREAM's read-only "sum"/dot-product kernels: two input streams, next to no writes).
//
// One float4 (four elements) per thread, a bounds check for the last, partial CTA, and the
// n % 4 leftover elements done with scalar accesses, one each, by the threads just past the
// last float4 (the grid covers n / 4 + n % 4 threads).
// Why one element per thread and float4: every warp instruction then moves 512 bytes (four
// 128-byte lines) and each thread issues its loads back to back and retires, so the CTA
// scheduler keeps every SM full of independent loads (the memory-level parallelism that
// bandwidth needs) with the fewest instructions per byte; a grid-stride loop would add a loop
// and serialize a thread's loads behind its previous iteration's store. The arrays are
// allocated by the driver with cudaMalloc-style alignment (at least 16 bytes), which float4
// accesses need.
//
// Loads: the main PTX reads through `const __restrict__` pointers, as such code is written, which
// nvcc turns into ld.global.nc (the read-only path; cached). With -DSTREAM_CG (variant stream_cg)
// every load goes through __ldcg(), which nvcc emits as ld.global.cg: cache at the L2 only, the
// L1-bypassing load that bandwidth benchmarks use on Fermi (nvcc -Xptxas -dlcm=cg).
//
// Every kernel reads only arrays it does not write and writes each element of its output once
// (dot: its CTA's partial), so re-running any CTA from its start gives the same memory
// (idempotent).

#ifdef STREAM_CG
#define STREAM_LD(p) __ldcg(p)
#else
#define STREAM_LD(p) (*(p))
#endif

// The leftover scalar elements [4 * n4, n): element 4 * n4 + k by thread n4 + k.
#define STREAM_TAIL(stmt)                                 \
    else if (i - n4 < (n & 3)) {                          \
        int j = 4 * n4 + (i - n4);                        \
        stmt;                                             \
    }

extern "C" __global__ void stream_copy(const float *__restrict__ a, float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n >> 2;
    if (i < n4) {
        float4 x = STREAM_LD(reinterpret_cast<const float4 *>(a) + i);
        reinterpret_cast<float4 *>(c)[i] = x;
    }
    STREAM_TAIL(c[j] = STREAM_LD(a + j))
}

extern "C" __global__ void stream_scale(const float *__restrict__ c, float *__restrict__ b,
                                        float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n >> 2;
    if (i < n4) {
        float4 x = STREAM_LD(reinterpret_cast<const float4 *>(c) + i);
        reinterpret_cast<float4 *>(b)[i] = make_float4(s * x.x, s * x.y, s * x.z, s * x.w);
    }
    STREAM_TAIL(b[j] = s * STREAM_LD(c + j))
}

extern "C" __global__ void stream_add(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n >> 2;
    if (i < n4) {
        float4 x = STREAM_LD(reinterpret_cast<const float4 *>(a) + i);
        float4 y = STREAM_LD(reinterpret_cast<const float4 *>(b) + i);
        reinterpret_cast<float4 *>(c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    STREAM_TAIL(c[j] = STREAM_LD(a + j) + STREAM_LD(b + j))
}

extern "C" __global__ void stream_triad(const float *__restrict__ b, const float *__restrict__ c,
                                        float *__restrict__ a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n >> 2;
    if (i < n4) {
        float4 x = STREAM_LD(reinterpret_cast<const float4 *>(b) + i);
        float4 y = STREAM_LD(reinterpret_cast<const float4 *>(c) + i);
        reinterpret_cast<float4 *>(a)[i] =
            make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
    STREAM_TAIL(a[j] = STREAM_LD(b + j) + s * STREAM_LD(c + j))
}

// dot: partial[blockIdx.x] = sum of a[i] * b[i] over the CTA's elements (its float4s, or its
// leftover scalars), reduced in registers (each thread's four products), across the warp with
// shuffles, then across the CTA's warps through shared memory and one more warp of shuffles.
// Every thread takes part in the barrier (threads past the end contribute 0). Writes: one float
// per CTA of 256 threads (1024 elements), 1/2048 of the bytes read. The driver sums the partials.
// Works for any blockDim.x that is a multiple of 32, up to 1024.
extern "C" __global__ void stream_dot(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ partial, int n)
{
    __shared__ float warp_sum[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n >> 2;
    float v = 0.0f;
    if (i < n4) {
        float4 x = STREAM_LD(reinterpret_cast<const float4 *>(a) + i);
        float4 y = STREAM_LD(reinterpret_cast<const float4 *>(b) + i);
        v = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    }
    STREAM_TAIL(v = STREAM_LD(a + j) * STREAM_LD(b + j))
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        warp_sum[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < (blockDim.x >> 5) ? warp_sum[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = v;
    }
}
