// SPDX-License-Identifier: MIT
// sssp.cu - single-source shortest paths by Bellman-Ford-style relaxation over a CSR graph.
//
// One thread per vertex. A vertex whose distance dropped in the previous round (active_in[u])
// relaxes all its out-edges: for edge u->v of weight w it lowers dist[v] to dist[u] + w with
// atomicMin, and if that lowered it, marks v active for the next round and raises *changed. The
// host repeats rounds (swapping and clearing the active arrays) until no distance changes.
// Reading dist[u] while other threads lower it is benign: a stale value only relaxes less, and
// whoever lowered dist[u] also marked u active for the next round, so the fixed point reached is
// the exact shortest-path distances regardless of the interleaving.
// dist is read and atomically lowered in place, so a launch is NOT idempotent (a re-run CTA
// starts from distances that its first run and other CTAs already lowered; the final fixed point
// would still be right, but the memory after that one launch is not the same).

// Knob (Zorua grid points, workloads/zorua-grid.toml): MAXREG caps the registers per thread of
// sssp_relax (__maxnreg__); undefined in the base, whose PTX it leaves unchanged.
#ifdef MAXREG
#define SSSP_REGS __maxnreg__(MAXREG)
#else
#define SSSP_REGS
#endif

extern "C" __global__ void SSSP_REGS sssp_relax(const int *__restrict__ row, const int *__restrict__ col,
                                      const unsigned *__restrict__ weight, unsigned *dist,
                                      const int *__restrict__ active_in,
                                      int *__restrict__ active_out, int *__restrict__ changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || !active_in[u])
        return;
    unsigned du = ((volatile unsigned *)dist)[u];
    int end = row[u + 1];
    for (int e = row[u]; e < end; e++) {
        int v = col[e];
        unsigned nd = du + weight[e];
        if (nd < ((volatile unsigned *)dist)[v]) {
            unsigned old = atomicMin(&dist[v], nd);
            if (nd < old) {
                active_out[v] = 1;
                *changed = 1;
            }
        }
    }
}
