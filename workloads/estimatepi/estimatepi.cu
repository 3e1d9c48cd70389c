// SPDX-License-Identifier: MIT
// estimatepi.cu - Monte-Carlo estimate of pi with per-thread XORWOW generators whose step is
// inline PTX (CUDA SDK MC_EstimatePiInlineP-like; EXPARS Table 3 EST = its initRNG kernel).
//
// Generator: Marsaglia's XORWOW (as curand's default): five 32-bit words x0..x4 and a Weyl
// counter d; a step is t = x0 ^ (x0 >> 2); x0..x3 = x1..x4; x4 = (x4 ^ (x4 << 4)) ^ (t ^ (t << 1));
// d += 362437; output x4 + d. The xorshift part is linear over GF(2), so jumping 2^k steps is a
// 160 x 160 bit matrix applied to the state.
//
// est_init_rng (initRNG): every thread starts from the same seeded state and jumps ahead by
// tid * 2^EST_SKIP_LOG2 steps (its subsequence, as curand_init(seed, tid, 0) does with 2^67):
// for each set bit b of tid it applies the jump matrix J_b = M^(2^(EST_SKIP_LOG2 + b)), read
// from a table in global memory in 4-bit slices (40 slices of the 160-bit state; per slice 16
// precomputed 5-word XOR patterns: out ^= table[b][slice][nibble]). The Weyl counter is not
// changed by such a jump (362437 * 2^k = 0 mod 2^32 for k >= 32). The state goes to global memory.
//
// est_count (computeValue): every thread loads its state and draws `points` points (x, y), each
// coordinate the top 24 bits of one output scaled to [0, 1); it counts x*x + y*y <= 1. The CTA
// sums its threads' counts (warp shuffles, then one word per warp in shared memory) and thread 0
// writes the CTA's count. The state is not written back (as in the SDK's kernel).
//
// Idempotent: yes. est_init_rng writes only its thread's state from read-only inputs; est_count
// reads the states and writes only its CTA's count.

#ifndef EST_TB
#define EST_TB 256
#endif
#define EST_SKIP_LOG2 40 // must match estimatepi.c
#define EST_SLICES 40    // 160 state bits / 4
#define EST_WEYL 362437u

// MAXREG (a register cap, variant estimatepi_r24) replaces the launch bounds: nvcc refuses both.
#ifdef MAXREG
#define EST_BOUNDS __maxnreg__(MAXREG)
#else
#define EST_BOUNDS __launch_bounds__(EST_TB)
#endif

// One XORWOW step in inline PTX; returns the output (x4 + d).
__device__ __forceinline__ unsigned est_next(unsigned &x0, unsigned &x1, unsigned &x2,
                                             unsigned &x3, unsigned &x4, unsigned &d)
{
    unsigned t, out;
    asm("{\n\t"
        ".reg .b32 a, b;\n\t"
        "shr.b32 a, %2, 2;\n\t"     // t = x0 ^ (x0 >> 2)
        "xor.b32 a, a, %2;\n\t"
        "shl.b32 b, a, 1;\n\t"      // a ^= a << 1
        "xor.b32 a, a, b;\n\t"
        "shl.b32 b, %3, 4;\n\t"     // x4 ^= x4 << 4
        "xor.b32 b, b, %3;\n\t"
        "xor.b32 %0, a, b;\n\t"     // new x4
        "add.u32 %4, %4, %5;\n\t"   // d += 362437
        "add.u32 %1, %0, %4;\n\t"   // output = x4 + d
        "}"
        : "=r"(t), "=r"(out), "+r"(x0), "+r"(x4), "+r"(d)
        : "n"(EST_WEYL));
    x0 = x1;
    x1 = x2;
    x2 = x3;
    x3 = x4;
    x4 = t;
    return out;
}

extern "C" __global__ void EST_BOUNDS
est_init_rng(const unsigned *__restrict__ jump, const unsigned *__restrict__ seed_state,
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
    for (unsigned sub = (unsigned)tid; sub != 0; sub >>= 1, table += EST_SLICES * 16 * 5) {
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

extern "C" __global__ void EST_BOUNDS
est_count(const unsigned *__restrict__ states, unsigned *__restrict__ counts, int nthreads,
          int points)
{
    __shared__ unsigned s_warp[EST_TB / 32];
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned inside = 0;
    if (tid < nthreads) {
        const unsigned *st = states + (size_t)tid * 6;
        unsigned x0 = st[0], x1 = st[1], x2 = st[2], x3 = st[3], x4 = st[4], d = st[5];
        for (int p = 0; p < points; p++) {
            float x = (float)(est_next(x0, x1, x2, x3, x4, d) >> 8) * (1.0f / 16777216.0f);
            float y = (float)(est_next(x0, x1, x2, x3, x4, d) >> 8) * (1.0f / 16777216.0f);
            inside += (x * x + y * y <= 1.0f) ? 1u : 0u;
        }
    }
    for (int off = 16; off > 0; off >>= 1)
        inside += __shfl_down_sync(0xffffffffu, inside, off);
    if ((threadIdx.x & 31) == 0)
        s_warp[threadIdx.x >> 5] = inside;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            total += s_warp[w];
        counts[blockIdx.x] = total;
    }
}
