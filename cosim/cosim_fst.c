/* SPDX-License-Identifier: MIT
 * cosim_fst.c - FST writing for co-simulated instances (cosim_fst.h), with the RTL-internal
 * signals of the instances added by hd_cosim_fst_add_internal (issue 16 item 5).
 */
#include "cosim_fst.h"

#include "fstapi.h"
#include "hd_outfile.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* model.now, then the block's HD_TAG fields */
#define HD_FST_TAGS (1 + HD_BLOCK_MAX_TAGS)

struct fst_inst {
    const struct hd_block_desc *b; /* kept by value: an instance may be freed before the close */
    char scope[64];
    fstHandle clk, *in, *ref, *rtl; /* [nports] (only the direction's entries are used) */
    fstHandle tag[HD_FST_TAGS];
    /* RTL-internal signals (hd_cosim_fst_add_internal; nint = 0: none) */
    const struct hd_cosim_rtl_ops *be; /* the live instance's RTL backend and handle */
    void *be_h;
    unsigned nint;
    fstHandle *ih;
    unsigned *iw;          /* widths */
    char **iname;          /* names (copied: the .gtkw is written after the instance is gone) */
    uint32_t *last;        /* last values emitted, (w + 31) / 32 words each from ioff[k] */
    size_t *ioff;
    bool emitted;          /* last[] holds values */
};

struct hd_cosim_fst {
    void *w;
    struct hd_outfile of; /* fstapi writes of.name (a temporary file), renamed at the close */
    char path[512];
    struct fst_inst *inst; /* every instance added (grown as needed: none is ever dropped) */
    unsigned n, cap;
    uint64_t t;        /* last time emitted + 1 (0: nothing yet) */
    bool late;         /* variables declared after the last value emitted */
    char *bits;        /* scratch for value strings */
};

/* Name and width of model-side field t of block b (t = 0: the model time). */
static const char *tag_name(const struct hd_block_desc *b, unsigned t)
{
    return t == 0 ? "now" : b->tags[t - 1].name;
}

static unsigned tag_width(const struct hd_block_desc *b, unsigned t)
{
    return t == 0 ? 64u : b->tags[t - 1].width;
}

struct hd_cosim_fst *hd_cosim_fst_open(const char *path)
{
    struct hd_cosim_fst *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->bits = malloc(4096);
    char why[256];
    if (!f->bits || hd_outfile_open(&f->of, path, true, why, sizeof why) != 0) {
        free(f->bits);
        free(f);
        return NULL;
    }
    f->w = fstWriterCreate(f->of.name, 1);
    if (!f->w) {
        hd_outfile_discard(&f->of);
        free(f->bits);
        free(f);
        return NULL;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    fstWriterSetTimescale(f->w, -9);
    fstWriterSetVersion(f->w, "heddle cosim");
    return f;
}

static fstHandle var(void *w, unsigned width, const char *name)
{
    return fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, name, 0);
}

/* The generate-block scopes open under "int" while declaring internal signals. */
struct gen_scopes {
    unsigned n;
    char c[8][128];
};

/* Enter the FST scopes of the dotted prefix of signal `name` ("g_cand[0].g_ov[1].hi_e": generate
 * blocks), leaving those of the previous signal it does not share; returns the leaf name (deeper
 * than 8 levels, the rest stays in it). */
static const char *gen_scopes_to(void *w, struct gen_scopes *st, const char *name)
{
    char comp[8][128];
    unsigned n = 0;
    const char *p = name, *dot;
    while (n < 8 && (dot = strchr(p, '.')) != NULL) {
        snprintf(comp[n++], sizeof comp[0], "%.*s", (int)(dot - p), p);
        p = dot + 1;
    }
    unsigned keep = 0;
    while (keep < st->n && keep < n && strcmp(st->c[keep], comp[keep]) == 0)
        keep++;
    for (; st->n > keep; st->n--)
        fstWriterSetUpscope(w);
    for (; st->n < n; st->n++) {
        fstWriterSetScope(w, FST_ST_VCD_GENERATE, comp[st->n], NULL);
        memcpy(st->c[st->n], comp[st->n], sizeof comp[0]);
    }
    return p;
}

/* Declare x's RTL-internal signals in the current scope (the instance's), under "int" (and its
 * generate blocks' scopes below it). */
