/* SPDX-License-Identifier: MIT
 * test_config.c - the configuration table, INI reader, printers and the named configurations.
 *
 * Checks the Fermi defaults, every reader error (with its file:line), the exact round trip of the
 * INI echo, that every configs/ *.ini loads and lists every key, and that docs/config.md is what
 * `heddle config-doc` generates today. Runs from the source directory (CTest's working dir).
 */
#include "config.h"
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct hd_config *c, const char *text, char *err, size_t errlen)
{
    hd_config_defaults(c);
    return hd_config_parse(c, text, strlen(text), "t.ini", err, errlen);
}

static void test_defaults(struct hd_test_state *t)
{
    hd_test_begin(t, "defaults are the GTX480");
    struct hd_config c;
    hd_config_defaults(&c);
    HD_CHECK_U64(t, 15, c.gpu_num_sms);
    HD_CHECK_U64(t, 32, c.gpu_warp_size);
    HD_CHECK_U64(t, 2, c.sm_num_schedulers);
    HD_CHECK_U64(t, 32768, c.sm_registers);
    HD_CHECK_U64(t, 49152, c.sm_shared_mem_bytes);
    HD_CHECK_U64(t, 1536, c.sm_max_threads);
    HD_CHECK_U64(t, 8, c.sm_max_ctas);
    HD_CHECK_U64(t, 16, c.sm_reg_banks);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_GTO);
    HD_CHECK_F64(t, 700.0, c.clock_core_mhz, 0);
    HD_CHECK_F64(t, 700.0, c.clock_icnt_mhz, 0);
    HD_CHECK_F64(t, 700.0, c.clock_l2_mhz, 0);
    HD_CHECK_F64(t, 924.0, c.clock_dram_mhz, 0);
    HD_CHECK(t, strcmp(c.gpu_name.s, "fermi-gtx480") == 0);
    char err[256];
    HD_CHECK(t, hd_config_validate(&c, err, sizeof err) == 0);
}

static void test_parse_ok(struct hd_test_state *t)
{
    hd_test_begin(t, "parse values, comments, suffixes, dotted keys");
    struct hd_config c;
    char err[256] = "";
    const char *text = "; leading comment\n"
                       "[sm]\r\n"
                       "  num_schedulers=4   # trailing comment\n"
                       "scheduler = LRR\n"
                       "shared_mem_bytes = 96KiB\n"
                       "registers = 0x10000\n"
                       "\n"
                       "[ clock ]\n"
                       "core_mhz = 1.5e3\n"
                       "gpu.name = \"my gpu; v2\"\n"
                       "gpu.num_sms = 30";
    HD_CHECK(t, parse(&c, text, err, sizeof err) == 0);
    HD_CHECK_U64(t, 4, c.sm_num_schedulers);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_LRR);
    HD_CHECK_U64(t, 96 * 1024, c.sm_shared_mem_bytes);
    HD_CHECK_U64(t, 65536, c.sm_registers);
    HD_CHECK_F64(t, 1500.0, c.clock_core_mhz, 0);
    HD_CHECK(t, strcmp(c.gpu_name.s, "my gpu; v2") == 0);
    HD_CHECK_U64(t, 30, c.gpu_num_sms);
    HD_CHECK_U64(t, 1536, c.sm_max_threads); /* untouched key keeps its default */
}

struct bad_case {
    const char *text;
    const char *expect; /* substring of the message */
};

