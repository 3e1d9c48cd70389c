// SPDX-License-Identifier: MIT
// dct8x8.cu - 8x8 two-dimensional DCT-II and its inverse, per image block (SDK-like).
//
// With the orthonormal 8-point DCT matrix C (c_dct, __constant__, C[u][x] = a(u)
// cos((2x + 1) u pi / 16), a(0) = sqrt(1/8), a(u > 0) = sqrt(2/8)), the forward transform of a
// block B is C B C^T and the inverse C^T F C. A CTA of 32 x 8 threads handles four horizontally
// adjacent 8x8 blocks (a 32 x 8 pixel strip) with one coefficient per thread:
//   phase 1  load the strip into shared memory;                       barrier
//   phase 2  row transform: thread (tx, ty) -> coefficient tx % 8 of row ty of block tx / 8;
//                                                                     barrier
//   phase 3  column transform of the row results, store to global memory.
// Image width and height must be multiples of 8; a partial last strip is guarded.
//
// Resource-specification variants (ptx.flags, README): DCT_BX (strip width, a multiple of 8:
// 8 to 128 gives 64 to 1024 threads per CTA and scales the shared memory) and MAXREG (register
// cap, __maxnreg__, which replaces the launch bounds: nvcc accepts only one of them).

#ifndef DCT_BX
#define DCT_BX 32
#endif
#define DCT_BY 8
#ifdef MAXREG
#define DCT_BOUNDS __maxnreg__(MAXREG)
#else
#define DCT_BOUNDS __launch_bounds__(DCT_BX *DCT_BY)
#endif

__constant__ float c_dct[64];

// dir 0: forward (coefficient k = sum_x C[k][x] v[x]); dir 1: inverse (sum_u C[u][k] v[u]).
template <int DIR>
__device__ __forceinline__ void dct_strip(const float *__restrict__ in, float *__restrict__ out,
                                          int w, int h)
{
    __shared__ float pix[DCT_BY][DCT_BX];
    __shared__ float rows[DCT_BY][DCT_BX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * DCT_BX + tx;
    const int y = blockIdx.y * DCT_BY + ty;
    const bool inside = x < w && y < h;
    pix[ty][tx] = inside ? in[(size_t)y * w + x] : 0.0f;
    __syncthreads();

    const int k = tx & 7, b = tx & ~7;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 8; i++)
        s += (DIR == 0 ? c_dct[k * 8 + i] : c_dct[i * 8 + k]) * pix[ty][b + i];
    rows[ty][tx] = s;
    __syncthreads();

    float t = 0.0f;
#pragma unroll
    for (int i = 0; i < 8; i++)
        t += (DIR == 0 ? c_dct[ty * 8 + i] : c_dct[i * 8 + ty]) * rows[i][tx];
    if (inside)
        out[(size_t)y * w + x] = t;
}

extern "C" __global__ void DCT_BOUNDS
dct8x8_forward(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    dct_strip<0>(in, out, w, h);
}

extern "C" __global__ void DCT_BOUNDS
dct8x8_inverse(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    dct_strip<1>(in, out, w, h);
}
