# The Debian packages, built, installed, used and purged on this machine
# (root, ~2 min): only from check-all.
SLOW_TESTS += tests/debs/test_debs.sh
# scripts/install-deps.sh with a stub apt-get (seconds).
TESTS += tests/debs/test_install_deps.sh
EXTRA_DIST += tests/debs/test_debs.sh tests/debs/test_install_deps.sh
