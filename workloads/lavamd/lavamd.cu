// SPDX-License-Identifier: MIT
// lavamd.cu - particle potential and forces within a cutoff box neighbourhood (Rodinia lavaMD;
// Lin thesis ch.4 Table 4.2 "LAV", an NoC-bandwidth-intensive (NBI) kernel).
//
// Space is a bx x by x bz grid of boxes, LV_PAR particles per box; particle p has rv[p] = (v, x,
// y, z) (float4) and charge qv[p]. For a particle i of a home box and every particle j of the
// home box and of each of its up to 26 neighbouring boxes (in offset order dz, dy, dx = -1..1,
// boxes outside the grid skipped):
//   r2 = v_i + v_j - (x_i x_j + y_i y_j + z_i z_j),  vij = exp(-a2 r2),  fs = 2 vij,
//   f_i.v += q_j vij,  f_i.{x,y,z} += q_j fs (i - j).{x,y,z}
// One CTA of LV_TB threads per home box: the CTA copies the home box's particles into shared
// memory, then per neighbour box copies its positions and charges into shared memory (a barrier
// before and after), and threads i < LV_PAR accumulate their particle's four sums in registers.
// Shared memory 3,600 B per CTA as in Rodinia (two boxes of float4, one of float).
// Rodinia adds into fv in global memory per neighbour box; here the sums stay in registers and
// are stored once at the end.
//
// Idempotent: a CTA reads the particles and writes only its home box's forces.

#define LV_PAR 100 // particles per box; must match lavamd.c
#define LV_TB 128  // threads per CTA (Rodinia's NUMBER_THREADS)

extern "C" __global__ void __launch_bounds__(LV_TB)
    lavamd_forces(const float4 *__restrict__ rv, const float *__restrict__ qv,
                  float4 *__restrict__ fv, int bx, int by, int bz, float a2)
{
    __shared__ float4 ra[LV_PAR], rb[LV_PAR];
    __shared__ float qb[LV_PAR];
    const int home = blockIdx.x, t = threadIdx.x;
    const int hx = home % bx, hy = (home / bx) % by, hz = home / (bx * by);
    if (t < LV_PAR)
        ra[t] = rv[home * LV_PAR + t];
    float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int nb = 0; nb < 27; nb++) {
        int nx = hx + nb % 3 - 1, ny = hy + (nb / 3) % 3 - 1, nz = hz + nb / 9 - 1;
        if (nx < 0 || ny < 0 || nz < 0 || nx >= bx || ny >= by || nz >= bz)
            continue;
        int box = (nz * by + ny) * bx + nx;
        __syncthreads(); // the previous box is done with
        if (t < LV_PAR) {
            rb[t] = rv[box * LV_PAR + t];
            qb[t] = qv[box * LV_PAR + t];
        }
        __syncthreads();
        if (t < LV_PAR) {
            const float4 a = ra[t];
            for (int j = 0; j < LV_PAR; j++) {
                const float4 b = rb[j];
                float r2 = a.x + b.x - (a.y * b.y + a.z * b.z + a.w * b.w);
                float vij = expf(-a2 * r2);
                float fs = 2.0f * vij;
                float q = qb[j];
                f.x += q * vij;
                f.y += q * (fs * (a.y - b.y));
                f.z += q * (fs * (a.z - b.z));
                f.w += q * (fs * (a.w - b.w));
            }
        }
    }
    if (t < LV_PAR)
        fv[home * LV_PAR + t] = f;
}
