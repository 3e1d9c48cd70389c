// SPDX-License-Identifier: MIT
// cutcp.cu - cutoff Coulombic potential on a 3-D lattice (Parboil "cutcp"; Lin thesis ch.3
// Table 3.2 "CP").
//
// Every lattice point p = (i, j, k) * CP_H accumulates, over the atoms a within the cutoff
// distance CP_CUT, the smoothed potential q_a / r * (1 - r^2 / CP_CUT^2)^2 (the short-range part
// of a multilevel summation, as in Parboil). Atoms are presorted by the host into cubic bins of
// edge CP_BIN = 8 lattice spacings, CP_DEPTH slots per bin (float4 x, y, z, q; unused slots far
// away with q = 0). A CTA of 8 x 8 x 2 threads computes one 8 x 8 x 8 lattice region, which is
// exactly one bin; since CP_CUT = CP_BIN, only the 27 bins around it can hold atoms in range. The
// CTA copies those 27 bins (27 * CP_DEPTH atoms, bins outside the grid as empty slots) into shared
// memory once, then each thread sums over all of them for its 4 lattice points (z = tz + 2 m),
// sharing the x and y distance between them. The r^2 < cutoff^2 test makes the loop divergent; the
// inverse distance is rsqrtf (rsqrt.approx), hence the tolerance of cutcp.c.
//
// Idempotent: a CTA reads the bins and writes only its own lattice points.

#define CP_BIN 8            // lattice points per bin edge = region edge; must match cutcp.c
#define CP_DEPTH 8          // atom slots per bin
#define CP_NB (27 * CP_DEPTH) // atoms a CTA loads

extern "C" __global__ void __launch_bounds__(128)
    cutcp_lattice(const float4 *__restrict__ bins, float *__restrict__ lattice, int nx, int ny,
                  int nz, int nbx, int nby, int nbz, float h, float cut2, float inv_cut2)
{
    __shared__ float4 atoms[CP_NB];
    const int rx = blockIdx.x, ry = blockIdx.y, rz = blockIdx.z;
    const int tid = (threadIdx.z * 8 + threadIdx.y) * 8 + threadIdx.x;
    for (int k = tid; k < CP_NB; k += 128) {
        int nb = k / CP_DEPTH, slot = k % CP_DEPTH;
        int bx = rx + nb % 3 - 1, by = ry + (nb / 3) % 3 - 1, bz = rz + nb / 9 - 1;
        float4 a = make_float4(-1.0e4f, -1.0e4f, -1.0e4f, 0.0f);
        if (bx >= 0 && by >= 0 && bz >= 0 && bx < nbx && by < nby && bz < nbz)
            a = bins[((bz * nby + by) * nbx + bx) * CP_DEPTH + slot];
        atoms[k] = a;
    }
    __syncthreads();
    const int i = rx * CP_BIN + threadIdx.x, j = ry * CP_BIN + threadIdx.y;
    const int k0 = rz * CP_BIN + threadIdx.z;
    const float px = i * h, py = j * h;
    float e[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int n = 0; n < CP_NB; n++) {
        float4 a = atoms[n];
        float dx = a.x - px, dy = a.y - py;
        float dxy2 = dx * dx + dy * dy;
#pragma unroll
        for (int m = 0; m < 4; m++) {
            float dz = a.z - (k0 + 2 * m) * h;
            float r2 = dz * dz + dxy2;
            if (r2 < cut2) {
                float s = 1.0f - r2 * inv_cut2;
                e[m] += a.w * rsqrtf(r2) * s * s;
            }
        }
    }
    if (i >= nx || j >= ny)
        return;
#pragma unroll
    for (int m = 0; m < 4; m++) {
        int k = k0 + 2 * m;
        if (k < nz)
            lattice[((size_t)k * ny + j) * nx + i] = e[m];
    }
}
