/* SPDX-License-Identifier: MIT
 * cli_main.c - `heddle`: the command table, top-level help and dispatch.
 *
 * Every command lives in its own file behind cli_cmd.h; this file only maps names to entry
 * points and prints the overview. Usage errors exit 2, failed runs 1, Ctrl-C 130, SIGTERM 143.
 */
#include "cli_cmd.h"
#include "cli_util.h"
#include "config.h"

#include <string.h>

#define HD_VERSION "0.1.0"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"list", hd_cli_list, "list the built-in workloads (name, class, idempotent, description)"},
    {"run", hd_cli_run, "run a workload, verify it against its CPU reference, summarize"},
    {"ptx-info", hd_cli_ptx_info, "describe a PTX file: parameters, registers, memory, CFG, "
                                  "reconvergence points"},
    {"launch", hd_cli_launch, "run one kernel of a PTX file with buffers and scalars from the "
                              "command line"},
    {"config", hd_cli_config, "print the effective configuration (defaults + file + --set)"},
    {"config-doc", hd_cli_config_doc, "print docs/config.md (generated from the parameter table)"},
    {"cosim", hd_cli_cosim, "co-simulate hardware blocks (RTL vs C reference) in a full-GPU run"},
    {"regpat-stats", hd_cli_regpat_stats, "register pattern statistics (Lin Fig 2.6/2.8) per workload"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void top_help(FILE *out)
{
    fprintf(out,
            "heddle - a cycle model of a whole GPU that runs real CUDA kernels (PTX)\n"
            "\n"
            "Usage: heddle COMMAND [ARGS...]\n"
            "       heddle COMMAND --help      help on one command\n"
            "       heddle --help-config       every configuration parameter\n"
            "       heddle --version\n"
            "\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nExamples:\n"
            "  heddle list\n"
            "  heddle run vecadd --size small\n"
            "  heddle ptx-info workloads/bfs/bfs.ptx\n"
            "  heddle launch workloads/vecadd/vecadd.ptx vecadd --grid 4 --block 256 \\\n"
            "      --arg buf:a:4K:seq-f32 --arg buf:b:4K:const-f32:0.5 --arg buf:c:4K:zero \\\n"
            "      --arg s32:1024 --print c:f32:8\n"
            "\nExit status: 0 success (verified), 1 failure, 2 usage error, 130 interrupted\n"
            "(Ctrl-C), 143 terminated (SIGTERM); both write the statistics gathered so far.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        top_help(stderr);
        return HD_CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (hd_cli_is_help(cmd) || strcmp(cmd, "help") == 0) {
        if (argc > 2 && !hd_cli_is_help(argv[2])) { /* "heddle help run" */
            for (size_t i = 0; i < NCOMMANDS; i++)
                if (strcmp(argv[2], commands[i].name) == 0) {
                    char help[] = "--help";
                    char *args[] = {argv[2], help, NULL};
                    return commands[i].run(2, args);
                }
            return hd_cli_usage("", "unknown command '%s'", argv[2]);
        }
        top_help(stdout);
        return HD_CLI_OK;
    }
    if (strcmp(cmd, "--help-config") == 0) {
        hd_config_help(stdout);
        return HD_CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("heddle %s\n", HD_VERSION);
        return HD_CLI_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return hd_cli_interrupt_exit(commands[i].run(argc - 1, argv + 1));
    if (cmd[0] == '-')
        return hd_cli_usage("", "unknown option '%s'", cmd);
    char names[256] = "";
    for (size_t i = 0, o = 0; i < NCOMMANDS && o < sizeof names; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
                              commands[i].name);
    return hd_cli_usage("", "unknown command '%s' (commands: %s)", cmd, names);
}
