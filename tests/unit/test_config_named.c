/* SPDX-License-Identifier: MIT
 * test_config_named.c - the named configurations hold the values of the tables they cite
 * (Lin Table 2.1 / GPGPU-Sim GTX480, Gong Table 4.1, Lin Table 3.1), list the same key set (the
 * keys of params.def, each once), and pass the timing model's own checks (through the same
 * hd_config_validate every loader runs). Runs from the source directory.
 */
#include "config.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool load(struct hd_test_state *t, const char *path, struct hd_config *c)
{
    char err[512] = "";
    if (HD_CHECK(t, hd_config_load(path, c, err, sizeof err) == 0))
        return true;
    fprintf(stderr, "  %s\n", err);
    return false;
}

/* The "section.key" lines a file sets, in a calloc'd array of counts per parameter. */
static unsigned *keys_of(const char *path)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    unsigned *count = calloc(n, sizeof *count);
    FILE *f = fopen(path, "r");
    if (!count || !f) {
        free(count);
        if (f)
            fclose(f);
        return NULL;
    }
    char line[1100], section[64] = "";
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '[') {
            sscanf(s + 1, "%63[^] ]", section);
            continue;
        }
        char key[128];
        if (*s == '#' || *s == ';' || sscanf(s, "%127[A-Za-z0-9_] =", key) != 1 || !strchr(s, '='))
            continue;
        for (unsigned i = 0; i < n; i++)
            if (strcmp(p[i].section, section) == 0 && strcmp(p[i].key, key) == 0)
                count[i]++;
    }
    fclose(f);
    return count;
}

static void test_same_keys(struct hd_test_state *t)
{
    hd_test_begin(t, "every named configuration lists each key exactly once");
    static const char *const files[] = {"configs/fermi-gtx480.ini", "configs/kepler-gk110.ini",
                                        "configs/maxwell-gpuduet.ini"};
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        unsigned *count = keys_of(files[f]);
        if (!HD_CHECK(t, count != NULL))
            continue;
        for (unsigned i = 0; i < n; i++)
            if (!HD_CHECK_U64(t, 1, count[i]))
                fprintf(stderr, "  %s: %s.%s listed %u times\n", files[f], p[i].section,
                        p[i].key, count[i]);
        free(count);
    }
}

static void test_fermi(struct hd_test_state *t)
{
    hd_test_begin(t, "fermi-gtx480: Lin Table 2.1 and GPGPU-Sim's GTX480");
    struct hd_config c;
    if (!load(t, "configs/fermi-gtx480.ini", &c))
        return;
    HD_CHECK_U64(t, 15, c.gpu_num_sms);
    HD_CHECK_F64(t, 700.0, c.clock_core_mhz, 0);
    HD_CHECK_F64(t, 924.0, c.clock_dram_mhz, 0);
    HD_CHECK_U64(t, 8, c.sm_max_ctas);
    HD_CHECK_U64(t, 1536, c.sm_max_threads); /* 48 warp slots */
    HD_CHECK_U64(t, 32768, c.sm_registers);  /* 128 KB */
    HD_CHECK_U64(t, 48 * 1024, c.sm_shared_mem_bytes);
    HD_CHECK_U64(t, 2, c.sm_num_schedulers);
    HD_CHECK_U64(t, 16, c.sm_reg_banks);
    HD_CHECK_U64(t, 128, c.sm_reg_alloc_unit);
    HD_CHECK_U64(t, 1, c.sm_smem_alloc_unit);
    HD_CHECK_U64(t, 4, c.pipeline_icache_sets); /* il1 4:128:4 */
}

