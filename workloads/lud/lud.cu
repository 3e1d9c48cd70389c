// SPDX-License-Identifier: MIT
// lud.cu - blocked LU decomposition without pivoting (Doolittle: unit lower L, upper U, both
// stored over the n x n matrix A in place), in 16x16 blocks.
//
// For each diagonal block index k (element offset off = 16k) the host launches:
//   lud_diagonal  1 CTA of 16 threads: factors A_kk = L_kk U_kk in shared memory. Row i of U
//                 then column i of L, one thread per column/row, a barrier after each.
//   lud_perimeter one CTA of 32 threads per trailing block b: threads 0-15 solve L_kk U_kb = A_kb
//                 (forward substitution, one thread per column), threads 16-31 solve
//                 L_bk U_kk = A_bk (one thread per row) - the two half-warps diverge.
//   lud_internal  one 16x16 CTA per trailing block (i, j): A_ij -= L_ik U_kj from two shared
//                 tiles.
// Every kernel updates A in place (reads then overwrites the same elements), so none is
// idempotent.

#define HD_LUD_B 16

extern "C" __global__ void lud_diagonal(float *a, int n, int off)
{
    __shared__ float s[HD_LUD_B][HD_LUD_B];
    int t = threadIdx.x;

    for (int r = 0; r < HD_LUD_B; r++)
        s[r][t] = a[(off + r) * n + off + t];
    __syncthreads();

    for (int i = 0; i < HD_LUD_B; i++) {
        // Row i of U: u_it = a_it - sum_{p<i} l_ip u_pt, for t >= i.
        if (t >= i) {
            float v = s[i][t];
            for (int p = 0; p < i; p++)
                v -= s[i][p] * s[p][t];
            s[i][t] = v;
        }
        __syncthreads();
        // Column i of L: l_ti = (a_ti - sum_{p<i} l_tp u_pi) / u_ii, for t > i.
        if (t > i) {
            float v = s[t][i];
            for (int p = 0; p < i; p++)
                v -= s[t][p] * s[p][i];
            s[t][i] = v / s[i][i];
        }
        __syncthreads();
    }

    for (int r = 0; r < HD_LUD_B; r++)
        a[(off + r) * n + off + t] = s[r][t];
}

extern "C" __global__ void lud_perimeter(float *a, int n, int off)
{
    __shared__ float dia[HD_LUD_B][HD_LUD_B];
    __shared__ float row[HD_LUD_B][HD_LUD_B];   // block (k, b): becomes U_kb
    __shared__ float col[HD_LUD_B][HD_LUD_B];   // block (b, k): becomes L_bk

    int t = threadIdx.x;
    int boff = off + HD_LUD_B * (blockIdx.x + 1);

    if (t < HD_LUD_B) {
        for (int r = 0; r < HD_LUD_B; r++) {
            dia[r][t] = a[(off + r) * n + off + t];
            row[r][t] = a[(off + r) * n + boff + t];
        }
    } else {
        int c = t - HD_LUD_B;
        for (int r = 0; r < HD_LUD_B; r++)
            col[r][c] = a[(boff + r) * n + off + c];
    }
    __syncthreads();

    if (t < HD_LUD_B) {
        // Column t of U_kb by forward substitution with the unit lower L_kk.
        for (int r = 1; r < HD_LUD_B; r++) {
            float v = row[r][t];
            for (int p = 0; p < r; p++)
                v -= dia[r][p] * row[p][t];
            row[r][t] = v;
        }
    } else {
        // Row q of L_bk: solve x U_kk = a for the row vector x, left to right.
        int q = t - HD_LUD_B;
        for (int c = 0; c < HD_LUD_B; c++) {
            float v = col[q][c];
            for (int p = 0; p < c; p++)
                v -= col[q][p] * dia[p][c];
            col[q][c] = v / dia[c][c];
        }
    }
    __syncthreads();

    if (t < HD_LUD_B) {
        for (int r = 1; r < HD_LUD_B; r++)
            a[(off + r) * n + boff + t] = row[r][t];
    } else {
        int c = t - HD_LUD_B;
        for (int r = 0; r < HD_LUD_B; r++)
            a[(boff + r) * n + off + c] = col[r][c];
    }
}

extern "C" __global__ void lud_internal(float *a, int n, int off)
{
    __shared__ float l[HD_LUD_B][HD_LUD_B];
    __shared__ float u[HD_LUD_B][HD_LUD_B];

    int tx = threadIdx.x, ty = threadIdx.y;
    int ioff = off + HD_LUD_B * (blockIdx.y + 1);
    int joff = off + HD_LUD_B * (blockIdx.x + 1);

    l[ty][tx] = a[(ioff + ty) * n + off + tx];
    u[ty][tx] = a[(off + ty) * n + joff + tx];
    __syncthreads();

    float sum = 0.0f;
    for (int p = 0; p < HD_LUD_B; p++)
        sum += l[ty][p] * u[p][tx];
    a[(ioff + ty) * n + joff + tx] -= sum;
}
