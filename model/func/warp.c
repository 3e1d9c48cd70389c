/* SPDX-License-Identifier: MIT
 * warp.c - warp state: initialization, SIMT stack normalization, context save and restore.
 *
 * Design: see warp.h. A saved context is the warp struct followed by its registers and its local
 * memory, byte for byte; restoring keeps the destination's storage pointers (which belong to
 * whoever allocated them) and copies the contents back, so a warp can be switched out and later
 * resumed in the same or another slot of the same shape.
 */
#include "warp.h"

#include <string.h>

void hd_func_warp_init(struct hd_func_warp *w, uint32_t id, const uint32_t block[3],
                       uint32_t nthreads, uint64_t *regs, uint32_t nregs, uint8_t *local,
                       uint64_t local_bytes)
{
    memset(w, 0, sizeof *w);
    w->id = id;
    uint32_t first = id * HD_FUNC_WARP_SIZE;
    uint32_t n = nthreads - first < HD_FUNC_WARP_SIZE ? nthreads - first : HD_FUNC_WARP_SIZE;
    w->valid = n >= 32 ? 0xffffffffu : ((1u << n) - 1);
    for (uint32_t l = 0; l < HD_FUNC_WARP_SIZE; l++) {
        uint32_t t = first + l;
        w->tid[0][l] = (uint16_t)(t % block[0]);
        w->tid[1][l] = (uint16_t)((t / block[0]) % block[1]);
        w->tid[2][l] = (uint16_t)(t / (block[0] * block[1]));
    }
    w->regs = regs;
    w->nregs = nregs;
    w->local = local;
    w->local_bytes = local_bytes;
    w->stack[0] = (struct hd_func_simt_entry){0, HD_FUNC_PC_NONE, w->valid};
    w->sp = 1;
    w->bar_dst = -1;
}

void hd_func_warp_normalize(struct hd_func_warp *w)
{
    while (w->sp > 0) {
        const struct hd_func_simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        w->sp--;
        while (w->nframes > 0 && w->sp <= w->frames[w->nframes - 1].base)
            w->nframes--;
    }
    if (w->sp == 0 || (w->exited & w->valid) == w->valid) {
        w->sp = 0;
        w->nframes = 0;
        w->done = true;
    }
}

/* {==== Context save/restore ==== */
size_t hd_func_warp_context_bytes(const struct hd_func_warp *w)
{
    return sizeof *w + (size_t)w->nregs * HD_FUNC_WARP_SIZE * sizeof(uint64_t) +
           (size_t)w->local_bytes * HD_FUNC_WARP_SIZE;
}

void hd_func_warp_save(const struct hd_func_warp *w, void *buf)
{
    uint8_t *p = buf;
    memcpy(p, w, sizeof *w);
    p += sizeof *w;
    size_t rb = (size_t)w->nregs * HD_FUNC_WARP_SIZE * sizeof(uint64_t);
    memcpy(p, w->regs, rb);
    p += rb;
    memcpy(p, w->local, (size_t)w->local_bytes * HD_FUNC_WARP_SIZE);
}

bool hd_func_warp_restore(struct hd_func_warp *w, const void *buf)
{
    struct hd_func_warp saved;
    const uint8_t *p = buf;
    memcpy(&saved, p, sizeof saved);
    if (saved.nregs != w->nregs || saved.local_bytes != w->local_bytes)
        return false;
    p += sizeof saved;
    uint64_t *regs = w->regs;
    uint8_t *local = w->local;
    size_t rb = (size_t)w->nregs * HD_FUNC_WARP_SIZE * sizeof(uint64_t);
    *w = saved;
    w->regs = regs;
    w->local = local;
    memcpy(w->regs, p, rb);
    p += rb;
    memcpy(w->local, p, (size_t)w->local_bytes * HD_FUNC_WARP_SIZE);
    return true;
}
/* }==== */