static int add_internal(struct hd_cosim_fst *f, struct fst_inst *fi, const struct hd_cosim_inst *x)
{
    const struct hd_cosim_rtl_ops *r = x->rtl;
    unsigned n = r->nsignals(x->rtl_h);
    fi->ih = calloc(n ? n : 1, sizeof *fi->ih);
    fi->iw = calloc(n ? n : 1, sizeof *fi->iw);
    fi->iname = calloc(n ? n : 1, sizeof *fi->iname);
    fi->ioff = calloc(n ? n : 1, sizeof *fi->ioff);
    if (!fi->ih || !fi->iw || !fi->iname || !fi->ioff)
        return -1;
    fi->nint = n;
    size_t words = 0;
    struct gen_scopes gs = {.n = 0};
    fstWriterSetScope(f->w, FST_ST_VCD_MODULE, "int", NULL);
    for (unsigned k = 0; k < n; k++) {
        const char *name = r->signal(x->rtl_h, k, &fi->iw[k]);
        size_t len = strlen(name);
        if (!(fi->iname[k] = malloc(len + 1)))
            return -1;
        memcpy(fi->iname[k], name, len + 1);
        fi->ih[k] = var(f->w, fi->iw[k], gen_scopes_to(f->w, &gs, name));
        fi->ioff[k] = words;
        words += (fi->iw[k] + 31u) / 32u;
        if (fi->iw[k] + 1u > 4096u) { /* f->bits holds one value */
            char *nb = realloc(f->bits, fi->iw[k] + 1u);
            if (!nb)
                return -1;
            f->bits = nb;
        }
    }
    for (; gs.n > 0; gs.n--)
        fstWriterSetUpscope(f->w);
    fstWriterSetUpscope(f->w);
    if (!(fi->last = calloc(words ? words : 1, sizeof *fi->last)))
        return -1;
    fi->be = r;
    fi->be_h = x->rtl_h;
    return 0;
}

static void free_inst(struct fst_inst *fi)
{
    free(fi->in);
    free(fi->ref);
    free(fi->rtl);
    for (unsigned k = 0; fi->iname && k < fi->nint; k++)
        free(fi->iname[k]);
    free(fi->iname);
    free(fi->ih);
    free(fi->iw);
    free(fi->ioff);
    free(fi->last);
}

static int add(struct hd_cosim_fst *f, const struct hd_cosim_inst *x, bool internal)
{
    f->late = f->t != 0; /* (fstapi drops its value maps at a late declaration) */
    if (f->n == f->cap) {
        unsigned cap = f->cap ? 2u * f->cap : 64u;
        struct fst_inst *ni = realloc(f->inst, cap * sizeof *ni);
        if (!ni)
            return -1;
        f->inst = ni;
        f->cap = cap;
    }
    struct fst_inst *fi = &f->inst[f->n];
    memset(fi, 0, sizeof *fi);
    const struct hd_block_desc *b = x->b;
    fi->b = b;
    snprintf(fi->scope, sizeof fi->scope, "%s", x->name);
    for (char *c = fi->scope; *c; c++)
        if (*c == '.')
            *c = '_';
    fi->in = calloc(b->nports, sizeof *fi->in);
    fi->ref = calloc(b->nports, sizeof *fi->ref);
    fi->rtl = calloc(b->nports, sizeof *fi->rtl);
    if (!fi->in || !fi->ref || !fi->rtl)
        return -1;
    fstWriterSetScope(f->w, FST_ST_VCD_MODULE, "cosim", NULL);
    fstWriterSetScope(f->w, FST_ST_VCD_MODULE, fi->scope, NULL);
    fi->clk = var(f->w, 1, b->clock);
    static const char *const sub[3] = {"in", "ref", "rtl"};
    for (unsigned s = 0; s < 3; s++) {
        fstWriterSetScope(f->w, FST_ST_VCD_MODULE, sub[s], NULL);
        for (unsigned i = 0; i < b->nports; i++) {
            const struct hd_port_desc *p = &b->ports[i];
            if ((p->dir == HD_DIR_IN) != (s == 0))
                continue;
            fstHandle h = var(f->w, p->width, p->name);
            (s == 0 ? fi->in : s == 1 ? fi->ref : fi->rtl)[i] = h;
        }
        fstWriterSetUpscope(f->w);
    }
    fstWriterSetScope(f->w, FST_ST_VCD_MODULE, "model", NULL);
    for (unsigned t = 0; t <= b->ntags; t++)
        fi->tag[t] = var(f->w, tag_width(b, t), tag_name(b, t));
    fstWriterSetUpscope(f->w);
    int rc = internal && x->rtl && x->rtl->nsignals ? add_internal(f, fi, x) : 0;
    fstWriterSetUpscope(f->w);
    fstWriterSetUpscope(f->w);
    if (rc != 0) {
        free_inst(fi);
        return -1;
    }
    return (int)f->n++;
}

