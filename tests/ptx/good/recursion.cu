// Device-side calls with return values, recursion, many arguments of mixed types.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ double hyp(double a, double b, double c, double d, double e, double f, double g) {
    return sqrt(a * a + b * b) + c * d - e / (f + 1.0) + g;
}
__device__ __noinline__ long long mix(long long a, int b, short c, char d, float e, bool f) {
    return a * b + c - d + (long long)e + (f ? 1 : 0);
}
struct Pair { int a; float b; };
__device__ __noinline__ Pair swap_pair(Pair p, int k) { Pair r; r.a = (int)p.b + k; r.b = (float)p.a; return r; }
extern "C" __global__ void calls(const double *in, int *o, double *d, long long *l, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    o[t] = fib(t & 15);
    d[t] = hyp(in[t], in[t + 1], in[t + 2], in[t + 3], in[t + 4], in[t + 5], in[t + 6]);
    l[t] = mix(o[t + 1], t + 1, (short)o[t + 2], (char)o[t + 3], (float)in[t], t & 1);
    Pair p = {o[t], (float)in[t]};
    p = swap_pair(p, t);
    o[t + 1] = p.a + (int)p.b;
}
