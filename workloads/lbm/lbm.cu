// SPDX-License-Identifier: MIT
// lbm.cu - lattice Boltzmann, D3Q19 BGK, one fused stream+collide step per launch (Parboil-like).
//
// Distributions are stored structure-of-arrays: f[q * ncells + cell], cell = (z*ny + y)*nx + x.
// Each thread owns one cell and pulls: for every direction q it reads f_q from the upstream
// neighbour (cell - c_q, periodic in all three dimensions) of the source buffer, then
//   - solid cell (flags != 0): full-way bounce-back, f'_q = f_opp(q);
//   - fluid cell: BGK relaxation towards the second-order equilibrium
//       feq_q = w_q rho (1 + 3 c.u + 4.5 (c.u)^2 - 1.5 u.u),  f'_q = f_q - omega (f_q - feq_q),
// and writes the 19 results to its own cell of the destination buffer. The host swaps the two
// buffers between launches (ping-pong), so a launch never reads what it writes.
//
// Direction order: 0 rest; 1..6 the axis neighbours (+x,-x,+y,-y,+z,-z); 7..18 the 12 edge
// diagonals, each followed by its opposite, so opp(q) = q + 1 for odd q and q - 1 for even q.

#define LBM_Q 19

__device__ __forceinline__ int lbm_wrap(int v, int n)
{
    return v < 0 ? v + n : (v >= n ? v - n : v);
}

// Knob (EXPARS Table 3 variant lbm_r36, ptx.flags): MAXREG caps the registers per thread of
// lbm_stream_collide (__maxnreg__); undefined in the base, whose PTX it leaves unchanged.
#ifdef MAXREG
#define LBM_REGS __maxnreg__(MAXREG)
#else
#define LBM_REGS
#endif

extern "C" __global__ void LBM_REGS lbm_stream_collide(const float *__restrict__ src,
                                              float *__restrict__ dst,
                                              const unsigned char *__restrict__ flags, int nx,
                                              int ny, int nz, float omega)
{
    const int cx[LBM_Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
    const int cy[LBM_Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
    const int cz[LBM_Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
    const float w0 = 1.0f / 3.0f, w1 = 1.0f / 18.0f, w2 = 1.0f / 36.0f;

    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    const int ncells = nx * ny * nz;
    const int cell = (z * ny + y) * nx + x;

    float f[LBM_Q];
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        int sx = lbm_wrap(x - cx[q], nx);
        int sy = lbm_wrap(y - cy[q], ny);
        int sz = lbm_wrap(z - cz[q], nz);
        f[q] = src[q * ncells + (sz * ny + sy) * nx + sx];
    }

    if (flags[cell]) {
        dst[cell] = f[0];
#pragma unroll
        for (int q = 1; q < LBM_Q; q += 2) {
            dst[q * ncells + cell] = f[q + 1];
            dst[(q + 1) * ncells + cell] = f[q];
        }
        return;
    }

    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        rho += f[q];
        ux += (float)cx[q] * f[q];
        uy += (float)cy[q] * f[q];
        uz += (float)cz[q] * f[q];
    }
    float inv_rho = 1.0f / rho;
    ux *= inv_rho;
    uy *= inv_rho;
    uz *= inv_rho;
    float usq15 = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        float w = q == 0 ? w0 : (q < 7 ? w1 : w2);
        float cu = (float)cx[q] * ux + (float)cy[q] * uy + (float)cz[q] * uz;
        float feq = w * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - usq15);
        dst[q * ncells + cell] = f[q] - omega * (f[q] - feq);
    }
}
