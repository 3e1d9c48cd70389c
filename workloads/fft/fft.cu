// SPDX-License-Identifier: MIT
// fft.cu - batched complex single-precision FFTs of length N = 2^FFT_LOG2N (default 1024),
// radix-2 decimation in time, one signal per CTA in shared memory (the FFT of Gong Table 5.1, a
// non-memory-intensive kernel there).
//
//     X[k] = sum_j x[j] exp(-2 pi i j k / N)
//
// fft_radix2: a CTA of N/2 threads loads its signal into shared memory in bit-reversed order
// (__brev), then runs log2 N butterfly stages m = 2, 4, ..., N: thread t takes the pair
// i0 = (t / (m/2)) m + j, i1 = i0 + m/2 with j = t mod m/2, multiplies x[i1] by the twiddle
// w = exp(-pi i j / (m/2)) (sincospif of the exact dyadic -j/(m/2)) and writes x[i0] + w x[i1],
// x[i0] - w x[i1] back; one barrier per stage (the pairs of a stage are disjoint). The CTA then
// stores the spectrum in natural order.
//
// Idempotent: yes. A CTA reads its input signal and writes its own output spectrum (a separate
// array); shared memory is rebuilt from the input on a restart.

#ifndef FFT_LOG2N
#define FFT_LOG2N 10
#endif
#define FFT_N (1 << FFT_LOG2N)

extern "C" __global__ void __launch_bounds__(FFT_N / 2)
fft_radix2(const float2 *__restrict__ x, float2 *__restrict__ y)
{
    __shared__ float2 s[FFT_N];
    const unsigned t = threadIdx.x;
    const float2 *src = x + (size_t)blockIdx.x * FFT_N;
    s[__brev(t) >> (32 - FFT_LOG2N)] = src[t];
    s[__brev(t + FFT_N / 2) >> (32 - FFT_LOG2N)] = src[t + FFT_N / 2];
    __syncthreads();
    for (unsigned half = 1; half < FFT_N; half <<= 1) {
        const unsigned j = t & (half - 1);
        const unsigned i0 = ((t - j) << 1) + j, i1 = i0 + half;
        float sn, cs;
        sincospif(-(float)j / (float)half, &sn, &cs);
        const float2 a = s[i0], b = s[i1];
        const float br = b.x * cs - b.y * sn, bi = b.x * sn + b.y * cs;
        s[i0] = make_float2(a.x + br, a.y + bi);
        s[i1] = make_float2(a.x - br, a.y - bi);
        __syncthreads();
    }
    float2 *dst = y + (size_t)blockIdx.x * FFT_N;
    dst[t] = s[t];
    dst[t + FFT_N / 2] = s[t + FFT_N / 2];
}
