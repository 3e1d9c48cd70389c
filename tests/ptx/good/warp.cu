// Warp-level primitives: shuffles of every mode, votes, ballots, match, activemask,
// __syncthreads_count/and/or, __syncwarp, lane masks, warp-synchronous reduction.
extern "C" __global__ void warp_ops(const int *in, int *out, float *fout) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    unsigned m = __activemask();
    int a = __shfl_sync(0xffffffff, v, 3);
    int b = __shfl_up_sync(0xffffffff, v, 1);
    int c = __shfl_down_sync(0xffffffff, v, 2);
    int d = __shfl_xor_sync(0xffffffff, v, 4);
    float fv = __int_as_float(v);
    float fs = __shfl_down_sync(m, fv, 16, 16);
    double dv = (double)v;
    double ds = __shfl_xor_sync(0xffffffff, dv, 1);
    int all = __all_sync(0xffffffff, v > 0);
    int any = __any_sync(0xffffffff, v > 5);
    unsigned bal = __ballot_sync(0xffffffff, v & 1);
    int cnt = __syncthreads_count(v > 2);
    int band = __syncthreads_and(v > 0);
    int bor = __syncthreads_or(v > 100);
    __syncwarp();
    unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[t] = a + b + c + d + all + any + (int)bal + cnt + band + bor + (int)m + (int)lane;
    fout[t] = fs + (float)ds;
}
extern "C" __global__ void warp_reduce(const float *in, float *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = t < n ? in[t] : 0.f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
extern "C" __global__ void volatile_reduce(const int *in, int *out) {
    __shared__ volatile int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
        s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
