// SPDX-License-Identifier: MIT
// bfs.cu - one level of a breadth-first search over a graph in CSR form.
//
// bfs_level(row_ptr, cols, level, n, cur, changed): one thread per vertex. A vertex whose level
// is `cur` is in the frontier; its thread walks its adjacency list (row_ptr[v] .. row_ptr[v+1])
// and gives every neighbour still at level -1 the level cur + 1. The host launches one kernel per
// level until no thread reports a change. Frontier membership diverges within a warp, adjacency
// lists differ in length, and neighbour loads are scattered (divergent, irregular).
//
// Idempotence, with levels updated in place: levels only go from -1 to cur + 1 (the same value
// whoever writes it), and a frontier vertex's own level is never written during the launch. The
// "changed" flag is set for every neighbour that is at cur + 1 *after* the visit, not only for
// the ones this thread discovered: a CTA stopped after writing a level but before writing the
// flag, and re-run from its start, sees level == cur + 1 and sets the flag again. So re-running any
// CTA gives the same memory, and changed == 1 exactly when the next frontier is not empty.

extern "C" __global__ void bfs_level(const int *__restrict__ row_ptr, const int *__restrict__ cols,
                                     int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    int next = cur + 1;
    int found = 0;
    int end = row_ptr[v + 1];
    for (int e = row_ptr[v]; e < end; ++e) {
        int u = cols[e];
        int lu = level[u];
        if (lu == -1) {
            level[u] = next;
            found = 1;
        } else if (lu == next) {
            found = 1;
        }
    }
    if (found)
        *changed = 1;
}

#ifdef BFS_TWO_KERNELS
// Rodinia's two-kernel form (Lin Table 2.2 BFS_1/BFS_2, Shieh Table 4.2 bfs Kernel/Kernel2;
// variant bfs_k2_tb512, 512-thread CTAs). Frontier, next frontier and visited set are byte masks;
// cost holds the level (-1 unreached). Compiled only with -DBFS_TWO_KERNELS, so the base PTX
// above is unchanged.
//
// bfs_expand (Kernel): a vertex in the frontier mask gives every unvisited neighbour its cost + 1
// and a place in the next mask, then leaves the frontier. Several frontier vertices may write the
// same neighbour; they all write the same cost (every frontier vertex has the same level).
// bfs_advance (Kernel2): every vertex in the next mask joins the frontier and the visited set,
// leaves the next mask, and sets the host's `over` flag.
//
// Idempotent, like bfs_level (a variant keeps its base's idempotence): each thread clears the bit
// that selected it (mask in bfs_expand, next in bfs_advance) as its last store, after every write
// it makes, so a CTA re-run from its start after partly running skips exactly the vertices that
// had finished and redoes the others' writes with the same values (every frontier vertex writes
// the same cost). Rodinia's Kernel clears the frontier bit first, which is why Shieh marks bfs
// non-idempotent; this store order is the only difference.
extern "C" __global__ void bfs_expand(const int *__restrict__ row_ptr, const int *__restrict__ cols,
                                      unsigned char *mask, unsigned char *next,
                                      const unsigned char *__restrict__ visited, int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !mask[v])
        return;
    int c = cost[v] + 1;
    int end = row_ptr[v + 1];
    for (int e = row_ptr[v]; e < end; ++e) {
        int u = cols[e];
        if (!visited[u]) {
            cost[u] = c;
            next[u] = 1;
        }
    }
    mask[v] = 0;
}

extern "C" __global__ void bfs_advance(unsigned char *mask, unsigned char *next,
                                       unsigned char *visited, int *over, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !next[v])
        return;
    mask[v] = 1;
    visited[v] = 1;
    *over = 1;
    next[v] = 0;
}
#endif
