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
// -DLBM_PARBOIL=1 (variant lbm_parboil, below the base kernel) compiles Parboil's own CUDA form
// instead: 20-float cells, own-cell loads and pushes to the neighbours (see its comment).
//
// Direction order: 0 rest; 1..6 the axis neighbours (+x,-x,+y,-y,+z,-z); 7..18 the 12 edge
// diagonals, each followed by its opposite, so opp(q) = q + 1 for odd q and q - 1 for even q.

#define LBM_Q 19

#ifndef LBM_PARBOIL

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

#else /* LBM_PARBOIL */

// lbm_parboil (ptx.flags -DLBM_PARBOIL=1; issues 28 and 29, session 22): Parboil's own CUDA lbm
// kernel structure (its cuda/ version; workloads/lbm/README.md lists the facts it follows).
//   - Layout: an array of 20-float cells (the 19 distributions in Parboil's order C N S E W T B
//     NE NW SE SW NT NB ST SB ET EB WT WB, then the flag word), cell index
//     x + y * pitch_x + z * pitch_x * pitch_y; pitch_x = nx + 8, pitch_y = ny (Parboil's padding
//     8 / 0); the host keeps margins of two planes before and after (z = -2..nz+1 are mapped).
//   - One CTA per x row: threadIdx.x = x (blockDim.x = nx, 120 in Parboil), blockIdx.x = y,
//     blockIdx.y = z.
//   - SCATTER: each thread reads the 20 entries of its own cell from src (80-byte-strided
//     loads across a warp) and pushes each result into the same entry of the neighbour cell it
//     streams to in dst (partial-line stores); no bounds checks, the padding and the margins
//     take the pushes off the edges. The flag word of dst is never written (the host stores
//     the flags in both grids).
//   - Obstacle cells bounce back (swap opposite pairs); other cells relax with BGK, omega 1.95,
//     and ACCEL cells use the fixed velocity (0.005, 0.002, 0) instead of their own.
// The same float operations in the same order as Parboil's kernel (ux = E - W + NE - ...);
// nvcc contracts some of them into fma.rn.f32, which lbm.c's reference replays.
#define PB_ENTRIES 20
#define PB_OBSTACLE 1u
#define PB_ACCEL 2u

