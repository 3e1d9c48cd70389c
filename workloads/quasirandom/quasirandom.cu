// SPDX-License-Identifier: MIT
// quasirandom.cu - Sobol quasirandom points and their inverse normal CDF (CUDA SDK
// quasirandomGenerator-like; EXPARS Table 3 QUA = quasirandomGeneratorKernel).
//
// qrng_generate: point i of dimension d is the XOR of the direction numbers table[d][k] (31-bit
// integers, built by the host from primitive polynomials) over the set bits k of i + offset;
// out[d * n + i] = (x + 1) / 2^31 in (0, 1]. A CTA is QRNG_TBX x QRNG_DIMS threads (128 x 3 = 384
// = 12 warps, the SDK's and EXPARS's CTA), threadIdx.y the dimension; the threads stride over the
// points. The direction numbers are in constant memory (c_table), as in the SDK.
// qrng_inverse_cnd: z = Phi^-1(u) for every generated u by Moro's algorithm (a rational function
// in the centre, |u - 1/2| <= 0.42; a polynomial in log(-log r), r = min(u, 1 - u), in the tails).
//
// Idempotent: yes. qrng_generate reads only the table and writes each point once; qrng_inverse_cnd
// reads the points and writes a separate array.

#ifndef QRNG_TBX
#define QRNG_TBX 128 // threads per dimension in a CTA (the SDK's 128 x 3 = 384)
#endif

#define QRNG_DIMS 3 // must match quasirandom.c
#define QRNG_BITS 31

__constant__ unsigned c_table[QRNG_DIMS][QRNG_BITS];

// MAXREG: register cap on qrng_generate (variant quasirandom_r32); replaces its launch bounds.
#ifdef MAXREG
#define QRNG_BOUNDS __maxnreg__(MAXREG)
#else
#define QRNG_BOUNDS __launch_bounds__(QRNG_TBX * QRNG_DIMS)
#endif

extern "C" __global__ void QRNG_BOUNDS
qrng_generate(float *__restrict__ out, int n, unsigned offset)
{
    const int dim = threadIdx.y; // the SDK's block: QRNG_TBX threads x QRNG_DIMS dimensions
    const unsigned *table = c_table[dim];
    float *o = out + (size_t)dim * n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned x = 0, bits = (unsigned)i + offset;
        // Unrolled: nvcc hoists the 31 direction numbers out of the point loop into registers
        // (42 per thread; the variant quasirandom_r32 caps it at EXPARS's 32, without spills).
#pragma unroll
        for (int k = 0; k < QRNG_BITS; k++) {
            const unsigned v = table[k];
            x ^= ((bits >> k) & 1u) ? v : 0u;
        }
        o[i] = (float)(x + 1u) * (1.0f / 2147483648.0f);
    }
}

extern "C" __global__ void __launch_bounds__(128)
qrng_inverse_cnd(const float *__restrict__ u, float *__restrict__ z, int total)
{
    const float a0 = 2.50662823884f, a1 = -18.61500062529f, a2 = 41.39119773534f,
                a3 = -25.44106049637f;
    const float b0 = -8.47351093090f, b1 = 23.08336743743f, b2 = -21.06224101826f,
                b3 = 3.13082909833f;
    const float c0 = 0.3374754822726147f, c1 = 0.9761690190917186f, c2 = 0.1607979714918209f,
                c3 = 0.0276438810333863f, c4 = 0.0038405729373609f, c5 = 0.0003951896511919f,
                c6 = 0.0000321767881768f, c7 = 0.0000002888167364f, c8 = 0.0000003960315187f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += blockDim.x * gridDim.x) {
        float p = u[i], q = p - 0.5f, r;
        if (fabsf(q) <= 0.42f) {
            r = q * q;
            r = q * (((a3 * r + a2) * r + a1) * r + a0) / ((((b3 * r + b2) * r + b1) * r + b0) * r + 1.0f);
        } else {
            r = q > 0.0f ? 1.0f - p : p;
            r = logf(-logf(r));
            r = c0 + r * (c1 + r * (c2 + r * (c3 + r * (c4 + r * (c5 + r * (c6 + r * (c7 + r * c8)))))));
            if (q < 0.0f)
                r = -r;
        }
        z[i] = r;
    }
}
