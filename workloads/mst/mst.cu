// SPDX-License-Identifier: MIT
// mst.cu - minimum spanning forest by Boruvka's algorithm with a lock-free union-find.
//
// Undirected edge e joins eu[e] and ev[e] with weight ew[e]; the CSR adjacency (row, adj_v,
// adj_e) lists every edge at both ends. Edges are ordered by the key (weight << 32 | e), which
// makes all keys distinct, so the minimum spanning forest is unique and Boruvka cannot form a
// cycle. comp[v] is the root of v's component at the start of a round. One round is:
//   mst_find_min: every vertex finds its lightest edge leaving its component and lowers the
//                 component's best[comp] with a 64-bit atomicMin on the key;
//   mst_union:    every component root with a best edge links the two trees: it walks both
//                 endpoints to their current roots and hooks the larger root under the smaller
//                 one with atomicCAS (retrying if another thread re-rooted it first); the thread
//                 whose CAS succeeds marks the edge in_mst and counts the union. When both
//                 components picked the same edge, the second thread finds one root and stops;
//   mst_compress: every vertex points straight at its root (comp and parent) and best resets.
// The host repeats rounds until a round makes no union. parent only ever points to a smaller
// index, so the forest stays acyclic under any interleaving. The kernels update parent/best in
// place with atomics: NOT idempotent.

// Knob (Zorua grid points, workloads/zorua-grid.toml): MAXREG caps the registers per thread of
// the three kernels (__maxnreg__); undefined in the base, whose PTX it leaves unchanged.
#ifdef MAXREG
#define MST_REGS __maxnreg__(MAXREG)
#else
#define MST_REGS
#endif

#define MST_NONE 0xffffffffffffffffull

__device__ static int mst_find(const volatile int *parent, int x)
{
    int p = parent[x];
    while (p != x) {
        x = p;
        p = parent[x];
    }
    return x;
}

extern "C" __global__ void MST_REGS mst_find_min(const int *__restrict__ row, const int *__restrict__ adj_v,
                                        const int *__restrict__ adj_e,
                                        const unsigned *__restrict__ ew,
                                        const int *__restrict__ comp, unsigned long long *best,
                                        int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    int cu = comp[u];
    unsigned long long mine = MST_NONE;
    int end = row[u + 1];
    for (int k = row[u]; k < end; k++) {
        if (comp[adj_v[k]] == cu)
            continue;
        int e = adj_e[k];
        unsigned long long key = ((unsigned long long)ew[e] << 32) | (unsigned)e;
        if (key < mine)
            mine = key;
    }
    if (mine != MST_NONE)
        atomicMin(&best[cu], mine);
}

extern "C" __global__ void MST_REGS mst_union(const unsigned long long *__restrict__ best,
                                     const int *__restrict__ eu, const int *__restrict__ ev,
                                     int *parent, int *__restrict__ in_mst,
                                     int *__restrict__ unions, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || best[c] == MST_NONE)
        return;
    int e = (int)(best[c] & 0xffffffffu);
    int u = eu[e], v = ev[e];
    for (;;) {
        int ru = mst_find(parent, u), rv = mst_find(parent, v);
        if (ru == rv)
            return;
        int hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
        if (atomicCAS(&parent[hi], hi, lo) == hi) {
            in_mst[e] = 1;
            atomicAdd(unions, 1);
            return;
        }
    }
}

extern "C" __global__ void MST_REGS mst_compress(int *parent, int *__restrict__ comp,
                                        unsigned long long *__restrict__ best, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    int r = mst_find(parent, u);
    comp[u] = r;
    parent[u] = r;
    best[u] = MST_NONE;
}
