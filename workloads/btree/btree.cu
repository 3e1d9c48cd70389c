// SPDX-License-Identifier: MIT
// btree.cu - B+tree lookups: exact-key search (btree_find_k) and range counting (btree_find_range).
//
// Tree layout (built by the host): node k holds up to BT_ORDER sorted keys in keys[k*BT_ORDER ..]
// and nkeys[k] of them are valid. In an internal node, slot s points to child[k*BT_ORDER + s], the
// subtree of keys in [keys[s], keys[s+1]) (slot 0 also takes everything below keys[1]). In a leaf,
// child[] holds the record of the key in the same slot, and base[k] is the global rank of its first
// key (leaves are numbered in key order).
//
// One CTA of BT_ORDER threads serves one query; thread s examines slot s of the current node, so a
// node is searched in one step. The current node of every query lives in global memory (curr[q],
// set to the root by the host) and is advanced in place, level by level for `height` internal
// levels, with a barrier between reading it and overwriting it. A re-run CTA would therefore start
// from the leaf and descend past it: the kernels are NOT idempotent (as in the reference Rodinia
// b+tree, where most of the CTAs are not flushable).

#define BT_ORDER 256
#define BT_KEY_MAX 0x7fffffff

// Advance *cur one level towards `key`: exactly one valid slot covers the key.
__device__ static void bt_step(const int *__restrict__ keys, const int *__restrict__ child,
                               const int *__restrict__ nkeys, int *cur, int key)
{
    int t = threadIdx.x;
    int node = *cur;
    int nk = nkeys[node];
    __syncthreads(); // everyone has read *cur before it changes
    if (t < nk) {
        int k0 = keys[node * BT_ORDER + t];
        int k1 = (t + 1 < nk) ? keys[node * BT_ORDER + t + 1] : BT_KEY_MAX;
        if ((t == 0 || k0 <= key) && key < k1)
            *cur = child[node * BT_ORDER + t];
    }
    __syncthreads();
}

extern "C" __global__ void btree_find_k(const int *__restrict__ keys, const int *__restrict__ child,
                                        const int *__restrict__ nkeys, int height,
                                        const int *__restrict__ query, int *curr, int *record)
{
    int q = blockIdx.x;
    int t = threadIdx.x;
    int key = query[q];
    for (int level = 0; level < height; level++)
        bt_step(keys, child, nkeys, &curr[q], key);

    int leaf = curr[q];
    int nk = nkeys[leaf];
    if (t == 0)
        record[q] = -1;
    __syncthreads();
    if (t < nk && keys[leaf * BT_ORDER + t] == key)
        record[q] = child[leaf * BT_ORDER + t];
}

// Number of keys in [lo[q], hi[q]]: rank(first key >= lo) .. rank(last key <= hi). The two
// descents run side by side in the same CTA.
extern "C" __global__ void btree_find_range(const int *__restrict__ keys,
                                            const int *__restrict__ child,
                                            const int *__restrict__ nkeys,
                                            const int *__restrict__ base, int height,
                                            const int *__restrict__ lo, const int *__restrict__ hi,
                                            int *curr_lo, int *curr_hi, int *start, int *count)
{
    __shared__ int below_lo, upto_hi;
    int q = blockIdx.x;
    int t = threadIdx.x;
    int klo = lo[q], khi = hi[q];
    for (int level = 0; level < height; level++) {
        bt_step(keys, child, nkeys, &curr_lo[q], klo);
        bt_step(keys, child, nkeys, &curr_hi[q], khi);
    }

    int leaf_lo = curr_lo[q], leaf_hi = curr_hi[q];
    int nlo = nkeys[leaf_lo], nhi = nkeys[leaf_hi];
    if (t == 0) {
        below_lo = 0;
        upto_hi = 0;
    }
    __syncthreads();
    // The last slot holding a key < lo (resp. <= hi) writes how many keys precede the bound.
    if (t < nlo) {
        int k0 = keys[leaf_lo * BT_ORDER + t];
        int k1 = (t + 1 < nlo) ? keys[leaf_lo * BT_ORDER + t + 1] : BT_KEY_MAX;
        if (k0 < klo && (t + 1 == nlo || k1 >= klo))
            below_lo = t + 1;
    }
    if (t < nhi) {
        int k0 = keys[leaf_hi * BT_ORDER + t];
        int k1 = (t + 1 < nhi) ? keys[leaf_hi * BT_ORDER + t + 1] : BT_KEY_MAX;
        if (k0 <= khi && (t + 1 == nhi || k1 > khi))
            upto_hi = t + 1;
    }
    __syncthreads();
    if (t == 0) {
        int s = base[leaf_lo] + below_lo;
        int e = base[leaf_hi] + upto_hi;
        start[q] = s;
        count[q] = e > s ? e - s : 0;
    }
}