int hd_cosim_fst_add(struct hd_cosim_fst *f, const struct hd_cosim_inst *x)
{
    return add(f, x, false);
}

int hd_cosim_fst_add_internal(struct hd_cosim_fst *f, const struct hd_cosim_inst *x)
{
    return add(f, x, true);
}

/* The internal signals of fi whose value changed since the last cycle emitted (all the first
 * time), at the current time. */
static void emit_internal(struct hd_cosim_fst *f, struct fst_inst *fi)
{
    for (unsigned k = 0; k < fi->nint; k++) {
        const uint32_t *v = fi->be->value(fi->be_h, k);
        unsigned w = fi->iw[k], nw = (w + 31u) / 32u;
        uint32_t *last = fi->last + fi->ioff[k];
        if (fi->emitted && memcmp(last, v, nw * sizeof *v) == 0)
            continue;
        memcpy(last, v, nw * sizeof *v);
        for (unsigned bit = 0; bit < w; bit++)
            f->bits[w - 1 - bit] = (v[bit / 32u] >> (bit % 32u)) & 1u ? '1' : '0';
        f->bits[w] = '\0';
        fstWriterEmitValueChange(f->w, fi->ih[k], f->bits);
    }
    fi->emitted = true;
}

static void emit_port(struct hd_cosim_fst *f, fstHandle h, const struct hd_port_desc *p,
                      const void *io)
{
    for (unsigned bit = 0; bit < p->width; bit++)
        f->bits[p->width - 1 - bit] = hd_port_bit(p, io, bit) ? '1' : '0';
    f->bits[p->width] = '\0';
    fstWriterEmitValueChange(f->w, h, f->bits);
}

static void time_to(struct hd_cosim_fst *f, uint64_t t)
{
    if (f->t == 0 || t + 1 > f->t) {
        fstWriterEmitTimeChange(f->w, t);
        f->t = t + 1;
    }
}

void hd_cosim_fst_cycle(struct hd_cosim_fst *f, int idx, uint64_t gcycle, const void *in,
                        const void *ref_out, const void *rtl_out, const struct hd_cosim_tag *tag)
{
    if (idx < 0 || (unsigned)idx >= f->n)
        return;
    struct fst_inst *fi = &f->inst[idx];
    const struct hd_block_desc *b = fi->b;
    time_to(f, gcycle * 10u);
    fstWriterEmitValueChange(f->w, fi->clk, "1");
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir == HD_DIR_IN) {
            emit_port(f, fi->in[i], p, in);
        } else {
            emit_port(f, fi->ref[i], p, ref_out);
            emit_port(f, fi->rtl[i], p, rtl_out);
        }
    }
    for (unsigned t = 0; t <= b->ntags; t++) {
        unsigned w = tag_width(b, t);
        uint64_t v = t == 0 ? tag->now : tag->f[t - 1];
        if (w < 64)
            v &= ((uint64_t)1 << w) - 1u;
        fstWriterEmitValueChange64(f->w, fi->tag[t], w, v);
    }
    if (fi->nint)
        emit_internal(f, fi);
    time_to(f, gcycle * 10u + 5u);
    fstWriterEmitValueChange(f->w, fi->clk, "0");
    f->late = false;
}

