// SPDX-License-Identifier: MIT
// stencil2d.cu - one Jacobi step of a 5-point 2-D stencil on a width x height grid.
//
// stencil5(in, out, width, height, c0, c1): out = c0 * centre + c1 * (north + south + west +
// east) for interior points; boundary points are copied unchanged (fixed boundary). One thread
// per point on a 2-D grid of 2-D CTAs, all accesses in global memory (memory-bound, the
// boundary threads diverge). The host ping-pongs two buffers for a few iterations.
//
// Idempotent: each launch reads `in` and writes only `out`, one element per thread.

extern "C" __global__ void stencil5(const float *__restrict__ in, float *__restrict__ out,
                                    int width, int height, float c0, float c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    float sum = in[i - width] + in[i + width] + in[i - 1] + in[i + 1];
    out[i] = c0 * in[i] + c1 * sum;
}
