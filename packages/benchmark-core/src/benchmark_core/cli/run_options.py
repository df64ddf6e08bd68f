"""The `run` command's model, provider and run options, generated from the one declaration in
`benchmark_core.runs._options` (the MCP tool's parameters come from the same declaration)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional, TypeVar

import click

from ..errors._base import UsageError
from ..runs._options import OptionSpec, RunOptions, option_specs, option_type
from ..runs._target import RunTarget

F = TypeVar("F", bound=Callable[..., Any])


def declared_options(cls: type[Any]) -> Callable[[F], F]:
    """Click options for every CLI-visible option declared on `cls` (`RunOptions` or `RunTarget`)."""

    def decorate(func: F) -> F:
        for name, spec in reversed(list(option_specs(cls).items())):
            if spec.cli is not None:
                func = _click_option(cls, name, spec)(func)
        return func

    return decorate


class _TargetOption(click.Option):
    """A required `RunTarget` option (`--model`, `--provider`), not required with `--agent`
    (processed first, being eager), where the agent is the subject and `--model` only its label.
    Click's own `required` is left off, so `--help` does not mark it "[required]"; its help says
    when it is, and a run without it is refused here as click would."""

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        if self.value_is_missing(value):
            if ctx.params.get("agent"):
                return None
            raise click.MissingParameter(ctx=ctx, param=self)
        return super().process_value(ctx, value)


def _click_option(cls: type[Any], name: str, spec: OptionSpec) -> Callable[[F], F]:
    kwargs: dict[str, Any] = {"help": spec.help, "required": spec.required}
    if spec.required:
        kwargs.update(cls=_TargetOption, required=False, help=f"{spec.help} Required, unless with --agent.")
    if spec.metavar:
        kwargs["metavar"] = spec.metavar
    declared = option_type(cls, name)
    if spec.cli_help is not None:
        kwargs["help"] = spec.cli_help
    if name == "cache":
        kwargs.update(type=click.Path(file_okay=False, path_type=str), default=None)
    elif spec.multiple:
        kwargs.update(multiple=True, type=str)
    elif declared is bool:
        kwargs.update(is_flag=True)
    elif spec.choices is not None:
        kwargs.update(type=click.Choice(spec.choices))
    elif spec.parse is not None:
        kwargs.update(type=str)
    elif declared is int and (spec.minimum is not None or spec.maximum is not None):
        kwargs["type"] = click.IntRange(min=_bound(spec.minimum), max=_bound(spec.maximum), min_open=spec.min_open)
    elif declared is int:
        kwargs["type"] = int
    elif declared is float:
        kwargs["type"] = click.FloatRange(min=spec.minimum, max=spec.maximum, min_open=spec.min_open)
    default = _default(cls, name)
    if name != "cache" and not spec.multiple and declared is not bool and default is not None:
        kwargs.update(default=default, show_default=True)
    assert spec.cli is not None
    return click.option(spec.cli, name, **kwargs)


def _bound(value: Optional[float]) -> Optional[int]:
    return None if value is None else int(value)


def _default(cls: type[Any], name: str) -> Any:
    import attrs

    default = attrs.fields_dict(cls)[name].default
    return None if default is attrs.NOTHING else default


def options_from_cli(values: dict[str, Any], *, no_cache: bool) -> tuple[RunTarget, RunOptions]:
    """The target and run options the CLI's generated flags describe."""
    target_fields = {}
    for name, spec in option_specs(RunTarget).items():
        value = values.pop(name)
        target_fields[name] = spec.parse(value) if spec.parse is not None and value is not None else value
    target = RunTarget(**target_fields)
    fields: dict[str, Any] = {}
    for name, spec in option_specs(RunOptions).items():
        if spec.cli is None or name not in values:
            continue
        value = values.pop(name)
        if spec.parse is not None and value is not None:
            value = spec.parse(value)
        if spec.multiple:
            value = tuple(value) or None
        if name == "cache":
            if no_cache and value is not None:
                raise UsageError("--cache and --no-cache exclude each other")
            value = False if no_cache else (value if value is not None else True)
        if value is not None or _default(RunOptions, name) is None:
            fields[name] = value
    return target, RunOptions(**fields)
