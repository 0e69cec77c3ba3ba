"""Custom click parameter types."""
from __future__ import annotations

import click

from boardsim.errors import ParamError
from boardsim.spec import parse_assignments


class Assignment(click.ParamType):
    """`NAME=VALUE` -> ("name", "value"); dashes in NAME become underscores.

    Only the shape is checked here; whether NAME is a parameter of the game and VALUE is allowed
    is the game's own ParamSpec's business (it knows the ranges and gives the same message
    whether the value came from the CLI, a preset or Python).
    """

    name = "NAME=VALUE"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            ((key, val),) = parse_assignments([str(value)]).items()
        except ParamError as exc:
            self.fail(str(exc), param, ctx)
        return key, val


ASSIGNMENT = Assignment()
