/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The RTE>> prompt of dpdk-rhashtable-test: one instruction whose single
 * token takes any word, so every registered test name is a command, plus the
 * built-in "quit" and "help" (or "dump_test_names"), which lists the names.
 */

#include <stdio.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>

#include "test.h"

struct cmd_word_result {
	cmdline_fixed_string_t word;
};

/* Set once a command run from the prompt fails, for the exit status. */
static int prompt_failed;

static void
dump_test_names(void)
{
	struct test_command *t;

	for (t = test_command_first(); t != NULL; t = test_command_next(t))
		printf("%s\n", t->command);
}

static void
cmd_word_parsed(void *parsed_result, struct cmdline *cl, void *data __rte_unused)
{
	const struct cmd_word_result *res = parsed_result;

	if (strcmp(res->word, "quit") == 0) {
		cmdline_quit(cl);
		return;
	}
	if (strcmp(res->word, "help") == 0 || strcmp(res->word, "dump_test_names") == 0) {
		dump_test_names();
		fflush(stdout);
		return;
	}
	if (run_test_command(res->word) == TEST_FAILED)
		prompt_failed = 1;
}

/* NULL string: the token matches any single word. */
static cmdline_parse_token_string_t cmd_word_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_word_result, word, NULL);

static cmdline_parse_inst_t cmd_word = {
	.f = cmd_word_parsed,
	.data = NULL,
	.help_str = "<test name> | help (lists the test names) | quit",
	.tokens = {
		(void *)&cmd_word_tok,
		NULL,
	},
};

static cmdline_parse_ctx_t main_ctx[] = {
	&cmd_word,
	NULL,
};

int
test_prompt(void)
{
	struct cmdline *cl = cmdline_stdin_new(main_ctx, "RTE>>");

	if (cl == NULL)
		return TEST_FAILED;
	cmdline_interact(cl);
	cmdline_stdin_exit(cl);
	return prompt_failed ? TEST_FAILED : TEST_SUCCESS;
}
