"""Loaded by the schemathesis run of test/platform/fuzz.test.ts (it puts this folder on PYTHONPATH).

On CPython 3.11, Hypothesis describing a lambda for a strategy's repr parses a large source file with
ast.parse, which can fail with "SystemError: AST constructor recursion depth mismatch" when called deep in
the stack. The description is cosmetic; without it the run goes on instead of counting an error that is
not the API's.
"""
try:
    from hypothesis.internal import lambda_sources

    _describe = lambda_sources.lambda_description

    def _lambda_description(f):
        try:
            return _describe(f)
        except SystemError:
            return "lambda: <source unavailable>"

    lambda_sources.lambda_description = _lambda_description
except ImportError:
    pass
