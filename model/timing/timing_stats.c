/* SPDX-License-Identifier: MIT
 * timing_stats.c - building the statistics records: counter descriptors from the X-macro
 * tables, growable arrays of launches, per-line sets and samples.
 *
 * Design: see timing_stats.h. Arrays grow by doubling, which happens per launch, per kernel
 * image or per sample, never per instruction.
 */
#include "timing_stats.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* {==== Descriptors ==== */
static const struct hd_stat_desc sm_desc[] = {
#define HD_STAT(name, doc) {#name, doc, offsetof(struct hd_sm_stats, name)},
#include "sm_stats.def"
#undef HD_STAT
};
static const struct hd_stat_desc sched_desc[] = {
#define HD_STAT(name, doc) {#name, doc, offsetof(struct hd_sched_stats, name)},
#include "sched_stats.def"
#undef HD_STAT
};
static const struct hd_stat_desc launch_desc[] = {
#define HD_STAT(name, doc) {#name, doc, offsetof(struct hd_launch_stats, name)},
#include "launch_stats.def"
#undef HD_STAT
};

const struct hd_stat_desc *hd_sm_stats_desc(unsigned *n)
{
    *n = sizeof sm_desc / sizeof sm_desc[0];
    return sm_desc;
}
const struct hd_stat_desc *hd_sched_stats_desc(unsigned *n)
{
    *n = sizeof sched_desc / sizeof sched_desc[0];
    return sched_desc;
}
const struct hd_stat_desc *hd_launch_stats_desc(unsigned *n)
{
    *n = sizeof launch_desc / sizeof launch_desc[0];
    return launch_desc;
}
/* }==== */

/* {==== Records ==== */
static bool grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p)
        return false;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *arr = p;
    *cap = ncap;
    return true;
}

int hd_timing_stats_init(struct hd_timing_stats *s, uint32_t num_sms, uint32_t num_sched,
                         double core_mhz)
{
    memset(s, 0, sizeof *s);
    s->num_sms = num_sms;
    s->num_sched = num_sched;
    s->core_mhz = core_mhz;
    s->sm = calloc(num_sms, sizeof *s->sm);
    s->sched = calloc((size_t)num_sms * num_sched, sizeof *s->sched);
    if (!s->sm || !s->sched) {
        hd_timing_stats_free(s);
        return -1;
    }
    return 0;
}

void hd_timing_stats_free(struct hd_timing_stats *s)
{
    free(s->sm);
    free(s->sched);
    for (uint32_t i = 0; i < s->nlaunch; i++)
        free(s->launch[i].cta_prof);
    free(s->launch);
    for (uint32_t i = 0; i < s->nlines; i++) {
        free(s->lines[i].line);
        free(s->lines[i].issued);
        free(s->lines[i].stall);
    }
    free(s->lines);
    free(s->samples);
    free(s->prog);
    free(s->preempt);
    free(s->dobs);
    memset(s, 0, sizeof *s);
}

void hd_launch_info_note_cta(struct hd_launch_info *li, uint64_t cta, uint64_t instrs,
                             uint64_t cycles)
{
    if (cta >= li->c.ctas || li->cta_prof_oom)
        return;
    if (!li->cta_prof) {
        li->cta_prof = calloc(2 * (size_t)li->c.ctas, sizeof *li->cta_prof);
        if (!li->cta_prof) {
            li->cta_prof_oom = true;
            return;
        }
    }
    li->cta_prof[2 * cta] = instrs;
    li->cta_prof[2 * cta + 1] = cycles;
}

struct hd_launch_info *hd_timing_stats_new_launch(struct hd_timing_stats *s)
{
    if (!grow((void **)&s->launch, &s->cap_launch, s->nlaunch + 1, sizeof *s->launch))
        return NULL;
    struct hd_launch_info *li = &s->launch[s->nlaunch];
    memset(li, 0, sizeof *li);
    li->id = s->nlaunch++;
    return li;
}

int hd_timing_stats_new_lines(struct hd_timing_stats *s, const char *kernel, const char *file,
                              uint32_t npc)
{
    if (!grow((void **)&s->lines, &s->cap_lines, s->nlines + 1, sizeof *s->lines))
        return -1;
    struct hd_line_stats *ls = &s->lines[s->nlines];
    memset(ls, 0, sizeof *ls);
    ls->line = calloc(npc + 1, sizeof *ls->line);
    ls->issued = calloc(npc + 1, sizeof *ls->issued);
    ls->stall = calloc(npc + 1, sizeof *ls->stall);
    if (!ls->line || !ls->issued || !ls->stall) {
        free(ls->line);
        free(ls->issued);
        free(ls->stall);
        return -1;
    }
    ls->npc = npc;
    snprintf(ls->kernel, sizeof ls->kernel, "%s", kernel);
    snprintf(ls->file, sizeof ls->file, "%s", file ? file : "<ptx>");
    return (int)s->nlines++;
}

struct hd_sample *hd_timing_stats_new_sample(struct hd_timing_stats *s, uint32_t nprog,
                                             struct hd_sample_prog **prog)
{
    if (!grow((void **)&s->samples, &s->cap_samples, s->nsamples + 1, sizeof *s->samples) ||
        !grow((void **)&s->prog, &s->cap_prog, s->nprog + nprog, sizeof *s->prog))
        return NULL;
    struct hd_sample *sm = &s->samples[s->nsamples++];
    memset(sm, 0, sizeof *sm);
    sm->prog_off = s->nprog;
    sm->prog_n = nprog;
    *prog = &s->prog[s->nprog];
    s->nprog += nprog;
    return sm;
}

void hd_timing_stats_sched_total(const struct hd_timing_stats *s, struct hd_sched_stats *out)
{
    unsigned n;
    const struct hd_stat_desc *d = hd_sched_stats_desc(&n);
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < s->num_sms * s->num_sched; i++)
        for (unsigned k = 0; k < n; k++)
            *(uint64_t *)((char *)out + d[k].offset) += hd_stat_get(&s->sched[i], &d[k]);
}
/* }==== */
