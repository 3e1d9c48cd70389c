// SPDX-License-Identifier: MIT
// convsep.cu - separable 2-D convolution, a row pass then a column pass (SDK-like).
//
// out(x, y) = sum_k c[k + R] in(x + k, y) (rows), then the same along y (columns), with
// k in [-R, R], the taps in __constant__ memory and clamp-to-edge borders. Both passes stage a
// tile plus its R-wide halo in shared memory, wait at a barrier, and compute from there:
//   conv_rows: CTA (32, 4) covers 4 rows x 128 columns, each thread 4 outputs 32 apart;
//   conv_cols: CTA (32, 8) covers 32 rows x 32 columns, each thread 4 outputs 8 rows apart.
// Images are row-major floats of any width and height (partial tiles are guarded).

#define CONV_R 8
#define CONV_TAPS (2 * CONV_R + 1)
#define ROWS_BX 32
#define COLS_BX 32
/* Resource-specification variants (ptx.flags, README) override these: CTA heights (threads per
 * CTA), outputs per thread (registers per thread and tile size, so shared memory per CTA), and
 * MAXREG, a register cap (__maxnreg__, which replaces the launch bounds). */
#ifndef ROWS_BY
#define ROWS_BY 4
#endif
#ifndef ROWS_STEPS
#define ROWS_STEPS 4
#endif
#ifndef COLS_BY
#define COLS_BY 8
#endif
#ifndef COLS_STEPS
#define COLS_STEPS 4
#endif
#ifdef MAXREG
#define ROWS_BOUNDS __maxnreg__(MAXREG)
#define COLS_BOUNDS __maxnreg__(MAXREG)
#else
#define ROWS_BOUNDS __launch_bounds__(ROWS_BX *ROWS_BY)
#define COLS_BOUNDS __launch_bounds__(COLS_BX *COLS_BY)
#endif

__constant__ float c_taps[CONV_TAPS];

__device__ __forceinline__ int conv_clamp(int v, int n)
{
    return v < 0 ? 0 : (v >= n ? n - 1 : v);
}

extern "C" __global__ void ROWS_BOUNDS
conv_rows(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    const int tw = ROWS_BX * ROWS_STEPS; // tile width without halo
    __shared__ float tile[ROWS_BY][ROWS_BX * ROWS_STEPS + 2 * CONV_R];
    const int x0 = blockIdx.x * tw;
    const int y = conv_clamp(blockIdx.y * ROWS_BY + threadIdx.y, h);
    const float *row = in + (size_t)y * w;
    for (int i = threadIdx.x; i < tw + 2 * CONV_R; i += ROWS_BX)
        tile[threadIdx.y][i] = row[conv_clamp(x0 - CONV_R + i, w)];
    __syncthreads();
    const int yo = blockIdx.y * ROWS_BY + threadIdx.y;
#pragma unroll
    for (int s = 0; s < ROWS_STEPS; s++) {
        int lx = threadIdx.x + s * ROWS_BX;
        float sum = 0.0f;
#pragma unroll
        for (int k = -CONV_R; k <= CONV_R; k++)
            sum += c_taps[k + CONV_R] * tile[threadIdx.y][lx + CONV_R + k];
        if (x0 + lx < w && yo < h)
            out[(size_t)yo * w + x0 + lx] = sum;
    }
}

extern "C" __global__ void COLS_BOUNDS
conv_cols(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    const int th = COLS_BY * COLS_STEPS; // tile height without halo
    __shared__ float tile[COLS_BY * COLS_STEPS + 2 * CONV_R][COLS_BX];
    const int x = conv_clamp(blockIdx.x * COLS_BX + threadIdx.x, w);
    const int y0 = blockIdx.y * th;
    for (int i = threadIdx.y; i < th + 2 * CONV_R; i += COLS_BY)
        tile[i][threadIdx.x] = in[(size_t)conv_clamp(y0 - CONV_R + i, h) * w + x];
    __syncthreads();
    const int xo = blockIdx.x * COLS_BX + threadIdx.x;
#pragma unroll
    for (int s = 0; s < COLS_STEPS; s++) {
        int ly = threadIdx.y + s * COLS_BY;
        float sum = 0.0f;
#pragma unroll
        for (int k = -CONV_R; k <= CONV_R; k++)
            sum += c_taps[k + CONV_R] * tile[ly + CONV_R + k][threadIdx.x];
        if (xo < w && y0 + ly < h)
            out[(size_t)(y0 + ly) * w + xo] = sum;
    }
}
