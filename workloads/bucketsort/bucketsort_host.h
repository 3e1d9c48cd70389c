/* SPDX-License-Identifier: MIT
 * bucketsort_host.h - the host-side helpers both bucketsort drivers share (bucketsort.c, the
 * bitonic stand-in; bucketsort_rod.c, Rodinia hybridsort's kernels in their form): the key order
 * of the CPU references and the bucket of a key between ascending pivots.
 */
#ifndef HD_BUCKETSORT_HOST_H
#define HD_BUCKETSORT_HOST_H

/* qsort's order of float keys (the CPU references' sort). */
static inline int bs_key_cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The bucket of key among ndiv buckets: the number of pivots <= key among piv[0 .. ndiv - 1)
 * (0 .. ndiv - 1), by binary search. */
static inline int bs_bucket(const float *piv, int ndiv, float key)
{
    int lo = 0, hi = ndiv - 1;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (piv[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
