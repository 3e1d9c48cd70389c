// Pointers held in initialized device variables: nvcc writes `.u64 p = generic(v)+8` (an
// address relocation the loader fills in) for pointers to __device__ and __constant__ data,
// arrays of pointers, pointers to pointers and structs holding pointers (a linked list; nvcc
// rejects a variable whose initializer points into itself).
struct Node { long long val; const Node *next; };

__device__ int g_v[4] = {10, 20, 30, 40};
__device__ double g_d = 2.5;
__device__ int *g_p = &g_v[2];
__device__ int **g_pp = &g_p;
__device__ double *g_dp = &g_d;
__constant__ int c_tab[3] = {7, 8, 9};
__device__ const int *g_cp = &c_tab[1];
__constant__ const int *c_ptrs[3] = {&c_tab[2], &c_tab[0], &g_v[3]};
__device__ Node g_n2 = {300, nullptr};
__device__ Node g_n1[2] = {{200, &g_n2}, {250, &g_n2}};
__device__ Node g_n0 = {100, &g_n1[0]};
__device__ const Node *g_heads[3] = {&g_n0, &g_n1[1], &g_n2};

extern "C" __global__ void read_ptrs(long long *out)
{
    out[0] = *g_p;           // 30
    out[1] = g_p[1];         // 40
    out[2] = **g_pp;         // 30
    out[3] = (long long)(*g_dp * 4.0); // 10
    out[4] = *g_cp;          // 8
    int t = threadIdx.x;     // each of 3 threads follows one entry of c_ptrs
    if (t < 3) out[5 + t] = *c_ptrs[t]; // 9, 7, 40
}

extern "C" __global__ void walk_list(long long *out, int start)
{
    long long sum = 0;
    int n = 0;
    for (const Node *p = g_heads[start]; p; p = p->next, n++)
        sum += p->val;
    out[0] = sum;
    out[1] = n;
    g_p[0] += 1; // writes through the pointer: g_v[2] becomes 31
}
