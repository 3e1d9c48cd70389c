// SPDX-License-Identifier: MIT
// stencil3d.cu - one Jacobi step of a 7-point 3-D stencil (Parboil "stencil", kernel
// block2D_hybrid_coarsen_x; Lin thesis ch.3 Table 3.2 "ST", compute- and DRAM-intensive in Fig
// 3.4, register-limited; EXPARS Table 3 "ST": 16 warps per CTA, no scratchpad, 28.2 registers).
//
// stencil7(in, out, nx, ny, nz, c0, c1): for every interior point
//   out = c1 * (in[z+1] + in[z-1] + in[y+1] + in[y-1] + in[x+1] + in[x-1]) - c0 * in
// summed in that order (the CPU reference replays it bit for bit), boundary points copied.
// Row-major in x (fastest), y, z. A CTA is HD_ST_BX x HD_ST_BY threads (32 x 16 = 512, the
// 16 warps of EXPARS's row) on a 2-D grid over x and y; each thread is coarsened over
// HD_ST_CX points in x (stride HD_ST_BX, so warps stay coalesced) and marches along z, keeping
// the point's z-1, z and z+1 values in registers (the "hybrid" register blocking of Parboil);
// the x and y neighbours come from global memory through the L1 (no shared memory: EXPARS
// lists 0 B of scratchpad per CTA).
//
// Idempotent: a launch reads `in` and writes only `out` (the host ping-pongs two buffers).

#ifndef HD_ST_BX
#define HD_ST_BX 32 // threads per CTA in x; must match stencil3d.c
#endif
#ifndef HD_ST_BY
#define HD_ST_BY 16 // threads per CTA in y
#endif
#ifndef HD_ST_CX
#define HD_ST_CX 2 // x points per thread (coarsening)
#endif

#ifdef MAXREG
#define ST_BOUNDS __maxnreg__(MAXREG)
#else
#define ST_BOUNDS __launch_bounds__(HD_ST_BX *HD_ST_BY)
#endif

extern "C" __global__ void ST_BOUNDS stencil7(const float *__restrict__ in,
                                              float *__restrict__ out, int nx, int ny, int nz,
                                              float c0, float c1)
{
    const int y = blockIdx.y * HD_ST_BY + threadIdx.y;
    const int x0 = blockIdx.x * (HD_ST_BX * HD_ST_CX) + threadIdx.x;
    if (y >= ny)
        return;
    const size_t plane = (size_t)nx * ny;
    const bool edge_y = y == 0 || y == ny - 1;
    float below[HD_ST_CX], here[HD_ST_CX], above[HD_ST_CX];
#pragma unroll
    for (int c = 0; c < HD_ST_CX; c++) {
        int x = x0 + c * HD_ST_BX;
        size_t k = (size_t)y * nx + x;
        if (x < nx) {
            below[c] = in[k];
            here[c] = in[k + plane];
            out[k] = below[c]; // z = 0 plane: boundary
        }
    }
    for (int z = 1; z < nz - 1; z++) {
#pragma unroll
        for (int c = 0; c < HD_ST_CX; c++) {
            int x = x0 + c * HD_ST_BX;
            if (x >= nx)
                continue;
            size_t k = (size_t)z * plane + (size_t)y * nx + x;
            above[c] = in[k + plane];
            float v;
            if (edge_y || x == 0 || x == nx - 1) {
                v = here[c];
            } else {
                float sum = above[c] + below[c];
                sum += in[k + nx];
                sum += in[k - nx];
                sum += in[k + 1];
                sum += in[k - 1];
                v = fmaf(c1, sum, -(c0 * here[c]));
            }
            out[k] = v;
            below[c] = here[c];
            here[c] = above[c];
        }
    }
#pragma unroll
    for (int c = 0; c < HD_ST_CX; c++) {
        int x = x0 + c * HD_ST_BX;
        if (x < nx && nz > 1)
            out[(size_t)(nz - 1) * plane + (size_t)y * nx + x] = here[c]; // z = nz-1 plane
    }
}
