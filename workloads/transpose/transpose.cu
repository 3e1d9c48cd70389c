// SPDX-License-Identifier: MIT
// transpose.cu - matrix transpose through a padded shared-memory tile (SDK-like).
//
// out (w x h) = in (h x w) transposed, 32-bit elements, row-major, any sizes. A CTA of 32 x 8
// threads moves one 32 x 32 tile: it reads four rows per thread with coalesced loads into
// tile[32][33], waits at a barrier, and writes the tile's columns as coalesced rows of the
// output. The extra column makes the column reads hit 32 different banks.

#define TR_TILE 32
#define TR_ROWS 8

extern "C" __global__ void __launch_bounds__(TR_TILE *TR_ROWS)
transpose_tiled(const unsigned *__restrict__ in, unsigned *__restrict__ out, int w, int h)
{
    __shared__ unsigned tile[TR_TILE][TR_TILE + 1];
    int x = blockIdx.x * TR_TILE + threadIdx.x; // column of `in`
    int y = blockIdx.y * TR_TILE + threadIdx.y; // row of `in`
#pragma unroll
    for (int j = 0; j < TR_TILE; j += TR_ROWS)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TR_TILE + threadIdx.x; // column of `out` (= row of `in`)
    y = blockIdx.x * TR_TILE + threadIdx.y; // row of `out`
#pragma unroll
    for (int j = 0; j < TR_TILE; j += TR_ROWS)
        if (x < h && y + j < w)
            out[(size_t)(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
