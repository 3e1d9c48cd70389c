/* SPDX-License-Identifier: MIT
 * cli_config.c - `heddle config` (print the effective configuration as INI) and
 * `heddle config-doc` (print docs/config.md, generated from model/config/params.def).
 */
#include "cli_cmd.h"
#include "cli_util.h"
#include "config.h"

#include <string.h>

static void config_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle config [--config FILE] [--set SECTION.KEY=VALUE]...\n"
            "\n"
            "Print the effective configuration as an INI file: the defaults (fermi-gtx480),\n"
            "then FILE, then each --set, checked as a run would check them. The output is itself\n"
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
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    const char *path = NULL;
    char err[512];
    /* First pass: --config (the file applies before any --set, wherever they are written). */
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (hd_cli_is_help(argv[i])) {
            config_help(stdout);
            return HD_CLI_OK;
        }
        int r = hd_cli_option(cmd, argc, argv, &i, "--config", &v);
        if (r < 0)
            return HD_CLI_USAGE;
        if (r > 0)
            path = v;
        else if ((r = hd_cli_option(cmd, argc, argv, &i, "--set", &v)) < 0)
            return HD_CLI_USAGE;
        else if (r == 0)
            return hd_cli_usage(cmd, "unknown argument '%s'", argv[i]);
    }
    if (path && hd_config_load(path, &cfg, err, sizeof err) != 0)
        return hd_cli_fail(cmd, "%s", err);
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (hd_cli_option(cmd, argc, argv, &i, "--config", &v) > 0)
            continue;
        if (hd_cli_option(cmd, argc, argv, &i, "--set", &v) > 0) {
            const char *eq = strchr(v, '=');
            char key[128];
            if (!eq || (size_t)(eq - v) >= sizeof key)
                return hd_cli_usage(cmd, "--set wants SECTION.KEY=VALUE, got '%s'", v);
            memcpy(key, v, (size_t)(eq - v));
            key[eq - v] = '\0';
            if (hd_config_set(&cfg, key, eq + 1, err, sizeof err) != 0)
                return hd_cli_usage(cmd, "--set: %s", err);
        }
    }
    if (hd_config_validate(&cfg, err, sizeof err) != 0)
        return hd_cli_fail(cmd, "%s", err);
    printf("# Heddle configuration (%s)\n", path ? path : "built-in defaults");
    hd_config_write(&cfg, stdout, "");
    return HD_CLI_OK;
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
