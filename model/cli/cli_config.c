/* SPDX-License-Identifier: MIT
 * cli_config.c - `heddle config` (print the effective configuration as INI) and
 * `heddle config-doc` (print docs/config.md, generated from model/config/params.def).
 */
#include "cli_cmd.h"
#include "cli_gpu.h"
#include "cli_util.h"
#include "config.h"

#include <stdlib.h>
#include <string.h>

static void config_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle config [--config FILE] [--set SECTION.KEY=VALUE]...\n"
            "\n"
            "Print the effective configuration as an INI file: the defaults (fermi-gtx480),\n"
            "then FILE, then each --set (in order), checked as a run would check them. The output is itself\n"
            "a valid configuration file.\n"
            "\n"
            "Options:\n"
            "  --config FILE          configuration file (see configs/ and heddle --help-config)\n"
            "  --set SECTION.KEY=V    override one parameter, e.g. --set sm.scheduler=lrr\n"
            "\nExample:\n"
            "  heddle config --config configs/fermi-gtx480.ini --set gpu.num_sms=30 > my.ini\n");
}

int hd_cli_config(int argc, char **argv)
{
    const char *cmd = "config";
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    struct hd_cli_config c = {.sets = sets};
    int rc = HD_CLI_OK;
    if (!sets)
        return hd_cli_fail(cmd, "out of memory");
    for (int i = 1; i < argc && rc == HD_CLI_OK; i++) {
        if (hd_cli_is_help(argv[i])) {
            config_help(stdout);
            free(sets);
            return HD_CLI_OK;
        }
        int r = hd_cli_config_option(cmd, argc, argv, &i, &c);
        if (r < 0)
            rc = HD_CLI_USAGE;
        else if (r == 0)
            rc = hd_cli_usage(cmd, "unknown argument '%s'", argv[i]);
    }
    struct hd_config cfg;
    if (rc == HD_CLI_OK)
        rc = hd_cli_config_resolve(cmd, &c, &cfg);
    if (rc == HD_CLI_OK) {
        char what[256];
        hd_cli_config_describe(&c, what, sizeof what);
        printf("# Heddle configuration (%s)\n", what);
        hd_config_write(&cfg, stdout, "");
    }
    free(sets);
    return rc;
}

int hd_cli_config_doc(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle config-doc > docs/config.md\n\n"
                   "Print the configuration reference (Markdown) generated from\n"
                   "model/config/params.def. A unit test checks docs/config.md against it.\n");
            return HD_CLI_OK;
        }
        return hd_cli_usage("config-doc", "unexpected argument '%s'", argv[i]);
    }
    hd_config_doc_markdown(stdout);
    return HD_CLI_OK;
}
