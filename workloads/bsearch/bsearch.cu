// SPDX-License-Identifier: MIT
// bsearch.cu - binary search of many keys in one sorted array (SDK/AMD-SDK-like).
//
// One thread per query key: a lower-bound search over the n sorted unsigned words (about
// log2(n) iterations, each a global load whose address depends on the previous one), then
// out[i] = position if the key is present, or ~insertion_point (negative) if it is not.
// Threads of a warp follow different paths through the array, so the loads diverge in
// address while the control flow stays nearly uniform: a latency-bound kernel.

extern "C" __global__ void bsearch_keys(const unsigned *__restrict__ sorted, int n,
                                        const unsigned *__restrict__ keys, int m,
                                        int *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    unsigned key = keys[i];
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (int)(((unsigned)lo + (unsigned)hi) >> 1);
        if (sorted[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    out[i] = (lo < n && sorted[lo] == key) ? lo : ~lo;
}