static void test_kepler(struct hd_test_state *t)
{
    hd_test_begin(t, "kepler-gk110: Gong Table 4.1 / 6.3");
    struct hd_config c;
    if (!load(t, "configs/kepler-gk110.ini", &c))
        return;
    HD_CHECK(t, strcmp(c.gpu_name.s, "kepler-gk110") == 0);
    HD_CHECK_U64(t, 14, c.gpu_num_sms);
    HD_CHECK_F64(t, 732.0, c.clock_core_mhz, 0);
    HD_CHECK_U64(t, 65536, c.sm_registers);
    HD_CHECK_U64(t, 16 * 1024, c.sm_shared_mem_bytes);
    HD_CHECK_U64(t, 64, c.sm_max_threads / c.gpu_warp_size);
    HD_CHECK_U64(t, 16, c.sm_max_ctas);
    HD_CHECK_U64(t, 2048, c.sm_max_threads);
    HD_CHECK_U64(t, 4, c.sm_num_schedulers);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_LRR);
    HD_CHECK_U64(t, 2, c.pipeline_issue_width);
    HD_CHECK_U64(t, 6, c.pipeline_sp_units);
    HD_CHECK_U64(t, 1, c.pipeline_sfu_units);
    HD_CHECK_U64(t, 2, c.pipeline_dp_units);
    HD_CHECK_U64(t, 1, c.pipeline_ldst_units);
    HD_CHECK_U64(t, 255, c.sm_max_regs_per_thread);
}

static void test_maxwell(struct hd_test_state *t)
{
    hd_test_begin(t, "maxwell-gpuduet: Lin Table 3.1");
    struct hd_config c;
    if (!load(t, "configs/maxwell-gpuduet.ini", &c))
        return;
    HD_CHECK(t, strcmp(c.gpu_name.s, "maxwell-gpuduet") == 0);
    HD_CHECK_U64(t, 16, c.gpu_num_sms);
    HD_CHECK_F64(t, 1000.0, c.clock_core_mhz, 0);
    HD_CHECK_F64(t, 1200.0, c.clock_icnt_mhz, 0);
    HD_CHECK_F64(t, 1200.0, c.clock_dram_mhz, 0);
    HD_CHECK_U64(t, 4, c.sm_num_schedulers);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_GTO);
    HD_CHECK_U64(t, 32, c.sm_max_ctas);
    HD_CHECK_U64(t, 64, c.sm_max_threads / c.gpu_warp_size);
    HD_CHECK_U64(t, 256 * 1024 / 4, c.sm_registers);
    HD_CHECK_U64(t, 96 * 1024, c.sm_shared_mem_bytes);
    HD_CHECK_U64(t, 450, c.mem_fixed_latency);
}

static void test_bad_values(struct hd_test_state *t)
{
    hd_test_begin(t, "allocation units: range and type errors");
    static const struct {
        const char *text, *expect;
    } cases[] = {
        {"[sm]\nreg_alloc_unit = 0\n", "t.ini:2: key 'reg_alloc_unit': value 0 is out of range"},
        {"[sm]\nreg_alloc_unit = 70000\n", "value 70000 is out of range [1, 65536]"},
        {"[sm]\nsmem_alloc_unit = 0\n", "t.ini:2: key 'smem_alloc_unit': value 0 is out of range"},
        {"[sm]\nsmem_alloc_unit = 128B\n", "'128B' is not an unsigned integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hd_config c;
        char err[256] = "";
        hd_config_defaults(&c);
        int rc = hd_config_parse(&c, cases[i].text, strlen(cases[i].text), "t.ini", err,
                                 sizeof err);
        if (!HD_CHECK(t, rc != 0) || !HD_CHECK(t, strstr(err, cases[i].expect) != NULL))
            fprintf(stderr, "  case %zu: '%s'\n", i, err);
    }
    struct hd_config c;
    char err[256] = "";
    hd_config_defaults(&c);
    HD_CHECK(t, hd_config_set(&c, "sm.smem_alloc_unit", "256", err, sizeof err) == 0);
    HD_CHECK_U64(t, 256, c.sm_smem_alloc_unit);
    HD_CHECK(t, hd_config_set(&c, "sm.reg_alloc_unit", "1K", err, sizeof err) == 0);
    HD_CHECK_U64(t, 1024, c.sm_reg_alloc_unit);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_same_keys(&t);
    test_fermi(&t);
    test_kepler(&t);
    test_maxwell(&t);
    test_bad_values(&t);
    return hd_test_finish(&t);
}
