// SPDX-License-Identifier: MIT
// vecadd.cu - element-wise vector addition, c[i] = a[i] + b[i].
//
// One thread per element, a bounds check for the last, partial block. The simplest streaming
// kernel: two coalesced loads and one coalesced store per thread, no reuse (memory-bound).
// Every thread writes only its own element from inputs the kernel never writes, so re-running
// any CTA from its start gives the same memory (idempotent).

extern "C" __global__ void vecadd(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
