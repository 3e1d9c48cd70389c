// SPDX-License-Identifier: MIT
// spill.cu - register pressure beyond the register file: 251 float values live at once per
// thread (the robustness issue's reproducer, issue 17), so a compiler for a 63-register target
// (Fermi) must spill most of them to local memory.
//
// Each thread loads SPILL_LIVE values of its column (coalesced: element k of thread i is
// in[k * n + i]), waits at a barrier (the loads cannot sink past it, so every value is live
// across it), then folds them in the reverse order, acc = acc * 0.5 + v[k] (the halving is exact,
// so a fused multiply-add rounds as the separate operations do), and writes one result. Every
// thread writes only its own element from inputs the kernel never writes: idempotent.

#ifndef SPILL_LIVE
#define SPILL_LIVE 251
#endif

// `in` is neither const nor __restrict__: the loads are coherent (ld.global, not ld.global.nc),
// so neither nvcc nor ptxas may move them past the barrier.
extern "C" __global__ void spill_live(float *in, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = i < n ? i : n - 1; /* the last, partial block reads a valid column */
    float v[SPILL_LIVE];
#pragma unroll
    for (int k = 0; k < SPILL_LIVE; k++)
        v[k] = in[k * n + j];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = SPILL_LIVE - 1; k >= 0; k--)
        acc = acc * 0.5f + v[k];
    if (i < n)
        out[i] = acc;
}
