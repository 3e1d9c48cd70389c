// SPDX-License-Identifier: MIT
// hotspot.cu - transient thermal simulation of a chip: explicit Euler steps of the heat equation on
// a rows x cols grid of cells, each with a power source and a path to the ambient.
//
// One step of one cell (N/S/E/W neighbours; a neighbour outside the chip is replaced by the cell
// itself, i.e. an insulated border):
//   T' = T + cp*P + cy*(N + S - 2T) + cx*(E + W - 2T) + cz*(amb - T)
//
// Pyramid tiling: a 16x16 CTA loads a 16x16 tile of temperature and power into shared memory and
// advances it `steps` time steps without touching global memory in between. After step k only the
// cells at least k+1 cells away from the tile border still have correct values (their inputs came
// from inside the tile), so each CTA writes only its inner (16-2*steps)^2 cells and neighbouring
// CTAs overlap by `steps` halo cells on every side. Three shared tiles: temperature, power, and the
// next temperature. The kernel reads `src` and writes `dst` (ping-pong), so it is idempotent.
//
// Resource-specification variants (ptx.flags, README): the tile is HD_HS_TX x HD_HS_TY cells
// (16 x 16 by default), one thread per cell, so threads and shared memory (three tiles) per CTA
// scale with it; each CTA writes (TX - 2 steps) x (TY - 2 steps) cells. MAXREG caps the registers
// per thread (__maxnreg__, PTX .maxnreg).

#ifndef HD_HS_TX
#define HD_HS_TX 16
#endif
#ifndef HD_HS_TY
#define HD_HS_TY 16
#endif
#ifdef MAXREG
#define HD_HS_REGS __maxnreg__(MAXREG)
#else
#define HD_HS_REGS
#endif

extern "C" __global__ void HD_HS_REGS hs_calculate_temp(const float *__restrict__ power,
                                                        const float *__restrict__ src,
                                                        float *__restrict__ dst, int rows,
                                                        int cols, int steps, float cp, float cx,
                                                        float cy, float cz, float amb)
{
    __shared__ float t_tile[HD_HS_TY][HD_HS_TX];
    __shared__ float p_tile[HD_HS_TY][HD_HS_TX];
    __shared__ float t_next[HD_HS_TY][HD_HS_TX];

    int tx = threadIdx.x, ty = threadIdx.y;
    int out_x = HD_HS_TX - 2 * steps;               // cells written per CTA and dimension
    int out_y = HD_HS_TY - 2 * steps;
    int gx = blockIdx.x * out_x - steps + tx;        // global column of this thread's cell
    int gy = blockIdx.y * out_y - steps + ty;        // global row
    bool inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    if (inside) {
        t_tile[ty][tx] = src[gy * cols + gx];
        p_tile[ty][tx] = power[gy * cols + gx];
    }
    __syncthreads();

    bool computed = false;
    for (int k = 0; k < steps; k++) {
        // Cells whose four neighbours are still valid after step k-1.
        computed = inside && tx >= k + 1 && tx <= HD_HS_TX - 2 - k && ty >= k + 1 &&
                   ty <= HD_HS_TY - 2 - k;
        if (computed) {
            float t = t_tile[ty][tx];
            float n = gy > 0 ? t_tile[ty - 1][tx] : t;
            float s = gy < rows - 1 ? t_tile[ty + 1][tx] : t;
            float w = gx > 0 ? t_tile[ty][tx - 1] : t;
            float e = gx < cols - 1 ? t_tile[ty][tx + 1] : t;
            t_next[ty][tx] = t + cp * p_tile[ty][tx] + cy * (n + s - 2.0f * t) +
                             cx * (e + w - 2.0f * t) + cz * (amb - t);
        }
        __syncthreads();
        if (computed)
            t_tile[ty][tx] = t_next[ty][tx];
        __syncthreads();
    }

    if (inside && tx >= steps && tx < HD_HS_TX - steps && ty >= steps &&
        ty < HD_HS_TY - steps)
        dst[gy * cols + gx] = t_tile[ty][tx];
}
