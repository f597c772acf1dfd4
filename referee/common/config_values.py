"""What each setting's value may be (checked when the settings are loaded and by ``referee config check``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .config import MAIL_AUTHS, REPLY_TOKEN_PLACES, TLS_MODES, TRANSPORTS, Settings

# -- what each value may be ---------------------------------------------------------------------------------
LOG_LEVELS = ("debug", "info", "warning", "error")
#: the game's policies for a missing program (as :data:`referee.store.models.MISSING_ORDERS_POLICIES`)
MISSING_ORDERS = ("random", "power_down", "repeat_locked", "autopilot")
#: characters that cannot stand between an address's local part and a token
NOT_DELIMITERS = frozenset("@<>()[],;:\\\" '.")
_ADDRESS = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+$")


def _one_of(*allowed: str) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: str(v).strip().lower() in allowed), "one of " + ", ".join(allowed)


def _at_least(low: float) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v >= low), f"a number of at least {low:g}"


def _duration(v: Any) -> bool:
    from .clock import TimeError, parse_duration

    try:
        parse_duration(str(v))
    except TimeError:
        return False
    return True


def _delimiter(v: Any) -> bool:
    return v == "" or (len(v) == 1 and v not in NOT_DELIMITERS and not v.isalnum())


def _address(v: Any) -> bool:
    return v == "" or bool(_ADDRESS.match(v))


_PORT = ((lambda v: 0 < v < 65536), "a port number, 1 to 65535")
_DURATION = (_duration, "a duration such as 5d, 36h, 90m or 2d12h")
_EMAIL = (_address, "a mail address name@domain, without a display name")

#: setting -> (allowed?, what is allowed): every value read is checked against it when the settings load
VALUE_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "referee_address": ((lambda v: bool(_ADDRESS.match(v))), _EMAIL[1]),
    "gm_address": _EMAIL,
    "mail_domain": ((lambda v: "@" not in v and " " not in v), "a domain such as example.org"),
    "transport": _one_of(*TRANSPORTS),
    "imap_port": _PORT, "smtp_port": _PORT,
    "imap_tls": _one_of(*TLS_MODES), "smtp_tls": _one_of(*TLS_MODES),
    "mail_auth": _one_of(*MAIL_AUTHS),
    "address_delimiter": (_delimiter, 'one character such as "+" or "-" (not a letter, digit, dot or @), '
                                      'or "" when the server has no sub-addressing'),
    "reply_token": _one_of(*REPLY_TOKEN_PLACES),
    "mail_timeout": _at_least(1), "max_mail_bytes": _at_least(10_000),
    "error_replies_per_hour": _at_least(0), "answers_per_hour": _at_least(1),
    "outbox_batch": _at_least(1), "outbox_pass_seconds": _at_least(1),
    "tick_interval": _at_least(1), "retention_days": _at_least(0),
    "log_level": _one_of(*LOG_LEVELS),
    "default_deadline": _DURATION, "default_reminder": _DURATION, "default_settle": _DURATION,
    "default_missing_orders": _one_of(*MISSING_ORDERS),
}


def value_problems(settings: Settings, origins: Mapping[str, str] | None = None) -> list[str]:
    """One line for each value of ``settings`` that :data:`VALUE_RULES` does not allow: the setting, where it
    came from (``origins``: name -> file or variable), the value and what is allowed."""
    out = []
    for name, (allowed, wanted) in VALUE_RULES.items():
        value = getattr(settings, name)
        if allowed(value):
            continue
        where = f" (from the {origins[name]})" if origins and name in origins else ""
        out.append(f"setting {name} = {value!r}{where} is not allowed: it must be {wanted}")
    return out
