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

#ifdef LV_RODINIA
// lavamd_rod (variant lavamd_rod_ccbp; issue 29, docs/blocks/ccbp.md "Session 25: LAV in
// Rodinia's form"): the same interactions in the form Lin's LAV ran, Rodinia 3.1's
// kernel_gpu_cuda. What differs from lavamd_forces:
// - the forces are accumulated in global memory: fv is zeroed by the host and each thread adds
//   every term to its particle's fv entry (a read-modify-write of the four components in the
//   neighbour-box loop), where lavamd_forces sums in registers and stores once;
// - the particle arrays are 16-byte records of four floats with 4-byte alignment (Rodinia's
//   FOUR_VECTOR struct), so each component is its own 4-byte load or store, not one float4;
// - the boxes are a table in global memory (lv_box: coordinates, number, offset of its first
//   particle, neighbour count and 26 neighbour records, 656 bytes), read per neighbour box; the
//   home box comes first, then its neighbours in Rodinia's order (dz, dy, dx = -1..1);
// - the charges are kept in shared memory as doubles, and each term is added to fv through
//   double (Rodinia 3.1: `__shared__ double qB_shared[100]`, `fA.v += (double)(q * vij)`);
//   a2 = 2 alpha^2 is formed in double and rounded to float.
// Shared memory 4,000 B (two boxes of 16-byte records, one of doubles). Not idempotent: fv is
// added to (a CTA run twice adds its terms twice).
// Where the sums live: nvcc 13 keeps a thread's four sums in registers through the particle loop
// of one neighbour box and adds them to fv once per neighbour box (a load and a store of each
// component per box: variant lavamd_rod). With LV_FV_EACH (variant lavamd_rod_ccbp) fa is
// volatile, so every += is its own load and store of fv in global memory, one per interaction,
// as the source states it: the form whose throughput, NoC, DRAM and L2 miss rate are Table 4.2's
// LAV row (docs/blocks/ccbp.md "Session 25").
struct lv_rec {
    float v, x, y, z;
};
struct lv_nei {
    int x, y, z, number;
    long long offset;
};
struct lv_box {
    int x, y, z, number;
    long long offset;
    int nn;
    lv_nei nei[26];
};

extern "C" __global__ void __launch_bounds__(LV_TB)
    lavamd_rod(float alpha, long long number_boxes, const lv_box *box, const lv_rec *rv,
               const float *qv, lv_rec *fv)
{
    __shared__ lv_rec ra_s[LV_PAR], rb_s[LV_PAR];
    __shared__ double qb_s[LV_PAR];
    const int bx = blockIdx.x, tx = threadIdx.x;
    if (bx >= number_boxes)
        return;
    const float a2 = 2.0 * alpha * alpha;
    const long long first_i = box[bx].offset;
    const lv_rec *ra = rv + first_i;
#ifdef LV_FV_EACH
    volatile lv_rec *fa = fv + first_i;
#else
    lv_rec *fa = fv + first_i;
#endif
    for (int w = tx; w < LV_PAR; w += LV_TB)
        ra_s[w] = ra[w];
    __syncthreads();
    for (int k = 0; k < 1 + box[bx].nn; k++) {
        const int ptr = k == 0 ? bx : box[bx].nei[k - 1].number;
        const long long first_j = box[ptr].offset;
        const lv_rec *rb = rv + first_j;
        const float *qb = qv + first_j;
        for (int w = tx; w < LV_PAR; w += LV_TB) {
            rb_s[w] = rb[w];
            qb_s[w] = qb[w];
        }
        __syncthreads();
        for (int w = tx; w < LV_PAR; w += LV_TB) {
            for (int j = 0; j < LV_PAR; j++) {
                float r2 = ra_s[w].v + rb_s[j].v -
                           (ra_s[w].x * rb_s[j].x + ra_s[w].y * rb_s[j].y + ra_s[w].z * rb_s[j].z);
                float vij = expf(-(a2 * r2));
                float fs = 2.0f * vij;
                float dx = ra_s[w].x - rb_s[j].x, dy = ra_s[w].y - rb_s[j].y,
                      dz = ra_s[w].z - rb_s[j].z;
                float q = (float)qb_s[j];
                fa[w].v += (double)(q * vij);
                fa[w].x += (double)(q * (fs * dx));
                fa[w].y += (double)(q * (fs * dy));
                fa[w].z += (double)(q * (fs * dz));
            }
        }
        __syncthreads();
    }
}
#endif
