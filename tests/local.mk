# Tests: CUnit unit tests and integration tests of the real binary.
