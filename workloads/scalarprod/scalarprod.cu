// SPDX-License-Identifier: MIT
// scalarprod.cu - dot products of many vector pairs (CUDA SDK scalarProd-like; Zorua Table 3 SP,
// Gong Table 5.3 SP).
//
// One CTA works on one pair at a time (pairs blockIdx.x, blockIdx.x + gridDim.x, ...). The CTA
// keeps ACCUM_N partial sums in shared memory: accumulator i sums a[k] * b[k] over the elements
// k = i, i + ACCUM_N, i + 2 ACCUM_N, ... in that order (the CTA's threads take the accumulators
// i = threadIdx.x, threadIdx.x + blockDim.x, ...). A barrier-separated tree then folds the
// ACCUM_N partial sums (stride ACCUM_N/2, ACCUM_N/4, ..., 1) and thread 0 writes the pair's dot
// product. The summation order therefore depends on ACCUM_N only, never on the thread count, so
// the host reference replays it bit for bit.
//
// Knobs (ptx.flags, resource-specification variants): TB threads per CTA (launch bounds), ACCUM_N
// accumulators (4 ACCUM_N bytes of shared memory per CTA; a power of two >= TB).
//
// Idempotent: yes. A CTA reads a and b and writes only the results of its own pairs; the shared
// accumulators are rebuilt from scratch for every pair.

#ifndef TB
#define TB 256
#endif
#ifndef ACCUM_N
#define ACCUM_N 1024
#endif

extern "C" __global__ void
#ifdef MAXREG
__maxnreg__(MAXREG)
#else
__launch_bounds__(TB)
#endif
scalar_prod(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
            int pairs, int elements)
{
    __shared__ float acc[ACCUM_N];
    for (int pair = blockIdx.x; pair < pairs; pair += gridDim.x) {
        const float *pa = a + (size_t)pair * elements;
        const float *pb = b + (size_t)pair * elements;
        for (int i = threadIdx.x; i < ACCUM_N; i += blockDim.x) {
            float sum = 0.0f;
#pragma unroll 2
            for (int k = i; k < elements; k += ACCUM_N)
                sum += pa[k] * pb[k];
            acc[i] = sum;
        }
        for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int i = threadIdx.x; i < stride; i += blockDim.x)
                acc[i] += acc[i + stride];
        }
        if (threadIdx.x == 0)
            c[pair] = acc[0];
        __syncthreads(); // acc is rewritten for the next pair
    }
}
