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
