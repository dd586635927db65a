"""keps's exceptions and warnings.

The library's status codes map to exception classes as the CLI's exit
codes do (docs/cli.md): InputError for exit 2 (bad usage or bad input),
JobError for exit 1 (valid input, but the job cannot be done), ResourceError
for exit 3 (an I/O or resource failure). The message is the library's own,
naming file, line and column where they apply.
"""

__all__ = ["KepsError", "InputError", "JobError", "ResourceError", "KepsWarning", "PrivacyWarning"]


class KepsError(Exception):
    """Base class of keps's errors; ``status`` is the library's status code
    and ``exit_code`` the CLI's exit code for it."""

    exit_code = 1

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = status


class InputError(KepsError, ValueError):
    """Bad usage or bad input: a parameter, a value in the data, a file's
    content or a path (the CLI's exit code 2)."""

    exit_code = 2


class JobError(KepsError, RuntimeError):
    """The input is valid but the job cannot be done, e.g. no transformation
    satisfies the constraints (the CLI's exit code 1)."""

    exit_code = 1


class ResourceError(KepsError, OSError):
    """An I/O or resource failure: a full disk, a read-only file system, out
    of memory (the CLI's exit code 3)."""

    exit_code = 3

    def __init__(self, message, status=None):
        KepsError.__init__(self, message, status)

    def __str__(self):
        return self.message


class KepsWarning(UserWarning):
    """A warning from keps about a run (the CLI prints these on stderr)."""


class PrivacyWarning(KepsWarning):
    """A warning that the output is weaker than its guarantee suggests, or not
    private at all: ``seed=`` (reproducible randomness), rows kept in input
    order, bounds read from the data, columns the guarantee does not cover.
    The CLI prints these even with --quiet."""
