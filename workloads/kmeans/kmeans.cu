// SPDX-License-Identifier: MIT
// kmeans.cu - the device half of Lloyd's k-means clustering.
//
// km_invert_mapping transposes the points from point-major (one point's features contiguous, as
// read from a file) to feature-major, so that in km_assign the 32 threads of a warp, one point
// each, read 32 consecutive floats of the same feature (coalesced).
//
// km_assign gives every point the index of its nearest centroid (squared Euclidean distance, the
// lowest index on a tie). The centroids live in constant memory, written by the host before each
// iteration: all threads of a warp read the same centroid element at once (a broadcast). The host
// recomputes the centroids from the memberships between launches. Both kernels only read their
// inputs and overwrite their outputs, so both are idempotent.

#define HD_KM_MAX_CLUSTERS 16
#define HD_KM_MAX_FEATURES 64

__constant__ float km_centroids[HD_KM_MAX_CLUSTERS * HD_KM_MAX_FEATURES];

extern "C" __global__ void km_invert_mapping(const float *__restrict__ in, float *__restrict__ out,
                                             int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
#pragma unroll 4
    for (int f = 0; f < nfeatures; f++)
        out[f * npoints + p] = in[p * nfeatures + f];
}

extern "C" __global__ void km_assign(const float *__restrict__ features, int *__restrict__ membership,
                                     int npoints, int nclusters, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;

    int best = 0;
    float best_dist = 3.402823466e38f;
    for (int k = 0; k < nclusters; k++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float d = features[f * npoints + p] - km_centroids[k * nfeatures + f];
            dist += d * d;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = k;
        }
    }
    membership[p] = best;
}
