// SPDX-License-Identifier: MIT
// gaussian.cu - Gaussian elimination without pivoting, one column at a time, two kernels per column.
//
// The host launches, for every pivot column t = 0 .. n-2:
//   gauss_fan1: one thread per row i > t computes the multiplier m[i][t] = a[i][t] / a[t][t]
//               (the strictly lower part of m becomes the L factor);
//   gauss_fan2: one thread per element (i > t, j >= t) of the trailing sub-matrix updates
//               a[i][j] -= m[i][t] * a[t][j]; the threads of column j == t also update the
//               right-hand side b[i] -= m[i][t] * b[t].
// Row t and the multipliers are only read during gauss_fan2 (rows i > t are written), so one
// launch has no read/write race. gauss_fan2 updates a and b in place: re-running a CTA applies its
// update twice, so the workload is NOT idempotent. Later columns launch ever smaller grids, which
// is what makes this benchmark launch-overhead and tail sensitive.

extern "C" __global__ void gauss_fan1(const float *__restrict__ a, float *__restrict__ m, int n,
                                      int t)
{
    int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    m[i * n + t] = a[i * n + t] / a[t * n + t];
}

extern "C" __global__ void gauss_fan2(float *a, float *b, const float *__restrict__ m, int n, int t)
{
    int j = t + blockIdx.x * blockDim.x + threadIdx.x;     // column, t .. n-1
    int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y; // row, t+1 .. n-1
    if (i >= n || j >= n)
        return;
    float mi = m[i * n + t];
    a[i * n + j] -= mi * a[t * n + j];
    if (j == t)
        b[i] -= mi * b[t];
}
