/* SPDX-License-Identifier: MIT
 * xorwow_jump.c - host side of the XORWOW generators of estimatepi and asianoption: step, seed,
 * GF(2) jump matrices and the sliced device table (see xorwow_jump.h).
 */
#include "xorwow_jump.h"

#include "workload.h"

#include <stdlib.h>
#include <string.h>

typedef uint32_t xw_mat[160][5];

static void xw_step_linear(const uint32_t in[5], uint32_t out[5])
{
    uint32_t t = in[0] ^ (in[0] >> 2);
    out[0] = in[1];
    out[1] = in[2];
    out[2] = in[3];
    out[3] = in[4];
    out[4] = (in[4] ^ (in[4] << 4)) ^ (t ^ (t << 1));
}

static void xw_apply(const xw_mat m, const uint32_t v[5], uint32_t out[5])
{
    uint32_t o[5] = {0, 0, 0, 0, 0};
    for (int j = 0; j < 160; j++)
        if ((v[j >> 5] >> (j & 31)) & 1u)
            for (int w = 0; w < 5; w++)
                o[w] ^= m[j][w];
    memcpy(out, o, sizeof o);
}

static void xw_square(xw_mat m, xw_mat tmp)
{
    for (int j = 0; j < 160; j++)
        xw_apply(m, m[j], tmp[j]);
    memcpy(m, tmp, sizeof(xw_mat));
}

void xw_seed(struct xw_state *s, uint64_t seed)
{
    static const uint32_t base[5] = {123456789u, 362436069u, 521288629u, 88675123u, 5783321u};
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, seed);
    for (int w = 0; w < 5; w++)
        s->x[w] = base[w] ^ hd_wl_rng_u32(&rng);
    s->d = 6615241u + hd_wl_rng_u32(&rng);
}

uint32_t xw_next(struct xw_state *s)
{
    uint32_t n[5];
    xw_step_linear(s->x, n);
    memcpy(s->x, n, sizeof n);
    s->d += XW_WEYL;
    return s->x[4] + s->d;
}

int xw_jumps_build(struct xw_jumps *j, int bits, const struct xw_state *check, int *bad_k)
{
    xw_mat *m = malloc(2 * sizeof(xw_mat));
    j->bits = bits;
    j->mat = malloc((size_t)(bits > 0 ? bits : 1) * sizeof(xw_mat));
    j->table = malloc((size_t)(bits > 0 ? bits : 1) * XW_TABLE_WORDS * sizeof(uint32_t));
    if (!m || !j->mat || !j->table) {
        free(m);
        xw_jumps_free(j);
        return -1;
    }
    for (int c = 0; c < 160; c++) {
        uint32_t e[5] = {0, 0, 0, 0, 0};
        e[c >> 5] = 1u << (c & 31);
        xw_step_linear(e, m[0][c]);
    }
    /* M^(2^k) against 2^k plain steps, k = 0 .. 12. */
    struct xw_state stepped = *check;
    for (int k = 0; k <= 12; k++) {
        for (long i = 0; i < (k == 0 ? 1L : 1L << (k - 1)); i++)
            (void)xw_next(&stepped);
        uint32_t jumped[5];
        xw_apply(m[0], check->x, jumped);
        if (memcmp(jumped, stepped.x, sizeof jumped) != 0) {
            *bad_k = k;
            free(m);
            xw_jumps_free(j);
            return -2;
        }
        xw_square(m[0], m[1]);
    }
    for (int k = 13; k < XW_SKIP_LOG2; k++)
        xw_square(m[0], m[1]);
    for (int b = 0; b < bits; b++) {
        memcpy(j->mat[b], m[0], sizeof(xw_mat));
        uint32_t *tb = j->table + (size_t)b * XW_TABLE_WORDS;
        for (int slice = 0; slice < XW_SLICES; slice++)
            for (int nib = 0; nib < 16; nib++) {
                uint32_t *p = tb + (slice * 16 + nib) * 5;
                memset(p, 0, 5 * sizeof(uint32_t));
                for (int i = 0; i < 4; i++)
                    if (nib & (1 << i))
                        for (int w = 0; w < 5; w++)
                            p[w] ^= m[0][slice * 4 + i][w];
            }
        xw_square(m[0], m[1]);
    }
    free(m);
    return 0;
}

void xw_jumps_free(struct xw_jumps *j)
{
    free(j->mat);
    free(j->table);
    j->mat = NULL;
    j->table = NULL;
}

void xw_jump_thread(const struct xw_jumps *j, struct xw_state *s, uint32_t tid)
{
    for (int b = 0; b < j->bits; b++)
        if ((tid >> b) & 1u)
            xw_apply(j->mat[b], s->x, s->x);
}