static int write_gtkw(const struct hd_cosim_fst *f, const char *path, uint64_t marker)
{
    struct hd_outfile of;
    char why[256];
    if (hd_outfile_open(&of, path, false, why, sizeof why) != 0)
        return -1;
    FILE *g = of.f;
    fprintf(g, "[*] GTKWave save file written by heddle cosim\n[dumpfile] \"%s\"\n", f->path);
    if (marker != UINT64_MAX)
        fprintf(g, "[markertime] %" PRIu64 "\n", marker * 10u);
    fprintf(g, "[timestart] 0\n[sst_expanded] 1\n");
    for (unsigned k = 0; k < f->n; k++) {
        const struct fst_inst *fi = &f->inst[k];
        const struct hd_block_desc *b = fi->b;
        fprintf(g, "-%s\n@28\ncosim.%s.%s\n", fi->scope, fi->scope, b->clock);
        static const char *const sub[3] = {"in", "ref", "rtl"};
        for (unsigned s = 0; s < 3; s++)
            for (unsigned i = 0; i < b->nports; i++) {
                const struct hd_port_desc *p = &b->ports[i];
                if ((p->dir == HD_DIR_IN) != (s == 0))
                    continue;
                if (p->width == 1)
                    fprintf(g, "@28\ncosim.%s.%s.%s\n", fi->scope, sub[s], p->name);
                else
                    fprintf(g, "@22\ncosim.%s.%s.%s[%u:0]\n", fi->scope, sub[s], p->name,
                            p->width - 1);
            }
        for (unsigned t = 0; t <= b->ntags; t++)
            fprintf(g, "@24\ncosim.%s.model.%s[%u:0]\n", fi->scope, tag_name(b, t),
                    tag_width(b, t) - 1);
        if (!fi->nint)
            continue;
        /* the RTL-internal signals: a group per instance (GTKWave flags: group begin/end) */
        fprintf(g, "@800200\n-%s internal\n", fi->scope);
        for (unsigned j = 0; j < fi->nint; j++)
            if (fi->iw[j] == 1)
                fprintf(g, "@28\ncosim.%s.int.%s\n", fi->scope, fi->iname[j]);
            else
                fprintf(g, "@22\ncosim.%s.int.%s[%u:0]\n", fi->scope, fi->iname[j],
                        fi->iw[j] - 1);
        fprintf(g, "@1000200\n-%s internal\n", fi->scope);
    }
    return hd_outfile_commit(&of, why, sizeof why);
}

int hd_cosim_fst_close(struct hd_cosim_fst *f, const char *gtkw_path, uint64_t marker_gcycle)
{
    if (!f)
        return 0;
    int rc = 0;
    if (f->t == 0) /* an empty file still gets a time so viewers open it */
        fstWriterEmitTimeChange(f->w, 0);
    else if (f->late && f->n) /* instances declared after the last cycle dumped (a codec made at a
                                 later save): a value change rebuilds fstapi's maps, without
                                 which its close reads them as NULL */
        fstWriterEmitValueChange(f->w, f->inst[f->n - 1].clk, "0");
    fstWriterClose(f->w);
    char why[256];
    rc = hd_outfile_commit(&f->of, why, sizeof why); /* the FST is complete: rename it */
    if (gtkw_path && write_gtkw(f, gtkw_path, marker_gcycle) != 0)
        rc = -1;
    for (unsigned k = 0; k < f->n; k++)
        free_inst(&f->inst[k]);
    free(f->inst);
    free(f->bits);
    free(f);
    return rc;
}

int hd_cosim_fst_dump_history(const char *path, struct hd_cosim_inst *const *xs, unsigned n,
                              unsigned before, uint64_t marker)
{
    struct hd_cosim_fst *f = hd_cosim_fst_open(path);
    if (!f)
        return -1;
    int *idx = calloc(n ? n : 1, sizeof *idx);
    if (!idx) {
        hd_cosim_fst_close(f, NULL, UINT64_MAX);
        return -1;
    }
    for (unsigned k = 0; k < n; k++)
        if ((idx[k] = hd_cosim_fst_add(f, xs[k])) < 0) {
            free(idx);
            hd_cosim_fst_close(f, NULL, UINT64_MAX);
            return -1;
        }
    /* The instances of one SM step together: walk ages from oldest to newest. */
    unsigned maxage = 0;
    for (unsigned k = 0; k < n; k++)
        if (xs[k]->count > maxage)
            maxage = xs[k]->count;
    if (maxage > before)
        maxage = before;
    for (unsigned age = maxage; age-- > 0;)
        for (unsigned k = 0; k < n; k++) {
            const void *in, *ro, *to;
            const struct hd_cosim_tag *tag;
            uint64_t gc;
            if (hd_cosim_hist(xs[k], age, &in, &ro, &to, &tag, &gc))
                hd_cosim_fst_cycle(f, idx[k], gc, in, ro, to, tag);
        }
    char gtkw[600];
    snprintf(gtkw, sizeof gtkw, "%s", path);
    size_t len = strlen(gtkw);
    if (len > 4 && strcmp(gtkw + len - 4, ".fst") == 0)
        gtkw[len - 4] = '\0';
    strncat(gtkw, ".gtkw", sizeof gtkw - strlen(gtkw) - 1);
    free(idx);
    return hd_cosim_fst_close(f, gtkw, marker);
}