static void test_parse_errors(struct hd_test_state *t)
{
    hd_test_begin(t, "reader errors are located");
    static const struct bad_case cases[] = {
        {"[sm]\nbogus = 1\n", "t.ini:2: key 'bogus': unknown key in section [sm]"},
        {"[nope]\n", "t.ini:1: section [nope]: unknown section"},
        {"num_sms = 3\n", "t.ini:1: key 'num_sms': outside any [section]"},
        {"[gpu]\n\nnum_sms = 0\n", "t.ini:3: key 'num_sms': value 0 is out of range [1, 1024]"},
        {"[gpu]\nnum_sms = 2000\n", "t.ini:2: key 'num_sms': value 2000 is out of range"},
        {"[gpu]\nnum_sms = -1\n", "t.ini:2: key 'num_sms': '-1' is not an unsigned integer"},
        {"[gpu]\nnum_sms = 12abc\n", "t.ini:2: key 'num_sms': '12abc' is not an unsigned"},
        {"[gpu]\nwarp_size = 64\n", "t.ini:2: key 'warp_size': value 64 is out of range [32, 32]"},
        {"[sm]\nscheduler = fifo\n",
         "t.ini:2: key 'scheduler': unknown value 'fifo' (expected lrr, gto, two_level"},
        {"[clock]\ncore_mhz = fast\n", "t.ini:2: key 'core_mhz': 'fast' is not a number"},
        {"[clock]\ncore_mhz = nan\n", "t.ini:2: key 'core_mhz': 'nan' is not a number"},
        {"[gpu]\nnum_sms = 4\nnum_sms = 5\n", "t.ini:3: key 'num_sms': set twice (first at line 2)"},
        {"[gpu]\nnum_sms\n", "t.ini:2: expected 'key = value' or '[section]'"},
        {"[gpu]\nnum_sms =\n", "t.ini:2: key 'num_sms': missing value"},
        {"[gpu\n", "t.ini:1: expected ']'"},
        {"[sm]\nnum_schedulers = 99999999999999999999999\n", "key 'num_schedulers': '9999"},
        {"foo.bar = 1\n", "t.ini:1: section [foo]: unknown section"},
        {"[gpu]\nname = \"0123456789012345678901234567890123456789012345678901234567890123\"\n",
         "t.ini:2: key 'name': string longer than 63 characters"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hd_config c;
        char err[256] = "";
        int rc = parse(&c, cases[i].text, err, sizeof err);
        if (!HD_CHECK(t, rc != 0) || !HD_CHECK(t, strstr(err, cases[i].expect) != NULL))
            fprintf(stderr, "  case %zu: got '%s', want '%s'\n", i, err, cases[i].expect);
    }
}

static void test_validate(struct hd_test_state *t)
{
    hd_test_begin(t, "cross-parameter checks");
    struct hd_config c;
    char err[256] = "";
    hd_config_defaults(&c);
    c.sm_max_threads = 1000;
    HD_CHECK(t, hd_config_validate(&c, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "key 'max_threads': 1000 is not a multiple of warp_size") != NULL);
    hd_config_defaults(&c);
    c.sm_max_threads = 32;
    c.sm_num_schedulers = 2;
    HD_CHECK(t, hd_config_validate(&c, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "key 'num_schedulers'") != NULL);
}

static void test_set(struct hd_test_state *t)
{
    hd_test_begin(t, "hd_config_set");
    struct hd_config c;
    char err[256] = "";
    hd_config_defaults(&c);
    HD_CHECK(t, hd_config_set(&c, "sm.scheduler", "two_level", err, sizeof err) == 0);
    HD_CHECK(t, c.sm_scheduler == HD_SCHED_TWO_LEVEL);
    HD_CHECK(t, hd_config_set(&c, "sm.nothing", "1", err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "key 'sm.nothing': unknown parameter") != NULL);
    HD_CHECK(t, hd_config_set(&c, "nodot", "1", err, sizeof err) != 0);
}

static void test_roundtrip(struct hd_test_state *t)
{
    hd_test_begin(t, "INI echo reads back equal");
    struct hd_config a, b;
    hd_config_defaults(&a);
    a.clock_core_mhz = 1.1 + 2.2; /* 3.3000000000000003: needs 17 digits */
    a.sm_scheduler = HD_SCHED_TWO_LEVEL;
    a.gpu_num_sms = 7;
    snprintf(a.gpu_name.s, sizeof a.gpu_name.s, "%s", "odd #name;");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hd_config_write(&a, f, "");
    fclose(f);
    char err[256] = "";
    hd_config_defaults(&b);
    if (!HD_CHECK(t, hd_config_parse(&b, buf, len, "echo", err, sizeof err) == 0))
        fprintf(stderr, "  %s\n", err);
    HD_CHECK(t, hd_config_equal(&a, &b));
    HD_CHECK(t, a.clock_core_mhz == b.clock_core_mhz);
    HD_CHECK(t, !hd_config_equal(&a, &(struct hd_config){0}));
    free(buf);
}

/* Every "section.key" that a config file names, checked against the table. */
static void check_lists_every_key(struct hd_test_state *t, const char *path)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    bool *seen = calloc(n, sizeof *seen);
    FILE *f = fopen(path, "r");
    char line[1100], section[64] = "";
    while (f && fgets(line, sizeof line, f)) {
        char key[64];
        if (sscanf(line, " [%63[a-z0-9_]]", section) == 1)
            continue;
        if (sscanf(line, " %63[a-z0-9_] =", key) == 1) {
            const struct hd_cfg_param *q = hd_config_find(section, key);
            if (q)
                seen[q - p] = true;
        }
    }
    if (f)
        fclose(f);
    for (unsigned i = 0; i < n; i++)
        if (!HD_CHECK(t, seen[i]))
            fprintf(stderr, "  %s does not list %s.%s\n", path, p[i].section, p[i].key);
    free(seen);
}

static void test_named_configs(struct hd_test_state *t)
{
    hd_test_begin(t, "configs/ *.ini load and list every key");
    DIR *d = opendir("configs");
    if (!HD_CHECK(t, d != NULL))
        return;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ini") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "configs/%s", e->d_name);
        struct hd_config c;
        char err[512] = "";
        if (!HD_CHECK(t, hd_config_load(path, &c, err, sizeof err) == 0))
            fprintf(stderr, "  %s\n", err);
        check_lists_every_key(t, path);
        if (strcmp(e->d_name, "fermi-gtx480.ini") == 0) {
            struct hd_config def;
            hd_config_defaults(&def);
            HD_CHECK(t, hd_config_equal(&def, &c)); /* the file and the defaults agree */
        }
        found++;
    }
    closedir(d);
    HD_CHECK(t, found >= 1);
    struct hd_config c;
    char err[512] = "";
    HD_CHECK(t, hd_config_load("configs/does-not-exist.ini", &c, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "configs/does-not-exist.ini: cannot read") != NULL);
}

static void test_doc_current(struct hd_test_state *t)
{
    hd_test_begin(t, "docs/config.md is current");
    char *gen = NULL;
    size_t genlen = 0;
    FILE *f = open_memstream(&gen, &genlen);
    hd_config_doc_markdown(f);
    fclose(f);
    FILE *doc = fopen("docs/config.md", "rb");
    char *have = calloc(genlen + 2, 1);
    size_t got = doc ? fread(have, 1, genlen + 1, doc) : 0;
    if (doc)
        fclose(doc);
    if (!HD_CHECK(t, got == genlen && memcmp(have, gen, genlen) == 0))
        fprintf(stderr, "  regenerate it: build/heddle config-doc > docs/config.md\n");
    free(have);
    free(gen);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_defaults(&t);
    test_parse_ok(&t);
    test_parse_errors(&t);
    test_validate(&t);
    test_set(&t);
    test_roundtrip(&t);
    test_named_configs(&t);
    test_doc_current(&t);
    return hd_test_finish(&t);
}
