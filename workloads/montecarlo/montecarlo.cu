// SPDX-License-Identifier: MIT
// montecarlo.cu - Monte Carlo pricing of European call options, one CTA per option (SDK-like).
//
// Each thread owns a xorshift32 generator seeded from a hash of (seed, option, thread), so the
// random stream depends only on the launch shape, never on scheduling. Thread t simulates the
// paths t, t + blockDim.x, ...: two uniforms -> one standard normal z (Box-Muller, cosine
// branch), terminal price S exp((r - sigma^2/2) T + sigma sqrt(T) z), payoff max(S_T - X, 0).
// It accumulates the payoff and its square; the CTA then reduces both in shared memory by a
// barrier-separated tree (blockDim.x a power of two, <= MC_MAX_THREADS) and thread 0 writes the
// discounted mean and the discounted second moment of the option.

#ifndef MC_MAX_THREADS
#define MC_MAX_THREADS 256
#endif

__device__ __forceinline__ unsigned mc_hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ __forceinline__ unsigned mc_next(unsigned *s)
{
    unsigned x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

extern "C" __global__ void __launch_bounds__(MC_MAX_THREADS)
mc_price(const float *__restrict__ spot, const float *__restrict__ strike,
         const float *__restrict__ years, float rate, float vol, int npaths, unsigned seed,
         float *__restrict__ price, float *__restrict__ moment2)
{
    __shared__ float s_sum[MC_MAX_THREADS];
    __shared__ float s_sq[MC_MAX_THREADS];
    const int opt = blockIdx.x;
    const float S = spot[opt], X = strike[opt], T = years[opt];
    const float drift = (rate - 0.5f * vol * vol) * T;
    const float diffusion = vol * sqrtf(T);
    unsigned state = mc_hash(seed ^ mc_hash((unsigned)opt * 0x9e3779b9u + threadIdx.x));
    if (state == 0)
        state = 0x6d2b79f5u; // xorshift must not start at 0

    float sum = 0.0f, sq = 0.0f;
    for (int p = threadIdx.x; p < npaths; p += blockDim.x) {
        // u1 in (0, 1], u2 in [0, 1): 24-bit fractions, exact in float.
        float u1 = (float)((mc_next(&state) >> 8) + 1) * (1.0f / 16777216.0f);
        float u2 = (float)(mc_next(&state) >> 8) * (1.0f / 16777216.0f);
        // cos(2 pi (u2 - 1/2)) = -cos(2 pi u2): same distribution, argument kept in [-pi, pi).
        float z = sqrtf(-2.0f * __logf(u1)) * __cosf(6.2831853f * (u2 - 0.5f));
        float st = S * __expf(drift + diffusion * z);
        float pay = fmaxf(st - X, 0.0f);
        sum += pay;
        sq += pay * pay;
    }
    s_sum[threadIdx.x] = sum;
    s_sq[threadIdx.x] = sq;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) {
            s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
            s_sq[threadIdx.x] += s_sq[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        float disc = __expf(-rate * T);
        price[opt] = disc * s_sum[0] / (float)npaths;
        moment2[opt] = disc * disc * s_sq[0] / (float)npaths;
    }
}
