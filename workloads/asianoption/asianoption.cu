// SPDX-License-Identifier: MIT
// asianoption.cu - Monte-Carlo price of one arithmetic-average Asian call (CUDA SDK
// MC_SingleAsianOptionP-like; EXPARS Table 3 SING1 = initRNG, SING2 = generatePaths).
//
// Three kernels, one thread per generator, nthreads generators:
// - asian_init_rng (initRNG): XORWOW generator per thread, jumped ahead to the thread's
//   subsequence (tid * 2^40 steps, curand_init-style) with the sliced GF(2) jump tables built by
//   the host (estimatepi/xorwow_jump.h describes generator and tables; estimatepi.cu has the same
//   device code). Writes the state (6 words per thread).
// - asian_gen_paths (generatePaths): thread tid simulates the paths i = tid, tid + nthreads, ...
//   < nsims, each of `steps` (even) geometric-Brownian time steps s *= exp(drift + diffusion z),
//   the normals z from Box-Muller pairs: u1 in (0, 1], u2 in [0, 1) (top 24 bits of one output
//   each), r = sqrt(-2 log u1), (z0, z1) = r (cos 2 pi u2, sin 2 pi u2) via sincospif. It stores
//   path point t of path i at paths[t * nsims + i] (coalesced across threads). The generator
//   state is not written back.
// - asian_value (computeValue): thread tid averages the points of its paths, takes the payoff
//   max(avg - strike, 0), sums its payoffs; the CTA folds its threads' sums in a shared-memory
//   tree and thread 0 writes the CTA's sum (the host discounts and averages).
//
// Idempotent: yes. Each kernel reads only inputs of the launch (tables, states, paths) and writes
// only its own thread's state, its own paths' points or its own CTA's sum.

#ifndef ASIAN_TB
#define ASIAN_TB 256
#endif
#define XW_SLICES 40 // must match estimatepi/xorwow_jump.h
#define XW_WEYL 362437u

// MAXREG: a register cap on asian_init_rng only (variant asianoption_r24: EXPARS's SING1 has 24
// registers, SING2 = asian_gen_paths 28, which ptxas gives uncapped). It replaces that kernel's
// launch bounds (nvcc refuses both).
#define ASIAN_BOUNDS __launch_bounds__(ASIAN_TB)
#ifdef MAXREG
#define ASIAN_INIT_BOUNDS __maxnreg__(MAXREG)
#else
#define ASIAN_INIT_BOUNDS __launch_bounds__(ASIAN_TB)
#endif

struct asian_rng {
    unsigned x0, x1, x2, x3, x4, d;
};

__device__ __forceinline__ unsigned asian_next(asian_rng &r)
{
    unsigned t = r.x0 ^ (r.x0 >> 2);
    r.x0 = r.x1;
    r.x1 = r.x2;
    r.x2 = r.x3;
    r.x3 = r.x4;
    r.x4 = (r.x4 ^ (r.x4 << 4)) ^ (t ^ (t << 1));
    r.d += XW_WEYL;
    return r.x4 + r.d;
}

extern "C" __global__ void ASIAN_INIT_BOUNDS
asian_init_rng(const unsigned *__restrict__ jump, const unsigned *__restrict__ seed_state,
               unsigned *__restrict__ states, int nthreads)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nthreads)
        return;
    unsigned s[5];
    for (int w = 0; w < 5; w++)
        s[w] = seed_state[w];
    const unsigned d = seed_state[5];
    const unsigned *table = jump;
    for (unsigned sub = (unsigned)tid; sub != 0; sub >>= 1, table += XW_SLICES * 16 * 5) {
        if (!(sub & 1))
            continue;
        unsigned o0 = 0, o1 = 0, o2 = 0, o3 = 0, o4 = 0;
#pragma unroll
        for (int w = 0; w < 5; w++) {
            unsigned word = s[w];
            const unsigned *slice = table + w * 8 * 16 * 5;
#pragma unroll 1
            for (int k = 0; k < 8; k++, word >>= 4, slice += 16 * 5) {
                const unsigned *p = slice + (word & 15u) * 5;
                o0 ^= p[0];
                o1 ^= p[1];
                o2 ^= p[2];
                o3 ^= p[3];
                o4 ^= p[4];
            }
        }
        s[0] = o0;
        s[1] = o1;
        s[2] = o2;
        s[3] = o3;
        s[4] = o4;
    }
    unsigned *st = states + (size_t)tid * 6;
    for (int w = 0; w < 5; w++)
        st[w] = s[w];
    st[5] = d;
}

extern "C" __global__ void ASIAN_BOUNDS
asian_gen_paths(const unsigned *__restrict__ states, float *__restrict__ paths, int nthreads,
                int nsims, int steps, float spot, float drift, float diffusion)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nthreads)
        return;
    const unsigned *st = states + (size_t)tid * 6;
    asian_rng r = {st[0], st[1], st[2], st[3], st[4], st[5]};
    for (int i = tid; i < nsims; i += nthreads) {
        float s = spot;
        for (int t = 0; t < steps; t += 2) {
            float u1 = (float)((asian_next(r) >> 8) + 1) * (1.0f / 16777216.0f);
            float u2 = (float)(asian_next(r) >> 8) * (1.0f / 16777216.0f);
            float rad = sqrtf(-2.0f * logf(u1)), sn, cs;
            sincospif(2.0f * u2, &sn, &cs);
            s *= expf(drift + diffusion * (rad * cs));
            paths[(size_t)t * nsims + i] = s;
            s *= expf(drift + diffusion * (rad * sn));
            paths[(size_t)(t + 1) * nsims + i] = s;
        }
    }
}

extern "C" __global__ void ASIAN_BOUNDS
asian_value(const float *__restrict__ paths, float *__restrict__ sums, int nthreads, int nsims,
            int steps, float strike)
{
    __shared__ float s_sum[ASIAN_TB];
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float payoff = 0.0f;
    if (tid < nthreads) {
        for (int i = tid; i < nsims; i += nthreads) {
            float avg = 0.0f;
            for (int t = 0; t < steps; t++)
                avg += paths[(size_t)t * nsims + i];
            avg /= (float)steps;
            payoff += fmaxf(avg - strike, 0.0f);
        }
    }
    s_sum[threadIdx.x] = payoff;
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        __syncthreads();
        if ((int)threadIdx.x < half)
            s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = s_sum[0];
}
