/* SPDX-License-Identifier: MIT
 * test_config_gpgpusim.c - importing GPGPU-Sim gpgpusim.config files: the GTX480 file maps to
 * configs/fermi-gtx480.ini, the composite options map as documented, unmapped options are listed
 * once in one warning, and bad input is a located error. Runs from the source directory.
 */
#include "config.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int gs(struct hd_config *c, const char *text, char *ign, size_t ignlen, unsigned *nign,
              char *err, size_t errlen)
{
    hd_config_defaults(c);
    return hd_config_parse_gpgpusim(c, text, strlen(text), "g.config", ign, ignlen, nign, err,
                                    errlen);
}

static void test_gtx480(struct hd_test_state *t)
{
    hd_test_begin(t, "GPGPU-Sim GTX480 file = configs/fermi-gtx480.ini");
    struct hd_config g, f;
    char err[512] = "", warn[4096] = "";
    if (!HD_CHECK(t, hd_config_load_ex("tests/config/gpgpusim-gtx480.config", &g, warn,
                                       sizeof warn, err, sizeof err) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    if (!HD_CHECK(t, hd_config_load("configs/fermi-gtx480.ini", &f, err, sizeof err) == 0))
        return;
    HD_CHECK(t, strcmp(g.gpu_name.s, "gpgpusim-gtx480") == 0);
    snprintf(g.gpu_name.s, sizeof g.gpu_name.s, "%s", f.gpu_name.s);
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    /* the finer opcode classes: the file gives each its own column, fermi-gtx480.ini folds
     * them into their parent classes (checked below) */
    static const char *const finer = " lat_int_max ii_int_max lat_int_mad ii_int_mad lat_fp_max "
                                     "ii_fp_max lat_fp_mul ii_fp_mul lat_fp_mad ii_fp_mad "
                                     "lat_int_mul ";
    for (unsigned i = 0; i < n; i++) {
        char a[128], b[128], pat[64];
        snprintf(pat, sizeof pat, " %s ", p[i].key);
        if ((strcmp(p[i].section, "pipeline") == 0 && strstr(finer, pat)) ||
            (strcmp(p[i].section, "l1d") == 0 && strcmp(p[i].key, "allocate_on_miss") == 0))
            continue; /* dl1 "L:L:m:..." allocates on miss; fermi-gtx480 allocates on fill */
        if (strcmp(p[i].section, "l2") == 0 &&
            (strcmp(p[i].key, "fetch_whole_line") == 0 || strcmp(p[i].key, "write_miss_fetch") == 0))
            continue; /* dl2 "N:..,L:B:m:W:L": a line cache fetching on a write miss; fermi-gtx480
                       * keeps Heddle's sector allocation (the 3.2.2 study configs take 3.x's) */
        hd_config_format_value(&g, &p[i], a, sizeof a);
        hd_config_format_value(&f, &p[i], b, sizeof b);
        if (!HD_CHECK(t, strcmp(a, b) == 0))
            fprintf(stderr, "  %s.%s: imported %s, fermi-gtx480.ini %s\n", p[i].section, p[i].key,
                    a, b);
    }
    /* the values the file sets, spelled out (so the check holds even if the defaults move) */
    HD_CHECK_U64(t, 15, g.gpu_num_sms);
    HD_CHECK_F64(t, 924.0, g.clock_dram_mhz, 0);
    HD_CHECK_U64(t, 1536, g.sm_max_threads);
    HD_CHECK_U64(t, 2, g.pipeline_wb_ports);
    HD_CHECK_U64(t, 4, g.pipeline_lat_int_mul);  /* columns ADD,MAX,MUL,MAD,DIV: 4,13,4,5,145 */
    HD_CHECK_U64(t, 5, g.pipeline_lat_int_mad);
    HD_CHECK_U64(t, 13, g.pipeline_lat_int_max);
    HD_CHECK_U64(t, 2, g.pipeline_ii_int_mul);   /* 1,2,2,1,8 */
    HD_CHECK_U64(t, 1, g.pipeline_ii_int_mad);
    HD_CHECK_U64(t, 13, g.pipeline_lat_fp_max);  /* 4,13,4,5,39 */
    HD_CHECK_U64(t, 4, g.pipeline_lat_fp_mul);
    HD_CHECK_U64(t, 5, g.pipeline_lat_fp_mad);
    HD_CHECK_U64(t, 0, g.pipeline_lat_shfl);     /* no sixth column: the parent's */
    HD_CHECK_U64(t, 6, g.dram_channels);
    HD_CHECK_U64(t, 132, g.dram_latency);        /* 100 core cycles at 924/700 */
    HD_CHECK_U64(t, 8, g.dram_bus_bytes);        /* 2 chips x 4 bytes */
    HD_CHECK(t, !g.l2_dram_per_sector);          /* N: */
    HD_CHECK(t, !g.l2_sector_replies);
    HD_CHECK(t, g.l2_fetch_whole_line);          /* N: a line cache */
    HD_CHECK(t, g.l2_write_miss_fetch);          /* dl2 L:B:m:W:L: write-allocate W */
    HD_CHECK(t, g.l1d_allocate_on_miss);         /* dl1 policy m */
    HD_CHECK_U64(t, 39, g.pipeline_lat_fp_div);
    HD_CHECK_U64(t, 130, g.pipeline_ii_dp_div);
    HD_CHECK_U64(t, 4, g.pipeline_icache_sets);
    /* one warning naming every unmapped option once, in file order */
    HD_CHECK(t, strncmp(warn, "tests/config/gpgpusim-gtx480.config: warning: 23 GPGPU-Sim options "
                              "with no Heddle equivalent ignored: -gpgpu_ptx_instruction_"
                              "classification, -gpgpu_ptx_sim_mode, ", 150) == 0);
    HD_CHECK(t, strstr(warn, ", -gpgpu_dram_return_queue_size, -gpgpu_mem_address_mask, ") !=
                    NULL);
    HD_CHECK(t, strstr(warn, "-gpgpu_n_mem,") == NULL); /* the memory options are mapped */
    HD_CHECK(t, strstr(warn, "-gpgpu_dram_timing_opt") == NULL);
    HD_CHECK(t, strstr(warn, ", -gpuwattch_xml_file") != NULL);
    HD_CHECK(t, strstr(warn, "-gpgpu_shader_registers") == NULL); /* mapped ones are not listed */
    HD_CHECK(t, strstr(warn, "-gpgpu_cache:il1") == NULL);
    HD_CHECK(t, strchr(warn, '\n') == NULL);
    /* hd_config_load gives the same configuration, silently */
    struct hd_config g2;
    HD_CHECK(t, hd_config_load("tests/config/gpgpusim-gtx480.config", &g2, err, sizeof err) == 0);
    HD_CHECK(t, strcmp(g2.gpu_name.s, "gpgpusim-gtx480") == 0);
    snprintf(g2.gpu_name.s, sizeof g2.gpu_name.s, "%s", f.gpu_name.s);
    HD_CHECK(t, hd_config_equal(&g, &g2));
}

static void test_composites(struct hd_test_state *t)
{
    hd_test_begin(t, "composite options");
    struct hd_config c;
    char err[512] = "", ign[512];
    unsigned nign = 99;
    const char *text = "# comment first\n"
                       "-gpgpu_n_clusters 8\n"
                       "-gpgpu_n_cores_per_cluster 2   # sixteen SMs\n"
                       "-gpgpu_clock_domains 1000.0:1200.0:1000.0:1200.0\n"
                       "-gpgpu_shader_core_pipeline 2048:32\n"
                       "-gpgpu_scheduler two_level_active:6:0:1\n"
                       "-ptx_opcode_latency_int 6,13,9,7,150\n"
                       "-ptx_opcode_initiation_int 1,2,4,3,10\n"
                       "-ptx_opcode_latency_fp 5,13,4,6,40\n"
                       "-ptx_opcode_latency_dp 9,19,8,8,300\n"
                       "-ptx_opcode_latency_sfu 21\n"
                       "-gpgpu_pipeline_widths 4,0,0,1,1,4,0,0,1,1,6,0,0\n"
                       "-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
                       "-gpgpu_operand_collector_num_units_dp 0\n"
                       "-gpgpu_concurrent_kernel_sm 1\n"
                       "-gpgpu_max_concurrent_kernel 32\n"
                       "-gpgpu_reg_bank_use_warp_id 0\n"
                       "-gpgpu_shader_cta 32\n"
                       "-gpgpu_shader_cta 16\n"
                       "-gpgpu_unknown_a 1\n"
                       "-gpgpu_unknown_a 2\n"
                       "-gpgpu_unknown_b \"x\"\n";
    if (!HD_CHECK(t, gs(&c, text, ign, sizeof ign, &nign, err, sizeof err) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    HD_CHECK_U64(t, 16, c.gpu_num_sms);
    HD_CHECK_F64(t, 1000.0, c.clock_core_mhz, 0);
    HD_CHECK_F64(t, 1200.0, c.clock_icnt_mhz, 0);
    HD_CHECK_F64(t, 1000.0, c.clock_l2_mhz, 0);
    HD_CHECK_F64(t, 1200.0, c.clock_dram_mhz, 0);
    HD_CHECK_U64(t, 2048, c.sm_max_threads);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_TWO_LEVEL);
    const struct hd_cfg_param *act = hd_config_find("sm", "sched_active_warps");
    char v[32] = "";
    if (HD_CHECK(t, act != NULL))
        hd_config_format_value(&c, act, v, sizeof v);
    HD_CHECK(t, strcmp(v, "6") == 0);
    HD_CHECK_U64(t, 6, c.pipeline_lat_int_alu);
    HD_CHECK_U64(t, 9, c.pipeline_lat_int_mul); /* MUL 9 */
    HD_CHECK_U64(t, 7, c.pipeline_lat_int_mad); /* MAD 7 */
    HD_CHECK_U64(t, 13, c.pipeline_lat_int_max);
    HD_CHECK_U64(t, 150, c.pipeline_lat_int_div);
    HD_CHECK_U64(t, 1, c.pipeline_ii_int_alu);
    HD_CHECK_U64(t, 4, c.pipeline_ii_int_mul);
    HD_CHECK_U64(t, 3, c.pipeline_ii_int_mad);
    HD_CHECK_U64(t, 10, c.pipeline_ii_int_div);
    HD_CHECK_U64(t, 5, c.pipeline_lat_fp);
    HD_CHECK_U64(t, 40, c.pipeline_lat_fp_div);
    HD_CHECK_U64(t, 9, c.pipeline_lat_dp);
    HD_CHECK_U64(t, 300, c.pipeline_lat_dp_div);
    HD_CHECK_U64(t, 21, c.pipeline_lat_sfu);
    HD_CHECK_U64(t, 6, c.pipeline_wb_ports); /* EX_WB: 11th of 13 */
    HD_CHECK_U64(t, 64, c.pipeline_icache_sets);
    HD_CHECK_U64(t, 16, c.pipeline_icache_ways);
    HD_CHECK_U64(t, 128, c.pipeline_icache_line);
    HD_CHECK_U64(t, 4, c.pipeline_cu_dp); /* 0 keeps the default */
    HD_CHECK(t, c.sm_concurrent_kernels);
    HD_CHECK_U64(t, 32, c.timing_max_concurrent_kernels);
    HD_CHECK(t, !c.pipeline_reg_bank_warp_offset);
    HD_CHECK_U64(t, 16, c.sm_max_ctas); /* last one wins */
    HD_CHECK_U64(t, 2, nign);           /* each ignored option counted once */
    HD_CHECK(t, strcmp(ign, "-gpgpu_unknown_a, -gpgpu_unknown_b") == 0);
    HD_CHECK(t, strcmp(c.gpu_name.s, "g") == 0);

    /* only one of clusters / cores: GPGPU-Sim's default for the other (10 clusters, 3 cores) */
    HD_CHECK(t, gs(&c, "-gpgpu_n_cores_per_cluster 1\n", NULL, 0, NULL, err, sizeof err) == 0);
    HD_CHECK_U64(t, 10, c.gpu_num_sms);
    HD_CHECK(t, gs(&c, "-gpgpu_n_clusters 4\n", NULL, 0, NULL, err, sizeof err) == 0);
    HD_CHECK_U64(t, 12, c.gpu_num_sms);
    /* the 7-field widths of GPGPU-Sim 3.x */
    HD_CHECK(t, gs(&c, "-gpgpu_pipeline_widths 1,1,1,1,1,1,3\n", NULL, 0, NULL, err, sizeof err)
                    == 0);
    HD_CHECK_U64(t, 3, c.pipeline_wb_ports);
    HD_CHECK(t, gs(&c, "-gpgpu_scheduler lrr\n", NULL, 0, NULL, err, sizeof err) == 0);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_LRR);
}

struct bad_case {
    const char *text;
    const char *expect;
};

static void test_errors(struct hd_test_state *t)
{
    hd_test_begin(t, "bad GPGPU-Sim input is a located error");
    static const struct bad_case cases[] = {
        {"-gpgpu_shader_registers 12\n",
         "g.config:1: option '-gpgpu_shader_registers': 12 -> key 'registers': value 12 is out "
         "of range [256, 16777216]"},
        {"# x\n\n-gpgpu_shader_cta many\n",
         "g.config:3: option '-gpgpu_shader_cta': many -> key 'max_ctas': 'many' is not an "
         "unsigned integer"},
        {"-gpgpu_n_mem 6\ngpgpu_n_clusters 15\n",
         "g.config:2: expected an option (-name value) or a '#' comment"},
        {"-gpgpu_shader_core_pipeline 1536:16\n",
         "g.config:1: option '-gpgpu_shader_core_pipeline': warp size 16: Heddle runs PTX with "
         "32-thread warps"},
        {"-gpgpu_shader_core_pipeline 1536\n", "is not threads:warp_size"},
        {"-gpgpu_scheduler warp_limiting:2:4\n",
         "g.config:1: option '-gpgpu_scheduler': scheduler 'warp_limiting:2:4' has no Heddle "
         "equivalent (lrr, gto or two_level_active)"},
        {"-gpgpu_clock_domains 700.0:700.0:700.0\n",
         "option '-gpgpu_clock_domains': '700.0:700.0:700.0' is not core:icnt:l2:dram"},
        {"-gpgpu_clock_domains 700:0:700:924\n", "key 'icnt_mhz': value 0 is out of range"},
        {"-ptx_opcode_latency_int 4,13,4,5\n", "is not five comma-separated values"},
        {"-ptx_opcode_latency_fp 4.5,13,4,5,39\n", "cycles must be whole numbers"},
        {"-gpgpu_pipeline_widths 1,1,1\n", "is not a list of 7, 9, 11 or 13 pipeline widths"},
        {"-gpgpu_cache:il1 N:4:128\n", "is not [N:]sets:line:ways"},
        {"-gpgpu_cache:il1 4:4:4,L:R\n", "key 'icache_line': value 4 is out of range"},
        {"-gpgpu_n_clusters 0\n",
         "g.config:1: option '-gpgpu_n_clusters': 0 clusters x 3 cores per cluster is not a GPU"},
        {"-gpgpu_n_clusters 15\n-gpgpu_n_cores_per_cluster 100\n",
         "g.config:2: option '-gpgpu_n_cores_per_cluster': 1500 -> key 'num_sms': value 1500 is "
         "out of range"},
        {"-gpgpu_num_reg_banks\n", "g.config:1: option '-gpgpu_num_reg_banks': missing value"},
        {"-gpgpu_n_mem 6\n-gpgpu_dram_timing_opt \"nbk=16:\n CCD=2\n", "unterminated \""},
        {"-gpgpu_concurrent_kernel_sm 2\n", "key 'concurrent_kernels': '2' is not a boolean"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hd_config c;
        char err[512] = "";
        int rc = gs(&c, cases[i].text, NULL, 0, NULL, err, sizeof err);
        if (!HD_CHECK(t, rc != 0) || !HD_CHECK(t, strstr(err, cases[i].expect) != NULL))
            fprintf(stderr, "  case %zu: got '%s', want '%s'\n", i, err, cases[i].expect);
    }
    /* a quoted value spanning lines keeps the line count right for what follows */
    struct hd_config c;
    char err[512] = "";
    HD_CHECK(t, gs(&c, "-x \"a:\n b:\n c\"\n-gpgpu_shader_cta x\n", NULL, 0, NULL, err,
                   sizeof err) != 0);
    HD_CHECK(t, strstr(err, "g.config:4: option '-gpgpu_shader_cta'") != NULL);
}

static void test_detect(struct hd_test_state *t)
{
    hd_test_begin(t, "format detection and loading");
    static const char *const gpgpusim[] = {"-gpgpu_n_clusters 15\n", "\n# c\n  -ptx_x 1\n",
                                           "#only\n-a b"};
    static const char *const ini[] = {"[gpu]\nnum_sms = 4\n", "# c\n[sm]\n", "", "# -x 1\n",
                                      "- x\n", "-1\n"};
    for (size_t i = 0; i < sizeof gpgpusim / sizeof gpgpusim[0]; i++)
        HD_CHECK(t, hd_config_is_gpgpusim(gpgpusim[i], strlen(gpgpusim[i])));
    for (size_t i = 0; i < sizeof ini / sizeof ini[0]; i++)
        HD_CHECK(t, !hd_config_is_gpgpusim(ini[i], strlen(ini[i])));

    /* a file: load_ex warns, cross checks still run, errors carry the path */
    char path[] = "/tmp/heddle-gs-XXXXXX";
    int fd = mkstemp(path);
    if (!HD_CHECK(t, fd >= 0))
        return;
    FILE *f = fdopen(fd, "w");
    fputs("-gpgpu_shader_core_pipeline 32:32\n-gpgpu_num_sched_per_core 2\n", f);
    fclose(f);
    struct hd_config c;
    char err[512] = "", warn[512] = "x";
    HD_CHECK(t, hd_config_load_ex(path, &c, warn, sizeof warn, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "key 'num_schedulers': 2 schedulers but only 1 warps") != NULL);
    f = fopen(path, "w");
    fputs("-gpgpu_shader_cta 4\n", f);
    fclose(f);
    HD_CHECK(t, hd_config_load_ex(path, &c, warn, sizeof warn, err, sizeof err) == 0);
    HD_CHECK(t, warn[0] == '\0'); /* nothing ignored: no warning */
    HD_CHECK_U64(t, 4, c.sm_max_ctas);
    f = fopen(path, "w");
    fputs("-gpgpu_shader_cta 4\n-gpgpu_dram_return_queue_size 116\n", f);
    fclose(f);
    HD_CHECK(t, hd_config_load_ex(path, &c, warn, sizeof warn, err, sizeof err) == 0);
    HD_CHECK(t, strstr(warn, ": warning: 1 GPGPU-Sim option with no Heddle equivalent ignored: "
                             "-gpgpu_dram_return_queue_size") != NULL);
    unlink(path);

    /* the warning list is cut with "..." rather than overflowing */
    char big[8192];
    size_t used = 0;
    for (int i = 0; i < 200; i++)
        used += (size_t)snprintf(big + used, sizeof big - used, "-opt_%03d 1\n", i);
    char ign[64];
    unsigned nign = 0;
    HD_CHECK(t, gs(&c, big, ign, sizeof ign, &nign, err, sizeof err) == 0);
    HD_CHECK_U64(t, 200, nign);
    HD_CHECK(t, strlen(ign) < sizeof ign);
    HD_CHECK(t, strstr(ign, "-opt_000, -opt_001") == ign);
    HD_CHECK(t, strcmp(ign + strlen(ign) - 3, "...") == 0);
}

static void test_doc(struct hd_test_state *t)
{
    hd_test_begin(t, "docs/config.md documents the import table");
    char *gen = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    hd_config_gpgpusim_doc(f);
    fclose(f);
    HD_CHECK(t, strstr(gen, "| `-gpgpu_shader_registers` | `sm.registers` |") != NULL);
    HD_CHECK(t, strstr(gen, "| `-ptx_opcode_latency_int` | `pipeline.lat_int*` |") != NULL);
    free(gen);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_gtx480(&t);
    test_composites(&t);
    test_errors(&t);
    test_detect(&t);
    test_doc(&t);
    return hd_test_finish(&t);
}
