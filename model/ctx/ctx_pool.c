/* SPDX-License-Identifier: MIT
 * ctx_pool.c - CTA contexts: acquisition and reuse per launch, the resume/restart queues, and
 * release of their storage when a launch ends (see ctx_pool.h).
 */
#include "ctx_pool.h"

#include "ctx_image.h"

#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_ctx_pool_init(struct hd_ctx_pool *p)
{
    memset(p, 0, sizeof *p);
    p->spare = HD_CTX_NONE;
    return 0;
}

static void drop_storage(struct hd_ctx *c)
{
    if (c->has_fc)
        hd_func_cta_destroy(&c->fc);
    c->has_fc = false;
    free(c->saved);
    free(c->saved_sb);
    free(c->items);
    free(c->tbr);
    free(c->wspill);
    c->wspill = NULL;
    c->cap_wspill = 0;
    hd_ctx_image_free(c->img);
    c->saved = NULL;
    c->saved_sb = NULL;
    c->items = NULL;
    c->tbr = NULL;
    c->cap_tbr = 0;
    c->img = NULL;
    c->nitems = c->cap_items = 0;
    c->saved_regs = 0;
}

void hd_ctx_pool_free(struct hd_ctx_pool *p)
{
    for (uint32_t i = 0; i < p->n; i++) {
        drop_storage(p->c[i]);
        free(p->c[i]);
    }
    free(p->c);
    memset(p, 0, sizeof *p);
    p->spare = HD_CTX_NONE;
}

/* A context struct without storage: a spare one, or a new id. */
static struct hd_ctx *new_ctx(struct hd_ctx_pool *p)
{
    if (p->spare != HD_CTX_NONE) {
        struct hd_ctx *c = p->c[p->spare];
        p->spare = c->next;
        return c;
    }
    if (p->n == p->cap) {
        uint32_t ncap = p->cap ? p->cap * 2 : 64;
        struct hd_ctx **t = realloc(p->c, ncap * sizeof *t);
        if (!t)
            return NULL;
        p->c = t;
        p->cap = ncap;
    }
    struct hd_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->id = p->n;
    p->c[p->n++] = c;
    return c;
}

struct hd_ctx *hd_ctx_acquire(struct hd_ctx_pool *p, struct hd_sm_launch *la,
                              struct hd_ctx_list *list, const struct hd_func_launch *l,
                              uint64_t linear, uint32_t smid, char *err, size_t errlen)
{
    struct hd_ctx *c;
    if (list->free_head != HD_CTX_NONE) {
        c = p->c[list->free_head];
        list->free_head = c->next;
        hd_func_cta_reset(&c->fc, linear, smid);
    } else {
        c = new_ctx(p);
        if (!c) {
            snprintf(err, errlen, "%s: host out of memory for a CTA context", l->k->entry->name);
            return NULL;
        }
        int st = hd_func_cta_init(&c->fc, l, linear, smid, err, errlen);
        if (st != HD_FUNC_OK) {
            c->next = p->spare;
            p->spare = c->id;
            return NULL;
        }
        c->has_fc = true;
    }
    c->la = la;
    c->state = HD_CTX_RESIDENT;
    c->op = HD_CTXOP_NONE;
    c->idempotent = true;
    memset(c->idem_lines, 0, sizeof c->idem_lines);
    c->restart = false;
    c->off_slots = false;
    c->switches = 0;
    c->flushes = 0;
    c->preq = HD_CTX_NONE;
    c->next = HD_CTX_NONE;
    c->absent = c->wmoving = 0;
    return c;
}

void hd_ctx_finish(struct hd_ctx_pool *p, struct hd_ctx_list *list, struct hd_ctx *c)
{
    (void)p;
    c->state = HD_CTX_FREE;
    c->epoch++;
    c->next = list->free_head;
    list->free_head = c->id;
}

void hd_ctx_reset_for_restart(struct hd_ctx *c)
{
    c->epoch++;
    hd_func_cta_reset(&c->fc, c->fc.linear, c->fc.smid);
    c->idempotent = true;
    memset(c->idem_lines, 0, sizeof c->idem_lines);
    c->restart = true;
}

void hd_ctx_forget_launch(struct hd_ctx_pool *p, struct hd_ctx_list *list)
{
    /* Everything in the free list and the queue belongs to the launch. */
    uint32_t heads[2] = {list->free_head, list->q_head};
    for (int h = 0; h < 2; h++)
        for (uint32_t j = heads[h]; j != HD_CTX_NONE;) {
            struct hd_ctx *c = p->c[j];
            uint32_t nx = c->next;
            drop_storage(c);
            c->state = HD_CTX_FREE;
            c->la = NULL;
            c->epoch++;
            c->next = p->spare;
            p->spare = c->id;
            j = nx;
        }
    list->free_head = list->q_head = list->q_tail = HD_CTX_NONE;
    list->q_len = 0;
}

void hd_ctx_pool_reset(struct hd_ctx_pool *p)
{
    p->spare = HD_CTX_NONE;
    p->evicted = 0;
    for (uint32_t i = p->n; i-- > 0;) {
        struct hd_ctx *c = p->c[i];
        drop_storage(c);
        c->state = HD_CTX_FREE;
        c->la = NULL;
        c->epoch++;
        c->next = p->spare;
        p->spare = c->id;
    }
}

void hd_ctx_queue_push(struct hd_ctx_pool *p, struct hd_ctx_list *list, struct hd_ctx *c)
{
    c->state = HD_CTX_QUEUED;
    c->next = HD_CTX_NONE;
    if (list->q_tail == HD_CTX_NONE)
        list->q_head = c->id;
    else
        p->c[list->q_tail]->next = c->id;
    list->q_tail = c->id;
    list->q_len++;
}

struct hd_ctx *hd_ctx_queue_peek(const struct hd_ctx_pool *p, const struct hd_ctx_list *list)
{
    return list->q_head == HD_CTX_NONE ? NULL : p->c[list->q_head];
}

struct hd_ctx *hd_ctx_queue_pop(struct hd_ctx_pool *p, struct hd_ctx_list *list)
{
    if (list->q_head == HD_CTX_NONE)
        return NULL;
    struct hd_ctx *c = p->c[list->q_head];
    list->q_head = c->next;
    if (list->q_head == HD_CTX_NONE)
        list->q_tail = HD_CTX_NONE;
    list->q_len--;
    c->next = HD_CTX_NONE;
    return c;
}
