/* SPDX-License-Identifier: MIT
 * cli_cmd.h - the entry points of the `heddle` commands, one per file (cli_<command>.c).
 *
 * Each takes the arguments after the command name (argv[0] is the command) and returns the
 * process exit code (enum hd_cli_exit). This header is the command table's only dependency, so
 * it lists every command's entry point (a deliberate exception to "one header per .c": each
 * command exports exactly one function and nothing else).
 */
#ifndef HD_CLI_CMD_H
#define HD_CLI_CMD_H

int hd_cli_list(int argc, char **argv);     /* cli_list.c */
int hd_cli_run(int argc, char **argv);      /* cli_run.c */
int hd_cli_ptx_info(int argc, char **argv); /* cli_ptx_info.c */
int hd_cli_launch(int argc, char **argv);   /* cli_launch.c */
int hd_cli_config(int argc, char **argv);   /* cli_config.c: `config` */
int hd_cli_config_doc(int argc, char **argv); /* cli_config.c: `config-doc` */
int hd_cli_cosim(int argc, char **argv);        /* cli_cosim.c: `cosim` */
int hd_cli_regpat_stats(int argc, char **argv); /* cli_cosim.c: `regpat-stats` */

#endif
