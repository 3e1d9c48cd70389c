// SPDX-License-Identifier: MIT
// haar1d.cu - full 1-D Haar wavelet decomposition of a signal of N = 2^L floats (CUDA SDK
// dwtHaar1D-like; the DH of Gong Table 5.1).
//
// Level j (1 .. L) maps the 2^(L-j+1) approximation coefficients of level j-1 (level 0 = the
// signal) pairwise to a_i = (x_2i + x_2i+1) c and d_i = (x_2i - x_2i+1) c, c = 1/sqrt(2) rounded
// to float. Output layout (Mallat): out[0] = the last approximation, out[N >> j + i] = detail i of
// level j.
//
// haar_levels: a CTA of HAAR_TB threads (256) takes a chunk of `chunk` = 2 blockDim.x consecutive
// coefficients of level `base` (chunk <= 2 HAAR_TB, a power of two) into shared memory and runs
// the log2(chunk) levels base+1 .. base+log2(chunk) on it: at each level the active threads read
// their pair, write the detail to `out`, wait at a barrier, write the approximation to shared
// memory and wait again; the chunk's last approximation goes to approx[blockIdx.x]. The host
// launches it again on those approximations until one is left (written to out[0]).
//
// Idempotent: yes. A launch reads `in` (the signal or the previous launch's approximations) and
// writes only its chunk's details and its own approx element; no launch writes its own input.

#ifndef HAAR_TB
#define HAAR_TB 256
#endif

extern "C" __global__ void __launch_bounds__(HAAR_TB)
haar_levels(const float *__restrict__ in, float *__restrict__ out, float *__restrict__ approx,
            int base, int log2n)
{
    __shared__ float s[2 * HAAR_TB];
    const int t = threadIdx.x, chunk = 2 * blockDim.x;
    const float c = 0.70710678118654752f;
    const float *src = in + (size_t)blockIdx.x * chunk;
    s[t] = src[t];
    s[t + blockDim.x] = src[t + blockDim.x];
    __syncthreads();
    int level = base + 1;
    for (int active = blockDim.x; active > 0; active >>= 1, level++) {
        float a = 0.0f;
        if (t < active) {
            float x = s[2 * t], y = s[2 * t + 1];
            a = (x + y) * c;
            // detail i of this level: the CTA's block of `active` coefficients, then i = t
            out[((size_t)1 << (log2n - level)) + (size_t)blockIdx.x * active + t] = (x - y) * c;
        }
        __syncthreads();
        if (t < active)
            s[t] = a;
        __syncthreads();
    }
    if (t == 0)
        approx[blockIdx.x] = s[0];
}
