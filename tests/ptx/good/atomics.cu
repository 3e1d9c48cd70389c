// Atomics of every kind: integer, 64-bit, float and double add, CAS loops, exch, min/max,
// inc/dec, bitwise, on global and shared memory.
extern "C" __global__ void atomics_global(int *i, unsigned *u, unsigned long long *ull,
                                          float *f, double *d, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    atomicAdd(&i[0], t);
    atomicSub(&i[1], 1);
    atomicExch(&i[2], t);
    atomicMin(&i[3], -t);
    atomicMax(&i[4], t);
    atomicInc(&u[0], 17u);
    atomicDec(&u[1], 17u);
    atomicCAS(&i[5], t, t + 1);
    atomicAnd(&i[6], ~t);
    atomicOr(&i[7], t);
    atomicXor(&i[8], t);
    atomicAdd(&ull[0], (unsigned long long)t);
    atomicCAS(&ull[1], 0ull, (unsigned long long)t);
    atomicMin(&ull[2], (unsigned long long)t);
    atomicAdd(&f[0], 1.5f);
    atomicAdd(&d[0], 2.5);
    atomicExch(&f[1], (float)t);
    int old = i[9], assumed;
    do { assumed = old; old = atomicCAS(&i[9], assumed, assumed * 3 + 1); } while (assumed != old);
}
extern "C" __global__ void atomics_shared(int *out, int n) {
    __shared__ int s[32];
    __shared__ float sf;
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    if (threadIdx.x == 0) sf = 0.f;
    __syncthreads();
    atomicAdd(&s[threadIdx.x % 32], 1);
    atomicMax(&s[(threadIdx.x + 1) % 32], (int)threadIdx.x);
    atomicAdd(&sf, 0.25f);
    atomicCAS(&s[0], 5, 6);
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(&out[threadIdx.x], s[threadIdx.x] + (int)sf);
}
