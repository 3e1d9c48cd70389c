// SPDX-License-Identifier: MIT
// spmv.cu - sparse matrix-vector product y = A x in CSR and ELL formats (Parboil-like).
//
// Three kernels over the same matrix:
//   spmv_csr_scalar  one thread per row walks its row: divergent trip counts, uncoalesced
//                    reads of cols/vals (each lane in a different row);
//   spmv_csr_vector  one warp per row: lanes stride through the row (coalesced), then a
//                    shuffle-down tree reduces the 32 partial sums;
//   spmv_ell         one thread per row over the padded ELL arrays stored column-major
//                    (entry k of row r at k * nrows + r), so every iteration is coalesced;
//                    padding entries hold value 0 and the row's own index as column.
// x is read through the read-only path. All kernels write y only; inputs are never written.

extern "C" __global__ void spmv_csr_scalar(int nrows, const int *__restrict__ rowptr,
                                           const int *__restrict__ cols,
                                           const float *__restrict__ vals,
                                           const float *__restrict__ x, float *__restrict__ y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float sum = 0.0f;
    int end = rowptr[r + 1];
    for (int j = rowptr[r]; j < end; j++)
        sum += vals[j] * __ldg(&x[cols[j]]);
    y[r] = sum;
}

// blockDim.x must be a multiple of 32 so that a row is owned by one whole warp.
extern "C" __global__ void spmv_csr_vector(int nrows, const int *__restrict__ rowptr,
                                           const int *__restrict__ cols,
                                           const float *__restrict__ vals,
                                           const float *__restrict__ x, float *__restrict__ y)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    int row = gtid >> 5;
    int lane = threadIdx.x & 31;
    if (row >= nrows)
        return; // uniform across the warp
    float sum = 0.0f;
    int end = rowptr[row + 1];
    for (int j = rowptr[row] + lane; j < end; j += 32)
        sum += vals[j] * __ldg(&x[cols[j]]);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0)
        y[row] = sum;
}

extern "C" __global__ void spmv_ell(int nrows, int width, const int *__restrict__ cols,
                                    const float *__restrict__ vals,
                                    const float *__restrict__ x, float *__restrict__ y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float sum = 0.0f;
    for (int k = 0; k < width; k++) {
        int idx = k * nrows + r;
        sum += vals[idx] * __ldg(&x[cols[idx]]);
    }
    y[r] = sum;
}
