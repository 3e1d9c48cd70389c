// SPDX-License-Identifier: MIT
// fdtd2d.cu - 2-D finite-difference time-domain electromagnetics (Polybench FDTD-2D; Lin thesis
// ch.3 Table 3.2 "FDTD_1, FDTD_2", 2048x2048 nodes; ch.4 Table 4.2 "FTD", a DRAM-bandwidth-
// intensive (DBI) kernel).
//
// Three field arrays of nx x ny floats, ey, ex and hz (row-major, row i, column j). One time step
// t is three launches over the whole grid, one thread per node, 32x8 CTAs (Polybench's shape):
//   fdtd_step1 (ey): row 0 takes the source value fict[t]; elsewhere
//                    ey[i][j] -= 0.5 * (hz[i][j] - hz[i-1][j])
//   fdtd_step2 (ex): column 0 is left as it is; elsewhere
//                    ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j-1])
//   fdtd_step3 (hz): except the last row and column,
//                    hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
// Each update is written as one fmaf of the difference (as nvcc would contract it), so the CPU
// reference replays the same float operations bit for bit.
//
// Not idempotent: every kernel updates its field in place (read, modify, write the same element),
// so a thread re-run after it stored would apply its update twice.

extern "C" __global__ void fdtd_step1(float *__restrict__ ey, const float *__restrict__ hz,
                                      const float *__restrict__ fict, int t, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    int k = i * ny + j;
    if (i == 0)
        ey[k] = fict[t];
    else
        ey[k] = fmaf(-0.5f, hz[k] - hz[k - ny], ey[k]);
}

extern "C" __global__ void fdtd_step2(float *__restrict__ ex, const float *__restrict__ hz, int nx,
                                      int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny || j == 0)
        return;
    int k = i * ny + j;
    ex[k] = fmaf(-0.5f, hz[k] - hz[k - 1], ex[k]);
}

extern "C" __global__ void fdtd_step3(float *__restrict__ hz, const float *__restrict__ ex,
                                      const float *__restrict__ ey, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx - 1 || j >= ny - 1)
        return;
    int k = i * ny + j;
    float curl = ex[k + 1] - ex[k] + ey[k + ny] - ey[k];
    hz[k] = fmaf(-0.7f, curl, hz[k]);
}
