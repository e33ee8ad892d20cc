# Bash completion, installed where bash-completion looks (configure's
# --with-bash-completion-dir; bash-completion loads it on first use).
bashcompletion_DATA = completion/wultfw
CLEANFILES += completion/wultfw
EXTRA_DIST += completion/wultfw.bash
# bash-completion loads a command's completion from a file named after it.
completion/wultfw: $(srcdir)/completion/wultfw.bash
	$(AM_V_GEN)$(MKDIR_P) completion && cp $(srcdir)/completion/wultfw.bash $@

# Sources it in bash and checks the candidates for partial command lines.
TESTS += tests/integration/test_completion.sh
EXTRA_DIST += tests/integration/test_completion.sh
