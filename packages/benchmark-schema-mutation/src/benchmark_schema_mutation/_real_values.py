"""Realistic argument values for the real split, drawn from a parameter's facts, and how a request says them.

A value follows the parameter's schema as mined from Twilio's descriptions: an enum value, a SID in
Twilio's format (the two-letter prefix of the pattern and 32 hex digits), an E.164 number in the
fictional 555-01xx range, an ISO date or date-time, an https URL under example.com, a country code,
a boolean, a small integer, or a short text chosen by the parameter's name. Every value is valid
against the schema it was drawn for (a test checks every task's expected call).
"""

from __future__ import annotations

import re
from typing import Optional

from benchmark_core import JsonObject, JsonValue, Mulberry32

_SID = re.compile(r"^\^([A-Z]{2})\[0-9a-fA-F\]\{32\}\$$")
_HEX = "0123456789abcdef"
_AREA_CODES = ("415", "628", "212", "312", "206", "512")
_COUNTRIES = ("US", "GB", "DE", "BR", "AU")
_WORDS = ("Support line", "Night shift", "Spring campaign", "Billing desk", "Onboarding flow", "Field team")
_IDENTITIES = ("agent-042", "alice.ng", "ops-bot", "carlos_r", "team-lead-7")
_TEXTS = ("Your order has shipped.", "Reminder: your appointment is tomorrow.", "Thanks for calling, we will be brief.")
#: SID prefixes of parameters whose schema gives no pattern (older releases often had none).
_SID_PREFIXES = {
    "AccountSid": "AC",
    "CallSid": "CA",
    "ConferenceSid": "CF",
    "ServiceSid": "IS",
    "MessagingServiceSid": "MG",
    "ChatServiceSid": "IS",
    "ConversationSid": "CH",
    "SubscriptionSid": "DF",
    "SinkSid": "DG",
    "WorkspaceSid": "WS",
    "WorkerSid": "WK",
    "TaskSid": "WT",
    "FlowSid": "FW",
    "SessionSid": "KC",
    "AssistantSid": "UA",
    "FleetSid": "HF",
    "SimSid": "HS",
}
#: Parameters no request can give a sensible value for (kept out of the optional ones a call may add).
_OPAQUE = ("Token", "Password", "Secret", "Signature", "Certificate", "PrivateKey", "Jwt", "Twiml", "Definition")


def _between(rng: Mulberry32, low: int, high: int) -> int:
    """An integer from `low` to `high`, both included."""
    return low + rng.randint(high - low + 1)


def sid(prefix: str, rng: Mulberry32) -> str:
    return prefix + "".join(rng.choice(_HEX) for _ in range(32))


def phone(rng: Mulberry32) -> str:
    return f"+1{rng.choice(_AREA_CODES)}55501{_between(rng, 0, 99):02d}"


def drawable(name: str, schema: JsonObject) -> bool:
    """Whether a request can say a value for this parameter (optional ones are drawn among these)."""
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not _SID.match(pattern):
        return False
    if schema.get("type") == "object" or any(word in name for word in _OPAQUE):
        return False
    items = schema.get("items")
    return not (isinstance(items, dict) and items.get("type") == "object")


def value_for(name: str, schema: JsonObject, rng: Mulberry32) -> JsonValue:
    """A value of `schema` for the parameter `name` (see the module docstring)."""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return rng.choice([str(value) for value in enum])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return [value_for(name, items if isinstance(items, dict) else {"type": "string"}, rng)]
    if kind == "boolean":
        return rng.choice((True, False))
    if kind == "integer":
        return _between(rng, 1, 60)
    if kind == "number":
        return _between(rng, 1, 40) + 0.5
    if kind == "object":
        return {"source": "benchmark", "batch": str(_between(rng, 1, 9))}
    pattern = schema.get("pattern")
    match = _SID.match(pattern) if isinstance(pattern, str) else None
    if match:
        return sid(match.group(1), rng)
    if name.endswith(("Sid", "Sids")):
        # Twilio's format without a pattern to take the prefix from: a known one, else the name's first letters.
        return sid(_SID_PREFIXES.get(name.removesuffix("s"), name[:2].upper()), rng)
    return _string(name, schema.get("format"), rng)


def _string(name: str, fmt: object, rng: Mulberry32) -> str:
    lowered = name.lower()
    if fmt in ("phone-number", "endpoint") or lowered in ("to", "from") or "phonenumber" in lowered:
        return phone(rng)
    if fmt == "date-time":
        return f"2025-{_between(rng, 1, 12):02d}-{_between(rng, 1, 28):02d}T{_between(rng, 8, 18):02d}:00:00Z"
    if fmt == "date" or lowered.endswith("date"):
        return f"2025-{_between(rng, 1, 12):02d}-{_between(rng, 1, 28):02d}"
    if fmt == "uri" or "url" in lowered or "callback" in lowered:
        return f"https://example.com/twilio/{lowered.replace('.', '-')}/{_between(rng, 1, 99)}"
    if fmt == "http-method" or lowered.endswith("method"):
        return rng.choice(("GET", "POST"))
    if fmt == "iso-country-code" or "country" in lowered:
        return rng.choice(_COUNTRIES)
    if "email" in lowered:
        return f"{rng.choice(('ops', 'billing', 'alerts'))}@example.com"
    if "identity" in lowered or "user" in lowered:
        return rng.choice(_IDENTITIES)
    if "language" in lowered or "locale" in lowered:
        return rng.choice(("en-US", "es-ES", "de-DE"))
    if lowered in ("body", "message", "text", "messageflow") or "description" in lowered:
        return rng.choice(_TEXTS)
    if lowered == "if-match":
        return f'"{_between(rng, 100, 999)}"'
    if "name" in lowered or lowered in ("label", "title", "alias"):
        return f"{rng.choice(_WORDS)} {_between(rng, 1, 9)}"
    return f"{'-'.join(human(name).lower().split())}-{_between(rng, 1, 99)}"


def human(name: str) -> str:
    """How a request names a parameter: `SinkSid` -> `sink SID`, `If-Match` -> `If-Match header`."""
    if "-" in name:
        return f"{name} header"
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|\d+|[A-Z]+", name.replace(".", " "))
    spoken = [word if word.isupper() and len(word) > 1 else word.lower() for word in words]
    return " ".join("SID" if word == "sid" else word for word in spoken)


def phrase(name: str, value: JsonValue, spoken_name: Optional[str] = None) -> str:
    """The request's words for one argument."""
    said = spoken_name or human(name)
    if isinstance(value, bool):
        return f"{said} {'on' if value else 'off'}"
    if isinstance(value, list):
        return f"{said} {', '.join(str(item) for item in value)}"
    if isinstance(value, dict):
        return f"{said} {', '.join(f'{k}={v}' for k, v in value.items())}"
    if isinstance(value, str) and " " in value:
        return f'{said} "{value}"'
    return f"{said} {value}"
