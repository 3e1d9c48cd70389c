// Memory spaces: constant memory with initializers, global variables, dynamic shared memory,
// local arrays indexed dynamically, vector loads (float4/int2), struct params by value,
// 2D/3D grids, __noinline__ device functions, templates.
struct Params { float scale; int offset; float bias[3]; double w; };
__constant__ float c_coef[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, -1.0f, 3.5f, 0.0f};
__constant__ int c_idx[4] = {3, 1, 2, 0};
__constant__ double c_d = 2.718281828459045;
__device__ int g_counter;
__device__ float g_table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__device__ unsigned long long g_big[2] = {0x123456789abcdefull, 42};

__device__ __noinline__ float poly(float x, int k) {
    float r = 0.f;
    for (int i = 0; i < 8; i++) r = r * x + c_coef[(i + k) & 7];
    return r;
}
__device__ __noinline__ void bump(int *p, int v) { atomicAdd(p, v); }
__device__ __noinline__ float4 scale4(float4 v, Params p) {
    return make_float4(v.x * p.scale, v.y * p.scale + p.bias[0], v.z + p.bias[1], v.w + (float)p.w);
}

extern "C" __global__ void kern_struct(const float4 *in, float4 *out, Params p, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float4 v = in[t];
    v = scale4(v, p);
    v.x += poly(v.y, t + p.offset) + g_table[t & 15] + (float)c_d;
    out[t] = v;
    if (t == 0) bump(&g_counter, c_idx[t & 3]);
}

extern "C" __global__ void kern_dynsmem(const int2 *in, int *out, int n) {
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    int2 v = in[blockIdx.x * blockDim.x + t];
    dyn[t] = v.x + v.y;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = dyn[(t + 1) % blockDim.x] + (int)g_big[t & 1];
}

extern "C" __global__ void kern_local(const int *idx, float *out, int n) {
    float arr[32];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 32; i++) arr[i] = (float)(i * t);
    int k = idx[t] & 31;
    arr[k] += 1.f;
    out[t] = arr[(k * 7) & 31] + arr[k];
}

extern "C" __global__ void kern_3d(float *vol, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz)
        vol[(z * ny + y) * nx + x] = (float)(x + y * gridDim.x + z * gridDim.y * gridDim.z);
}

template <typename T, int B>
__global__ void tmpl_sum(const T *in, T *out) {
    __shared__ T s[B];
    s[threadIdx.x] = in[blockIdx.x * B + threadIdx.x];
    __syncthreads();
    for (int k = B / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
template __global__ void tmpl_sum<float, 128>(const float *, float *);
template __global__ void tmpl_sum<double, 64>(const double *, double *);
template __global__ void tmpl_sum<long long, 256>(const long long *, long long *);

extern "C" __global__ void __launch_bounds__(256, 2) kern_bounds(unsigned char *p, unsigned short *q) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    p[t] = (unsigned char)(p[t] * 3 + 1);
    q[t] = (unsigned short)(q[t] ^ 0xbeef);
}

// Pointers initialized with addresses of other variables (.u64 p = generic(v) in PTX).
__device__ int g_a = 5, g_b[4] = {1, 2, 3, 4};
__device__ int *g_ptrs[3] = {&g_a, &g_b[2], &g_b[0]};
__device__ float *g_fp = &g_table[3];
extern "C" __global__ void kern_ptrs(int *out) {
    int t = threadIdx.x;
    out[t] = *g_ptrs[t % 3] + (int)*g_fp;
}
