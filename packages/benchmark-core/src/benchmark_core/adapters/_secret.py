"""`Secret`: the API key, or what holds it (the request headers), masked wherever it is printed."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Secret(Generic[T]):
    """The API key, or what holds it (the request headers). Printing, formatting or repr-ing it
    gives a mask; only `reveal()` gives the value."""

    __slots__ = ("_value",)

    def __init__(self, value: T) -> None:
        self._value = value

    def reveal(self) -> T:
        return self._value

    def __repr__(self) -> str:
        return "'***'"

    def __str__(self) -> str:
        return "***"
