// SPDX-License-Identifier: MIT
// streamcluster.cu - the gain evaluation of online facility location (streamcluster-like).
//
// Points have SC_DIM-at-most coordinates stored dimension-major (coord[d*n + i], so a warp reads
// consecutive points: coalesced), a weight, their current center assign[i] (a point index) and
// cost[i] = weight * squared distance to it. Each center owns a slot 0..k_slots-1 (slot_of[c]).
//
// sc_gain asks "what if point x were opened as a new center?": every point computes its weighted
// distance to x; a point closer to x would switch (switch_flag = 1) and saves cost - x_cost;
// a point that stays would cost x_cost - cost more if its center were closed and it had to move
// to x. Both amounts are summed per CTA in shared memory, per center slot, with integer atomics on
// fixed-point values (SC_FIX units per cost unit), so the sums are exact and order-independent;
// each CTA writes its k_slots + 1 partial sums to block_out[blockIdx.x * (SC_KMAX + 1) ...]. The
// host adds the CTAs, decides whether opening x pays, and which centers to close.
// sc_commit applies that decision: switching points and points of closed centers move to x.
//
// The distance uses explicit fused multiply-adds so the host reference reproduces it bit for bit.
// sc_gain only writes outputs it does not read; sc_commit rewrites assign/cost with values that a
// second run would write again: both kernels are idempotent.

#define SC_DIM_MAX 64
#define SC_KMAX 64
#define SC_FIX 4096.0f

__device__ static float sc_dist(const float *__restrict__ coord, int n, int dim, int i,
                                const float *cx)
{
    float acc = 0.0f;
#pragma unroll 2
    for (int d = 0; d < dim; d++) {
        float t = coord[d * n + i] - cx[d];
        acc = __fmaf_rn(t, t, acc);
    }
    return acc;
}

extern "C" __global__ void sc_gain(const float *__restrict__ coord, const float *__restrict__ weight,
                                   const float *__restrict__ cost, const int *__restrict__ assign,
                                   const int *__restrict__ slot_of, int n, int dim, int x,
                                   int k_slots, int *__restrict__ switch_flag,
                                   unsigned *__restrict__ block_out)
{
    __shared__ float cx[SC_DIM_MAX];
    __shared__ unsigned part[SC_KMAX + 1]; // [0]: savings of switching points; [1+s]: slot s
    int tid = threadIdx.x;
    for (int d = tid; d < dim; d += blockDim.x)
        cx[d] = coord[d * n + x];
    for (int s = tid; s <= k_slots; s += blockDim.x)
        part[s] = 0;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + tid;
    if (i < n) {
        float x_cost = sc_dist(coord, n, dim, i, cx) * weight[i];
        float c = cost[i];
        if (x_cost < c) {
            switch_flag[i] = 1;
            atomicAdd(&part[0], (unsigned)((c - x_cost) * SC_FIX));
        } else {
            switch_flag[i] = 0;
            atomicAdd(&part[1 + slot_of[assign[i]]], (unsigned)((x_cost - c) * SC_FIX));
        }
    }
    __syncthreads();
    for (int s = tid; s <= k_slots; s += blockDim.x)
        block_out[blockIdx.x * (SC_KMAX + 1) + s] = part[s];
}

extern "C" __global__ void sc_commit(const float *__restrict__ coord,
                                     const float *__restrict__ weight, float *cost, int *assign,
                                     const int *__restrict__ slot_of,
                                     const int *__restrict__ closed, int n, int dim, int x,
                                     const int *__restrict__ switch_flag)
{
    __shared__ float cx[SC_DIM_MAX];
    int tid = threadIdx.x;
    for (int d = tid; d < dim; d += blockDim.x)
        cx[d] = coord[d * n + x];
    __syncthreads();

    int i = blockIdx.x * blockDim.x + tid;
    if (i >= n)
        return;
    if (switch_flag[i] || closed[slot_of[assign[i]]]) {
        cost[i] = sc_dist(coord, n, dim, i, cx) * weight[i];
        assign[i] = x;
    }
}