extern "C" __global__ void lbm_parboil_stream_collide(float *src, float *dst, int pitch_x,
                                                      int pitch_y)
{
    const float dfl1 = 1.0f / 3.0f, dfl2 = 1.0f / 18.0f, dfl3 = 1.0f / 36.0f;
    const float omega = 1.95f;
    const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    const int sx = PB_ENTRIES, sy = PB_ENTRIES * pitch_x, sz = PB_ENTRIES * pitch_x * pitch_y;
    const int me = PB_ENTRIES * (x + y * pitch_x + z * pitch_x * pitch_y);

    float fC = src[me + 0], fN = src[me + 1], fS = src[me + 2], fE = src[me + 3];
    float fW = src[me + 4], fT = src[me + 5], fB = src[me + 6], fNE = src[me + 7];
    float fNW = src[me + 8], fSE = src[me + 9], fSW = src[me + 10], fNT = src[me + 11];
    float fNB = src[me + 12], fST = src[me + 13], fSB = src[me + 14], fET = src[me + 15];
    float fEB = src[me + 16], fWT = src[me + 17], fWB = src[me + 18];
    const unsigned int flags = ((const unsigned int *)src)[me + 19];

    if (flags & PB_OBSTACLE) {
        float t;
        t = fN; fN = fS; fS = t;
        t = fE; fE = fW; fW = t;
        t = fT; fT = fB; fB = t;
        t = fNE; fNE = fSW; fSW = t;
        t = fNW; fNW = fSE; fSE = t;
        t = fNT; fNT = fSB; fSB = t;
        t = fNB; fNB = fST; fST = t;
        t = fET; fET = fWB; fWB = t;
        t = fEB; fEB = fWT; fWT = t;
    } else {
        float rho = fC + fN + fS + fE + fW + fT + fB + fNE + fNW + fSE + fSW + fNT + fNB + fST +
                    fSB + fET + fEB + fWT + fWB;
        float ux = fE - fW + fNE - fNW + fSE - fSW + fET + fEB - fWT - fWB;
        float uy = fN - fS + fNE + fNW - fSE - fSW + fNT + fNB - fST - fSB;
        float uz = fT - fB + fNT - fNB + fST - fSB + fET - fEB + fWT - fWB;
        ux /= rho;
        uy /= rho;
        uz /= rho;
        if (flags & PB_ACCEL) {
            ux = 0.005f;
            uy = 0.002f;
            uz = 0.000f;
        }
        const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz) - 1.0f;
        const float base = omega * rho;
        const float keep = 1.0f - omega;
        float w = dfl1 * base;
        fC = keep * fC + w * (-u2);
        w = dfl2 * base;
        fN = keep * fN + w * (uy * (4.5f * uy + 3.0f) - u2);
        fS = keep * fS + w * (uy * (4.5f * uy - 3.0f) - u2);
        fT = keep * fT + w * (uz * (4.5f * uz + 3.0f) - u2);
        fB = keep * fB + w * (uz * (4.5f * uz - 3.0f) - u2);
        fE = keep * fE + w * (ux * (4.5f * ux + 3.0f) - u2);
        fW = keep * fW + w * (ux * (4.5f * ux - 3.0f) - u2);
        w = dfl3 * base;
        fNT = keep * fNT + w * ((+uy + uz) * (4.5f * (+uy + uz) + 3.0f) - u2);
        fNB = keep * fNB + w * ((+uy - uz) * (4.5f * (+uy - uz) + 3.0f) - u2);
        fST = keep * fST + w * ((-uy + uz) * (4.5f * (-uy + uz) + 3.0f) - u2);
        fSB = keep * fSB + w * ((-uy - uz) * (4.5f * (-uy - uz) + 3.0f) - u2);
        fNE = keep * fNE + w * ((+ux + uy) * (4.5f * (+ux + uy) + 3.0f) - u2);
        fSE = keep * fSE + w * ((+ux - uy) * (4.5f * (+ux - uy) + 3.0f) - u2);
        fET = keep * fET + w * ((+ux + uz) * (4.5f * (+ux + uz) + 3.0f) - u2);
        fEB = keep * fEB + w * ((+ux - uz) * (4.5f * (+ux - uz) + 3.0f) - u2);
        fNW = keep * fNW + w * ((-ux + uy) * (4.5f * (-ux + uy) + 3.0f) - u2);
        fSW = keep * fSW + w * ((-ux - uy) * (4.5f * (-ux - uy) + 3.0f) - u2);
        fWT = keep * fWT + w * ((-ux + uz) * (4.5f * (-ux + uz) + 3.0f) - u2);
        fWB = keep * fWB + w * ((-ux - uz) * (4.5f * (-ux - uz) + 3.0f) - u2);
    }

    // Push: entry q goes to the same entry of the neighbour cell in direction q.
    dst[me + 0] = fC;
    dst[me + sy + 1] = fN;
    dst[me - sy + 2] = fS;
    dst[me + sx + 3] = fE;
    dst[me - sx + 4] = fW;
    dst[me + sz + 5] = fT;
    dst[me - sz + 6] = fB;
    dst[me + sx + sy + 7] = fNE;
    dst[me - sx + sy + 8] = fNW;
    dst[me + sx - sy + 9] = fSE;
    dst[me - sx - sy + 10] = fSW;
    dst[me + sy + sz + 11] = fNT;
    dst[me + sy - sz + 12] = fNB;
    dst[me - sy + sz + 13] = fST;
    dst[me - sy - sz + 14] = fSB;
    dst[me + sx + sz + 15] = fET;
    dst[me + sx - sz + 16] = fEB;
    dst[me - sx + sz + 17] = fWT;
    dst[me - sx - sz + 18] = fWB;
}
#endif /* LBM_PARBOIL */
