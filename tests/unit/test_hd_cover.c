/* SPDX-License-Identifier: MIT
 * test_hd_cover.c - the functional coverage engine (model/hw/hd_cover.h; issue 16 item 2) on
 * the real bins of regpat_comp and regpat_tbcls (rtl/<b>/<b>_cover.def, from the registry):
 *   - idle cycles hit nothing, and the check names every bin as a hole;
 *   - one dead register: the "dead" bin counts once, two cycles later (latency 2), and
 *     back-to-back / idle-after-busy follow the previous cycle;
 *   - a reset counts as mid-stream only after a sampled cycle, and reset_in_flight needs a
 *     register in the pipeline;
 *   - a TB of a dead and a live warp hits dead_live_mix (the running state on the last warp);
 *   - sums over instances add counts and instances; a bin of no block is -1.
 */
#include "hw_ref.h"
#include "regpat_comp.h"
#include "regpat_tbcls.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static unsigned bin_of(const struct hd_cover *c, const char *name)
{
    for (unsigned k = 0; k < c->d->nbins; k++)
        if (strcmp(c->d->bins[k].name, name) == 0)
            return k;
    return ~0u;
}

static uint64_t count(const struct hd_cover *c, const char *name)
{
    unsigned k = bin_of(c, name);
    return k == ~0u ? UINT64_MAX : c->n[k];
}

static void comp_cycle(struct hd_cover *c, struct hd_regpat_comp_state *s,
                       const struct hd_regpat_comp_in *in)
{
    struct hd_regpat_comp_out out;
    hd_regpat_comp_ref_step(s, in, &out);
    hd_cover_sample(c, in, &out, s);
}

static void test_comp(struct hd_test_state *t)
{
    hd_test_begin(t, "regpat_comp bins");
    const struct hd_hw_ref_block *r = hd_hw_ref_find("regpat_comp");
    HD_CHECK(t, r && r->cover);
    if (!r || !r->cover)
        return;
    struct hd_cover c;
    HD_CHECK(t, hd_cover_init(&c, r->cover) == 0);
    HD_CHECK(t, bin_of(&c, "dead") != ~0u && bin_of(&c, "reset_in_flight") != ~0u);
    struct hd_regpat_comp_state s;
    hd_regpat_comp_ref_reset(&s);
    hd_cover_reset(&c); /* before any cycle: not mid-stream */
    struct hd_regpat_comp_in idle, dead;
    memset(&idle, 0, sizeof idle);
    memset(&dead, 0, sizeof dead);
    dead.valid_i = 1;
    dead.pag_i = HD_REGPAT_PAG16;
    dead.data_i[0] = 7;
    for (int i = 0; i < 3; i++)
        comp_cycle(&c, &s, &idle);
    unsigned reach, hit = hd_cover_hit(&c, &reach);
    HD_CHECK_U64(t, 0, hit);
    HD_CHECK_U64(t, 0, c.resets);
    FILE *devnull = fopen("/dev/null", "w");
    HD_CHECK_U64(t, reach, hd_cover_check(&c, "test", devnull ? devnull : stderr));
    comp_cycle(&c, &s, &dead);
    comp_cycle(&c, &s, &dead);
    HD_CHECK_U64(t, 1, count(&c, "back_to_back"));
    HD_CHECK_U64(t, 2, count(&c, "dead_nonzero"));
    HD_CHECK_U64(t, 0, count(&c, "dead")); /* not out yet: latency 2 */
    comp_cycle(&c, &s, &idle);
    HD_CHECK_U64(t, 1, count(&c, "dead"));
    HD_CHECK_U64(t, 1, count(&c, "idle_after_busy"));
    hd_cover_reset(&c); /* pout->valid_o: a result was leaving the pipeline */
    hd_regpat_comp_ref_reset(&s);
    comp_cycle(&c, &s, &idle);
    HD_CHECK_U64(t, 1, c.resets);
    HD_CHECK_U64(t, 1, count(&c, "reset_in_flight"));
    HD_CHECK_U64(t, 1, count(&c, "dead"));
    hd_cover_reset(&c); /* nothing inside: a reset, not in flight */
    comp_cycle(&c, &s, &idle);
    HD_CHECK_U64(t, 2, c.resets);
    HD_CHECK_U64(t, 1, count(&c, "reset_in_flight"));
    HD_CHECK(t, hd_cover_check(&c, "test", devnull ? devnull : stderr) > 0);
    /* sums */
    struct hd_cover_sum *sum = hd_cover_sum_create();
    HD_CHECK(t, sum && hd_cover_sum_add(sum, &c) == 0 && hd_cover_sum_add(sum, &c) == 0);
    HD_CHECK(t, hd_cover_sum_count(sum, "regpat_comp", "dead_nonzero") == 4);
    HD_CHECK(t, hd_cover_sum_count(sum, "regpat_comp", "no_such_bin") == -1);
    HD_CHECK(t, hd_cover_sum_count(sum, "no_block", "dead") == -1);
    if (devnull) {
        hd_cover_sum_print(sum, "test", devnull);
        fclose(devnull);
    }
    hd_cover_sum_destroy(sum);
    hd_cover_free(&c);
}

static void test_tbcls(struct hd_test_state *t)
{
    hd_test_begin(t, "regpat_tbcls dead/live mix");
    const struct hd_hw_ref_block *r = hd_hw_ref_find("regpat_tbcls");
    HD_CHECK(t, r && r->cover);
    if (!r || !r->cover)
        return;
    struct hd_cover c;
    HD_CHECK(t, hd_cover_init(&c, r->cover) == 0);
    struct hd_regpat_tbcls_state s;
    hd_regpat_tbcls_ref_reset(&s);
    struct hd_regpat_tbcls_in w[3];
    memset(w, 0, sizeof w);
    w[0].valid_i = w[0].first_i = 1; /* dead */
    w[0].pag_i = HD_REGPAT_PAG32;
    w[1] = w[0];
    w[1].first_i = 0;
    w[1].last_i = 1;
    w[1].pat_i = HD_REGPAT_UNIFORM; /* live, base 0 */
    struct hd_regpat_tbcls_out out;
    for (int i = 0; i < 3; i++) { /* w[2]: idle */
        hd_regpat_tbcls_ref_step(&s, &w[i], &out);
        hd_cover_sample(&c, &w[i], &out, &s);
    }
    HD_CHECK_U64(t, 1, count(&c, "dead_live_mix"));
    HD_CHECK_U64(t, 1, count(&c, "dead_live_mix_only"));
    HD_CHECK_U64(t, 1, count(&c, "cls_random"));
    HD_CHECK_U64(t, 1, count(&c, "tb_pag32"));
    HD_CHECK_U64(t, 0, count(&c, "single_warp_tb"));
    hd_cover_free(&c);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_comp(&t);
    test_tbcls(&t);
    return hd_test_finish(&t);
}
